// SPDX-License-Identifier: GPL-2.0
/* The kembed demo module: built in the guest against /proc/kheaders.tar.xz. */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

static int __init hello_init(void)
{
	pr_info("kembed-hello: hello from a module built inside the guest\n");
	return 0;
}

static void __exit hello_exit(void)
{
	pr_info("kembed-hello: goodbye\n");
}

module_init(hello_init);
module_exit(hello_exit);
MODULE_DESCRIPTION("kembed demo: an external module built natively in the guest");
MODULE_LICENSE("GPL");

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Build artifacts carried by the kernel image or a module, read-only as
 * /proc/<name> (see kernel/embedded_blob.c and artifacts.d/). Each is
 * framed by a struct embedded_blob_header (uapi/linux/embedded_blob.h),
 * which kernel/embedded_blob_data.S lays out in .rodata.
 */
#ifndef _LINUX_EMBEDDED_BLOB_H
#define _LINUX_EMBEDDED_BLOB_H

#include <linux/compiler_types.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/sysfs.h>
#include <linux/types.h>
#include <uapi/linux/embedded_blob.h>

/**
 * struct embedded_blob - one registered artifact
 * @header: its header in .rodata
 * @owner: the module carrying it, or NULL when built in
 * @list: entry in the list behind /proc/embedded_blobs
 * @sysfs_attr: /sys/kernel/<name> when EMBEDDED_BLOB_F_SYSFS is set; filled
 *	in by embedded_blob_register() at init, read-only after it
 */
struct embedded_blob {
	const struct embedded_blob_header *header;
	struct module *owner;
	struct list_head list;
	struct bin_attribute *sysfs_attr;
};

int embedded_blob_register(struct embedded_blob *blob);
void embedded_blob_unregister(struct embedded_blob *blob);

/*
 * The instance in module @_mod (its __KBUILD_MODNAME): the artifact's
 * header, _mod##_embedded_blob, the blob registered from it, with its
 * sysfs attribute, read-only after init, and the module's init and exit.
 */
#define __EMBEDDED_BLOB(_mod)						\
	extern const struct embedded_blob_header			\
		_mod##_embedded_blob __weak;				\
	static struct bin_attribute _mod##_sysfs_attr __ro_after_init;	\
	static struct embedded_blob _mod##_blob = {			\
		.header = &_mod##_embedded_blob,			\
		.owner = THIS_MODULE,					\
		.sysfs_attr = &_mod##_sysfs_attr,			\
	};								\
	static int __init _mod##_init(void)				\
	{								\
		return embedded_blob_register(&_mod##_blob);		\
	}								\
	module_init(_mod##_init);					\
	static void __exit _mod##_exit(void)				\
	{								\
		embedded_blob_unregister(&_mod##_blob);			\
	}								\
	module_exit(_mod##_exit)
#define ___EMBEDDED_BLOB(_mod)	__EMBEDDED_BLOB(_mod)

/**
 * EMBEDDED_BLOB() - register the artifact Kbuild made for this module
 *
 * scripts/Makefile.kembed assembles each artifact into its own object,
 * <module>.blob.o, defining the header as kmod_<module>_embedded_blob, and
 * links it into vmlinux or the module last, after modpost: an artifact may
 * be made from the build's own outputs (the kheaders archive carries
 * Module.symvers). Until then the reference is weak. This line registers
 * the artifact when the module is loaded (at boot when built in) and
 * unregisters it when the module is unloaded; with MODULE_LICENSE() and
 * any other module metadata, it is all the C an artifact needs.
 */
#define EMBEDDED_BLOB()	___EMBEDDED_BLOB(__KBUILD_MODNAME)

#endif /* _LINUX_EMBEDDED_BLOB_H */

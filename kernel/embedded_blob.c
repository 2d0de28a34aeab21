// SPDX-License-Identifier: GPL-2.0
/*
 * Serve the build artifacts embedded in the kernel.
 *
 * Every artifact declared in artifacts.d/ is embedded by Kbuild (see
 * scripts/Makefile.kembed) in .rodata behind a struct embedded_blob_header,
 * and registered here by the one-line instance that EMBEDDED_BLOB() expands
 * to. Its payload becomes a read-only /proc/<name> and, when asked for,
 * /sys/kernel/<name>; /proc/embedded_blobs lists what is registered.
 *
 * An artifact built as a module keeps its /proc file while the module is
 * not loaded: the core creates it at boot, and its first open loads the
 * module, waits for the artifact to be registered and holds the module
 * until the file is closed. Nothing of the payload is in memory before.
 */

#include <linux/build_bug.h>
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/embedded_blob.h>
#include <linux/init.h>
#include <linux/kmod.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/wait.h>

static LIST_HEAD(embedded_blobs);
static DEFINE_MUTEX(embedded_blobs_lock);
static DECLARE_WAIT_QUEUE_HEAD(embedded_blobs_wait);
/* One autoload at a time: concurrent first opens wait for the first */
static DEFINE_MUTEX(autoload_lock);

/*
 * The artifacts built as modules that have a /proc file: { "name", "module" }
 * initializers from scripts/Makefile.kembed.
 */
#ifndef EMBEDDED_BLOB_AUTOLOAD
#define EMBEDDED_BLOB_AUTOLOAD
#endif

/**
 * struct blob_autoload - /proc/<name> of an artifact built as a module
 * @name: the artifact's name
 * @module: the module that carries it
 * @blob: the artifact while its module has it registered, or NULL;
 *	written under embedded_blobs_lock
 * @pde: /proc/<name>
 */
struct blob_autoload {
	const char *name;
	const char *module;
	struct embedded_blob *blob;
	struct proc_dir_entry *pde;
};

static struct blob_autoload autoloads[] = { EMBEDDED_BLOB_AUTOLOAD };

/* How long an open waits for a module that another task is loading */
#define AUTOLOAD_TIMEOUT	(10 * HZ)

static const u8 *blob_data(const struct embedded_blob_header *hdr)
{
	return (const u8 *)hdr + le32_to_cpu(hdr->header_size) +
	       le32_to_cpu(hdr->start_marker_len);
}

static size_t blob_size(const struct embedded_blob_header *hdr)
{
	return le64_to_cpu(hdr->size);
}

static ssize_t blob_proc_read(struct file *file, char __user *buf,
			      size_t len, loff_t *pos)
{
	const struct embedded_blob *blob = pde_data(file_inode(file));

	return simple_read_from_buffer(buf, len, pos, blob_data(blob->header),
				       blob_size(blob->header));
}

/* 0444 does not stop root: S_IMMUTABLE does, for writes and setattr. */
static const struct proc_ops blob_proc_ops = {
	.proc_flags	= PROC_ENTRY_IMMUTABLE,
	.proc_read	= blob_proc_read,
	.proc_lseek	= default_llseek,
};

static struct blob_autoload *autoload_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(autoloads); i++)
		if (!strcmp(autoloads[i].name, name))
			return &autoloads[i];
	return NULL;
}

/*
 * The registered artifact, with a reference on its module, or NULL. The
 * inode may be older than the module: give it the payload's size.
 */
static struct embedded_blob *autoload_get(struct blob_autoload *al,
					  struct inode *inode)
{
	struct embedded_blob *blob;

	mutex_lock(&embedded_blobs_lock);
	blob = al->blob;
	if (blob && !try_module_get(blob->owner))
		blob = NULL;
	if (blob)
		i_size_write(inode, blob_size(blob->header));
	mutex_unlock(&embedded_blobs_lock);
	return blob;
}

static int autoload_open(struct inode *inode, struct file *file)
{
	struct blob_autoload *al = pde_data(inode);
	struct embedded_blob *blob;
	int ret;

	blob = autoload_get(al, inode);
	if (blob)
		goto out;

	ret = mutex_lock_killable(&autoload_lock);
	if (ret)
		return ret;
	blob = autoload_get(al, inode);
	if (!blob) {
		ret = request_module("%s", al->module);
		/*
		 * modprobe returns at once when another task is loading the
		 * module: wait for its init to register the artifact.
		 */
		if (!ret)
			wait_event_killable_timeout(embedded_blobs_wait,
						    READ_ONCE(al->blob),
						    AUTOLOAD_TIMEOUT);
		blob = autoload_get(al, inode);
	}
	mutex_unlock(&autoload_lock);
	if (!blob) {
		pr_warn_ratelimited("embedded_blob: /proc/%s: loading module %s failed (%d)\n",
				    al->name, al->module, ret);
		return -ENXIO;
	}
out:
	file->private_data = blob;
	return 0;
}

static ssize_t autoload_read(struct file *file, char __user *buf,
			     size_t len, loff_t *pos)
{
	const struct embedded_blob *blob = file->private_data;

	return simple_read_from_buffer(buf, len, pos, blob_data(blob->header),
				       blob_size(blob->header));
}

static int autoload_release(struct inode *inode, struct file *file)
{
	const struct embedded_blob *blob = file->private_data;

	module_put(blob->owner);
	return 0;
}

static const struct proc_ops autoload_proc_ops = {
	.proc_flags	= PROC_ENTRY_IMMUTABLE,
	.proc_open	= autoload_open,
	.proc_read	= autoload_read,
	.proc_lseek	= default_llseek,
	.proc_release	= autoload_release,
};

/*
 * Same signature as 6.10's sysfs_bin_attr_simple_read(), but bounded here:
 * sysfs does not bound reads of an attribute of size 0 (an empty artifact).
 */
static ssize_t blob_sysfs_read(struct file *file, struct kobject *kobj,
			       struct bin_attribute *attr, char *buf,
			       loff_t off, size_t count)
{
	return memory_read_from_buffer(buf, count, &off, attr->private,
				       attr->size);
}

/*
 * A name is a file name under /proc and a word of /proc/embedded_blobs:
 * letters, digits, ".", "_", "+" and "-", not "." or "..".
 */
static bool blob_name_valid(const char *name, size_t size)
{
	size_t len = strnlen(name, size), i;

	if (!len || len == size || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("._+-", name[i]))
			return false;
	return true;
}

static_assert(sizeof(struct embedded_blob_header) ==
	      EMBEDDED_BLOB_HEADER_SIZE);

/*
 * The layout comes from the build (embedded_blob_data.S), but a header that
 * puts the payload past anything the build writes is refused rather than
 * served: the sizes before the payload are bounded by a page.
 */
static bool blob_header_valid(const struct embedded_blob_header *hdr)
{
	return !memcmp(hdr->magic, EMBEDDED_BLOB_MAGIC, sizeof(hdr->magic)) &&
	       le32_to_cpu(hdr->header_size) >= sizeof(*hdr) &&
	       le32_to_cpu(hdr->header_size) <= PAGE_SIZE &&
	       le32_to_cpu(hdr->start_marker_len) <= PAGE_SIZE &&
	       blob_name_valid(hdr->name, sizeof(hdr->name)) &&
	       strnlen(hdr->compression, sizeof(hdr->compression)) <
			sizeof(hdr->compression);
}

/**
 * embedded_blob_register() - expose an embedded artifact
 * @blob: the artifact; its header, owner and sysfs_attr must be set
 *
 * Creates /proc/<name> (and /sys/kernel/<name> when the header asks for
 * it) serving the payload, and lists it in /proc/embedded_blobs. For an
 * artifact built as a module, /proc/<name> is the core's, and serves the
 * payload from now on. Call it from an init function: it fills in
 * @blob->sysfs_attr, which EMBEDDED_BLOB() makes read-only after init.
 *
 * Return: 0, or a negative errno: -ENOENT when the artifact was not
 * linked in, -EINVAL for a malformed header or a name that is not a
 * plain file name, -EEXIST when an artifact of that name is already
 * registered or its name is that of an artifact another module carries,
 * -ENOMEM.
 */
int embedded_blob_register(struct embedded_blob *blob)
{
	const struct embedded_blob_header *hdr = blob->header;
	struct blob_autoload *al;
	struct embedded_blob *other;
	int ret = 0;
	u32 flags;

	/* The weak reference of EMBEDDED_BLOB() when no blob was linked */
	if (!hdr)
		return -ENOENT;
	if (!blob_header_valid(hdr))
		return -EINVAL;
	flags = le32_to_cpu(hdr->flags);

	mutex_lock(&embedded_blobs_lock);
	list_for_each_entry(other, &embedded_blobs, list) {
		if (!strcmp(other->header->name, hdr->name)) {
			ret = -EEXIST;
			goto out_unlock;
		}
	}

	/* The core's /proc/<name> loads one module: only it may register */
	al = autoload_find(hdr->name);
	if (al && (!blob->owner || strcmp(module_name(blob->owner), al->module))) {
		ret = -EEXIST;
		goto out_unlock;
	}

	if ((flags & EMBEDDED_BLOB_F_PROC) && IS_ENABLED(CONFIG_PROC_FS) &&
	    !al) {
		struct proc_dir_entry *pde;

		pde = proc_create_data(hdr->name, 0444, NULL, &blob_proc_ops,
				       blob);
		if (!pde) {
			ret = -ENOMEM;
			goto out_unlock;
		}
		proc_set_size(pde, blob_size(hdr));
	}

	if (flags & EMBEDDED_BLOB_F_SYSFS) {
		struct bin_attribute *attr = blob->sysfs_attr;

		sysfs_bin_attr_init(attr);
		attr->attr.name = hdr->name;
		attr->attr.mode = 0444;
		attr->size = blob_size(hdr);
		attr->private = (void *)blob_data(hdr);
		attr->read = blob_sysfs_read;
		ret = sysfs_create_bin_file(kernel_kobj, attr);
		if (ret)
			goto out_remove_proc;
	}

	list_add_tail(&blob->list, &embedded_blobs);
	if (al) {
		WRITE_ONCE(al->blob, blob);
		if (al->pde)
			proc_set_size(al->pde, blob_size(hdr));
		wake_up_all(&embedded_blobs_wait);
	}
	goto out_unlock;

out_remove_proc:
	if ((flags & EMBEDDED_BLOB_F_PROC) && !al)
		remove_proc_entry(hdr->name, NULL);
out_unlock:
	mutex_unlock(&embedded_blobs_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(embedded_blob_register);

/**
 * embedded_blob_unregister() - remove what embedded_blob_register() created
 * @blob: a registered artifact
 *
 * Waits for readers in progress; later reads of a file still open fail.
 * The core's /proc/<name> of an artifact built as a module stays, and
 * loads the module again when opened.
 */
void embedded_blob_unregister(struct embedded_blob *blob)
{
	const struct embedded_blob_header *hdr = blob->header;
	struct blob_autoload *al = autoload_find(hdr->name);
	u32 flags = le32_to_cpu(hdr->flags);

	mutex_lock(&embedded_blobs_lock);
	list_del(&blob->list);
	if (al && al->blob == blob)
		WRITE_ONCE(al->blob, NULL);
	mutex_unlock(&embedded_blobs_lock);

	if (flags & EMBEDDED_BLOB_F_SYSFS)
		sysfs_remove_bin_file(kernel_kobj, blob->sysfs_attr);
	if ((flags & EMBEDDED_BLOB_F_PROC) && !al)
		remove_proc_entry(hdr->name, NULL);
}
EXPORT_SYMBOL_GPL(embedded_blob_unregister);

/*
 * One line per artifact: name size compression sha256 module|builtin;
 * then "name - - - module" for each artifact whose module is not loaded.
 */
static int __maybe_unused embedded_blobs_show(struct seq_file *m, void *v)
{
	const struct embedded_blob *blob;
	size_t i;

	mutex_lock(&embedded_blobs_lock);
	list_for_each_entry(blob, &embedded_blobs, list) {
		const struct embedded_blob_header *hdr = blob->header;

		seq_printf(m, "%s %zu %s %*phN %s\n", hdr->name,
			   blob_size(hdr), hdr->compression,
			   (int)sizeof(hdr->sha256), hdr->sha256,
			   blob->owner ? module_name(blob->owner) : "builtin");
	}
	for (i = 0; i < ARRAY_SIZE(autoloads); i++)
		if (!autoloads[i].blob)
			seq_printf(m, "%s - - - %s\n", autoloads[i].name,
				   autoloads[i].module);
	mutex_unlock(&embedded_blobs_lock);
	return 0;
}

static int __init embedded_blob_list_init(void)
{
	size_t i;

	if (!IS_ENABLED(CONFIG_PROC_FS))
		return 0;
	if (!proc_create_single("embedded_blobs", 0444, NULL,
				embedded_blobs_show))
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(autoloads); i++) {
		autoloads[i].pde = proc_create_data(autoloads[i].name, 0444,
						    NULL, &autoload_proc_ops,
						    &autoloads[i]);
		if (!autoloads[i].pde)
			return -ENOMEM;
	}
	return 0;
}
fs_initcall(embedded_blob_list_init);

// SPDX-License-Identifier: GPL-2.0
/*
 * Serve the build artifacts embedded in the kernel.
 *
 * Every artifact declared in artifacts.d/ is embedded by Kbuild (see
 * scripts/Makefile.kembed) in .rodata behind a struct embedded_blob_header,
 * and registered here by the one-line instance that EMBEDDED_BLOB() expands
 * to. Its payload becomes a read-only /proc/<name> and, when asked for,
 * /sys/kernel/<name>; /proc/embedded_blobs lists what is registered.
 */

#include <linux/fs.h>
#include <linux/embedded_blob.h>
#include <linux/init.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>

static LIST_HEAD(embedded_blobs);
static DEFINE_MUTEX(embedded_blobs_lock);

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

static bool blob_header_valid(const struct embedded_blob_header *hdr)
{
	return !memcmp(hdr->magic, EMBEDDED_BLOB_MAGIC, sizeof(hdr->magic)) &&
	       le32_to_cpu(hdr->header_size) >= sizeof(*hdr) &&
	       strnlen(hdr->name, sizeof(hdr->name)) < sizeof(hdr->name) &&
	       strnlen(hdr->compression, sizeof(hdr->compression)) <
			sizeof(hdr->compression);
}

/**
 * embedded_blob_register() - expose an embedded artifact
 * @blob: the artifact; its header and owner must be set
 *
 * Creates /proc/<name> (and /sys/kernel/<name> when the header asks for
 * it) serving the payload, and lists it in /proc/embedded_blobs.
 *
 * Return: 0, or a negative errno: -ENOENT when the artifact was not
 * linked in, -EINVAL for a malformed header, -EEXIST
 * when an artifact of that name is already registered, -ENOMEM.
 */
int embedded_blob_register(struct embedded_blob *blob)
{
	const struct embedded_blob_header *hdr = blob->header;
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

	if ((flags & EMBEDDED_BLOB_F_PROC) && IS_ENABLED(CONFIG_PROC_FS)) {
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
		struct bin_attribute *attr = &blob->sysfs_attr;

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
	goto out_unlock;

out_remove_proc:
	if (flags & EMBEDDED_BLOB_F_PROC)
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
 */
void embedded_blob_unregister(struct embedded_blob *blob)
{
	const struct embedded_blob_header *hdr = blob->header;
	u32 flags = le32_to_cpu(hdr->flags);

	mutex_lock(&embedded_blobs_lock);
	list_del(&blob->list);
	mutex_unlock(&embedded_blobs_lock);

	if (flags & EMBEDDED_BLOB_F_SYSFS)
		sysfs_remove_bin_file(kernel_kobj, &blob->sysfs_attr);
	if (flags & EMBEDDED_BLOB_F_PROC)
		remove_proc_entry(hdr->name, NULL);
}
EXPORT_SYMBOL_GPL(embedded_blob_unregister);

/* One line per artifact: name size compression sha256 module|builtin */
static int __maybe_unused embedded_blobs_show(struct seq_file *m, void *v)
{
	const struct embedded_blob *blob;

	mutex_lock(&embedded_blobs_lock);
	list_for_each_entry(blob, &embedded_blobs, list) {
		const struct embedded_blob_header *hdr = blob->header;

		seq_printf(m, "%s %zu %s %*phN %s\n", hdr->name,
			   blob_size(hdr), hdr->compression,
			   (int)sizeof(hdr->sha256), hdr->sha256,
			   blob->owner ? module_name(blob->owner) : "builtin");
	}
	mutex_unlock(&embedded_blobs_lock);
	return 0;
}

static int __init embedded_blob_list_init(void)
{
	if (!proc_create_single("embedded_blobs", 0444, NULL,
				embedded_blobs_show))
		return -ENOMEM;
	return 0;
}
fs_initcall(embedded_blob_list_init);

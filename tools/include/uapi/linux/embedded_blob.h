/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The frame of a build artifact embedded in the kernel image or a module
 * (see include/linux/embedded_blob.h), as tools find it without running
 * the kernel: in vmlinux, in a raw or compressed boot image, in a module.
 * kernel/embedded_blob_data.S lays it out in .rodata:
 *
 *	struct embedded_blob_header	(little-endian, header_size bytes)
 *	start marker			(start_marker_len bytes, may be empty)
 *	payload				(size bytes, the file /proc serves)
 *	end marker			(end_marker_len bytes, may be empty)
 *
 * The markers keep older framings (IKCFG_ST/IKCFG_ED, which
 * scripts/extract-ikconfig looks for) intact around the payload.
 */
#ifndef _UAPI_LINUX_EMBEDDED_BLOB_H
#define _UAPI_LINUX_EMBEDDED_BLOB_H

/* The last byte is the format version. */
#define EMBEDDED_BLOB_MAGIC		"KEMBED\0\1"
#define EMBEDDED_BLOB_MAGIC_LEN		8
#define EMBEDDED_BLOB_HEADER_SIZE	144
#define EMBEDDED_BLOB_COMPRESSION_LEN	16
#define EMBEDDED_BLOB_NAME_LEN		64

/* Serve the payload as /proc/<name>. */
#define EMBEDDED_BLOB_F_PROC		0x1
/* Serve the payload as /sys/kernel/<name> too. */
#define EMBEDDED_BLOB_F_SYSFS		0x2

#ifndef __ASSEMBLY__
#include <linux/types.h>

/**
 * struct embedded_blob_header - self-description stored before the payload
 * @magic: EMBEDDED_BLOB_MAGIC
 * @header_size: size of this header, the start marker follows it
 * @flags: EMBEDDED_BLOB_F_* bits
 * @size: payload size in bytes
 * @start_marker_len: bytes between the header and the payload
 * @end_marker_len: bytes after the payload
 * @compression: "none", "gzip", "xz" or "zstd", NUL-padded
 * @sha256: SHA-256 of the payload
 * @name: file name under /proc, NUL-terminated
 */
struct embedded_blob_header {
	char magic[EMBEDDED_BLOB_MAGIC_LEN];
	__le32 header_size;
	__le32 flags;
	__le64 size;
	__le32 start_marker_len;
	__le32 end_marker_len;
	char compression[EMBEDDED_BLOB_COMPRESSION_LEN];
	__u8 sha256[32];
	char name[EMBEDDED_BLOB_NAME_LEN];
};
#endif /* __ASSEMBLY__ */

#endif /* _UAPI_LINUX_EMBEDDED_BLOB_H */

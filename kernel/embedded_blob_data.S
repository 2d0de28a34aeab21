/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One embedded artifact in its frame (uapi/linux/embedded_blob.h), in
 * .rodata. scripts/Makefile.kembed assembles this file once per artifact,
 * into <module>.blob.o, with:
 *
 *   BLOB_HEADER	the header's symbol, which EMBEDDED_BLOB() refers to
 *   BLOB_PAYLOAD	the payload file, a string
 *   BLOB_NAME		its /proc name, a string
 *   BLOB_COMPRESSION	"none", "gzip", "xz" or "zstd"
 *   BLOB_FLAGS		EMBEDDED_BLOB_F_* bits
 *   BLOB_SHA256	the payload's SHA-256, 32 bytes separated by commas
 *   BLOB_START_MARKER, BLOB_END_MARKER	strings around the payload, optional
 *   BLOB_SYMBOL	a global symbol at the payload, and BLOB_SYMBOL_end
 *			after it, optional
 *
 * The sizes come from the labels, the header is little-endian whatever the
 * target's byte order.
 */
#include <uapi/linux/embedded_blob.h>

#define __BLOB_SYMBOL_END(s)	s##_end
#define BLOB_SYMBOL_END(s)	__BLOB_SYMBOL_END(s)

	.macro	le32 v
	.byte	(\v) & 0xff, ((\v) >> 8) & 0xff, ((\v) >> 16) & 0xff, ((\v) >> 24) & 0xff
	.endm

	/* Pad the string from \start on to \len bytes. */
	.macro	pad start, len
	.if	. - \start >= \len
	.error	"string too long for the embedded_blob_header"
	.endif
	.fill	\len - (. - \start)
	.endm

	.section .rodata, "a"
	.balign	8
	.global	BLOB_HEADER
	.type	BLOB_HEADER, %object
BLOB_HEADER:
	.ascii	EMBEDDED_BLOB_MAGIC
	le32	EMBEDDED_BLOB_HEADER_SIZE
	le32	BLOB_FLAGS
	le32	(.Lpayload_end - .Lpayload)
	le32	((.Lpayload_end - .Lpayload) >> 32)
	le32	(.Lpayload - .Lstart_marker)
	le32	(.Lend_marker_end - .Lpayload_end)
.Lcompression:
	.ascii	BLOB_COMPRESSION
	pad	.Lcompression, EMBEDDED_BLOB_COMPRESSION_LEN
.Lsha256:
	.byte	BLOB_SHA256
	.if	. - .Lsha256 != 32
	.error	"BLOB_SHA256 is not 32 bytes"
	.endif
.Lname:
	.ascii	BLOB_NAME
	pad	.Lname, EMBEDDED_BLOB_NAME_LEN

.Lstart_marker:
#ifdef BLOB_START_MARKER
	.ascii	BLOB_START_MARKER
#endif
.Lpayload:
#ifdef BLOB_SYMBOL
	.global	BLOB_SYMBOL
BLOB_SYMBOL:
#endif
	.incbin	BLOB_PAYLOAD
#ifdef BLOB_SYMBOL
	.global	BLOB_SYMBOL_END(BLOB_SYMBOL)
BLOB_SYMBOL_END(BLOB_SYMBOL):
#endif
.Lpayload_end:
#ifdef BLOB_END_MARKER
	.ascii	BLOB_END_MARKER
#endif
.Lend_marker_end:
	.size	BLOB_HEADER, . - BLOB_HEADER

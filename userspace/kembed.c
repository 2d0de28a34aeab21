// SPDX-License-Identifier: GPL-2.0
/*
 * kembed - list, extract and verify the build artifacts a kernel carries.
 *
 * Live, from the running kernel: /proc/embedded_blobs names what is
 * registered, /proc/<name> serves it, and the artifacts' modules under
 * /lib/modules/$(uname -r)/kernel/kernel tell what could be loaded.
 * Offline, from a vmlinux, a raw or compressed boot image or a module:
 * every artifact sits behind a struct embedded_blob_header (see
 * include/linux/embedded_blob.h), which is found by scanning the file and
 * the compressed streams in it. Every field is checked against the bounds
 * of the data it came with before it is used: the input may be hostile.
 *
 * Exit status: 0 success, 1 error (unreadable or damaged input, failed
 * verification), 2 usage error, 3 no such artifact (or none at all).
 */

#define _GNU_SOURCE
#include <bzlib.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <lzma.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "headers.h"

#define KEMBED_VERSION		"1.0"

enum {
	EXIT_OK		= 0,
	EXIT_ERROR	= 1,
	EXIT_USAGE	= 2,
	EXIT_NOTFOUND	= 3,
};

/* struct embedded_blob_header, format version 1, little-endian */
#define HDR_MAGIC		"KEMBED\0\1"
#define HDR_MAGIC_LEN		8
#define HDR_OFF_HEADER_SIZE	8
#define HDR_OFF_FLAGS		12
#define HDR_OFF_SIZE		16
#define HDR_OFF_START_LEN	24
#define HDR_OFF_END_LEN		28
#define HDR_OFF_COMPRESSION	32
#define HDR_OFF_SHA256		48
#define HDR_OFF_NAME		80
#define HDR_SIZE		144
#define HDR_COMPRESSION_LEN	16
#define HDR_NAME_LEN		64
/* Later versions may grow the header; nothing sane is this large. */
#define HDR_MAX_SIZE		4096
#define MARKER_MAX		4096

#define SHA256_LEN		32
#define MAX_ARTIFACTS		4096	/* per input */
#define MAX_STREAMS		1024	/* compressed-stream candidates tried */
#define MAX_MODULES		512	/* module files looked at */
#define MAX_LIST_SIZE		(1024 * 1024)	/* /proc/embedded_blobs */
#define MAX_LINE		512

static const char *prog = "kembed";

#define DEFAULT_LIMIT		((size_t)256 << 20)

static struct {
	size_t limit;		/* bytes decompressed or read, per input */
	size_t memlimit;	/* memory a decoder may use */
	bool verbose;
	bool quiet;		/* no messages (the fuzz target) */
} opt = {
	.limit = DEFAULT_LIMIT,
	.memlimit = DEFAULT_LIMIT,
};

/* Messages */

static void __printf(2, 3)
error_at(const char *file, const char *fmt, ...)
{
	va_list ap;

	if (opt.quiet)
		return;
	fprintf(stderr, "%s: ", prog);
	if (file)
		fprintf(stderr, "%s: ", file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int __printf(1, 2)
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	return EXIT_USAGE;
}

/* Little helpers on untrusted bytes */

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static uint16_t get16(const uint8_t *p, bool be)
{
	return be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t get32(const uint8_t *p, bool be)
{
	if (!be)
		return get_le32(p);
	return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[0] << 24;
}

static uint64_t get64(const uint8_t *p, bool be)
{
	if (!be)
		return get_le64(p);
	return (uint64_t)get32(p, be) << 32 | get32(p + 4, be);
}

/*
 * The rule of artifacts.d/README: letters, digits, ".", "_", "+", "-", at
 * most 63 characters, no "..". "." alone is refused too: the name becomes
 * a path under /proc.
 */
/* Only letters, digits and the characters in extra? */
static bool chars_valid(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && !strchr(extra, *s))
			return false;
	return true;
}

static bool name_valid(const char *s, size_t max)
{
	size_t len = strnlen(s, max);

	if (len == 0 || len == max || strstr(s, "..") || !strcmp(s, "."))
		return false;
	return chars_valid(s, "._+-");
}

static bool word_valid(const char *s, size_t max)
{
	size_t len = strnlen(s, max);

	return len > 0 && len < max &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789") == len;
}

static void sha256(const uint8_t *p, size_t len, uint8_t md[SHA256_LEN])
{
	unsigned int mdlen = SHA256_LEN;

	if (!EVP_Digest(p, len, md, &mdlen, EVP_sha256(), NULL) ||
	    mdlen != SHA256_LEN) {
		/* Only when libcrypto itself is broken. */
		error_at(NULL, "SHA-256 failed in libcrypto");
		exit(EXIT_ERROR);
	}
}

static void hex(const uint8_t *p, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * len] = '\0';
}

static bool unhex(const char *s, uint8_t *out, size_t len)
{
	size_t i;

	for (i = 0; i < 2 * len; i++) {
		int c = s[i], v;

		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else
			return false;
		if (i % 2)
			out[i / 2] |= v;
		else
			out[i / 2] = v << 4;
	}
	return s[2 * len] == '\0';
}

/* Decompression, always through the real libraries, always bounded. */

enum codec { CODEC_GZIP, CODEC_XZ, CODEC_LZMA, CODEC_ZSTD, CODEC_BZIP2 };

static const char *const codec_names[] = {
	[CODEC_GZIP] = "gzip",
	[CODEC_XZ] = "xz",
	[CODEC_LZMA] = "lzma",
	[CODEC_ZSTD] = "zstd",
	[CODEC_BZIP2] = "bzip2",
};

#define ERR_TRUNCATED	"unexpected end of data"
#define ERR_CORRUPT	"corrupt data"
#define ERR_LIMIT	"decompressed size exceeds the limit (see --limit)"
#define ERR_MEMLIMIT	"decoder needs more memory than the limit (see --limit)"
#define ERR_NOMEM	"out of memory"
#define ERR_TRAILING	"trailing data after the compressed stream"

struct out {
	uint8_t *buf;
	size_t len;
	size_t cap;
	size_t limit;
};

/*
 * Room for more output, growing the buffer up to limit + 1 bytes: one
 * byte past the limit tells a stream that is too large from one that
 * ends exactly there. NULL when there is none.
 */
static uint8_t *out_room(struct out *o, size_t *avail, const char **err)
{
	if (o->len == o->cap) {
		size_t max = o->limit + 1, cap;
		uint8_t *p;

		if (o->cap >= max) {
			*err = ERR_LIMIT;
			return NULL;
		}
		/* max <= SIZE_MAX / 4 + 1: no overflow */
		cap = o->cap ? o->cap * 2 : 65536;
		if (cap > max)
			cap = max;
		p = realloc(o->buf, cap);
		if (!p) {
			*err = ERR_NOMEM;
			return NULL;
		}
		o->buf = p;
		o->cap = cap;
	}
	*avail = o->cap - o->len;
	return o->buf + o->len;
}

static const char *out_check(const struct out *o)
{
	return o->len > o->limit ? ERR_LIMIT : NULL;
}

static unsigned int clamp_uint(size_t n)
{
	return n > UINT_MAX ? UINT_MAX : (unsigned int)n;
}

/*
 * Each decoder below takes in[0..len) and appends to o. whole: the input
 * is one or more complete streams and nothing else (an artifact's
 * payload); otherwise decoding stops at the end of the first stream and
 * *used tells where that is (a stream found inside an image). Returns
 * NULL or why it stopped early; the output so far is kept either way.
 */
static const char *gunzip(const uint8_t *in, size_t len, bool whole,
			  struct out *o, size_t *used)
{
	const char *err = NULL;
	size_t pos = 0;
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return ERR_NOMEM;
	for (;;) {
		size_t avail, in_chunk;
		uint8_t *next = out_room(o, &avail, &err);

		if (!next)
			break;
		in_chunk = clamp_uint(len - pos);
		z.next_in = (Bytef *)in + pos;
		z.avail_in = (uInt)in_chunk;
		z.next_out = next;
		z.avail_out = clamp_uint(avail);
		ret = inflate(&z, Z_NO_FLUSH);
		pos += in_chunk - z.avail_in;
		o->len += clamp_uint(avail) - z.avail_out;
		if (ret == Z_STREAM_END) {
			/* gzip -d takes concatenated members too */
			if (!whole || pos == len)
				break;
			if (len - pos < 3 || in[pos] != 0x1f ||
			    in[pos + 1] != 0x8b) {
				err = ERR_TRAILING;
				break;
			}
			if (inflateReset(&z) != Z_OK) {
				err = ERR_CORRUPT;
				break;
			}
			continue;
		}
		if (ret == Z_MEM_ERROR) {
			err = ERR_NOMEM;
			break;
		}
		if (ret != Z_OK && ret != Z_BUF_ERROR) {
			err = ERR_CORRUPT;
			break;
		}
		if (z.avail_out && pos == len) {
			err = ERR_TRUNCATED;
			break;
		}
	}
	inflateEnd(&z);
	*used = pos;
	return err ? err : out_check(o);
}

static const char *unxz(const uint8_t *in, size_t len, bool whole,
			bool alone, struct out *o, size_t *used)
{
	lzma_stream ls = LZMA_STREAM_INIT;
	uint64_t memlimit = opt.memlimit;
	const char *err = NULL;
	lzma_ret ret;

	if (alone)
		ret = lzma_alone_decoder(&ls, memlimit);
	else
		ret = lzma_stream_decoder(&ls, memlimit,
					  whole ? LZMA_CONCATENATED : 0);
	if (ret != LZMA_OK)
		return ERR_NOMEM;
	ls.next_in = in;
	ls.avail_in = len;
	for (;;) {
		size_t avail;
		uint8_t *next = out_room(o, &avail, &err);

		if (!next)
			break;
		ls.next_out = next;
		ls.avail_out = avail;
		ret = lzma_code(&ls, ls.avail_in ? LZMA_RUN : LZMA_FINISH);
		o->len += avail - ls.avail_out;
		if (ret == LZMA_STREAM_END) {
			if (whole && ls.avail_in)
				err = ERR_TRAILING;
			break;
		}
		if (ret == LZMA_OK)
			continue;
		if (ret == LZMA_BUF_ERROR)
			err = ERR_TRUNCATED;
		else if (ret == LZMA_MEMLIMIT_ERROR)
			err = ERR_MEMLIMIT;
		else if (ret == LZMA_MEM_ERROR)
			err = ERR_NOMEM;
		else
			err = ERR_CORRUPT;
		break;
	}
	*used = len - ls.avail_in;
	lzma_end(&ls);
	return err ? err : out_check(o);
}

static const char *unzstd(const uint8_t *in, size_t len, bool whole,
			  struct out *o, size_t *used)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	ZSTD_inBuffer zin = { in, len, 0 };
	const char *err = NULL;
	int wlog = 10;
	size_t ret = 1;

	if (!dctx)
		return ERR_NOMEM;
	/* The window is the decoder's memory: keep it within the limit. */
	while (wlog < 31 && ((size_t)1 << (wlog + 1)) <= opt.memlimit)
		wlog++;
	ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, wlog);
	for (;;) {
		size_t avail;
		uint8_t *next = out_room(o, &avail, &err);
		ZSTD_outBuffer zout;

		if (!next)
			break;
		zout.dst = next;
		zout.size = avail;
		zout.pos = 0;
		ret = ZSTD_decompressStream(dctx, &zout, &zin);
		o->len += zout.pos;
		if (ZSTD_isError(ret)) {
			if (ZSTD_getErrorCode(ret) ==
			    ZSTD_error_frameParameter_windowTooLarge)
				err = ERR_MEMLIMIT;
			else if (ZSTD_getErrorCode(ret) ==
				 ZSTD_error_memory_allocation)
				err = ERR_NOMEM;
			else
				err = ERR_CORRUPT;
			break;
		}
		if (ret == 0) {
			/* a frame ended; payloads may hold several */
			if (!whole || zin.pos == zin.size)
				break;
			continue;
		}
		if (zin.pos == zin.size && zout.pos < zout.size) {
			err = ERR_TRUNCATED;
			break;
		}
	}
	*used = zin.pos;
	ZSTD_freeDCtx(dctx);
	return err ? err : out_check(o);
}

static const char *bunzip2(const uint8_t *in, size_t len, bool whole,
			   struct out *o, size_t *used)
{
	const char *err = NULL;
	size_t pos = 0;
	bz_stream bz;
	int ret;

	memset(&bz, 0, sizeof(bz));
	if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK)
		return ERR_NOMEM;
	for (;;) {
		size_t avail, in_chunk;
		uint8_t *next = out_room(o, &avail, &err);

		if (!next)
			break;
		in_chunk = clamp_uint(len - pos);
		bz.next_in = (char *)in + pos;
		bz.avail_in = (unsigned int)in_chunk;
		bz.next_out = (char *)next;
		bz.avail_out = clamp_uint(avail);
		ret = BZ2_bzDecompress(&bz);
		pos += in_chunk - bz.avail_in;
		o->len += clamp_uint(avail) - bz.avail_out;
		if (ret == BZ_STREAM_END) {
			if (!whole || pos == len)
				break;
			if (len - pos < 3 || memcmp(in + pos, "BZh", 3)) {
				err = ERR_TRAILING;
				break;
			}
			BZ2_bzDecompressEnd(&bz);
			memset(&bz, 0, sizeof(bz));
			if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK) {
				*used = pos;
				return ERR_NOMEM;
			}
			continue;
		}
		if (ret == BZ_MEM_ERROR) {
			err = ERR_NOMEM;
			break;
		}
		if (ret != BZ_OK) {
			err = ERR_CORRUPT;
			break;
		}
		if (bz.avail_out && pos == len) {
			err = ERR_TRUNCATED;
			break;
		}
	}
	BZ2_bzDecompressEnd(&bz);
	*used = pos;
	return err ? err : out_check(o);
}

static const char *decompress(enum codec codec, const uint8_t *in,
			      size_t len, bool whole, struct out *o,
			      size_t *used)
{
	*used = 0;
	switch (codec) {
	case CODEC_GZIP:
		return gunzip(in, len, whole, o, used);
	case CODEC_XZ:
		return unxz(in, len, whole, false, o, used);
	case CODEC_LZMA:
		return unxz(in, len, whole, true, o, used);
	case CODEC_ZSTD:
		return unzstd(in, len, whole, o, used);
	case CODEC_BZIP2:
		return bunzip2(in, len, whole, o, used);
	}
	return ERR_CORRUPT;
}

/* An LZMA dictionary size that the lzma tool would write: 2^n or 3*2^n. */
static bool lzma_dict_plausible(uint32_t d)
{
	if (d < 4096)
		return false;
	while (!(d & 1))
		d >>= 1;
	return d == 1 || d == 3;
}

/*
 * Does a compressed stream start at p? The magic numbers of the formats
 * the kernel builds its images with; lzma (no magic of its own) only in
 * the form the lzma tool writes, to keep false candidates rare.
 */
static bool stream_at(const uint8_t *p, size_t left, enum codec *codec)
{
	if (left < 14)
		return false;
	switch (p[0]) {
	case 0x1f:
		*codec = CODEC_GZIP;
		return p[1] == 0x8b && p[2] == 8 && !(p[3] & 0xe0);
	case 0xfd:
		*codec = CODEC_XZ;
		return !memcmp(p, "\xfd\x37\x7a\x58\x5a\x00", 6);
	case 0x28:
		*codec = CODEC_ZSTD;
		return !memcmp(p, "\x28\xb5\x2f\xfd", 4);
	case 'B':
		*codec = CODEC_BZIP2;
		return !memcmp(p, "BZh", 3) && p[3] >= '1' && p[3] <= '9' &&
		       (!memcmp(p + 4, "\x31\x41\x59\x26\x53\x59", 6) ||
			!memcmp(p + 4, "\x17\x72\x45\x38\x50\x90", 6));
	case 0x5d:
		*codec = CODEC_LZMA;
		return lzma_dict_plausible(get_le32(p + 1)) && p[13] == 0 &&
		       (get_le64(p + 5) == UINT64_MAX ||
			get_le64(p + 5) <= opt.limit);
	}
	return false;
}

/* ELF: name the section an offset of the input falls in. */

struct elf {
	const uint8_t *p;
	size_t len;
	bool is64;
	bool be;
	uint64_t shoff;
	uint64_t shnum;
	uint64_t shentsize;
	uint64_t stroff;	/* section name string table */
	uint64_t strsize;
};

static bool elf_shdr(const struct elf *e, uint64_t i, uint32_t *name,
		     uint32_t *type, uint64_t *off, uint64_t *size)
{
	const uint8_t *s;

	if (i >= e->shnum)
		return false;
	s = e->p + e->shoff + i * e->shentsize;
	*name = get32(s, e->be);
	*type = get32(s + 4, e->be);
	if (e->is64) {
		*off = get64(s + 24, e->be);
		*size = get64(s + 32, e->be);
	} else {
		*off = get32(s + 16, e->be);
		*size = get32(s + 20, e->be);
	}
	return true;
}

static bool elf_open(struct elf *e, const uint8_t *p, size_t len)
{
	uint64_t shstrndx, min_ent, link;
	uint32_t name, type;
	const uint8_t *h = p;

	memset(e, 0, sizeof(*e));
	if (len < 52 || memcmp(p, "\177ELF", 4) || p[4] < 1 || p[4] > 2 ||
	    p[5] < 1 || p[5] > 2)
		return false;
	e->p = p;
	e->len = len;
	e->is64 = p[4] == 2;
	e->be = p[5] == 2;
	if (e->is64) {
		if (len < 64)
			return false;
		e->shoff = get64(h + 40, e->be);
		e->shentsize = get16(h + 58, e->be);
		e->shnum = get16(h + 60, e->be);
		shstrndx = get16(h + 62, e->be);
		min_ent = 64;
	} else {
		e->shoff = get32(h + 32, e->be);
		e->shentsize = get16(h + 46, e->be);
		e->shnum = get16(h + 48, e->be);
		shstrndx = get16(h + 50, e->be);
		min_ent = 40;
	}
	if (!e->shoff || e->shentsize < min_ent || e->shoff > len ||
	    (len - e->shoff) / e->shentsize < 1)
		return false;
	/* Extended numbering: the real values are in section 0. */
	if (!e->shnum || shstrndx == 0xffff) {
		const uint8_t *s0 = p + e->shoff;

		link = get32(s0 + (e->is64 ? 40 : 24), e->be);
		if (!e->shnum)
			e->shnum = e->is64 ? get64(s0 + 32, e->be) :
					     get32(s0 + 20, e->be);
		if (shstrndx == 0xffff)
			shstrndx = link;
	}
	if (e->shnum > (len - e->shoff) / e->shentsize)
		return false;
	if (!elf_shdr(e, shstrndx, &name, &type, &e->stroff, &e->strsize) ||
	    e->stroff > len || e->strsize > len - e->stroff)
		return false;
	return true;
}

#define SHT_NOBITS	8

/* Writes "(<section>+0x<offset>)" for a file offset, or nothing. */
static void elf_where(const struct elf *e, uint64_t off, char *buf,
		      size_t size)
{
	uint64_t i;

	buf[0] = '\0';
	for (i = 1; i < e->shnum; i++) {
		uint64_t soff, ssize;
		uint32_t name, type;
		const char *s;
		size_t n;

		elf_shdr(e, i, &name, &type, &soff, &ssize);
		if (type == SHT_NOBITS || off < soff || off - soff >= ssize)
			continue;
		if (name >= e->strsize)
			return;
		s = (const char *)e->p + e->stroff + name;
		n = strnlen(s, e->strsize - name);
		if (n == e->strsize - name || n > 40)
			return;
		for (size_t j = 0; j < n; j++)
			if (s[j] < 0x21 || s[j] > 0x7e)
				return;
		snprintf(buf, size, "(%.*s+0x%llx)", (int)n, s,
			 (unsigned long long)(off - soff));
		return;
	}
}

/* Offline: the artifacts in one input */

struct stream {
	enum codec codec;
	uint64_t offset;	/* of the compressed stream in the input */
	size_t in_len;		/* its length there, as far as it decoded */
	uint8_t *data;		/* its decompressed bytes */
	size_t len;
	const char *error;	/* why decoding stopped early */
	struct stream *next;
};

struct artifact {
	char name[HDR_NAME_LEN];
	char compression[HDR_COMPRESSION_LEN];
	uint32_t flags;
	uint64_t size;
	uint8_t sha256[SHA256_LEN];
	const uint8_t *payload;		/* NULL when the header is broken */
	const struct stream *stream;	/* NULL: the input itself */
	uint64_t offset;	/* of the header, in the input or stream */
	char error[128];	/* why the header is unusable */
};

struct image {
	const char *path;
	const uint8_t *data;
	size_t len;
	void *map;		/* data, when mmap()ed */
	size_t map_len;
	uint8_t *copy;		/* data, when read() */
	struct elf elf;
	bool is_elf;
	size_t budget;		/* bytes still to be decompressed */
	unsigned int attempts;
	struct artifact *art;
	size_t nart;
	size_t cap;
	struct stream *streams;	/* those that hold artifacts */
	bool full;		/* MAX_ARTIFACTS reached */
	char hint[160];		/* why nothing is there, when nothing is */
	size_t hint_len;	/* output of the stream the hint is about */
};

static struct artifact *image_add(struct image *im)
{
	struct artifact *a;

	if (im->nart == MAX_ARTIFACTS) {
		im->full = true;
		return NULL;
	}
	if (im->nart == im->cap) {
		size_t cap = im->cap ? im->cap * 2 : 8;

		a = realloc(im->art, cap * sizeof(*a));
		if (!a) {
			im->full = true;
			return NULL;
		}
		im->art = a;
		im->cap = cap;
	}
	a = &im->art[im->nart++];
	memset(a, 0, sizeof(*a));
	return a;
}

/*
 * Is there a header at p[0..left)? Returns how many bytes it takes (0:
 * not a header, such as the magic string alone in embedded_blob.o's
 * .rodata). A header that is recognised but damaged is still recorded,
 * with an error.
 */
static size_t parse_header(struct image *im, const struct stream *st,
			   const uint8_t *base, size_t off, size_t left)
{
	const uint8_t *p = base + off;
	uint32_t hsize, start_len, end_len;
	struct artifact *a;
	size_t rest;

	if (left < HDR_OFF_FLAGS)
		return 0;
	hsize = get_le32(p + HDR_OFF_HEADER_SIZE);
	if (hsize < HDR_SIZE || hsize > HDR_MAX_SIZE)
		return 0;
	a = image_add(im);
	if (!a)
		return 0;
	a->stream = st;
	a->offset = off;
	if (p[7] != HDR_MAGIC[7]) {
		snprintf(a->error, sizeof(a->error),
			 "header of unsupported format version %u", p[7]);
		return HDR_MAGIC_LEN;
	}
	if (left < hsize) {
		snprintf(a->error, sizeof(a->error),
			 "header runs past the end of the data");
		return HDR_MAGIC_LEN;
	}
	memcpy(a->name, p + HDR_OFF_NAME, HDR_NAME_LEN);
	memcpy(a->compression, p + HDR_OFF_COMPRESSION, HDR_COMPRESSION_LEN);
	a->flags = get_le32(p + HDR_OFF_FLAGS);
	a->size = get_le64(p + HDR_OFF_SIZE);
	memcpy(a->sha256, p + HDR_OFF_SHA256, SHA256_LEN);
	start_len = get_le32(p + HDR_OFF_START_LEN);
	end_len = get_le32(p + HDR_OFF_END_LEN);
	if (!name_valid(a->name, HDR_NAME_LEN)) {
		a->name[0] = '\0';
		snprintf(a->error, sizeof(a->error), "invalid name field");
		return hsize;
	}
	if (!word_valid(a->compression, HDR_COMPRESSION_LEN)) {
		a->compression[0] = '\0';
		snprintf(a->error, sizeof(a->error),
			 "invalid compression field");
		return hsize;
	}
	if (start_len > MARKER_MAX || end_len > MARKER_MAX) {
		snprintf(a->error, sizeof(a->error),
			 "marker lengths out of range (%u, %u)", start_len,
			 end_len);
		return hsize;
	}
	rest = left - hsize;
	if (start_len > rest || a->size > rest - start_len ||
	    end_len > rest - start_len - a->size) {
		snprintf(a->error, sizeof(a->error),
			 "payload of %llu bytes runs past the end of the data (%zu bytes left)",
			 (unsigned long long)a->size,
			 rest > start_len ? rest - start_len : 0);
		return hsize;
	}
	a->payload = p + hsize + start_len;
	return hsize;
}

static size_t scan_buffer(struct image *im, const struct stream *st,
			  const uint8_t *p, size_t len)
{
	size_t before = im->nart, pos = 0;

	while (pos < len && !im->full) {
		const uint8_t *hit = memmem(p + pos, len - pos, HDR_MAGIC,
					    HDR_MAGIC_LEN - 1);
		size_t off, took;

		if (!hit)
			break;
		off = hit - p;
		took = parse_header(im, st, p, off, len - off);
		pos = off + (took ? took : 1);
	}
	return im->nart - before;
}

/*
 * Decode the stream at off and look for artifacts in it. Returns how many
 * input bytes to skip: all the stream took if it decoded cleanly, or to
 * something, else 1 (most candidates are a few bytes that merely look
 * like a magic number).
 */
static size_t try_stream(struct image *im, enum codec kind, size_t off)
{
	struct out o = { .limit = im->budget };
	struct stream *st;
	const char *err;
	size_t used;

	st = calloc(1, sizeof(*st));
	if (!st)
		return 1;
	st->codec = kind;
	st->offset = off;
	st->error = decompress(kind, im->data + off, im->len - off, false,
			       &o, &used);
	if (o.len > o.limit)
		o.len = o.limit;
	im->budget -= o.len;
	st->in_len = used;
	st->data = o.buf;
	st->len = o.len;
	if (opt.verbose)
		error_at(im->path, "%s stream at 0x%zx: %zu bytes in, %zu out%s%s",
			 codec_names[kind], off, used, o.len,
			 st->error ? ": " : "", st->error ? st->error : "");
	if (scan_buffer(im, st, st->data, st->len)) {
		st->next = im->streams;
		im->streams = st;
		return used ? used : 1;
	}
	/*
	 * When nothing is found, the damaged stream that decoded to the
	 * most (or the whole file) is the likely reason.
	 */
	if (st->error && (off == 0 || o.len >= 4096) &&
	    (!im->hint[0] || o.len > im->hint_len)) {
		im->hint_len = o.len;
		snprintf(im->hint, sizeof(im->hint), "%s stream at 0x%zx: %s",
			 codec_names[kind], off, st->error);
	}
	err = st->error;
	free(st->data);
	free(st);
	if (used && (!err || o.len >= 4096))
		return used;
	return 1;
}

static int cmp_range(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/*
 * Every compressed stream in the input (not in the payload of an
 * artifact found in the clear, such as config.gz's own gzip data), one
 * level deep.
 */
static void scan_streams(struct image *im)
{
	uint64_t (*skip)[2] = NULL;
	size_t nskip = 0, i = 0, pos = 0;

	if (im->nart) {
		skip = calloc(im->nart, sizeof(*skip));
		for (size_t k = 0; skip && k < im->nart; k++) {
			const struct artifact *a = &im->art[k];

			if (!a->payload)
				continue;
			skip[nskip][0] = a->payload - im->data;
			skip[nskip][1] = skip[nskip][0] + a->size;
			nskip++;
		}
		qsort(skip, nskip, sizeof(*skip), cmp_range);
	}
	while (pos < im->len && im->budget && !im->full) {
		enum codec codec;

		while (i < nskip && skip[i][1] <= pos)
			i++;
		if (i < nskip && skip[i][0] <= pos) {
			pos = skip[i][1];
			continue;
		}
		if (!stream_at(im->data + pos, im->len - pos, &codec)) {
			pos++;
			continue;
		}
		if (im->attempts++ == MAX_STREAMS) {
			snprintf(im->hint, sizeof(im->hint),
				 "gave up after %d compressed-stream candidates",
				 MAX_STREAMS);
			im->hint_len = SIZE_MAX;
			break;
		}
		pos += try_stream(im, codec, pos);
	}
	if (!im->budget && !im->nart && !im->hint[0])
		snprintf(im->hint, sizeof(im->hint), "%s", ERR_LIMIT);
	free(skip);
}

/*
 * A compressor may copy bytes through as they are (zstd's literals,
 * deflate's stored blocks): what the plain scan found inside a stream
 * that held artifacts is such a copy, and the stream has the real thing.
 */
static void drop_copies(struct image *im)
{
	size_t i, n = 0;

	for (i = 0; i < im->nart; i++) {
		const struct artifact *a = &im->art[i];
		const struct stream *st;

		for (st = im->streams; !a->stream && st; st = st->next)
			if (a->offset >= st->offset &&
			    a->offset - st->offset < st->in_len)
				break;
		if (!a->stream && st)
			continue;
		im->art[n++] = *a;
	}
	im->nart = n;
}

static void image_scan(struct image *im)
{
	im->budget = opt.limit;
	im->is_elf = elf_open(&im->elf, im->data, im->len);
	scan_buffer(im, NULL, im->data, im->len);
	scan_streams(im);
	drop_copies(im);
}

static void image_free(struct image *im)
{
	struct stream *st, *next;

	for (st = im->streams; st; st = next) {
		next = st->next;
		free(st->data);
		free(st);
	}
	free(im->art);
	if (im->map)
		munmap(im->map, im->map_len);
	free(im->copy);
	memset(im, 0, sizeof(*im));
}

/* Read all of fd, at most max bytes; -EFBIG beyond. */
static int read_all(int fd, size_t max, uint8_t **bufp, size_t *lenp)
{
	size_t len = 0, cap = 0;
	uint8_t *buf = NULL;

	for (;;) {
		ssize_t n;

		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			uint8_t *p;

			if (ncap > max + 1)
				ncap = max + 1;
			if (ncap <= cap) {
				free(buf);
				return -EFBIG;
			}
			p = realloc(buf, ncap);
			if (!p) {
				free(buf);
				return -ENOMEM;
			}
			buf = p;
			cap = ncap;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno;

			free(buf);
			return ret;
		}
		if (n == 0)
			break;
		len += n;
	}
	*bufp = buf;
	*lenp = len;
	return 0;
}

/* For headers install: see headers.h. */
const char *kembed_read_archive(const char *path, uint8_t **buf,
				size_t *len)
{
	struct out o = { .limit = opt.limit };
	const char *err;
	enum codec codec;
	uint8_t *raw;
	size_t n, used;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return strerror(errno);
	ret = read_all(fd, opt.limit, &raw, &n);
	close(fd);
	if (ret)
		return ret == -EFBIG ? "larger than the limit (see --limit)" :
				       strerror(-ret);
	if (!stream_at(raw, n, &codec)) {
		*buf = raw;
		*len = n;
		return NULL;
	}
	err = decompress(codec, raw, n, true, &o, &used);
	free(raw);
	if (err) {
		free(o.buf);
		return err;
	}
	*buf = o.buf;
	*len = o.len;
	return NULL;
}

/* Map (or read, for a pipe or /proc) an input; prints its error. */
static int image_load(struct image *im, const char *path)
{
	struct stat st;
	int fd, ret;

	memset(im, 0, sizeof(*im));
	im->path = path;
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (fd < 0 || fstat(fd, &st)) {
		error_at(path, "%s", strerror(errno));
		if (fd > 0)
			close(fd);
		return EXIT_ERROR;
	}
	if (S_ISDIR(st.st_mode)) {
		error_at(path, "%s", strerror(EISDIR));
		close(fd);
		return EXIT_ERROR;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		if ((uint64_t)st.st_size > SIZE_MAX) {
			error_at(path, "too large");
			close(fd);
			return EXIT_ERROR;
		}
		im->map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd,
			       0);
		if (im->map == MAP_FAILED) {
			im->map = NULL;
			error_at(path, "%s", strerror(errno));
			close(fd);
			return EXIT_ERROR;
		}
		im->map_len = st.st_size;
		im->data = im->map;
		im->len = st.st_size;
	} else {
		ret = read_all(fd, opt.limit, &im->copy, &im->len);
		if (ret) {
			error_at(path, "%s", ret == -EFBIG ?
				 "larger than the limit (see --limit)" :
				 strerror(-ret));
			if (fd > 0)
				close(fd);
			return EXIT_ERROR;
		}
		im->data = im->copy;
	}
	if (fd > 0)
		close(fd);
	return EXIT_OK;
}

/* Where an artifact is, for list: 0x<off>[(<section>+0x<off>)] */
static void artifact_where(const struct image *im, const struct artifact *a,
			   char *buf, size_t size)
{
	char sect[64] = "";

	if (a->stream) {
		snprintf(buf, size, "%s@0x%llx:0x%llx",
			 codec_names[a->stream->codec],
			 (unsigned long long)a->stream->offset,
			 (unsigned long long)a->offset);
		return;
	}
	if (im->is_elf)
		elf_where(&im->elf, a->offset, sect, sizeof(sect));
	snprintf(buf, size, "0x%llx%s", (unsigned long long)a->offset, sect);
}

/* What the commands work on: the artifacts of an input or of the kernel */

struct entry {
	char name[HDR_NAME_LEN];
	char compression[HDR_COMPRESSION_LEN];
	uint64_t size;
	uint8_t sha256[SHA256_LEN];
	char where[192];
	const char *file;	/* for messages */
	const uint8_t *payload;	/* offline; NULL: read file */
	const char *error;	/* the header is unusable */
	bool live;		/* read /proc/<name> */
};

struct catalog {
	struct entry *e;
	size_t n;
	size_t cap;
	struct image *images;
	size_t nimages;
	int status;		/* EXIT_ERROR once anything went wrong */
	const char *path;	/* the input, NULL when live */
	char hint[160];
};

static struct entry *catalog_add(struct catalog *c)
{
	struct entry *e;

	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;

		e = realloc(c->e, cap * sizeof(*e));
		if (!e) {
			error_at(NULL, "%s", strerror(ENOMEM));
			exit(EXIT_ERROR);
		}
		c->e = e;
		c->cap = cap;
	}
	e = &c->e[c->n++];
	memset(e, 0, sizeof(*e));
	return e;
}

static void catalog_free(struct catalog *c)
{
	for (size_t i = 0; i < c->nimages; i++)
		image_free(&c->images[i]);
	free(c->images);
	free(c->e);
	memset(c, 0, sizeof(*c));
}

static bool catalog_has(const struct catalog *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].name, name))
			return true;
	return false;
}

/*
 * Load and scan path into the catalog; where_fmt, if given, replaces the
 * location (it is "module %s, not loaded" for a module file). Returns how
 * many artifacts were added, or -1 when the file could not be read.
 */
static long catalog_scan(struct catalog *c, const char *path,
			 const char *module, bool skip_known)
{
	struct image *im, *images;
	long added = 0;

	images = realloc(c->images, (c->nimages + 1) * sizeof(*images));
	if (!images) {
		error_at(NULL, "%s", strerror(ENOMEM));
		exit(EXIT_ERROR);
	}
	c->images = images;
	im = &c->images[c->nimages];
	if (image_load(im, path)) {
		c->status = EXIT_ERROR;
		return -1;
	}
	c->nimages++;
	image_scan(im);
	for (size_t i = 0; i < im->nart; i++) {
		const struct artifact *a = &im->art[i];
		struct entry *e;
		char where[160];

		artifact_where(im, a, where, sizeof(where));
		if (a->error[0]) {
			error_at(path, "%s at %s: %s",
				 a->name[0] ? a->name : "artifact", where,
				 a->error);
			c->status = EXIT_ERROR;
			if (!name_valid(a->name, HDR_NAME_LEN))
				continue;
		}
		if (skip_known && catalog_has(c, a->name))
			continue;
		e = catalog_add(c);
		memcpy(e->name, a->name, sizeof(e->name));
		memcpy(e->compression, a->compression,
		       sizeof(e->compression));
		e->size = a->size;
		memcpy(e->sha256, a->sha256, SHA256_LEN);
		if (module)
			snprintf(e->where, sizeof(e->where),
				 "module %s, not loaded", module);
		else
			snprintf(e->where, sizeof(e->where), "%s", where);
		e->file = path;
		e->payload = a->payload;
		e->error = a->error[0] ? a->error : NULL;
		added++;
	}
	for (const struct stream *st = im->streams; st; st = st->next) {
		if (st->error) {
			error_at(path, "%s stream at 0x%llx: %s",
				 codec_names[st->codec],
				 (unsigned long long)st->offset, st->error);
			c->status = EXIT_ERROR;
		}
	}
	if (im->full) {
		error_at(path, "too many artifacts, gave up after %d",
			 MAX_ARTIFACTS);
		c->status = EXIT_ERROR;
	}
	if (!im->nart)
		snprintf(c->hint, sizeof(c->hint), "%s", im->hint);
	return added;
}

static int catalog_offline(struct catalog *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	return catalog_scan(c, path, NULL, false) < 0 ? EXIT_ERROR : EXIT_OK;
}

/* Live: /proc/embedded_blobs, then the modules that are not loaded */

static const char *proc_dir(void)
{
	const char *dir = getenv("KEMBED_PROC");

	return dir && *dir ? dir : "/proc";
}

static bool take_field(char **s, char **field)
{
	char *p = *s, *sp;

	if (!*p || *p == ' ')
		return false;
	sp = strchr(p, ' ');
	if (sp) {
		*sp = '\0';
		*s = sp + 1;
	} else {
		*s = p + strlen(p);
	}
	*field = p;
	return true;
}

/*
 * One line: name size compression sha256 builtin|<module>, or
 * "name - - - <module>" for an artifact whose module is not loaded
 * (*unloaded set; the scan of the modules finds it).
 */
static bool parse_blob_line(char *line, struct entry *e, char *owner,
			    size_t owner_size, bool *unloaded)
{
	char *name, *size, *comp, *sha, *own, *end;
	unsigned long long v;

	if (!take_field(&line, &name) || !take_field(&line, &size) ||
	    !take_field(&line, &comp) || !take_field(&line, &sha) ||
	    !take_field(&line, &own) || *line)
		return false;
	*unloaded = !strcmp(size, "-") && !strcmp(comp, "-") &&
		    !strcmp(sha, "-");
	if (*unloaded)
		return name_valid(name, HDR_NAME_LEN) &&
		       strlen(own) < owner_size && chars_valid(own, "_-") &&
		       strcmp(own, "builtin");
	if (!name_valid(name, HDR_NAME_LEN) ||
	    !word_valid(comp, HDR_COMPRESSION_LEN) ||
	    strlen(own) >= owner_size ||
	    !chars_valid(own, "_-") ||
	    strspn(size, "0123456789") != strlen(size) || strlen(size) > 20 ||
	    strlen(sha) != 2 * SHA256_LEN || !unhex(sha, e->sha256, SHA256_LEN))
		return false;
	errno = 0;
	v = strtoull(size, &end, 10);
	if (errno || *end)
		return false;
	e->size = v;
	strcpy(e->name, name);
	strcpy(e->compression, comp);
	strcpy(owner, own);
	return true;
}

static void parse_blob_list(struct catalog *c, const char *file,
			    char *text, size_t len)
{
	size_t lineno = 0;
	char *p = text, *end = text + len;

	while (p < end) {
		char *nl = memchr(p, '\n', end - p), owner[HDR_NAME_LEN];
		struct entry tmp;
		bool unloaded;

		lineno++;
		if (!nl) {
			error_at(file, "line %zu: no newline at the end",
				 lineno);
			c->status = EXIT_ERROR;
			break;
		}
		*nl = '\0';
		memset(&tmp, 0, sizeof(tmp));
		if (nl - p > MAX_LINE || strlen(p) != (size_t)(nl - p) ||
		    !parse_blob_line(p, &tmp, owner, sizeof(owner),
				     &unloaded)) {
			error_at(file, "line %zu: malformed", lineno);
			c->status = EXIT_ERROR;
		} else if (!unloaded && !catalog_has(c, tmp.name)) {
			struct entry *e = catalog_add(c);

			*e = tmp;
			if (!strcmp(owner, "builtin"))
				strcpy(e->where, "builtin");
			else
				snprintf(e->where, sizeof(e->where),
					 "module %s", owner);
			e->file = file;
			e->live = true;
		}
		p = nl + 1;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* kernel/foo.ko(.gz|.xz|.zst) -> "foo"; NULL for anything else */
static bool module_file(const char *file, char *module, size_t size)
{
	static const char *const suffixes[] = {
		".ko", ".ko.gz", ".ko.xz", ".ko.zst",
	};
	size_t len = strlen(file);

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++) {
		size_t slen = strlen(suffixes[i]);

		if (len > slen && len - slen < size &&
		    !strcmp(file + len - slen, suffixes[i])) {
			memcpy(module, file, len - slen);
			module[len - slen] = '\0';
			for (char *p = module; *p; p++)
				if (*p == '-')
					*p = '_';
			return true;
		}
	}
	return false;
}

/*
 * Artifacts built as modules live in kernel/kernel/<module>.ko of the
 * modules directory (they are objects of the kernel/ directory): scan
 * those files for the ones that are not loaded.
 */
static void scan_modules(struct catalog *c)
{
	const char *dir = getenv("KEMBED_MODULES");
	char path[PATH_MAX], *names[MAX_MODULES];
	size_t n = 0;
	struct utsname u;
	struct dirent *d;
	DIR *dp;

	if (dir && *dir) {
		snprintf(path, sizeof(path), "%s/kernel/kernel", dir);
	} else {
		if (uname(&u))
			return;
		snprintf(path, sizeof(path), "/lib/modules/%s/kernel/kernel",
			 u.release);
	}
	dp = opendir(path);
	if (!dp)
		return;
	while ((d = readdir(dp)) && n < MAX_MODULES) {
		char module[HDR_NAME_LEN];

		if (d->d_name[0] == '.' ||
		    !module_file(d->d_name, module, sizeof(module)))
			continue;
		names[n] = strdup(d->d_name);
		if (names[n])
			n++;
	}
	closedir(dp);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		char file[PATH_MAX + 256], module[HDR_NAME_LEN];
		struct stat st;

		snprintf(file, sizeof(file), "%s/%s", path, names[i]);
		module_file(names[i], module, sizeof(module));
		if (!lstat(file, &st) && S_ISREG(st.st_mode)) {
			char *keep = strdup(file);

			/* the catalog's images keep pointing at the path */
			if (keep && catalog_scan(c, keep, module, true) < 0)
				free(keep);
		}
		free(names[i]);
	}
}

static int catalog_live(struct catalog *c)
{
	static char file[PATH_MAX];
	uint8_t *text;
	size_t len;
	int fd, ret;

	memset(c, 0, sizeof(*c));
	snprintf(file, sizeof(file), "%s/embedded_blobs", proc_dir());
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno != ENOENT) {
		error_at(file, "%s", strerror(errno));
		return EXIT_ERROR;
	}
	if (fd >= 0) {
		ret = read_all(fd, MAX_LIST_SIZE, &text, &len);
		close(fd);
		if (ret) {
			error_at(file, "%s", ret == -EFBIG ? "too large" :
				 strerror(-ret));
			return EXIT_ERROR;
		}
		parse_blob_list(c, file, (char *)text, len);
		free(text);
	}
	scan_modules(c);
	return EXIT_OK;
}

/* Name images kept by scan_modules() own their path: free them. */
static void catalog_free_live(struct catalog *c)
{
	for (size_t i = 0; i < c->nimages; i++)
		free((char *)c->images[i].path);
	catalog_free(c);
}

/* The payload of an entry: in the image, or read from /proc/<name>. */
static int entry_read(const struct entry *e, const uint8_t **data,
		      uint8_t **owned, const char **file, char *fbuf,
		      size_t fsize)
{
	int fd, ret;
	size_t len;

	*owned = NULL;
	*file = e->file;
	/* catalog_scan() told why already */
	if (e->error)
		return EXIT_ERROR;
	if (!e->live) {
		*data = e->payload;
		return EXIT_OK;
	}
	snprintf(fbuf, fsize, "%s/%s", proc_dir(), e->name);
	*file = fbuf;
	if (e->size > opt.limit) {
		error_at(fbuf, "%llu bytes, larger than the limit (see --limit)",
			 (unsigned long long)e->size);
		return EXIT_ERROR;
	}
	fd = open(fbuf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		error_at(fbuf, "%s", strerror(errno));
		return EXIT_ERROR;
	}
	ret = read_all(fd, e->size, owned, &len);
	close(fd);
	if (ret == -EFBIG) {
		error_at(fbuf, "longer than the %llu bytes listed",
			 (unsigned long long)e->size);
		return EXIT_ERROR;
	}
	if (ret) {
		error_at(fbuf, "%s", strerror(-ret));
		return EXIT_ERROR;
	}
	if (len != e->size) {
		error_at(fbuf, "%zu bytes, not the %llu bytes listed", len,
			 (unsigned long long)e->size);
		free(*owned);
		*owned = NULL;
		return EXIT_ERROR;
	}
	*data = *owned;
	return EXIT_OK;
}

static bool entry_matches(const struct entry *e, const uint8_t *data)
{
	uint8_t md[SHA256_LEN];

	sha256(data, e->size, md);
	return !memcmp(md, e->sha256, SHA256_LEN);
}

/* Output */

static int write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len > SSIZE_MAX ? SSIZE_MAX : len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * Write to path atomically: a temporary file next to it, renamed over it
 * once complete, so that a failure leaves the old file (or none). Devices
 * and other special files are written in place.
 */
static int write_file(const char *path, const uint8_t *p, size_t len)
{
	char *tmp = NULL;
	struct stat st;
	mode_t mask;
	int fd, ret;

	if (!strcmp(path, "-")) {
		ret = write_all(1, p, len);
		if (ret) {
			error_at("stdout", "%s", strerror(-ret));
			return EXIT_ERROR;
		}
		return EXIT_OK;
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		ret = fd < 0 ? -errno : write_all(fd, p, len);
		if (ret) {
			error_at(path, "%s", strerror(-ret));
			if (fd >= 0)
				close(fd);
			return EXIT_ERROR;
		}
		if (close(fd)) {
			error_at(path, "%s", strerror(errno));
			return EXIT_ERROR;
		}
		return EXIT_OK;
	}
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		error_at(path, "%s", strerror(ENOMEM));
		return EXIT_ERROR;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		error_at(path, "%s", strerror(errno));
		free(tmp);
		return EXIT_ERROR;
	}
	mask = umask(0);
	umask(mask);
	ret = write_all(fd, p, len);
	if (!ret && fchmod(fd, 0666 & ~mask))
		ret = -errno;
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		error_at(path, "%s", strerror(-ret));
		unlink(tmp);
		free(tmp);
		return EXIT_ERROR;
	}
	free(tmp);
	return EXIT_OK;
}

/* Commands */

static const char *file_label(const struct catalog *c)
{
	return c->path ? c->path : "running kernel";
}

static int nothing_found(const struct catalog *c)
{
	if (c->path && c->hint[0]) {
		error_at(c->path, "no embedded artifact found (%s)", c->hint);
		return EXIT_ERROR;
	}
	if (c->path && !c->nimages)
		return EXIT_ERROR;
	if (c->path && !c->images[0].len)
		error_at(c->path, "empty file");
	else if (c->path)
		error_at(c->path, "no embedded artifact found");
	else
		error_at(NULL, "the running kernel carries no artifacts");
	return c->status ? c->status : EXIT_NOTFOUND;
}

/*
 * An archive that lacks what building modules against it needs (kheaders
 * made without CONFIG_CC_CAN_LINK: no fixdep, no modpost) says so in a
 * file HEADERS-ONLY of its top directory, which sorts among its first
 * members. list looks for it there, decompressing at most NOTE_SCAN bytes
 * of the archive, which it reads only when it is at hand (an image, or a
 * loaded module).
 */
#define NOTE_MEMBER	"./HEADERS-ONLY"
#define NOTE_SCAN	((size_t)1 << 20)
#define TAR_BLOCK	512

static bool tar_has_note(const uint8_t *p, size_t len)
{
	size_t off = 0;

	while (len - off >= TAR_BLOCK) {
		const uint8_t *h = p + off;
		uint64_t size = 0, blocks;
		char name[101];

		if (memcmp(h + 257, "ustar", 5))
			return false;
		memcpy(name, h, 100);
		name[100] = '\0';
		if (!strcmp(name, NOTE_MEMBER))
			return true;
		/* past the files of the top directory */
		if (strncmp(name, "./", 2) || strchr(name + 2, '/'))
			return false;
		for (int i = 124; i < 136 && h[i] >= '0' && h[i] <= '7'; i++)
			size = size * 8 + (h[i] - '0');
		blocks = size / TAR_BLOCK + !!(size % TAR_BLOCK);
		if (blocks >= (len - off) / TAR_BLOCK)
			return false;
		off += (blocks + 1) * TAR_BLOCK;
	}
	return false;
}

static bool headers_only(const struct entry *e)
{
	struct out o = { .limit = NOTE_SCAN };
	const uint8_t *data;
	const char *file;
	char fbuf[PATH_MAX];
	uint8_t *owned;
	bool found;
	size_t k, used;

	if (e->error)
		return false;
	if (e->live) {
		snprintf(fbuf, sizeof(fbuf), "%s/%s", proc_dir(), e->name);
		if (access(fbuf, R_OK))
			return false;
	}
	if (entry_read(e, &data, &owned, &file, fbuf, sizeof(fbuf)))
		return false;
	if (!strcmp(e->compression, "none")) {
		found = tar_has_note(data, e->size);
		free(owned);
		return found;
	}
	for (k = 0; k < sizeof(codec_names) / sizeof(*codec_names); k++)
		if (!strcmp(e->compression, codec_names[k]))
			break;
	found = false;
	if (k < sizeof(codec_names) / sizeof(*codec_names)) {
		/* stops at the limit, with what it has */
		decompress((enum codec)k, data, e->size, true, &o, &used);
		found = tar_has_note(o.buf, o.len);
	}
	free(o.buf);
	free(owned);
	return found;
}

static int cmd_list_run(struct catalog *c)
{
	int wname = 0, wsize = 0, wcomp = 0;

	if (!c->n)
		return nothing_found(c);
	for (size_t i = 0; i < c->n; i++) {
		const struct entry *e = &c->e[i];
		int n = snprintf(NULL, 0, "%llu", (unsigned long long)e->size);

		if ((int)strlen(e->name) > wname)
			wname = strlen(e->name);
		if (n > wsize)
			wsize = n;
		if ((int)strlen(e->compression) > wcomp)
			wcomp = strlen(e->compression);
	}
	for (size_t i = 0; i < c->n; i++) {
		const struct entry *e = &c->e[i];
		char sha[2 * SHA256_LEN + 1];

		hex(e->sha256, SHA256_LEN, sha);
		printf("%-*s %*llu %-*s %s %s%s\n", wname, e->name, wsize,
		       (unsigned long long)e->size, wcomp, e->compression,
		       sha, e->where,
		       headers_only(e) ? " (headers only)" : "");
	}
	return c->status;
}

static int cmd_verify_run(struct catalog *c, const char *name)
{
	int status = c->status;
	size_t found = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct entry *e = &c->e[i];
		const uint8_t *data;
		const char *file;
		uint8_t *owned;
		char fbuf[PATH_MAX];

		if (name && strcmp(name, e->name))
			continue;
		found++;
		if (entry_read(e, &data, &owned, &file, fbuf, sizeof(fbuf))) {
			printf("%s: FAILED\n", e->name);
			status = EXIT_ERROR;
			continue;
		}
		if (!entry_matches(e, data)) {
			printf("%s: FAILED\n", e->name);
			error_at(file, "%s: SHA-256 mismatch", e->name);
			status = EXIT_ERROR;
		} else {
			printf("%s: OK\n", e->name);
		}
		free(owned);
	}
	if (found)
		return status;
	if (!name)
		return nothing_found(c);
	error_at(c->path, "%s: no such artifact%s%s", name,
		 c->path ? "" : " in the ", c->path ? "" : file_label(c));
	return c->status ? c->status : EXIT_NOTFOUND;
}

static int cmd_extract_run(struct catalog *c, const char *name,
			   const char *output, bool decomp)
{
	const struct entry *e = NULL;
	struct out o = { .limit = opt.limit };
	const uint8_t *data;
	const char *file, *err;
	char fbuf[PATH_MAX];
	uint8_t *owned;
	int ret;

	for (size_t i = 0; i < c->n && !e; i++)
		if (!strcmp(c->e[i].name, name))
			e = &c->e[i];
	if (!e) {
		error_at(c->path, "%s: no such artifact%s%s", name,
			 c->path ? "" : " in the ",
			 c->path ? "" : file_label(c));
		return c->status ? c->status : EXIT_NOTFOUND;
	}
	ret = entry_read(e, &data, &owned, &file, fbuf, sizeof(fbuf));
	if (ret)
		return ret;
	if (!entry_matches(e, data)) {
		error_at(file, "%s: SHA-256 mismatch, not extracted", e->name);
		free(owned);
		return EXIT_ERROR;
	}
	if (decomp && strcmp(e->compression, "none")) {
		size_t used, k;

		for (k = 0; k < sizeof(codec_names) / sizeof(*codec_names); k++)
			if (!strcmp(e->compression, codec_names[k]))
				break;
		if (k == sizeof(codec_names) / sizeof(*codec_names)) {
			error_at(file, "%s: unknown compression \"%s\"",
				 e->name, e->compression);
			free(owned);
			return EXIT_ERROR;
		}
		err = decompress((enum codec)k, data, e->size, true, &o,
				 &used);
		if (err) {
			error_at(file, "%s: %s", e->name, err);
			free(o.buf);
			free(owned);
			return EXIT_ERROR;
		}
		ret = write_file(output, o.buf, o.len);
		free(o.buf);
	} else {
		ret = write_file(output, data, e->size);
	}
	free(owned);
	return ret;
}

static int load(struct catalog *c, const char *image)
{
	return image ? catalog_offline(c, image) : catalog_live(c);
}

static void unload(struct catalog *c)
{
	if (c->path)
		catalog_free(c);
	else
		catalog_free_live(c);
}

/* Options */

enum { OPT_LIMIT = 256, OPT_VERSION };

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "output", required_argument, NULL, 'o' },
	{ "decompress", no_argument, NULL, 'd' },
	{ 0 }
};

/* What the options of extract say. */
static struct {
	const char *output;
	bool decompress;
} args = {
	.output = "-",
};

static bool parse_size(const char *s, size_t *v)
{
	unsigned long long n;
	char *end;
	int shift = 0;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return false;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M')
		shift = 20;
	else if (*end == 'G')
		shift = 30;
	if (shift)
		end++;
	if (*end || !n || n > (SIZE_MAX / 4) >> shift)
		return false;
	*v = (size_t)n << shift;
	return true;
}

static void print_help(const char *cmd);

/*
 * The options of cmd (NULL: those before the command); own lists the
 * short names of the options only that command takes. Returns -1 to go
 * on, or the status to exit with.
 */
static int parse_options(int argc, char **argv, const char *cmd,
			 const char *own)
{
	int ch;

	while ((ch = getopt_long(argc, argv, cmd ? "hvo:d" : "+hv", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'h':
			print_help(cmd);
			return EXIT_OK;
		case 'v':
			opt.verbose = true;
			break;
		case OPT_VERSION:
			printf("kembed %s\n", KEMBED_VERSION);
			return EXIT_OK;
		case OPT_LIMIT:
			if (!parse_size(optarg, &opt.limit))
				return usage_error("--limit: not a size: '%s'",
						   optarg);
			opt.memlimit = opt.limit > DEFAULT_LIMIT ? opt.limit :
								 DEFAULT_LIMIT;
			break;
		case 'o':
		case 'd':
			if (!strchr(own, ch))
				return usage_error("%s does not take -%c",
						   cmd ? cmd : "kembed", ch);
			if (ch == 'o')
				args.output = optarg;
			else
				args.decompress = true;
			break;
		default:
			/* getopt_long() told what is wrong */
			fprintf(stderr, "Try '%s --help'.\n", prog);
			return EXIT_USAGE;
		}
	}
	return -1;
}

static int cmd_list(int argc, char **argv)
{
	struct catalog c;
	int ret;

	ret = parse_options(argc, argv, "list", "");
	if (ret >= 0)
		return ret;
	if (argc - optind > 1)
		return usage_error("list: too many arguments");
	ret = load(&c, argc > optind ? argv[optind] : NULL);
	if (!ret)
		ret = cmd_list_run(&c);
	unload(&c);
	return ret;
}

static int cmd_extract(int argc, char **argv)
{
	struct catalog c;
	int ret;

	ret = parse_options(argc, argv, "extract", "od");
	if (ret >= 0)
		return ret;
	if (argc == optind)
		return usage_error("extract: no NAME");
	if (argc - optind > 2)
		return usage_error("extract: too many arguments");
	if (!*args.output)
		return usage_error("extract: empty output file name");
	ret = load(&c, argc - optind == 2 ? argv[optind + 1] : NULL);
	if (!ret)
		ret = cmd_extract_run(&c, argv[optind], args.output,
				      args.decompress);
	unload(&c);
	return ret;
}

static int cmd_verify(int argc, char **argv)
{
	const char *name = NULL, *image = NULL;
	struct catalog c;
	struct stat st;
	int ret;

	ret = parse_options(argc, argv, "verify", "");
	if (ret >= 0)
		return ret;
	switch (argc - optind) {
	case 0:
		break;
	case 1:
		/* an existing file is the IMAGE, anything else the NAME */
		if (!strcmp(argv[optind], "-") || !stat(argv[optind], &st))
			image = argv[optind];
		else
			name = argv[optind];
		break;
	case 2:
		name = argv[optind];
		image = argv[optind + 1];
		break;
	default:
		return usage_error("verify: too many arguments");
	}
	ret = load(&c, image);
	if (!ret)
		ret = cmd_verify_run(&c, name);
	unload(&c);
	return ret;
}

static int cmd_help(int argc, char **argv)
{
	print_help(argc > 1 ? argv[1] : NULL);
	return EXIT_OK;
}

/* A new subcommand is a function and a line here. */
static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;
	const char *summary;
} commands[] = {
	{ "list", cmd_list, "[IMAGE]",
	  "list the artifacts (name, size, compression, SHA-256, where)" },
	{ "extract", cmd_extract, "[-d] [-o FILE] NAME [IMAGE]",
	  "write an artifact's payload to stdout or FILE" },
	{ "verify", cmd_verify, "[NAME] [IMAGE]",
	  "check the size and SHA-256 of every (or one) artifact" },
	{ "headers", cmd_headers, "install [--force] [--archive FILE]",
	  "unpack kheaders into /lib/modules/$(uname -r)/build, safely" },
	{ "help", cmd_help, "[COMMAND]", "show this help" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(*commands))

static void print_help(const char *cmd)
{
	size_t i;

	printf("usage: %s [OPTION]... COMMAND [ARG]...\n\n", prog);
	for (i = 0; i < NCOMMANDS; i++)
		if (!cmd || !strcmp(cmd, commands[i].name))
			printf("  %s %s\n      %s\n", commands[i].name,
			       commands[i].args, commands[i].summary);
	printf("\n"
"Without IMAGE, the running kernel: /proc/embedded_blobs, /proc/<name>,\n"
"and the artifact modules in /lib/modules/$(uname -r)/kernel/kernel that\n"
"are not loaded. IMAGE is a vmlinux, a raw or compressed boot image (gzip,\n"
"xz, lzma, zstd, bzip2, at any offset), a module, or - for stdin.\n"
"verify with one argument: an existing file is the IMAGE, anything else\n"
"the NAME. extract checks the SHA-256 before it writes anything.\n"
"\n"
"Options:\n"
"  -o, --output FILE  extract: write FILE (atomically), not stdout\n"
"  -d, --decompress   extract: undo the artifact's own compression\n"
"      --limit SIZE   decompress or read at most SIZE bytes per input (K, M,\n"
"                     G suffixes; default 256M); a decoder may use 256M of\n"
"                     memory, or SIZE if that is more\n"
"  -v, --verbose      tell which compressed streams were tried\n"
"  -h, --help         show this help\n"
"      --version      show the version\n"
"\n"
"Output of list: NAME SIZE COMPRESSION SHA256 WHERE, where WHERE is\n"
"\"builtin\", \"module M\" or \"module M, not loaded\" for the running\n"
"kernel, and the header's offset for an IMAGE: 0xOFF, 0xOFF(SECTION+0xOFF)\n"
"in an ELF file, CODEC@0xSTREAM:0xOFF inside a compressed stream.\n"
"\"(headers only)\" follows an archive that holds no fixdep and modpost, so\n"
"that modules cannot be built against it (a kheaders made without\n"
"CONFIG_CC_CAN_LINK or CONFIG_MODULES: see HEADERS-ONLY in it).\n"
"\n"
"Exit status: 0 success; 1 error: unreadable or damaged input, failed\n"
"verification; 2 usage error; 3 no such artifact, or none at all (an\n"
"empty file, a file that is no kernel).\n"
"\n"
"Environment (for tests): KEMBED_PROC instead of /proc, KEMBED_MODULES\n"
"instead of /lib/modules/$(uname -r).\n");
}

#ifndef KEMBED_NO_MAIN
int main(int argc, char **argv)
{
	int ret;

	ret = parse_options(argc, argv, NULL, "");
	if (ret >= 0)
		return ret;
	if (optind == argc)
		return usage_error("no command");
	for (size_t i = 0; i < NCOMMANDS; i++) {
		static char name[64];

		if (strcmp(argv[optind], commands[i].name))
			continue;
		argv += optind;
		argc -= optind;
		/* getopt_long() messages say "kembed list: ..." */
		snprintf(name, sizeof(name), "%s %s", prog, commands[i].name);
		argv[0] = name;
		optind = 0;
		ret = commands[i].run(argc, argv);
		if (fflush(stdout) || ferror(stdout)) {
			error_at("stdout", "%s", strerror(errno));
			return EXIT_ERROR;
		}
		return ret;
	}
	return usage_error("unknown command '%s'", argv[optind]);
}
#endif

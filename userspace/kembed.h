/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of kembed share:
 *   common.c      messages, checks of untrusted bytes, SHA-256, I/O
 *   decompress.c  decompression through the real libraries, always bounded
 *   image.c       the artifacts in one input (ELF, raw or compressed image)
 *   catalog.c     what the commands work on: the artifacts of an input, or
 *                 of the running kernel and its modules
 *   headers.c     kembed headers install
 *   kembed.c      the commands, their options and help
 */
#ifndef KEMBED_H
#define KEMBED_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/embedded_blob.h>

enum {
	EXIT_OK		= 0,
	EXIT_ERROR	= 1,
	EXIT_USAGE	= 2,
	EXIT_NOTFOUND	= 3,
};

/*
 * The frame, version 1: tools/include/uapi/linux/embedded_blob.h, a copy of
 * the kernel's include/uapi/linux/embedded_blob.h.
 */
#define HDR_OFF(field)		offsetof(struct embedded_blob_header, field)
/* Later versions may grow the header; nothing sane is this large. */
#define HDR_MAX_SIZE		4096
#define MARKER_MAX		4096

#define SHA256_LEN		32
static_assert(sizeof(((struct embedded_blob_header *)0)->sha256) ==
	      SHA256_LEN, "SHA-256 in the header");
#define MAX_ARTIFACTS		4096	/* per input */
#define MAX_STREAMS		1024	/* compressed-stream candidates tried */
#define MAX_MODULES		512	/* module files looked at */
#define MAX_LIST_SIZE		(1024 * 1024)	/* /proc/embedded_blobs */
#define MAX_LINE		512
#define TAR_BLOCK		512

#define DEFAULT_LIMIT		((size_t)256 << 20)

/* The options every command takes. */
struct options {
	size_t limit;		/* bytes decompressed or read, per input */
	size_t memlimit;	/* memory a decoder may use */
	bool verbose;
	bool quiet;		/* no messages (the fuzz target) */
};

extern struct options opt;
extern const char *prog;

/* common.c */

void error_at(const char *file, const char *fmt, ...) __printf(2, 3);

/* Little helpers on untrusted bytes */

static inline uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static inline uint16_t get16(const uint8_t *p, bool be)
{
	return be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t get32(const uint8_t *p, bool be)
{
	if (!be)
		return get_le32(p);
	return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[0] << 24;
}

static inline uint64_t get64(const uint8_t *p, bool be)
{
	if (!be)
		return get_le64(p);
	return (uint64_t)get32(p, be) << 32 | get32(p + 4, be);
}

bool chars_valid(const char *s, const char *extra);
bool name_valid(const char *s, size_t max);
bool word_valid(const char *s, size_t max);
void sha256(const uint8_t *p, size_t len, uint8_t md[SHA256_LEN]);
void hex(const uint8_t *p, size_t len, char *out);
bool unhex(const char *s, uint8_t *out, size_t len);
/* All of fd, at most max bytes (-EFBIG beyond): 0 or -errno. */
int read_all(int fd, size_t max, uint8_t **bufp, size_t *lenp);
/* All of p to fd: 0 or -errno. */
int write_all(int fd, const uint8_t *p, size_t len);

/* decompress.c */

enum codec { CODEC_GZIP, CODEC_XZ, CODEC_LZMA, CODEC_ZSTD, CODEC_BZIP2 };
#define NCODECS			(CODEC_BZIP2 + 1)

extern const char *const codec_names[NCODECS];

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

const char *decompress(enum codec codec, const uint8_t *in, size_t len,
		       bool whole, struct out *o, size_t *used);
bool stream_at(const uint8_t *p, size_t left, enum codec *codec);
bool codec_from_name(const char *name, enum codec *codec);

/* image.c */

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
	char name[EMBEDDED_BLOB_NAME_LEN];
	char compression[EMBEDDED_BLOB_COMPRESSION_LEN];
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

void image_scan(struct image *im);
void image_free(struct image *im);
int image_load(struct image *im, const char *path);
void artifact_where(const struct image *im, const struct artifact *a,
		    char *buf, size_t size);
/*
 * For headers install: all of the file at path, its compression (xz,
 * gzip, zstd, bzip2, lzma), if any, undone; at most --limit bytes. NULL,
 * or why not.
 */
const char *kembed_read_archive(const char *path, uint8_t **buf,
				size_t *len);

/* catalog.c */

struct catalog_entry {
	char name[EMBEDDED_BLOB_NAME_LEN];
	char compression[EMBEDDED_BLOB_COMPRESSION_LEN];
	uint64_t size;
	uint8_t sha256[SHA256_LEN];
	char where[192];
	const char *file;	/* for messages */
	const uint8_t *payload;	/* offline; NULL: read file */
	const char *error;	/* the header is unusable */
	bool live;		/* read /proc/<name> */
};

struct catalog {
	struct catalog_entry *e;
	size_t n;
	size_t cap;
	struct image *images;
	size_t nimages;
	int status;		/* EXIT_ERROR once anything went wrong */
	const char *path;	/* the input, NULL when live */
	char hint[160];
};

int catalog_offline(struct catalog *c, const char *path);
int catalog_live(struct catalog *c);
void catalog_free(struct catalog *c);
void catalog_free_live(struct catalog *c);
void parse_blob_list(struct catalog *c, const char *file, char *text,
		     size_t len);
const char *proc_dir(void);
int entry_read(const struct catalog_entry *e, const uint8_t **data,
	       uint8_t **owned, const char **file, char *fbuf, size_t fsize);
bool entry_matches(const struct catalog_entry *e, const uint8_t *data);

/* headers.c */

/* kembed headers install [--force] [--archive FILE] */
int cmd_headers(int argc, char **argv);

#endif

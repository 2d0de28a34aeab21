// SPDX-License-Identifier: GPL-2.0
/*
 * kembed: the artifacts in one input. Each sits behind a struct
 * embedded_blob_header (include/linux/embedded_blob.h), found by scanning
 * the input and the compressed streams in it. Every field is checked
 * against the bounds of the data it came with before it is used: the
 * input may be hostile.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kembed.h"

/* ELF: name the section an offset of the input falls in. */

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

	if (left < HDR_OFF(flags))
		return 0;
	hsize = get_le32(p + HDR_OFF(header_size));
	if (hsize < EMBEDDED_BLOB_HEADER_SIZE || hsize > HDR_MAX_SIZE)
		return 0;
	a = image_add(im);
	if (!a)
		return 0;
	a->stream = st;
	a->offset = off;
	if (p[7] != EMBEDDED_BLOB_MAGIC[7]) {
		snprintf(a->error, sizeof(a->error),
			 "header of unsupported format version %u", p[7]);
		return EMBEDDED_BLOB_MAGIC_LEN;
	}
	if (left < hsize) {
		snprintf(a->error, sizeof(a->error),
			 "header runs past the end of the data");
		return EMBEDDED_BLOB_MAGIC_LEN;
	}
	memcpy(a->name, p + HDR_OFF(name), sizeof(a->name));
	memcpy(a->compression, p + HDR_OFF(compression),
	       sizeof(a->compression));
	a->flags = get_le32(p + HDR_OFF(flags));
	a->size = get_le64(p + HDR_OFF(size));
	memcpy(a->sha256, p + HDR_OFF(sha256), sizeof(a->sha256));
	start_len = get_le32(p + HDR_OFF(start_marker_len));
	end_len = get_le32(p + HDR_OFF(end_marker_len));
	if (!name_valid(a->name, EMBEDDED_BLOB_NAME_LEN)) {
		a->name[0] = '\0';
		snprintf(a->error, sizeof(a->error), "invalid name field");
		return hsize;
	}
	if (!word_valid(a->compression, EMBEDDED_BLOB_COMPRESSION_LEN)) {
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
		const uint8_t *hit = memmem(p + pos, len - pos,
					    EMBEDDED_BLOB_MAGIC,
					    EMBEDDED_BLOB_MAGIC_LEN - 1);
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

void image_scan(struct image *im)
{
	im->budget = opt.limit;
	im->is_elf = elf_open(&im->elf, im->data, im->len);
	scan_buffer(im, NULL, im->data, im->len);
	scan_streams(im);
	drop_copies(im);
}

void image_free(struct image *im)
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
int image_load(struct image *im, const char *path)
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
void artifact_where(const struct image *im, const struct artifact *a,
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

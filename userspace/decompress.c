// SPDX-License-Identifier: GPL-2.0
/* kembed: decompression, always through the real libraries, always bounded */

#include <bzlib.h>
#include <limits.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "kembed.h"

const char *const codec_names[NCODECS] = {
	[CODEC_GZIP] = "gzip",
	[CODEC_XZ] = "xz",
	[CODEC_LZMA] = "lzma",
	[CODEC_ZSTD] = "zstd",
	[CODEC_BZIP2] = "bzip2",
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

const char *decompress(enum codec codec, const uint8_t *in,
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
bool stream_at(const uint8_t *p, size_t left, enum codec *codec)
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

/* The codec of an artifact's compression field: false for none. */
bool codec_from_name(const char *name, enum codec *codec)
{
	for (size_t k = 0; k < NCODECS; k++) {
		if (!strcmp(name, codec_names[k])) {
			*codec = (enum codec)k;
			return true;
		}
	}
	return false;
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KEMBED_HEADERS_H
#define KEMBED_HEADERS_H

#include <stddef.h>
#include <stdint.h>

/* kembed headers install [--force] [--archive FILE] */
int cmd_headers(int argc, char **argv);

/*
 * In kembed.c: all of the file at path, its compression (xz, gzip, zstd,
 * bzip2, lzma), if any, undone; at most --limit bytes. NULL, or why not.
 */
const char *kembed_read_archive(const char *path, uint8_t **buf,
				size_t *len);

#endif

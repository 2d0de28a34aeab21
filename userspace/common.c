// SPDX-License-Identifier: GPL-2.0
/* kembed: messages, checks of untrusted bytes, SHA-256, reading, writing */

#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kembed.h"

const char *prog = "kembed";

struct options opt = {
	.limit = DEFAULT_LIMIT,
	.memlimit = DEFAULT_LIMIT,
};

/* Messages */

void __printf(2, 3)
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

/*
 * The rule of artifacts.d/README: letters, digits, ".", "_", "+", "-", at
 * most 63 characters, no "..". "." alone is refused too: the name becomes
 * a path under /proc.
 */
/* Only letters, digits and the characters in extra? */
bool chars_valid(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && !strchr(extra, *s))
			return false;
	return true;
}

bool name_valid(const char *s, size_t max)
{
	size_t len = strnlen(s, max);

	if (len == 0 || len == max || strstr(s, "..") || !strcmp(s, "."))
		return false;
	return chars_valid(s, "._+-");
}

bool word_valid(const char *s, size_t max)
{
	size_t len = strnlen(s, max);

	return len > 0 && len < max &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789") == len;
}

void sha256(const uint8_t *p, size_t len, uint8_t md[SHA256_LEN])
{
	unsigned int mdlen = SHA256_LEN;

	if (!EVP_Digest(p, len, md, &mdlen, EVP_sha256(), NULL) ||
	    mdlen != SHA256_LEN) {
		/* Only when libcrypto itself is broken. */
		error_at(NULL, "SHA-256 failed in libcrypto");
		exit(EXIT_ERROR);
	}
}

void hex(const uint8_t *p, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * len] = '\0';
}

bool unhex(const char *s, uint8_t *out, size_t len)
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

/* Read all of fd, at most max bytes; -EFBIG beyond. */
int read_all(int fd, size_t max, uint8_t **bufp, size_t *lenp)
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

int write_all(int fd, const uint8_t *p, size_t len)
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

// SPDX-License-Identifier: GPL-2.0
/*
 * Check the build artifacts the running kernel embeds (CONFIG_EMBEDDED_BLOB).
 *
 * Every artifact that /proc/embedded_blobs lists must be a read-only
 * /proc/<name> of the listed size, whose bytes have the listed SHA-256,
 * that refuses writers (EACCES or EPERM) even for root and seeks to its
 * end at its size.
 * /proc/config.gz and /proc/kheaders.tar.xz, when listed, must start with
 * the gzip and xz magic, and /sys/kernel/kheaders.tar.xz must hold the
 * same bytes as the /proc file.
 *
 * A kernel without the feature has no /proc/embedded_blobs: the test is
 * skipped, as it is when no artifact is registered (modules not loaded:
 * listed as "name - - - module", and left alone, as opening their file
 * would load the module).
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/embedded_blob.h>
#include <linux/types.h>

#include "../kselftest.h"

#define LIST_PATH	"/proc/embedded_blobs"
#define MAX_BLOBS	64
/* The uapi header, from KHDR_INCLUDES ("make headers" first) */
#define NAME_LEN	EMBEDDED_BLOB_NAME_LEN
/* The widths in read_list()'s formats are these less one. */
static_assert(NAME_LEN == 64 && EMBEDDED_BLOB_COMPRESSION_LEN == 16,
	      "the widths in read_list()");
#define TESTS_PER_BLOB	7

struct blob {
	char name[NAME_LEN];
	char compression[EMBEDDED_BLOB_COMPRESSION_LEN];
	char owner[NAME_LEN];
	unsigned long long size;
	__u8 sha256[32];
};

static struct blob blobs[MAX_BLOBS];
static int nr_blobs;

/* SHA-256 (FIPS 180-4): small rather than fast, for a few megabytes. */
struct sha256_state {
	__u32 h[8];
	__u8 buf[64];
	__u64 len;
};

static const __u32 sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static __u32 ror32(__u32 x, unsigned int n)
{
	return x >> n | x << (32 - n);
}

static void sha256_block(struct sha256_state *s, const __u8 *p)
{
	__u32 w[64], v[8], t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (__u32)p[4 * i] << 24 | (__u32)p[4 * i + 1] << 16 |
		       (__u32)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] + w[i - 7] +
		       (ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^
			w[i - 15] >> 3) +
		       (ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^
			w[i - 2] >> 10);
	memcpy(v, s->h, sizeof(v));
	for (i = 0; i < 64; i++) {
		t1 = v[7] + (ror32(v[4], 6) ^ ror32(v[4], 11) ^
			     ror32(v[4], 25)) +
		     ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha256_k[i] + w[i];
		t2 = (ror32(v[0], 2) ^ ror32(v[0], 13) ^ ror32(v[0], 22)) +
		     ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
		memmove(&v[1], &v[0], 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		s->h[i] += v[i];
}

static void sha256_init(struct sha256_state *s)
{
	static const __u32 h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
}

static void sha256_update(struct sha256_state *s, const __u8 *p, size_t n)
{
	size_t used = s->len % 64;

	s->len += n;
	if (used) {
		size_t take = n < 64 - used ? n : 64 - used;

		memcpy(s->buf + used, p, take);
		p += take;
		n -= take;
		if (used + take < 64)
			return;
		sha256_block(s, s->buf);
	}
	for (; n >= 64; p += 64, n -= 64)
		sha256_block(s, p);
	memcpy(s->buf, p, n);
}

static void sha256_final(struct sha256_state *s, __u8 out[32])
{
	__u64 bits = s->len * 8;
	__u8 pad[72] = { 0x80 };
	size_t padlen = 64 - (s->len + 8) % 64;
	int i;

	if (padlen == 0)
		padlen = 64;
	for (i = 0; i < 8; i++)
		pad[padlen + i] = bits >> (56 - 8 * i);
	sha256_update(s, pad, padlen + 8);
	for (i = 0; i < 32; i++)
		out[i] = s->h[i / 4] >> (24 - 8 * (i % 4));
}

static int parse_hex(const char *hex, __u8 *out, size_t len)
{
	size_t i;

	if (strlen(hex) != 2 * len ||
	    strspn(hex, "0123456789abcdef") != 2 * len)
		return -1;
	for (i = 0; i < len; i++)
		if (sscanf(hex + 2 * i, "%2hhx", &out[i]) != 1)
			return -1;
	return 0;
}

/* "name size compression sha256 builtin|module", one line per artifact */
static void read_list(void)
{
	char line[512], sha[80], extra[2];
	FILE *f;

	f = fopen(LIST_PATH, "r");
	if (!f) {
		if (errno == ENOENT)
			ksft_exit_skip(LIST_PATH " is missing: no CONFIG_EMBEDDED_BLOB\n");
		ksft_exit_fail_msg("open " LIST_PATH ": %s\n", strerror(errno));
	}
	while (fgets(line, sizeof(line), f)) {
		struct blob *b = &blobs[nr_blobs];

		if (nr_blobs == MAX_BLOBS)
			ksft_exit_fail_msg("more than %d artifacts listed\n",
					   MAX_BLOBS);
		/* "name - - - module": its module is not loaded */
		if (sscanf(line, "%63s - - - %63s %1s", b->name, b->owner,
			   extra) == 2)
			continue;
		if (sscanf(line, "%63s %llu %15s %79s %63s %1s", b->name,
			   &b->size, b->compression, sha, b->owner,
			   extra) != 5 ||
		    parse_hex(sha, b->sha256, sizeof(b->sha256)) ||
		    strchr(b->name, '/'))
			ksft_exit_fail_msg(LIST_PATH ": bad line: %s", line);
		nr_blobs++;
	}
	if (ferror(f))
		ksft_exit_fail_msg("read " LIST_PATH ": %s\n", strerror(errno));
	fclose(f);
}

static const struct blob *find_blob(const char *name)
{
	int i;

	for (i = 0; i < nr_blobs; i++)
		if (!strcmp(blobs[i].name, name))
			return &blobs[i];
	return NULL;
}

/* Read all of PATH: its length and SHA-256, and its first bytes. */
static int read_file(const char *path, unsigned long long *len,
		     __u8 sha[32], __u8 *head, size_t head_len)
{
	static __u8 buf[65536];
	struct sha256_state s;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	sha256_init(&s);
	*len = 0;
	memset(head, 0, head_len);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (*len < head_len)
			memcpy(head + *len, buf,
			       head_len - *len < (size_t)n ?
			       head_len - *len : (size_t)n);
		sha256_update(&s, buf, n);
		*len += n;
	}
	close(fd);
	if (n < 0)
		return -1;
	sha256_final(&s, sha);
	return 0;
}

/*
 * Writers are refused by the file's open (EACCES), or before it by the
 * VFS when the inode is immutable (EPERM).
 */
static int refused(int err)
{
	return err == EACCES || err == EPERM;
}

static void check_blob(const struct blob *b)
{
	unsigned long long len = 0;
	char path[NAME_LEN + 8];
	__u8 sha[32], head[8];
	struct stat st;
	int fd, ok;
	off_t end;

	snprintf(path, sizeof(path), "/proc/%s", b->name);

	ok = !stat(path, &st);
	if (!ok)
		ksft_print_msg("stat %s: %s\n", path, strerror(errno));
	ksft_test_result(ok && S_ISREG(st.st_mode) &&
			 (st.st_mode & 07777) == 0444,
			 "%s: a regular file of mode 0444\n", b->name);
	ksft_test_result(ok && (unsigned long long)st.st_size == b->size,
			 "%s: st_size is the listed %llu\n", b->name, b->size);

	ok = !read_file(path, &len, sha, head, sizeof(head));
	if (!ok)
		ksft_print_msg("read %s: %s\n", path, strerror(errno));
	ksft_test_result(ok && len == b->size,
			 "%s: reading it gives the listed size\n", b->name);
	ksft_test_result(ok && !memcmp(sha, b->sha256, sizeof(sha)),
			 "%s: its bytes have the listed SHA-256\n", b->name);

	fd = open(path, O_WRONLY);
	ksft_test_result(fd < 0 && refused(errno),
			 "%s: opening it for writing is refused\n", b->name);
	if (fd >= 0)
		close(fd);
	fd = open(path, O_RDWR);
	ksft_test_result(fd < 0 && refused(errno),
			 "%s: opening it read-write is refused\n", b->name);
	if (fd >= 0)
		close(fd);

	end = -1;
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		end = lseek(fd, 0, SEEK_END);
		close(fd);
	}
	ksft_test_result(end >= 0 && (unsigned long long)end == b->size,
			 "%s: SEEK_END is at the size\n", b->name);
}

/* The well-known artifacts: the first bytes of /proc/<name>. */
static void check_magic(const char *name, const char *what,
			const __u8 *magic, size_t len)
{
	unsigned long long size;
	char path[NAME_LEN + 8];
	__u8 sha[32], head[8];
	int ok;

	snprintf(path, sizeof(path), "/proc/%s", name);
	ok = !read_file(path, &size, sha, head, sizeof(head));
	ksft_test_result(ok && size >= len && !memcmp(head, magic, len),
			 "%s: starts with the %s magic\n", name, what);
}

/* sysfs serves the same bytes as /proc, through another reader. */
static void check_sysfs(const struct blob *b)
{
	unsigned long long len;
	char path[NAME_LEN + 16];
	__u8 sha[32], head[8];
	int ok;

	snprintf(path, sizeof(path), "/sys/kernel/%s", b->name);
	ok = !read_file(path, &len, sha, head, sizeof(head));
	ksft_test_result(ok && len == b->size &&
			 !memcmp(sha, b->sha256, sizeof(sha)),
			 "%s: same bytes as /proc/%s\n", path, b->name);
}

int main(void)
{
	static const __u8 gzip_magic[] = { 0x1f, 0x8b };
	static const __u8 xz_magic[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
	const struct blob *config = NULL, *kheaders = NULL;
	int i, plan;

	ksft_print_header();
	read_list();
	if (!nr_blobs)
		ksft_exit_skip(LIST_PATH " lists no artifact (none built in, no module loaded)\n");

	config = find_blob("config.gz");
	kheaders = find_blob("kheaders.tar.xz");
	plan = 1 + nr_blobs * TESTS_PER_BLOB + !!config + 2 * !!kheaders;
	ksft_set_plan(plan);

	ksft_test_result_pass("%s lists %d artifacts\n", LIST_PATH, nr_blobs);
	for (i = 0; i < nr_blobs; i++) {
		ksft_print_msg("%s: %llu bytes, %s, from %s\n", blobs[i].name,
			       blobs[i].size, blobs[i].compression,
			       blobs[i].owner);
		check_blob(&blobs[i]);
	}
	if (config)
		check_magic("config.gz", "gzip", gzip_magic,
			    sizeof(gzip_magic));
	if (kheaders) {
		check_magic("kheaders.tar.xz", "xz", xz_magic,
			    sizeof(xz_magic));
		check_sysfs(kheaders);
	}

	ksft_finished();
	return 0;
}

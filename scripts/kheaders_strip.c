// SPDX-License-Identifier: GPL-2.0
/*
 * kheaders_strip: copy C headers without their comments, for the kheaders
 * archive (kernel/gen_kheaders.sh).
 *
 * Usage: kheaders_strip < LIST, where each line of LIST is "INPUT OUTPUT".
 * One process handles every header: forking a filter per file is what made
 * the archive slow to build.
 *
 * Comments are removed by the rule of translation phase 3: a comment
 * becomes one space. String and character literals are copied untouched,
 * so a slash-star inside them survives. Comments holding an
 * SPDX-License-Identifier are kept. Runs of blanks become one blank;
 * indentation, trailing blanks and empty lines are dropped, except after a
 * line ending in a backslash, where an empty line ends a macro and one
 * blank keeps tokens apart. Token streams are unchanged, and so are
 * stringified macro arguments, in which any run of white space is one
 * space.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *prog = "kheaders_strip";

struct buf {
	char *p;
	size_t len, cap;
};

static void put(struct buf *b, char c)
{
	if (b->len == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 65536;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			fprintf(stderr, "%s: out of memory\n", prog);
			exit(1);
		}
	}
	b->p[b->len++] = c;
}

static int read_file(const char *name, struct buf *b)
{
	FILE *f = fopen(name, "rb");
	size_t n;

	if (!f)
		return -1;
	b->len = 0;
	do {
		if (b->cap - b->len < 65536) {
			b->cap = b->cap * 2 + 65536;
			b->p = realloc(b->p, b->cap);
			if (!b->p) {
				fprintf(stderr, "%s: out of memory\n", prog);
				exit(1);
			}
		}
		n = fread(b->p + b->len, 1, b->cap - b->len, f);
		b->len += n;
	} while (n);
	if (ferror(f)) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* One blank, unless one was just written. */
static void put_blank(struct buf *b)
{
	if (!b->len || b->p[b->len - 1] != ' ')
		put(b, ' ');
}

static int is_spdx(const char *s, size_t n)
{
	static const char tag[] = "SPDX-License-Identifier";
	size_t i;

	for (i = 0; i + sizeof(tag) - 1 <= n; i++)
		if (!memcmp(s + i, tag, sizeof(tag) - 1))
			return 1;
	return 0;
}

/* Replace each comment by one space (translation phase 3). */
static void uncomment(const struct buf *in, struct buf *out)
{
	const char *s = in->p;
	size_t n = in->len, i = 0, j;
	char quote;

	while (i < n) {
		if (s[i] == '"' || s[i] == '\'') {
			/* A literal: copy up to its closing quote or newline. */
			quote = s[i];
			put(out, s[i++]);
			while (i < n && s[i] != quote && s[i] != '\n') {
				if (s[i] == '\\' && i + 1 < n)
					put(out, s[i++]);
				put(out, s[i++]);
			}
			if (i < n && s[i] == quote)
				put(out, s[i++]);
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			for (j = i + 2; j + 1 < n; j++)
				if (s[j] == '*' && s[j + 1] == '/')
					break;
			j = j + 1 < n ? j + 2 : n;
			if (is_spdx(s + i, j - i)) {
				while (i < j)
					put(out, s[i++]);
			} else {
				put_blank(out);
				i = j;
			}
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
			/* Up to the newline; backslash-newline continues it. */
			for (j = i + 2; j < n && s[j] != '\n'; j++)
				if (s[j] == '\\' && j + 1 < n && s[j + 1] == '\n')
					j++;
			if (is_spdx(s + i, j - i)) {
				while (i < j)
					put(out, s[i++]);
			} else {
				put_blank(out);
				i = j;
			}
		} else if (s[i] == ' ' || s[i] == '\t') {
			/* Runs of blanks separate tokens as well as one. */
			put_blank(out);
			while (i < n && (s[i] == ' ' || s[i] == '\t'))
				i++;
		} else {
			put(out, s[i++]);
		}
	}
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Drop indentation, trailing blanks and empty lines but where they matter. */
static void squeeze(const struct buf *in, struct buf *out)
{
	const char *s = in->p;
	size_t n = in->len, i = 0, end, k, lead;
	int continued = 0;

	out->len = 0;
	while (i < n) {
		for (end = i; end < n && s[end] != '\n'; end++)
			;
		k = end;
		while (k > i && is_blank(s[k - 1]))
			k--;
		/*
		 * Indentation goes, but after a backslash-newline, where one
		 * blank keeps the joined lines' tokens apart.
		 */
		lead = i;
		while (lead < k && is_blank(s[lead]))
			lead++;
		if (k > i || continued) {
			if (continued && lead > i)
				put(out, ' ');
			for (i = lead; i < k; i++)
				put(out, s[i]);
			put(out, '\n');
			continued = k > 0 && s[k - 1] == '\\';
		}
		i = end + 1;
	}
}

static int mkdirs(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct buf src = { 0 }, tmp = { 0 }, dst = { 0 };
	char line[8192], *in, *out, *nl;
	FILE *f;

	if (argc != 1) {
		fprintf(stderr, "usage: %s < LIST (lines: INPUT OUTPUT)\n", prog);
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		in = line;
		out = strchr(line, ' ');
		if (!out || !nl) {
			fprintf(stderr, "%s: bad list line: %s\n", prog, line);
			return 1;
		}
		*out++ = '\0';
		if (read_file(in, &src)) {
			fprintf(stderr, "%s: %s: %s\n", prog, in, strerror(errno));
			return 1;
		}
		tmp.len = 0;
		uncomment(&src, &tmp);
		squeeze(&tmp, &dst);
		f = mkdirs(out) ? NULL : fopen(out, "wb");
		if (!f || fwrite(dst.p, 1, dst.len, f) != dst.len ||
		    fclose(f)) {
			fprintf(stderr, "%s: %s: %s\n", prog, out, strerror(errno));
			return 1;
		}
	}
	return 0;
}

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
 * becomes one space. Line splices (phase 2) are honoured wherever they
 * fall: in a comment's delimiters, in a // comment, in a literal. String
 * and character literals are copied untouched, so a slash-star inside them
 * survives. Comments holding an SPDX-License-Identifier are kept. Runs of
 * blanks become one blank; indentation, trailing blanks and empty lines
 * are dropped, except after a line splice, where an empty line ends a
 * macro and one blank keeps tokens apart. Token streams are unchanged, and
 * so are stringified macro arguments, in which any run of white space is
 * one space.
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

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * Length of the line splice (translation phase 2) at s[i], or 0: a
 * backslash and a newline, with blanks between them as GCC allows.
 */
static size_t splice(const char *s, size_t n, size_t i)
{
	size_t j;

	if (s[i] != '\\')
		return 0;
	for (j = i + 1; j < n && is_blank(s[j]); j++)
		;
	return j < n && s[j] == '\n' ? j + 1 - i : 0;
}

/* The index of the first character at or after i that is not spliced. */
static size_t skip_splices(const char *s, size_t n, size_t i)
{
	size_t k;

	while (i < n && (k = splice(s, n, i)))
		i += k;
	return i;
}

/* The end of the comment opened by the slash at s[i], or i if none is. */
static size_t comment_end(const char *s, size_t n, size_t i)
{
	size_t j = skip_splices(s, n, i + 1), k;

	if (j >= n)
		return i;
	if (s[j] == '/') {
		/* Up to the newline; a line splice continues it. */
		for (j++; j < n && s[j] != '\n'; j++) {
			k = splice(s, n, j);
			if (k)
				j += k - 1;
		}
		return j;
	}
	if (s[j] != '*')
		return i;
	for (j++; j < n; j++) {
		if (s[j] != '*')
			continue;
		k = skip_splices(s, n, j + 1);
		if (k < n && s[k] == '/')
			return k + 1;
	}
	return n;
}

/* The end of the string or character literal opened at s[i]. */
static size_t literal_end(const char *s, size_t n, size_t i)
{
	char quote = s[i];
	size_t j = i + 1, k;

	while (j < n && s[j] != '\n') {
		k = splice(s, n, j);
		if (k) {
			j += k;
		} else if (s[j] == '\\') {
			/* An escape: whatever follows, even spliced, is kept. */
			j = skip_splices(s, n, j + 1);
			if (j < n)
				j++;
		} else if (s[j++] == quote) {
			break;
		}
	}
	return j;
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

/*
 * Copy in to out, replacing each comment by one blank (translation phase
 * 3), squeezing runs of blanks into one and dropping indentation, trailing
 * blanks and empty lines, but where they matter: a line that a splice
 * continues keeps one leading blank if it had any (the joined lines'
 * tokens stay apart) and is kept even when empty (it ends a macro).
 * Literals, splices in them included, are copied as they are.
 */
static void strip(const struct buf *in, struct buf *out)
{
	const char *s = in->p;
	size_t n = in->len, i = 0, j;
	int blank = 0, text = 0, continued = 0, comment, indent;

	out->len = 0;
	while (i < n) {
		j = splice(s, n, i);
		if (j || s[i] == '\n') {
			/* A splice keeps the blank before it: "a \" is "a ". */
			if (j && blank && (text || continued))
				put(out, ' ');
			if (j)
				put(out, '\\');
			if (j || text || continued)
				put(out, '\n');
			i += j ? j : 1;
			continued = !!j;
			blank = 0;
			text = 0;
			continue;
		}
		if (is_blank(s[i])) {
			blank = 1;
			i++;
			continue;
		}
		j = s[i] == '/' ? comment_end(s, n, i) : i;
		comment = j > i;
		if (comment && !is_spdx(s + i, j - i)) {
			blank = 1;
			i = j;
			continue;
		}
		if (!comment)
			j = s[i] == '"' || s[i] == '\'' ? literal_end(s, n, i) :
							   i + 1;
		if (blank && (text || continued))
			put(out, ' ');
		/* A kept comment loses its indentation too. */
		for (indent = 0; i < j; i++) {
			if (!(comment && indent && is_blank(s[i])))
				put(out, s[i]);
			indent = s[i] == '\n' || (indent && is_blank(s[i]));
		}
		blank = 0;
		text = 1;
	}
	if (text)
		put(out, '\n');
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
	struct buf src = { 0 }, dst = { 0 };
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
		strip(&src, &dst);
		f = mkdirs(out) ? NULL : fopen(out, "wb");
		if (!f || fwrite(dst.p, 1, dst.len, f) != dst.len ||
		    fclose(f)) {
			fprintf(stderr, "%s: %s: %s\n", prog, out, strerror(errno));
			return 1;
		}
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kembed headers install: unpack the running kernel's kheaders archive
 * into /lib/modules/$(uname -r)/build, where "make -C ... M=$PWD modules",
 * DKMS and bcc look for it.
 *
 * Safely: only root may do it; every directory on the way must be owned by
 * root and writable by nobody else, so nobody else can plant a symlink or
 * swap a directory under us (bcc and bpftrace had CVEs for unpacking
 * kheaders into /tmp); a symlink already at build is refused, never
 * followed; the archive is unpacked into a fresh temporary directory next
 * to build and renamed into place only once complete and once its
 * kernel.release is the running kernel's, so an interrupted or refused
 * install leaves no build tree behind (a later run removes the leftover
 * temporary directory).
 *
 * The archive is not trusted either (--archive, or a kheaders.ko someone
 * built): tar running as root keeps an archive's owners and modes, and
 * writes through a symlink the archive made earlier. So the archive is
 * decompressed and every member checked here first (no device, FIFO or
 * setuid file; no absolute path or ".."; no path through a symlink of the
 * archive; symlinks that stay in the tree; hard links to an earlier file
 * only), and only then given to tar, through a pipe, exactly the bytes
 * that were checked, to unpack as a user's tar would: owned by root, with
 * modes 0644 or 0755.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <search.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kembed.h"

#define TMP_PREFIX ".build.kembed-"

static const char *me = "kembed headers";

static int fail(const char *what, const char *fmt, ...) __printf(2, 3);

static int fail(const char *what, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", me, what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/* Run argv, wait for it; 0 if it exited 0. */
static int run(char *const argv[])
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (!pid) {
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/* Nobody but root may change @st, a directory on the way to build. */
static int trusted_dir(const char *path, const struct stat *st)
{
	if (!S_ISDIR(st->st_mode))
		return fail(path, "not a directory");
	if (st->st_uid != 0)
		return fail(path, "owned by uid %u, not root",
			    (unsigned int)st->st_uid);
	if (st->st_mode & 0022)
		return fail(path, "writable by group or others (mode %04o)",
			    (unsigned int)(st->st_mode & 07777));
	return 0;
}

/*
 * Check every directory of the resolved path @dir, from /: a symlink on
 * the way (merged /usr: /lib -> usr/lib) was resolved by realpath(), and
 * it and its target sit in directories that only root can change.
 */
static int trusted_path(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;
	size_t i, len = strlen(dir);

	if (len >= sizeof(path) || dir[0] != '/')
		return fail(dir, "bad path");
	for (i = 1; i <= len; i++) {
		if (dir[i] != '/' && dir[i] != '\0')
			continue;
		memcpy(path, dir, i);
		path[i] = '\0';
		if (lstat(path, &st))
			return fail(path, "%s", strerror(errno));
		if (trusted_dir(path, &st))
			return 1;
	}
	if (lstat("/", &st))
		return fail("/", "%s", strerror(errno));
	return trusted_dir("/", &st);
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_tree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Leftovers of an install that was killed. */
static void remove_leftovers(const char *parent)
{
	char *const argv[] = { "find", (char *)parent, "-mindepth", "1",
			 "-maxdepth", "1", "-name", TMP_PREFIX "*", "-exec",
			 "rm", "-rf", "{}", "+", NULL };

	run(argv);
}

/* The archive's members, checked before tar sees any of them. */

#define TAR_META_MAX	65536	/* a long name, link name or pax header */

struct member {
	char *shown;	/* the name as in the archive, for messages */
	char *name;	/* without "." and empty components */
	char *target;	/* a link's target, as in the archive */
	char *link;	/* a hard link's target, as name */
	size_t index;
	char type;	/* '0' file, '1' hard link, '2' symlink, '5' directory */
};

struct tar {
	const char *archive;
	struct member *m;
	size_t n;
	size_t cap;
	void *names;	/* tsearch() tree of the members, by name */
};

/* What extended headers (GNU 'L' and 'K', pax) say of the next member. */
struct ext {
	char *name;
	char *link;
	uint64_t size;
	bool has_size;
};

static int refuse(const struct tar *t, const char *member, const char *fmt,
		  ...) __printf(3, 4);

/* "kembed headers: ARCHIVE: MEMBER: reason", names made printable */
static int refuse(const struct tar *t, const char *member, const char *fmt,
		  ...)
{
	char msg[3 * PATH_MAX];
	const unsigned char *c;
	va_list ap;
	int n;

	n = snprintf(msg, sizeof(msg), "%s: ", member);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof(msg))
		vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s: ", me, t->archive);
	for (c = (const unsigned char *)msg; *c; c++)
		if (*c < ' ' || *c >= 0x7f || *c == '\\')
			fprintf(stderr, "\\%03o", *c);
		else
			fputc(*c, stderr);
	fputc('\n', stderr);
	return 1;
}

/* A numeric field as GNU tar reads it: spaces, octal, space or NUL. */
static bool tar_num(const uint8_t *f, size_t n, uint64_t *v)
{
	size_t i = 0;

	*v = 0;
	while (i < n && f[i] == ' ')
		i++;
	if (i == n || f[i] < '0' || f[i] > '7')
		return false;
	for (; i < n && f[i] >= '0' && f[i] <= '7'; i++)
		*v = *v * 8 + (f[i] - '0');
	for (; i < n; i++)
		if (f[i] != ' ' && f[i] != '\0')
			return false;
	return true;
}

/* GNU tar takes the unsigned or the signed sum of the bytes. */
static bool tar_checksum_ok(const uint8_t *h)
{
	long usum = 0, ssum = 0;
	uint64_t want;
	int i;

	for (i = 0; i < TAR_BLOCK; i++) {
		uint8_t c = i >= 148 && i < 156 ? ' ' : h[i];

		usum += c;
		ssum += (signed char)c;
	}
	return tar_num(h + 148, 8, &want) &&
	       (want == (uint64_t)usum || want == (uint64_t)ssum);
}

static bool tar_zero(const uint8_t *h)
{
	int i;

	for (i = 0; i < TAR_BLOCK; i++)
		if (h[i])
			return false;
	return true;
}

enum { PATH_OK, PATH_ABSOLUTE, PATH_DOTDOT };

/* path without "." and empty components, in *out; or why not. */
static int normalize(const char *path, char **out)
{
	char *o = malloc(strlen(path) + 1);
	const char *c = path;

	*out = o;
	if (!o)
		return -ENOMEM;
	if (*path == '/')
		return PATH_ABSOLUTE;
	while (*c) {
		size_t len = strcspn(c, "/");

		if (len == 2 && !strncmp(c, "..", 2))
			return PATH_DOTDOT;
		if (len && !(len == 1 && *c == '.')) {
			if (o != *out)
				*o++ = '/';
			memcpy(o, c, len);
			o += len;
		}
		c += len + !!c[len];
	}
	*o = '\0';
	return PATH_OK;
}

static int cmp_member(const void *a, const void *b)
{
	return strcmp(((const struct member *)a)->name,
		      ((const struct member *)b)->name);
}

static const struct member *lookup(const struct tar *t, const char *name)
{
	struct member key = { .name = (char *)name };
	void *node = tfind(&key, &t->names, cmp_member);

	return node ? *(struct member **)node : NULL;
}

static int add_member(struct tar *t, const char *shown, char type,
		      uint64_t mode, uint64_t size, const char *target)
{
	struct member *m;
	int why;

	switch (type) {
	case '\0':
		type = '0';
		break;
	case '0':
	case '1':
	case '2':
	case '5':
		break;
	case '3':
		return refuse(t, shown, "a character device");
	case '4':
		return refuse(t, shown, "a block device");
	case '6':
		return refuse(t, shown, "a FIFO");
	default:
		return refuse(t, shown, "member type %c: not a file, directory or link",
			      type);
	}
	if (mode & ~0777ULL)
		return refuse(t, shown, "mode 0%llo: setuid, setgid or sticky bit",
			      (unsigned long long)mode);
	if (size && type != '0')
		return refuse(t, shown, "a link or directory with data");
	if (!*shown)
		return refuse(t, shown, "no name");
	if (type == '0' && shown[strlen(shown) - 1] == '/')
		return refuse(t, shown, "a file whose name ends in /");
	if (type == '2' && !*target)
		return refuse(t, shown, "symlink to nothing");
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;

		m = reallocarray(t->m, cap, sizeof(*m));
		if (!m)
			return refuse(t, shown, "%s", strerror(ENOMEM));
		t->m = m;
		t->cap = cap;
	}
	m = &t->m[t->n];
	memset(m, 0, sizeof(*m));
	m->index = t->n++;
	m->type = type;
	m->shown = strdup(shown);
	m->target = strdup(target);
	if (!m->shown || !m->target)
		return refuse(t, shown, "%s", strerror(ENOMEM));
	why = normalize(shown, &m->name);
	if (why == PATH_ABSOLUTE)
		return refuse(t, shown, "absolute path");
	if (why == PATH_DOTDOT)
		return refuse(t, shown, "'..' in the path");
	if (why)
		return refuse(t, shown, "%s", strerror(ENOMEM));
	if (!*m->name && type != '5')
		return refuse(t, shown, "names the top directory");
	if (type != '1')
		return 0;
	why = normalize(target, &m->link);
	if (why == PATH_ABSOLUTE)
		return refuse(t, shown, "hard link to an absolute path");
	if (why == PATH_DOTDOT)
		return refuse(t, shown, "hard link to a path with '..'");
	if (why)
		return refuse(t, shown, "%s", strerror(ENOMEM));
	return 0;
}

/* A pax header's "LEN KEY=VALUE\n" records; those that move a member. */
static int tar_pax(const struct tar *t, const char *where, char type,
		   const uint8_t *p, size_t len, struct ext *e)
{
	size_t off = 0;

	while (off < len) {
		size_t rlen = 0, i = off, vlen;
		const char *key, *val, *eol;
		char **s;

		while (i < len && p[i] >= '0' && p[i] <= '9' && rlen <= len)
			rlen = rlen * 10 + (p[i++] - '0');
		if (i == off || i == len || p[i] != ' ' || rlen > len - off ||
		    rlen < i - off + 3 || p[off + rlen - 1] != '\n')
			return refuse(t, where, "bad pax header");
		key = (const char *)p + i + 1;
		eol = (const char *)p + off + rlen - 1;
		val = memchr(key, '=', eol - key);
		if (!val || val == key)
			return refuse(t, where, "bad pax header");
		vlen = eol - ++val;
		off += rlen;
		if (!strncmp(key, "GNU.sparse.", 11))
			return refuse(t, where, "a sparse file");
		if (!strncmp(key, "path=", 5))
			s = &e->name;
		else if (!strncmp(key, "linkpath=", 9))
			s = &e->link;
		else if (!strncmp(key, "size=", 5))
			s = NULL;
		else
			continue;
		if (type == 'g')
			return refuse(t, where, "a global pax header that names or sizes members");
		if (!s) {
			if (!vlen || vlen > 15 || e->has_size)
				return refuse(t, where, "bad pax size");
			for (e->size = 0; val < eol; val++) {
				if (*val < '0' || *val > '9')
					return refuse(t, where, "bad pax size");
				e->size = e->size * 10 + (*val - '0');
			}
			e->has_size = true;
			continue;
		}
		if (*s || !vlen || memchr(val, '\0', vlen))
			return refuse(t, where, "bad or second pax %.*s",
				      (int)(val - 1 - key), key);
		*s = strndup(val, vlen);
		if (!*s)
			return refuse(t, where, "%s", strerror(ENOMEM));
	}
	return 0;
}

static const char posix_magic[8] = { 'u', 's', 't', 'a', 'r', '\0', '0', '0' };

/* Every header up to the end-of-archive marker, or the end of the data. */
static int tar_parse(struct tar *t, const uint8_t *p, size_t len,
		     size_t *end)
{
	struct ext e = { NULL };
	size_t off = 0;
	int ret = 1;

	for (;;) {
		const uint8_t *h = p + off;
		char where[64], name[256 + 2], target[101];
		uint64_t size, mode, blocks;
		char type, **s;

		snprintf(where, sizeof(where), "header at byte %zu", off);
		if (off == len || (len - off >= TAR_BLOCK && tar_zero(h))) {
			if (e.name || e.link || e.has_size) {
				refuse(t, where, "extended header without a member");
				break;
			}
			*end = off;
			ret = 0;
			break;
		}
		if (len - off < TAR_BLOCK) {
			refuse(t, where, "truncated");
			break;
		}
		if (!tar_checksum_ok(h)) {
			refuse(t, where, "bad header checksum");
			break;
		}
		if (memcmp(h + 257, posix_magic, 8) &&
		    memcmp(h + 257, "ustar  ", 8)) {
			refuse(t, where, "not a ustar or GNU tar header");
			break;
		}
		/* a POSIX ustar header's prefix, as GNU tar reads it */
		name[0] = '\0';
		if (!memcmp(h + 257, "ustar", 6) && h[345])
			snprintf(name, sizeof(name), "%.155s/", h + 345);
		snprintf(name + strlen(name), sizeof(name) - strlen(name),
			 "%.100s", h);
		snprintf(target, sizeof(target), "%.100s", h + 157);
		type = h[156];
		if (!tar_num(h + 124, 12, &size) ||
		    !tar_num(h + 100, 8, &mode)) {
			refuse(t, e.name ? e.name : name, "bad size or mode field");
			break;
		}
		if (e.has_size && type != 'L' && type != 'K' && type != 'x' &&
		    type != 'g')
			size = e.size;
		off += TAR_BLOCK;
		blocks = size / TAR_BLOCK + !!(size % TAR_BLOCK);
		if (blocks > (len - off) / TAR_BLOCK) {
			refuse(t, e.name ? e.name : name, "truncated");
			break;
		}
		h = p + off;
		off += blocks * TAR_BLOCK;
		if (type == 'L' || type == 'K') {
			s = type == 'L' ? &e.name : &e.link;
			if (*s || size > TAR_META_MAX) {
				refuse(t, where, "bad or second GNU long name");
				break;
			}
			*s = strndup((const char *)h, size);
			if (!*s) {
				refuse(t, where, "%s", strerror(ENOMEM));
				break;
			}
			continue;
		}
		if (type == 'x' || type == 'g') {
			if (size > TAR_META_MAX) {
				refuse(t, where, "pax header too long");
				break;
			}
			if (tar_pax(t, where, type, h, size, &e))
				break;
			continue;
		}
		if (add_member(t, e.name ? e.name : name, type, mode, size,
			       e.link ? e.link : target))
			break;
		free(e.name);
		free(e.link);
		memset(&e, 0, sizeof(e));
	}
	free(e.name);
	free(e.link);
	return ret;
}

/* The first symlink of the archive among the directories of name. */
static const struct member *via_symlink(const struct tar *t, char *name)
{
	const struct member *m;
	char *s;

	for (s = strchr(name, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		m = lookup(t, name);
		*s = '/';
		if (m && m->type == '2')
			return m;
	}
	return NULL;
}

/*
 * Resolve symlink m's target in the tree: it must stay in it, and not go
 * through another symlink of the archive, whose own target would decide
 * where a ".." after it leads.
 */
static int check_symlink(const struct tar *t, const struct member *m)
{
	const char *c = m->target;
	const struct member *via;
	char *path, *slash;
	size_t n;
	int ret = 0;

	if (*c == '/')
		return refuse(t, m->shown, "symlink to an absolute path");
	path = malloc(strlen(m->name) + strlen(c) + 2);
	if (!path)
		return refuse(t, m->shown, "%s", strerror(ENOMEM));
	strcpy(path, m->name);
	slash = strrchr(path, '/');
	n = slash ? (size_t)(slash - path) : 0;
	path[n] = '\0';
	while (*c && !ret) {
		size_t len = strcspn(c, "/");

		if (len == 2 && !strncmp(c, "..", 2)) {
			if (!n) {
				ret = refuse(t, m->shown, "symlink to %s leaves the tree",
					     m->target);
				break;
			}
			slash = strrchr(path, '/');
			n = slash ? (size_t)(slash - path) : 0;
			path[n] = '\0';
		} else if (len && !(len == 1 && *c == '.')) {
			if (n)
				path[n++] = '/';
			memcpy(path + n, c, len);
			n += len;
			path[n] = '\0';
			via = c[len] ? lookup(t, path) : NULL;
			if (via && via->type == '2')
				ret = refuse(t, m->shown,
					     "symlink to %s goes through the symlink %s",
					     m->target, via->shown);
		}
		c += len + !!c[len];
	}
	free(path);
	return ret;
}

static int tar_check(struct tar *t)
{
	const struct member *other;
	struct member *m;
	size_t i;
	void *node;

	for (i = 0; i < t->n; i++) {
		m = &t->m[i];
		node = tsearch(m, &t->names, cmp_member);
		if (!node)
			return refuse(t, m->shown, "%s", strerror(ENOMEM));
		other = *(struct member **)node;
		if (other != m && (other->type != '5' || m->type != '5'))
			return refuse(t, m->shown, "a second member of that name");
	}
	for (i = 0; i < t->n; i++) {
		m = &t->m[i];
		other = via_symlink(t, m->name);
		if (other)
			return refuse(t, m->shown, "goes through the symlink %s",
				      other->shown);
		if (m->type == '2' && check_symlink(t, m))
			return 1;
		if (m->type != '1')
			continue;
		other = lookup(t, m->link);
		if (!other || other->index > i || other->type != '0')
			return refuse(t, m->shown,
				      "hard link to %s, which is not an earlier file of the archive",
				      m->target);
	}
	return 0;
}

static void no_free(void *p)
{
	(void)p;
}

/*
 * Check every member of the tar archive p[0..len); *end: where its
 * end-of-archive marker is, or its end: all that tar is given.
 */
static int tar_validate(const char *archive, const uint8_t *p, size_t len,
			size_t *end)
{
	struct tar t = { .archive = archive };
	int ret;
	size_t i;

	ret = tar_parse(&t, p, len, end) || tar_check(&t);
	tdestroy(t.names, no_free);
	for (i = 0; i < t.n; i++) {
		free(t.m[i].shown);
		free(t.m[i].name);
		free(t.m[i].target);
		free(t.m[i].link);
	}
	free(t.m);
	return ret;
}

/*
 * Unpack the checked archive into dir: fed through a pipe, so that tar
 * reads exactly what was checked and nothing after its end; owners and
 * modes are not the archive's, and no TAR_OPTIONS says otherwise.
 */
static int untar(const char *dir, const uint8_t *p, size_t len)
{
	static const uint8_t zeros[2 * TAR_BLOCK];
	char *const argv[] = { "tar", "-x", "--no-same-owner",
			       "--no-same-permissions", "-f", "-", "-C",
			       (char *)dir, NULL };
	sighandler_t old;
	int fd[2], status, ret;
	pid_t pid;

	if (pipe2(fd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		if (dup2(fd[0], 0) < 0)
			_exit(127);
		unsetenv("TAR_OPTIONS");
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[0]);
	/* tar failing early is told by its status */
	old = signal(SIGPIPE, SIG_IGN);
	ret = write_all(fd[1], p, len) || write_all(fd[1], zeros, sizeof(zeros));
	close(fd[1]);
	signal(SIGPIPE, old);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return !ret && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/* Root's, 0755 for directories and programs, 0644 for other files. */
static int normal_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	mode_t mode;

	(void)ftw;
	if (flag == FTW_SL)
		return 0;
	if (flag == FTW_D)
		mode = 0755;
	else if (flag == FTW_F && S_ISREG(st->st_mode))
		mode = st->st_mode & 0111 ? 0755 : 0644;
	else
		return -1;
	return lchown(path, 0, 0) || chmod(path, mode) ? -1 : 0;
}

static int read_release(const char *tree, char *buf, size_t size)
{
	char path[PATH_MAX + 64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/include/config/kernel.release", tree);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return n ? 0 : -1;
}

static int install(const char *archive, int force)
{
	char parent[PATH_MAX], want[PATH_MAX], tmp[PATH_MAX + 32];
	char build[PATH_MAX + 32];
	char got[256];
	struct utsname uts;
	struct stat st;
	uint8_t *data = NULL;
	const char *err;
	char *real;
	size_t len;
	int ret = 1, c;

	if (geteuid() != 0)
		return fail("install", "must be run as root");
	if (uname(&uts))
		return fail("uname", "%s", strerror(errno));

	if (!archive) {
		archive = "/proc/kheaders.tar.xz";
		if (access(archive, R_OK)) {
			char *const argv[] = { "modprobe", "-q", "kheaders", NULL };

			run(argv);
		}
		if (access(archive, R_OK))
			return fail(archive,
				    "not there, even after modprobe kheaders (IKHEADERS?)");
	}

	/* the tests' scratch directory, as for kembed list */
	if (getenv("KEMBED_MODULES") && *getenv("KEMBED_MODULES"))
		snprintf(want, sizeof(want), "%s", getenv("KEMBED_MODULES"));
	else
		snprintf(want, sizeof(want), "/lib/modules/%s", uts.release);
	if (mkdir(want, 0755) && errno != EEXIST)
		return fail(want, "%s", strerror(errno));
	real = realpath(want, NULL);
	if (!real)
		return fail(want, "%s", strerror(errno));
	snprintf(parent, sizeof(parent), "%s", real);
	free(real);
	if (trusted_path(parent))
		return 1;

	snprintf(build, sizeof(build), "%s/build", parent);
	if (!lstat(build, &st)) {
		if (S_ISLNK(st.st_mode) && !force)
			return fail(build,
				    "is a symlink: not followed (--force replaces it)");
		if (!force)
			return fail(build, "exists (--force replaces it)");
		if (!S_ISLNK(st.st_mode) && !S_ISDIR(st.st_mode))
			return fail(build, "not a directory");
	} else if (errno != ENOENT) {
		return fail(build, "%s", strerror(errno));
	}

	err = kembed_read_archive(archive, &data, &len);
	if (err)
		return fail(archive, "%s", err);
	if (tar_validate(archive, data, len, &len))
		goto out_free;

	remove_leftovers(parent);
	snprintf(tmp, sizeof(tmp), "%s/" TMP_PREFIX "XXXXXX", parent);
	if (!mkdtemp(tmp)) {
		fail(parent, "%s", strerror(errno));
		goto out_free;
	}
	if (untar(tmp, data, len)) {
		fail(archive, "could not be unpacked");
		goto out_remove;
	}
	if (nftw(tmp, normal_entry, 16, FTW_PHYS)) {
		fail(tmp, "could not make it root's, 0644 and 0755");
		goto out_remove;
	}

	if (read_release(tmp, got, sizeof(got))) {
		fail(archive, "has no include/config/kernel.release");
		goto out_remove;
	}
	if (strcmp(got, uts.release)) {
		fail(archive, "is for kernel %s, but %s is running", got,
		     uts.release);
		goto out_remove;
	}

	/* A directory there is swapped with ours, then removed as tmp. */
	if (!lstat(build, &st) && S_ISDIR(st.st_mode))
		c = renameat2(AT_FDCWD, tmp, AT_FDCWD, build, RENAME_EXCHANGE);
	else
		c = rename(tmp, build);
	if (c) {
		fail(build, "%s", strerror(errno));
		goto out_remove;
	}
	printf("%s: headers for %s installed in %s\n", me, got, build);
	ret = 0;
out_remove:
	remove_tree(tmp);
out_free:
	free(data);
	return ret;
}

int cmd_headers(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "archive", required_argument, NULL, 'a' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *archive = NULL;
	int force = 0, c;

	while ((c = getopt_long(argc, argv, "a:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			archive = optarg;
			break;
		case 'f':
			force = 1;
			break;
		case 'h':
			printf("usage: kembed headers install [--force] [--archive FILE]\n"
			       "Unpack /proc/kheaders.tar.xz (loading kheaders.ko if needed) into\n"
			       "/lib/modules/$(uname -r)/build, refusing an archive for another kernel,\n"
			       "a symlink at build, and directories others can write. Every member is\n"
			       "checked before any is unpacked: a device, FIFO or setuid file, an\n"
			       "absolute path or \"..\", a path through a symlink, a symlink or hard link\n"
			       "out of the tree refuse the archive (\"ARCHIVE: MEMBER: reason\"). The tree\n"
			       "is root's, with modes 0644 and 0755, whatever the archive says.\n"
			       "Environment (for tests): KEMBED_MODULES instead of /lib/modules/$(uname -r).\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind + 1 != argc || strcmp(argv[optind], "install")) {
		fprintf(stderr, "%s: usage: kembed headers install [--force] [--archive FILE]\n",
			me);
		return 2;
	}
	return install(archive, force);
}

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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "headers.h"

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
	char *real;
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

	remove_leftovers(parent);
	snprintf(tmp, sizeof(tmp), "%s/" TMP_PREFIX "XXXXXX", parent);
	if (!mkdtemp(tmp))
		return fail(parent, "%s", strerror(errno));
	if (chmod(tmp, 0755)) {
		fail(tmp, "%s", strerror(errno));
		goto out_remove;
	}

	{
		char *const argv[] = { "tar", "-xf", (char *)archive, "-C", tmp,
				 NULL };

		if (run(argv)) {
			fail(archive, "could not be unpacked");
			goto out_remove;
		}
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
			       "a symlink at build, and directories others can write.\n"
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

// SPDX-License-Identifier: GPL-2.0
/*
 * kembed: what the commands work on. Offline, the artifacts of one input;
 * live, those /proc/embedded_blobs lists and those of the artifacts'
 * modules under /lib/modules/$(uname -r)/kernel/kernel that are not
 * loaded.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kembed.h"

static struct catalog_entry *catalog_add(struct catalog *c)
{
	struct catalog_entry *e;

	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;

		e = realloc(c->e, cap * sizeof(*e));
		if (!e) {
			error_at(NULL, "%s", strerror(ENOMEM));
			exit(EXIT_ERROR);
		}
		c->e = e;
		c->cap = cap;
	}
	e = &c->e[c->n++];
	memset(e, 0, sizeof(*e));
	return e;
}

void catalog_free(struct catalog *c)
{
	for (size_t i = 0; i < c->nimages; i++)
		image_free(&c->images[i]);
	free(c->images);
	free(c->e);
	memset(c, 0, sizeof(*c));
}

static bool catalog_has(const struct catalog *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].name, name))
			return true;
	return false;
}

/*
 * Load and scan path into the catalog; where_fmt, if given, replaces the
 * location (it is "module %s, not loaded" for a module file). Returns how
 * many artifacts were added, or -1 when the file could not be read.
 */
static long catalog_scan(struct catalog *c, const char *path,
			 const char *module, bool skip_known)
{
	struct image *im, *images;
	long added = 0;

	images = realloc(c->images, (c->nimages + 1) * sizeof(*images));
	if (!images) {
		error_at(NULL, "%s", strerror(ENOMEM));
		exit(EXIT_ERROR);
	}
	c->images = images;
	im = &c->images[c->nimages];
	if (image_load(im, path)) {
		c->status = EXIT_ERROR;
		return -1;
	}
	c->nimages++;
	image_scan(im);
	for (size_t i = 0; i < im->nart; i++) {
		const struct artifact *a = &im->art[i];
		struct catalog_entry *e;
		char where[160];

		artifact_where(im, a, where, sizeof(where));
		if (a->error[0]) {
			error_at(path, "%s at %s: %s",
				 a->name[0] ? a->name : "artifact", where,
				 a->error);
			c->status = EXIT_ERROR;
			if (!name_valid(a->name, EMBEDDED_BLOB_NAME_LEN))
				continue;
		}
		if (skip_known && catalog_has(c, a->name))
			continue;
		e = catalog_add(c);
		memcpy(e->name, a->name, sizeof(e->name));
		memcpy(e->compression, a->compression,
		       sizeof(e->compression));
		e->size = a->size;
		memcpy(e->sha256, a->sha256, SHA256_LEN);
		if (module)
			snprintf(e->where, sizeof(e->where),
				 "module %s, not loaded", module);
		else
			snprintf(e->where, sizeof(e->where), "%s", where);
		e->file = path;
		e->payload = a->payload;
		e->error = a->error[0] ? a->error : NULL;
		added++;
	}
	for (const struct stream *st = im->streams; st; st = st->next) {
		if (st->error) {
			error_at(path, "%s stream at 0x%llx: %s",
				 codec_names[st->codec],
				 (unsigned long long)st->offset, st->error);
			c->status = EXIT_ERROR;
		}
	}
	if (im->full) {
		error_at(path, "too many artifacts, gave up after %d",
			 MAX_ARTIFACTS);
		c->status = EXIT_ERROR;
	}
	if (!im->nart)
		snprintf(c->hint, sizeof(c->hint), "%s", im->hint);
	return added;
}

int catalog_offline(struct catalog *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	return catalog_scan(c, path, NULL, false) < 0 ? EXIT_ERROR : EXIT_OK;
}

/* Live: /proc/embedded_blobs, then the modules that are not loaded */

const char *proc_dir(void)
{
	const char *dir = getenv("KEMBED_PROC");

	return dir && *dir ? dir : "/proc";
}

static bool take_field(char **s, char **field)
{
	char *p = *s, *sp;

	if (!*p || *p == ' ')
		return false;
	sp = strchr(p, ' ');
	if (sp) {
		*sp = '\0';
		*s = sp + 1;
	} else {
		*s = p + strlen(p);
	}
	*field = p;
	return true;
}

/*
 * One line: name size compression sha256 builtin|<module>, or
 * "name - - - <module>" for an artifact whose module is not loaded
 * (*unloaded set; the scan of the modules finds it).
 */
static bool parse_blob_line(char *line, struct catalog_entry *e,
			    char *owner, size_t owner_size, bool *unloaded)
{
	char *name, *size, *comp, *sha, *own, *end;
	unsigned long long v;

	if (!take_field(&line, &name) || !take_field(&line, &size) ||
	    !take_field(&line, &comp) || !take_field(&line, &sha) ||
	    !take_field(&line, &own) || *line)
		return false;
	*unloaded = !strcmp(size, "-") && !strcmp(comp, "-") &&
		    !strcmp(sha, "-");
	if (*unloaded)
		return name_valid(name, EMBEDDED_BLOB_NAME_LEN) &&
		       strlen(own) < owner_size && chars_valid(own, "_-") &&
		       strcmp(own, "builtin");
	if (!name_valid(name, EMBEDDED_BLOB_NAME_LEN) ||
	    !word_valid(comp, EMBEDDED_BLOB_COMPRESSION_LEN) ||
	    strlen(own) >= owner_size ||
	    !chars_valid(own, "_-") ||
	    strspn(size, "0123456789") != strlen(size) || strlen(size) > 20 ||
	    strlen(sha) != 2 * SHA256_LEN || !unhex(sha, e->sha256, SHA256_LEN))
		return false;
	errno = 0;
	v = strtoull(size, &end, 10);
	if (errno || *end)
		return false;
	e->size = v;
	strcpy(e->name, name);
	strcpy(e->compression, comp);
	strcpy(owner, own);
	return true;
}

void parse_blob_list(struct catalog *c, const char *file,
		     char *text, size_t len)
{
	size_t lineno = 0;
	char *p = text, *end = text + len;

	while (p < end) {
		char owner[EMBEDDED_BLOB_NAME_LEN];
		char *nl = memchr(p, '\n', end - p);
		struct catalog_entry tmp;
		bool unloaded;

		lineno++;
		if (!nl) {
			error_at(file, "line %zu: no newline at the end",
				 lineno);
			c->status = EXIT_ERROR;
			break;
		}
		*nl = '\0';
		memset(&tmp, 0, sizeof(tmp));
		if (nl - p > MAX_LINE || strlen(p) != (size_t)(nl - p) ||
		    !parse_blob_line(p, &tmp, owner, sizeof(owner),
				     &unloaded)) {
			error_at(file, "line %zu: malformed", lineno);
			c->status = EXIT_ERROR;
		} else if (!unloaded && !catalog_has(c, tmp.name)) {
			struct catalog_entry *e = catalog_add(c);

			*e = tmp;
			if (!strcmp(owner, "builtin"))
				strcpy(e->where, "builtin");
			else
				snprintf(e->where, sizeof(e->where),
					 "module %s", owner);
			e->file = file;
			e->live = true;
		}
		p = nl + 1;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* kernel/foo.ko(.gz|.xz|.zst) -> "foo"; NULL for anything else */
static bool module_file(const char *file, char *module, size_t size)
{
	static const char *const suffixes[] = {
		".ko", ".ko.gz", ".ko.xz", ".ko.zst",
	};
	size_t len = strlen(file);

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++) {
		size_t slen = strlen(suffixes[i]);

		if (len > slen && len - slen < size &&
		    !strcmp(file + len - slen, suffixes[i])) {
			memcpy(module, file, len - slen);
			module[len - slen] = '\0';
			for (char *p = module; *p; p++)
				if (*p == '-')
					*p = '_';
			return true;
		}
	}
	return false;
}

/*
 * Artifacts built as modules live in kernel/kernel/<module>.ko of the
 * modules directory (they are objects of the kernel/ directory): scan
 * those files for the ones that are not loaded.
 */
static void scan_modules(struct catalog *c)
{
	const char *dir = getenv("KEMBED_MODULES");
	char path[PATH_MAX], *names[MAX_MODULES];
	size_t n = 0;
	struct utsname u;
	struct dirent *d;
	DIR *dp;

	if (dir && *dir) {
		snprintf(path, sizeof(path), "%s/kernel/kernel", dir);
	} else {
		if (uname(&u))
			return;
		snprintf(path, sizeof(path), "/lib/modules/%s/kernel/kernel",
			 u.release);
	}
	dp = opendir(path);
	if (!dp)
		return;
	while ((d = readdir(dp)) && n < MAX_MODULES) {
		char module[EMBEDDED_BLOB_NAME_LEN];

		if (d->d_name[0] == '.' ||
		    !module_file(d->d_name, module, sizeof(module)))
			continue;
		names[n] = strdup(d->d_name);
		if (names[n])
			n++;
	}
	closedir(dp);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		char file[PATH_MAX + 256], module[EMBEDDED_BLOB_NAME_LEN];
		struct stat st;

		snprintf(file, sizeof(file), "%s/%s", path, names[i]);
		module_file(names[i], module, sizeof(module));
		if (!lstat(file, &st) && S_ISREG(st.st_mode)) {
			char *keep = strdup(file);

			/* the catalog's images keep pointing at the path */
			if (keep && catalog_scan(c, keep, module, true) < 0)
				free(keep);
		}
		free(names[i]);
	}
}

int catalog_live(struct catalog *c)
{
	static char file[PATH_MAX];
	uint8_t *text;
	size_t len;
	int fd, ret;

	memset(c, 0, sizeof(*c));
	snprintf(file, sizeof(file), "%s/embedded_blobs", proc_dir());
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno != ENOENT) {
		error_at(file, "%s", strerror(errno));
		return EXIT_ERROR;
	}
	if (fd >= 0) {
		ret = read_all(fd, MAX_LIST_SIZE, &text, &len);
		close(fd);
		if (ret) {
			error_at(file, "%s", ret == -EFBIG ? "too large" :
				 strerror(-ret));
			return EXIT_ERROR;
		}
		parse_blob_list(c, file, (char *)text, len);
		free(text);
	}
	scan_modules(c);
	return EXIT_OK;
}

/* Name images kept by scan_modules() own their path: free them. */
void catalog_free_live(struct catalog *c)
{
	for (size_t i = 0; i < c->nimages; i++)
		free((char *)c->images[i].path);
	catalog_free(c);
}

/* The payload of an entry: in the image, or read from /proc/<name>. */
int entry_read(const struct catalog_entry *e, const uint8_t **data,
	       uint8_t **owned, const char **file, char *fbuf, size_t fsize)
{
	int fd, ret;
	size_t len;

	*owned = NULL;
	*file = e->file;
	/* catalog_scan() told why already */
	if (e->error)
		return EXIT_ERROR;
	if (!e->live) {
		*data = e->payload;
		return EXIT_OK;
	}
	snprintf(fbuf, fsize, "%s/%s", proc_dir(), e->name);
	*file = fbuf;
	if (e->size > opt.limit) {
		error_at(fbuf, "%llu bytes, larger than the limit (see --limit)",
			 (unsigned long long)e->size);
		return EXIT_ERROR;
	}
	fd = open(fbuf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		error_at(fbuf, "%s", strerror(errno));
		return EXIT_ERROR;
	}
	ret = read_all(fd, e->size, owned, &len);
	close(fd);
	if (ret == -EFBIG) {
		error_at(fbuf, "longer than the %llu bytes listed",
			 (unsigned long long)e->size);
		return EXIT_ERROR;
	}
	if (ret) {
		error_at(fbuf, "%s", strerror(-ret));
		return EXIT_ERROR;
	}
	if (len != e->size) {
		error_at(fbuf, "%zu bytes, not the %llu bytes listed", len,
			 (unsigned long long)e->size);
		free(*owned);
		*owned = NULL;
		return EXIT_ERROR;
	}
	*data = *owned;
	return EXIT_OK;
}

bool entry_matches(const struct catalog_entry *e, const uint8_t *data)
{
	uint8_t md[SHA256_LEN];

	sha256(data, e->size, md);
	return !memcmp(md, e->sha256, SHA256_LEN);
}

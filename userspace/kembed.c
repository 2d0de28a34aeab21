// SPDX-License-Identifier: GPL-2.0
/*
 * kembed - list, extract and verify the build artifacts a kernel carries.
 *
 * Live, from the running kernel: /proc/embedded_blobs names what is
 * registered, /proc/<name> serves it, and the artifacts' modules under
 * /lib/modules/$(uname -r)/kernel/kernel tell what could be loaded.
 * Offline, from a vmlinux, a raw or compressed boot image or a module
 * (image.c). The parts of the tool: kembed.h.
 *
 * Exit status: 0 success, 1 error (unreadable or damaged input, failed
 * verification), 2 usage error, 3 no such artifact (or none at all).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kembed.h"

#define KEMBED_VERSION		"1.0"

static int __printf(1, 2)
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	return EXIT_USAGE;
}

/*
 * Write to path atomically: a temporary file next to it, renamed over it
 * once complete, so that a failure leaves the old file (or none). Devices
 * and other special files are written in place.
 */
static int write_file(const char *path, const uint8_t *p, size_t len)
{
	char *tmp = NULL;
	struct stat st;
	mode_t mask;
	int fd, ret;

	if (!strcmp(path, "-")) {
		ret = write_all(1, p, len);
		if (ret) {
			error_at("stdout", "%s", strerror(-ret));
			return EXIT_ERROR;
		}
		return EXIT_OK;
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		ret = fd < 0 ? -errno : write_all(fd, p, len);
		if (ret) {
			error_at(path, "%s", strerror(-ret));
			if (fd >= 0)
				close(fd);
			return EXIT_ERROR;
		}
		if (close(fd)) {
			error_at(path, "%s", strerror(errno));
			return EXIT_ERROR;
		}
		return EXIT_OK;
	}
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		error_at(path, "%s", strerror(ENOMEM));
		return EXIT_ERROR;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		error_at(path, "%s", strerror(errno));
		free(tmp);
		return EXIT_ERROR;
	}
	mask = umask(0);
	umask(mask);
	ret = write_all(fd, p, len);
	if (!ret && fchmod(fd, 0666 & ~mask))
		ret = -errno;
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		error_at(path, "%s", strerror(-ret));
		unlink(tmp);
		free(tmp);
		return EXIT_ERROR;
	}
	free(tmp);
	return EXIT_OK;
}

/* Commands */

static const char *file_label(const struct catalog *c)
{
	return c->path ? c->path : "running kernel";
}

static int nothing_found(const struct catalog *c)
{
	if (c->path && c->hint[0]) {
		error_at(c->path, "no embedded artifact found (%s)", c->hint);
		return EXIT_ERROR;
	}
	if (c->path && !c->nimages)
		return EXIT_ERROR;
	if (c->path && !c->images[0].len)
		error_at(c->path, "empty file");
	else if (c->path)
		error_at(c->path, "no embedded artifact found");
	else
		error_at(NULL, "the running kernel carries no artifacts");
	return c->status ? c->status : EXIT_NOTFOUND;
}

/*
 * An archive that lacks what building modules against it needs (kheaders
 * made without CONFIG_CC_CAN_LINK: no fixdep, no modpost) says so in a
 * file HEADERS-ONLY of its top directory, which sorts among its first
 * members. list looks for it there, decompressing at most NOTE_SCAN bytes
 * of the archive, which it reads only when it is at hand (an image, or a
 * loaded module).
 */
#define NOTE_MEMBER	"./HEADERS-ONLY"
#define NOTE_SCAN	((size_t)1 << 20)

static bool tar_has_note(const uint8_t *p, size_t len)
{
	size_t off = 0;

	while (len - off >= TAR_BLOCK) {
		const uint8_t *h = p + off;
		uint64_t size = 0, blocks;
		char name[101];

		if (memcmp(h + 257, "ustar", 5))
			return false;
		memcpy(name, h, 100);
		name[100] = '\0';
		if (!strcmp(name, NOTE_MEMBER))
			return true;
		/* past the files of the top directory */
		if (strncmp(name, "./", 2) || strchr(name + 2, '/'))
			return false;
		for (int i = 124; i < 136 && h[i] >= '0' && h[i] <= '7'; i++)
			size = size * 8 + (h[i] - '0');
		blocks = size / TAR_BLOCK + !!(size % TAR_BLOCK);
		if (blocks >= (len - off) / TAR_BLOCK)
			return false;
		off += (blocks + 1) * TAR_BLOCK;
	}
	return false;
}

static bool headers_only(const struct catalog_entry *e)
{
	struct out o = { .limit = NOTE_SCAN };
	const uint8_t *data;
	const char *file;
	char fbuf[PATH_MAX];
	uint8_t *owned;
	enum codec codec;
	bool found;
	size_t used;

	if (e->error)
		return false;
	if (e->live) {
		snprintf(fbuf, sizeof(fbuf), "%s/%s", proc_dir(), e->name);
		if (access(fbuf, R_OK))
			return false;
	}
	if (entry_read(e, &data, &owned, &file, fbuf, sizeof(fbuf)))
		return false;
	if (!strcmp(e->compression, "none")) {
		found = tar_has_note(data, e->size);
		free(owned);
		return found;
	}
	found = false;
	if (codec_from_name(e->compression, &codec)) {
		/* stops at the limit, with what it has */
		decompress(codec, data, e->size, true, &o, &used);
		found = tar_has_note(o.buf, o.len);
	}
	free(o.buf);
	free(owned);
	return found;
}

static int cmd_list_run(struct catalog *c)
{
	int wname = 0, wsize = 0, wcomp = 0;

	if (!c->n)
		return nothing_found(c);
	for (size_t i = 0; i < c->n; i++) {
		const struct catalog_entry *e = &c->e[i];
		int n = snprintf(NULL, 0, "%llu", (unsigned long long)e->size);

		if ((int)strlen(e->name) > wname)
			wname = strlen(e->name);
		if (n > wsize)
			wsize = n;
		if ((int)strlen(e->compression) > wcomp)
			wcomp = strlen(e->compression);
	}
	for (size_t i = 0; i < c->n; i++) {
		const struct catalog_entry *e = &c->e[i];
		char sha[2 * SHA256_LEN + 1];

		hex(e->sha256, SHA256_LEN, sha);
		printf("%-*s %*llu %-*s %s %s%s\n", wname, e->name, wsize,
		       (unsigned long long)e->size, wcomp, e->compression,
		       sha, e->where,
		       headers_only(e) ? " (headers only)" : "");
	}
	return c->status;
}

static int cmd_verify_run(struct catalog *c, const char *name)
{
	int status = c->status;
	size_t found = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct catalog_entry *e = &c->e[i];
		const uint8_t *data;
		const char *file;
		uint8_t *owned;
		char fbuf[PATH_MAX];

		if (name && strcmp(name, e->name))
			continue;
		found++;
		if (entry_read(e, &data, &owned, &file, fbuf, sizeof(fbuf))) {
			printf("%s: FAILED\n", e->name);
			status = EXIT_ERROR;
			continue;
		}
		if (!entry_matches(e, data)) {
			printf("%s: FAILED\n", e->name);
			error_at(file, "%s: SHA-256 mismatch", e->name);
			status = EXIT_ERROR;
		} else {
			printf("%s: OK\n", e->name);
		}
		free(owned);
	}
	if (found)
		return status;
	if (!name)
		return nothing_found(c);
	error_at(c->path, "%s: no such artifact%s%s", name,
		 c->path ? "" : " in the ", c->path ? "" : file_label(c));
	return c->status ? c->status : EXIT_NOTFOUND;
}

static int cmd_extract_run(struct catalog *c, const char *name,
			   const char *output, bool decomp)
{
	const struct catalog_entry *e = NULL;
	struct out o = { .limit = opt.limit };
	const uint8_t *data;
	const char *file, *err;
	char fbuf[PATH_MAX];
	uint8_t *owned;
	int ret;

	for (size_t i = 0; i < c->n && !e; i++)
		if (!strcmp(c->e[i].name, name))
			e = &c->e[i];
	if (!e) {
		error_at(c->path, "%s: no such artifact%s%s", name,
			 c->path ? "" : " in the ",
			 c->path ? "" : file_label(c));
		return c->status ? c->status : EXIT_NOTFOUND;
	}
	ret = entry_read(e, &data, &owned, &file, fbuf, sizeof(fbuf));
	if (ret)
		return ret;
	if (!entry_matches(e, data)) {
		error_at(file, "%s: SHA-256 mismatch, not extracted", e->name);
		free(owned);
		return EXIT_ERROR;
	}
	if (decomp && strcmp(e->compression, "none")) {
		enum codec codec;
		size_t used;

		if (!codec_from_name(e->compression, &codec)) {
			error_at(file, "%s: unknown compression \"%s\"",
				 e->name, e->compression);
			free(owned);
			return EXIT_ERROR;
		}
		err = decompress(codec, data, e->size, true, &o, &used);
		if (err) {
			error_at(file, "%s: %s", e->name, err);
			free(o.buf);
			free(owned);
			return EXIT_ERROR;
		}
		ret = write_file(output, o.buf, o.len);
		free(o.buf);
	} else {
		ret = write_file(output, data, e->size);
	}
	free(owned);
	return ret;
}

static int load(struct catalog *c, const char *image)
{
	return image ? catalog_offline(c, image) : catalog_live(c);
}

static void unload(struct catalog *c)
{
	if (c->path)
		catalog_free(c);
	else
		catalog_free_live(c);
}

/* Options */

enum { OPT_LIMIT = 256, OPT_VERSION };

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "output", required_argument, NULL, 'o' },
	{ "decompress", no_argument, NULL, 'd' },
	{ 0 }
};

/* What the options of extract say. */
static struct {
	const char *output;
	bool decompress;
} args = {
	.output = "-",
};

static bool parse_size(const char *s, size_t *v)
{
	unsigned long long n;
	char *end;
	int shift = 0;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return false;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M')
		shift = 20;
	else if (*end == 'G')
		shift = 30;
	if (shift)
		end++;
	if (*end || !n || n > (SIZE_MAX / 4) >> shift)
		return false;
	*v = (size_t)n << shift;
	return true;
}

static void print_help(const char *cmd);

/*
 * The options of cmd (NULL: those before the command); own lists the
 * short names of the options only that command takes. Returns -1 to go
 * on, or the status to exit with.
 */
static int parse_options(int argc, char **argv, const char *cmd,
			 const char *own)
{
	int ch;

	while ((ch = getopt_long(argc, argv, cmd ? "hvo:d" : "+hv", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'h':
			print_help(cmd);
			return EXIT_OK;
		case 'v':
			opt.verbose = true;
			break;
		case OPT_VERSION:
			printf("kembed %s\n", KEMBED_VERSION);
			return EXIT_OK;
		case OPT_LIMIT:
			if (!parse_size(optarg, &opt.limit))
				return usage_error("--limit: not a size: '%s'",
						   optarg);
			opt.memlimit = opt.limit > DEFAULT_LIMIT ? opt.limit :
								 DEFAULT_LIMIT;
			break;
		case 'o':
		case 'd':
			if (!strchr(own, ch))
				return usage_error("%s does not take -%c",
						   cmd ? cmd : "kembed", ch);
			if (ch == 'o')
				args.output = optarg;
			else
				args.decompress = true;
			break;
		default:
			/* getopt_long() told what is wrong */
			fprintf(stderr, "Try '%s --help'.\n", prog);
			return EXIT_USAGE;
		}
	}
	return -1;
}

static int cmd_list(int argc, char **argv)
{
	struct catalog c;
	int ret;

	ret = parse_options(argc, argv, "list", "");
	if (ret >= 0)
		return ret;
	if (argc - optind > 1)
		return usage_error("list: too many arguments");
	ret = load(&c, argc > optind ? argv[optind] : NULL);
	if (!ret)
		ret = cmd_list_run(&c);
	unload(&c);
	return ret;
}

static int cmd_extract(int argc, char **argv)
{
	struct catalog c;
	int ret;

	ret = parse_options(argc, argv, "extract", "od");
	if (ret >= 0)
		return ret;
	if (argc == optind)
		return usage_error("extract: no NAME");
	if (argc - optind > 2)
		return usage_error("extract: too many arguments");
	if (!*args.output)
		return usage_error("extract: empty output file name");
	ret = load(&c, argc - optind == 2 ? argv[optind + 1] : NULL);
	if (!ret)
		ret = cmd_extract_run(&c, argv[optind], args.output,
				      args.decompress);
	unload(&c);
	return ret;
}

static int cmd_verify(int argc, char **argv)
{
	const char *name = NULL, *image = NULL;
	struct catalog c;
	struct stat st;
	int ret;

	ret = parse_options(argc, argv, "verify", "");
	if (ret >= 0)
		return ret;
	switch (argc - optind) {
	case 0:
		break;
	case 1:
		/* an existing file is the IMAGE, anything else the NAME */
		if (!strcmp(argv[optind], "-") || !stat(argv[optind], &st))
			image = argv[optind];
		else
			name = argv[optind];
		break;
	case 2:
		name = argv[optind];
		image = argv[optind + 1];
		break;
	default:
		return usage_error("verify: too many arguments");
	}
	ret = load(&c, image);
	if (!ret)
		ret = cmd_verify_run(&c, name);
	unload(&c);
	return ret;
}

static int cmd_help(int argc, char **argv)
{
	print_help(argc > 1 ? argv[1] : NULL);
	return EXIT_OK;
}

/* A new subcommand is a function and a line here. */
static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;
	const char *summary;
} commands[] = {
	{ "list", cmd_list, "[IMAGE]",
	  "list the artifacts (name, size, compression, SHA-256, where)" },
	{ "extract", cmd_extract, "[-d] [-o FILE] NAME [IMAGE]",
	  "write an artifact's payload to stdout or FILE" },
	{ "verify", cmd_verify, "[NAME] [IMAGE]",
	  "check the size and SHA-256 of every (or one) artifact" },
	{ "headers", cmd_headers, "install [--force] [--archive FILE]",
	  "unpack kheaders into /lib/modules/$(uname -r)/build, safely" },
	{ "help", cmd_help, "[COMMAND]", "show this help" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(*commands))

static void print_help(const char *cmd)
{
	size_t i;

	printf("usage: %s [OPTION]... COMMAND [ARG]...\n\n", prog);
	for (i = 0; i < NCOMMANDS; i++)
		if (!cmd || !strcmp(cmd, commands[i].name))
			printf("  %s %s\n      %s\n", commands[i].name,
			       commands[i].args, commands[i].summary);
	printf("\n"
"Without IMAGE, the running kernel: /proc/embedded_blobs, /proc/<name>,\n"
"and the artifact modules in /lib/modules/$(uname -r)/kernel/kernel that\n"
"are not loaded. IMAGE is a vmlinux, a raw or compressed boot image (gzip,\n"
"xz, lzma, zstd, bzip2, at any offset), a module, or - for stdin.\n"
"verify with one argument: an existing file is the IMAGE, anything else\n"
"the NAME. extract checks the SHA-256 before it writes anything.\n"
"\n"
"Options:\n"
"  -o, --output FILE  extract: write FILE (atomically), not stdout\n"
"  -d, --decompress   extract: undo the artifact's own compression\n"
"      --limit SIZE   decompress or read at most SIZE bytes per input (K, M,\n"
"                     G suffixes; default 256M); a decoder may use 256M of\n"
"                     memory, or SIZE if that is more\n"
"  -v, --verbose      tell which compressed streams were tried\n"
"  -h, --help         show this help\n"
"      --version      show the version\n"
"\n"
"Output of list: NAME SIZE COMPRESSION SHA256 WHERE, where WHERE is\n"
"\"builtin\", \"module M\" or \"module M, not loaded\" for the running\n"
"kernel, and the header's offset for an IMAGE: 0xOFF, 0xOFF(SECTION+0xOFF)\n"
"in an ELF file, CODEC@0xSTREAM:0xOFF inside a compressed stream.\n"
"\"(headers only)\" follows an archive that holds no fixdep and modpost, so\n"
"that modules cannot be built against it (a kheaders made without\n"
"CONFIG_CC_CAN_LINK or CONFIG_MODULES: see HEADERS-ONLY in it).\n"
"\n"
"Exit status: 0 success; 1 error: unreadable or damaged input, failed\n"
"verification; 2 usage error; 3 no such artifact, or none at all (an\n"
"empty file, a file that is no kernel).\n"
"\n"
"Environment (for tests): KEMBED_PROC instead of /proc, KEMBED_MODULES\n"
"instead of /lib/modules/$(uname -r).\n");
}

int main(int argc, char **argv)
{
	int ret;

	ret = parse_options(argc, argv, NULL, "");
	if (ret >= 0)
		return ret;
	if (optind == argc)
		return usage_error("no command");
	for (size_t i = 0; i < NCOMMANDS; i++) {
		static char name[64];

		if (strcmp(argv[optind], commands[i].name))
			continue;
		argv += optind;
		argc -= optind;
		/* getopt_long() messages say "kembed list: ..." */
		snprintf(name, sizeof(name), "%s %s", prog, commands[i].name);
		argv[0] = name;
		optind = 0;
		ret = commands[i].run(argc, argv);
		if (fflush(stdout) || ferror(stdout)) {
			error_at("stdout", "%s", strerror(errno));
			return EXIT_ERROR;
		}
		return ret;
	}
	return usage_error("unknown command '%s'", argv[optind]);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * blobcheck: hostile and concurrent use of the files kernel/embedded_blob.c
 * serves, for tests/lib/robust.sh. Compiled in the guest with its gcc.
 *
 *   blobcheck semantics FILE PAYLOAD [SEED]
 *	as root: mode, write/truncate/chmod/chown refused and nothing
 *	changed, lseek, reads at random offsets and lengths, mmap, sendfile
 *   blobcheck unprivileged FILE PAYLOAD MODULE_FILE MODULE_NAME
 *	as a user: reads work; writing, chmod, loading and unloading do not
 *   blobcheck readers N PAYLOAD FILE... [-- SEED]
 *	N processes stream the FILEs (round robin) with random read sizes
 *   blobcheck cycle KO NAME CYCLES READERS PAYLOAD [FILE...]
 *	load and unload KO CYCLES times while READERS processes read FILEs
 *   blobcheck held KO NAME PAYLOAD FILE...
 *	unload the module while FILEs are open, then reload it
 *   blobcheck autoload NAME PAYLOAD FILE READERS ROUNDS
 *	FILE, the core's /proc file of module NAME, loads it when opened:
 *	the first open timed, rmmod refused while open, then ROUNDS times
 *	READERS concurrent first opens from unloaded
 *   blobcheck load KO
 *	finit_module(KO); print "loaded" or the error (strerror)
 *
 * The payload is what the build embedded (<module>.payload). Each check
 * prints "ok DESC" or "not ok DESC" (robust.sh numbers them); lines
 * starting with "#" are diagnostics. Exit status 0 if no check failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define MIB		(1024 * 1024)
#define MAX_READERS	256

static int failed;
static uint64_t rng_state;

/*
 * blobcheck crashed twice in robust-m (SIGSEGV at address 4, in a shared
 * library, at the start of one cycle) and never when run again. Say what
 * it was doing and print its mappings, so that the pc the kernel logs
 * ("unhandled signal") resolves to a library and offset; then die of the
 * signal as before. Only async-signal-safe calls.
 */
static const char *volatile doing = "starting";

static void put(const char *s)
{
	if (write(STDOUT_FILENO, s, strlen(s)) < 0)
		return;
}

static void on_crash(int sig, siginfo_t *si, void *uc)
{
	char hex[2 + 16 + 1], buf[4096];
	uintptr_t addr = (uintptr_t)si->si_addr;
	ssize_t len;
	int fd, i;

	(void)uc;
	hex[0] = '0';
	hex[1] = 'x';
	for (i = 0; i < 16; i++)
		hex[2 + i] = "0123456789abcdef"[(addr >> (60 - 4 * i)) & 15];
	hex[18] = '\0';
	put(sig == SIGBUS ? "# blobcheck: SIGBUS" : "# blobcheck: SIGSEGV");
	put(" at ");
	put(hex);
	put(" while: ");
	put(doing);
	put("\n# its mappings:\n");
	fd = open("/proc/self/maps", O_RDONLY);
	while (fd >= 0 && (len = read(fd, buf, sizeof(buf))) > 0)
		if (write(STDOUT_FILENO, buf, len) < 0)
			break;
	/* SA_RESETHAND: the fault comes again and kills us */
}

static void catch_crashes(void)
{
	struct sigaction sa = {
		.sa_sigaction = on_crash,
		.sa_flags = SA_SIGINFO | SA_RESETHAND,
	};

	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

static void result(int pass, const char *todo, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", pass ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (todo && !pass)
		printf(" # %s", todo);
	printf("\n");
	fflush(stdout);
	if (!pass && !todo)
		failed = 1;
}

static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(1);
}

/* xorshift64*: reproducible from the printed seed */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static void seed(uint64_t s)
{
	rng_state = s ? s : 1;
}

static uint64_t now_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000007ULL + ts.tv_nsec + getpid();
}

/* A read length: 1, odd, around a page, or up to 1 MiB, log-uniform. */
static size_t rnd_len(void)
{
	switch (rnd() % 6) {
	case 0:
		return 1;
	case 1:
		return 1 + 2 * (rnd() % 64);
	case 2:
		return 4095 + rnd() % 3;
	case 3:
		return MIB;
	default:
		return 1 + rnd() % (1ULL << (rnd() % 21));
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct payload {
	unsigned char *p;
	size_t size;
};

static void load_payload(const char *name, struct payload *pl)
{
	struct stat st;
	int fd = open(name, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die(name);
	pl->size = st.st_size;
	pl->p = mmap(NULL, pl->size ? pl->size : 1, PROT_READ, MAP_PRIVATE,
		     fd, 0);
	if (pl->p == MAP_FAILED)
		die(name);
	close(fd);
}

static int is_proc(const char *file)
{
	return !strncmp(file, "/proc/", 6);
}

/*
 * One pread() of len bytes at off: the bytes must be the payload's; /proc
 * returns all that is there, sysfs may return less (a page per call), but
 * never nothing before EOF.
 */
static int check_pread(int fd, const char *file, const struct payload *pl,
		       unsigned char *buf, size_t len, off_t off, char *why,
		       size_t whylen)
{
	size_t want = (size_t)off >= pl->size ? 0 :
		      pl->size - off < len ? pl->size - off : len;
	ssize_t r = pread(fd, buf, len, off);

	if (r < 0) {
		snprintf(why, whylen, "pread(%zu at %lld): %s", len,
			 (long long)off, strerror(errno));
		return 0;
	}
	if ((size_t)r > want || (want && !r) ||
	    (is_proc(file) && (size_t)r != want)) {
		snprintf(why, whylen, "pread(%zu at %lld) = %zd, want %zu",
			 len, (long long)off, r, want);
		return 0;
	}
	if (r && memcmp(buf, pl->p + off, r)) {
		snprintf(why, whylen, "pread(%zu at %lld): wrong bytes", len,
			 (long long)off);
		return 0;
	}
	return 1;
}

/* The whole file, read with random lengths, equals the payload. */
static int stream_equal(int fd, const struct payload *pl, unsigned char *buf,
			char *why, size_t whylen)
{
	size_t pos = 0;
	ssize_t r;

	for (;;) {
		r = read(fd, buf, rnd_len());
		if (r < 0) {
			snprintf(why, whylen, "read at %zu: %s", pos,
				 strerror(errno));
			return -errno;
		}
		if (!r)
			break;
		if (pos + r > pl->size || memcmp(buf, pl->p + pos, r)) {
			snprintf(why, whylen, "wrong bytes at %zu", pos);
			return -EILSEQ;
		}
		pos += r;
	}
	if (pos != pl->size) {
		snprintf(why, whylen, "EOF after %zu of %zu bytes", pos,
			 pl->size);
		return -ENODATA;
	}
	return 0;
}

static int whole_file_equal(const char *file, const struct payload *pl)
{
	unsigned char *buf = malloc(MIB);
	char why[160];
	int fd = open(file, O_RDONLY), ret;

	if (fd < 0 || !buf) {
		free(buf);
		return 0;
	}
	ret = stream_equal(fd, pl, buf, why, sizeof(why));
	if (ret)
		diag("%s: %s", file, why);
	close(fd);
	free(buf);
	return !ret;
}

struct snapshot {
	mode_t mode;
	uid_t uid;
	gid_t gid;
	off_t size;
};

static int snap(const char *file, struct snapshot *s)
{
	struct stat st;

	if (stat(file, &st))
		return -1;
	s->mode = st.st_mode & 07777;
	s->uid = st.st_uid;
	s->gid = st.st_gid;
	s->size = st.st_size;
	return 0;
}

/* An open that must fail; returns 1 if refused. */
static int refused_open(const char *file, int flags, int *err)
{
	int fd = open(file, flags);

	if (fd < 0) {
		*err = errno;
		return 1;
	}
	close(fd);
	*err = 0;
	return 0;
}

/*
 * The /proc files are S_IMMUTABLE (PROC_ENTRY_IMMUTABLE, patches/0001): the
 * VFS refuses root's write opens, O_TRUNC, truncate, chmod, chown and utimes
 * with EPERM before procfs sees them.
 *
 * /sys/kernel/kheaders.tar.xz is a deliberate exception for the metadata:
 * kernfs keeps a mode, owner and times for every sysfs node and lets root
 * change them, and ignores a size change (upstream's file behaves the
 * same). Refusing that for this one file would need a new kernfs node
 * flag plumbed through sysfs_create_bin_file(); refusing it in
 * kernfs_iop_setattr() would change every read-only sysfs attribute, which
 * admins and udev rules chmod and chown on purpose. Its bytes cannot
 * change: it has no write method, so kernfs refuses every write open
 * (EACCES), even after a chmod 0666. So on sysfs root's setattr calls are
 * only reported, the file is put back as it was, and the checks below (no
 * write open after chmod 0666; mode, owner, size and bytes unchanged at
 * the end) must still hold.
 */
static void setattr_refused(const char *file, int err, const char *what)
{
	if (is_proc(file))
		result(err == EPERM, NULL, "%s: %s is refused with EPERM (%s)",
		       file, what, err ? strerror(err) : "allowed");
	else
		diag("%s: %s: %s (sysfs metadata: the exception above)", file,
		     what, err ? strerror(err) : "allowed");
}

static void semantics_refusals(const char *file, const struct payload *pl)
{
	static const struct {
		int flags;
		const char *name;
		int proc_err, sysfs_err;
	} opens[] = {
		{ O_WRONLY, "O_WRONLY", EPERM, EACCES },
		{ O_RDWR, "O_RDWR", EPERM, EACCES },
		{ O_WRONLY | O_APPEND, "O_WRONLY|O_APPEND", EPERM, EACCES },
		{ O_WRONLY | O_TRUNC, "O_WRONLY|O_TRUNC", EPERM, EACCES },
		{ O_RDWR | O_TRUNC, "O_RDWR|O_TRUNC", EPERM, EACCES },
		/* sysfs: opens, and the truncation is ignored (see above) */
		{ O_RDONLY | O_TRUNC, "O_RDONLY|O_TRUNC", EPERM, 0 },
		{ O_WRONLY | O_CREAT, "O_WRONLY|O_CREAT", EPERM, EACCES },
		{ O_CREAT | O_EXCL, "O_CREAT|O_EXCL", EEXIST, EEXIST },
	};
	struct snapshot before, after;
	unsigned int i;
	int fd, err, ok, want;
	ssize_t w;

	if (snap(file, &before))
		die(file);
	for (i = 0; i < sizeof(opens) / sizeof(opens[0]); i++) {
		want = is_proc(file) ? opens[i].proc_err : opens[i].sysfs_err;
		ok = refused_open(file, opens[i].flags, &err);
		if (!want) {
			diag("%s: %s: %s (sysfs: the exception above)", file,
			     opens[i].name, ok ? strerror(err) : "opened");
			continue;
		}
		result(ok && err == want, NULL,
		       "%s: root cannot open it %s: %s (%s)", file,
		       opens[i].name, strerror(want),
		       ok ? strerror(err) : "opened");
	}

	fd = open(file, O_RDONLY);
	if (fd < 0)
		die(file);
	errno = 0;
	w = write(fd, "x", 1);
	result(w < 0 && errno == EBADF, NULL,
	       "%s: write() on the read-only descriptor fails with EBADF (%s)",
	       file, w < 0 ? strerror(errno) : "written");
	w = pwrite(fd, "x", 1, 0);
	result(w < 0, NULL, "%s: pwrite() fails (%s)", file,
	       w < 0 ? strerror(errno) : "written");
	err = ftruncate(fd, 0) ? errno : 0;
	result(err != 0, NULL, "%s: ftruncate() fails (%s)", file,
	       err ? strerror(err) : "truncated");

	err = truncate(file, 0) ? errno : 0;
	setattr_refused(file, err, "truncate(0)");
	err = truncate(file, pl->size + 4096) ? errno : 0;
	setattr_refused(file, err, "truncate(size + 4096)");

	err = chmod(file, 0666) ? errno : 0;
	setattr_refused(file, err, "chmod 0666");
	if (!err) {
		struct stat st;

		/* Even then, nobody may write to it. */
		ok = refused_open(file, O_WRONLY, &err);
		result(ok, NULL,
		       "%s: after chmod 0666, still no O_WRONLY open (%s)",
		       file, ok ? strerror(err) : "opened");
		stat(file, &st);
		diag("%s: mode after chmod 0666: %o", file, st.st_mode & 07777);
		chmod(file, before.mode);
	}
	err = fchmod(fd, 0600) ? errno : 0;
	setattr_refused(file, err, "fchmod 0600");
	if (!err)
		chmod(file, before.mode);
	err = chown(file, 1000, 1000) ? errno : 0;
	setattr_refused(file, err, "chown 1000:1000");
	if (!err)
		chown(file, before.uid, before.gid);
	err = utimensat(AT_FDCWD, file, NULL, 0) ? errno : 0;
	setattr_refused(file, err, "utimensat(NULL) (touch)");
	close(fd);

	if (snap(file, &after))
		die(file);
	result(after.mode == 0444 && before.mode == 0444 &&
	       after.uid == 0 && after.gid == 0,
	       NULL, "%s: mode 0444, owner 0:0, before and after (%o, %o %d:%d)",
	       file, before.mode, after.mode, after.uid, after.gid);
	result(after.size == (off_t)pl->size && before.size == after.size,
	       NULL, "%s: size %zu, before and after (%lld)", file, pl->size,
	       (long long)after.size);
	result(whole_file_equal(file, pl), NULL,
	       "%s: after all that, the bytes are the payload's", file);
}

static void semantics_seek(const char *file, const struct payload *pl)
{
	int fd = open(file, O_RDONLY);
	unsigned char buf[16];
	off_t o;
	ssize_t r;

	if (fd < 0)
		die(file);
	o = lseek(fd, 0, SEEK_END);
	result(o == (off_t)pl->size, NULL,
	       "%s: lseek(0, SEEK_END) returns the size %zu (%lld)", file,
	       pl->size, (long long)o);
	r = read(fd, buf, sizeof(buf));
	result(r == 0, NULL, "%s: read at SEEK_END returns 0 (%zd)", file, r);
	o = lseek(fd, -1, SEEK_END);
	r = read(fd, buf, sizeof(buf));
	result(o == (off_t)pl->size - 1 && r == 1 &&
	       buf[0] == pl->p[pl->size - 1], NULL,
	       "%s: lseek(-1, SEEK_END) then read gives the last byte", file);
	o = lseek(fd, 7, SEEK_SET);
	o = lseek(fd, 5, SEEK_CUR);
	r = read(fd, buf, 3);
	result(o == 12 && r == 3 && !memcmp(buf, pl->p + 12, 3), NULL,
	       "%s: SEEK_SET 7, SEEK_CUR +5, read 3: bytes 12..14", file);
	errno = 0;
	o = lseek(fd, -1, SEEK_SET);
	result(o < 0 && errno == EINVAL, NULL,
	       "%s: lseek(-1, SEEK_SET) fails with EINVAL (%s)", file,
	       o < 0 ? strerror(errno) : "accepted");
	o = lseek(fd, pl->size + 12345, SEEK_SET);
	r = read(fd, buf, sizeof(buf));
	result(r == 0, NULL, "%s: lseek past EOF (%lld), read returns 0 (%zd)",
	       file, (long long)o, r);
	close(fd);
}

static void semantics_reads(const char *file, const struct payload *pl,
			    unsigned int rounds)
{
	static const off_t huge[] = { 1LL << 32, 1LL << 62,
				      LLONG_MAX - MIB };
	unsigned char *buf = malloc(MIB + 1);
	struct iovec iov[3];
	char why[160];
	unsigned int i, bad = 0;
	size_t len, sum;
	off_t off;
	ssize_t r;
	int fd = open(file, O_RDONLY), ok;

	if (fd < 0 || !buf)
		die(file);

#define FIXED(L, O, DESC)						\
	do {								\
		ok = check_pread(fd, file, pl, buf, (L), (O), why,	\
				 sizeof(why));				\
		result(ok, NULL, "%s: %s%s%s", file, DESC,		\
		       ok ? "" : ": ", ok ? "" : why);			\
	} while (0)

	FIXED(1, 0, "1 byte at 0");
	FIXED(1, pl->size - 1, "1 byte at size - 1");
	FIXED(3, pl->size - 1, "3 bytes at size - 1 (short read)");
	FIXED(4097, 4095, "4097 bytes at 4095 (across pages)");
	FIXED(MIB, 0, "a 1 MiB read at 0");
	FIXED(MIB + 1, pl->size > 1000 ? pl->size - 1000 : 0,
	      "1 MiB + 1 at size - 1000");
	FIXED(1, pl->size, "1 byte at EOF: 0");
	FIXED(MIB, pl->size, "1 MiB at EOF: 0");
	FIXED(1, pl->size + 1, "1 byte past EOF: 0");
	for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
		r = pread(fd, buf, 1, huge[i]);
		result(r == 0, NULL, "%s: 1 byte at offset %lld: 0 (%zd%s%s)",
		       file, (long long)huge[i], r, r < 0 ? ", " : "",
		       r < 0 ? strerror(errno) : "");
	}
	r = pread(fd, buf, 1, -1);
	result(r < 0 && errno == EINVAL, NULL,
	       "%s: pread at -1 fails with EINVAL", file);
	r = pread(fd, buf, 0, 0);
	result(r == 0, NULL, "%s: a 0-byte read returns 0", file);

	/* readv: three odd-sized pieces */
	iov[0] = (struct iovec){ buf, 1 };
	iov[1] = (struct iovec){ buf + 1, 4093 };
	iov[2] = (struct iovec){ buf + 4094, 65539 };
	sum = 1 + 4093 + 65539;
	if (sum > pl->size)
		sum = pl->size;
	r = preadv(fd, iov, 3, 0);
	result(r > 0 && (size_t)r <= sum && !memcmp(buf, pl->p, r) &&
	       (!is_proc(file) || (size_t)r == sum), NULL,
	       "%s: preadv of 1 + 4093 + 65539 bytes (%zd)", file, r);

	for (i = 0; i < rounds; i++) {
		len = rnd_len();
		switch (rnd() % 8) {
		case 0:
			off = pl->size + rnd() % 4096;
			break;
		case 1:
			off = pl->size - 1 - rnd() % 16;
			break;
		default:
			off = rnd() % pl->size;
		}
		if (!check_pread(fd, file, pl, buf, len, off, why,
				 sizeof(why)) && bad++ < 5)
			diag("%s", why);
	}
	result(!bad, NULL, "%s: %u reads at random offsets and lengths (%u bad)",
	       file, rounds, bad);
#undef FIXED
	close(fd);
	free(buf);
}

static void semantics_mmap(const char *file, const struct payload *pl)
{
	int fd = open(file, O_RDONLY);
	size_t len = pl->size < MIB ? pl->size : MIB;
	unsigned char *m;
	int err;

	if (fd < 0)
		die(file);
	m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		err = errno;
		result(err == ENODEV || err == EIO || err == EINVAL ||
		       err == EACCES || err == EPERM, NULL,
		       "%s: mmap(PROT_READ) fails cleanly (%s)", file,
		       strerror(err));
	} else {
		result(!memcmp(m, pl->p, len), NULL,
		       "%s: mmap(PROT_READ) maps the payload's bytes", file);
		munmap(m, len);
	}
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	err = errno;
	result(m == MAP_FAILED, NULL,
	       "%s: a writable shared mapping is refused (%s)", file,
	       m == MAP_FAILED ? strerror(err) : "mapped");
	if (m != MAP_FAILED)
		munmap(m, len);
	close(fd);
}

/* sendfile() into a tmpfs file copies the payload, or fails cleanly. */
static void semantics_sendfile(const char *file, const struct payload *pl)
{
	char tmp[] = "/tmp/blobcheck.XXXXXX";
	struct payload copy;
	int in = open(file, O_RDONLY), out = mkstemp(tmp);
	size_t done = 0;
	ssize_t r = 0;

	if (in < 0 || out < 0)
		die("sendfile setup");
	while (done < pl->size) {
		r = sendfile(out, in, NULL, pl->size - done);
		if (r <= 0)
			break;
		done += r;
	}
	if (r < 0 && !done) {
		result(errno == EINVAL || errno == ENOSYS, NULL,
		       "%s: sendfile() is not supported, cleanly (%s)", file,
		       strerror(errno));
	} else {
		load_payload(tmp, &copy);
		result(copy.size == pl->size &&
		       !memcmp(copy.p, pl->p, pl->size), NULL,
		       "%s: sendfile() copies the payload (%zu bytes)", file,
		       done);
		munmap(copy.p, copy.size ? copy.size : 1);
	}
	unlink(tmp);
	close(in);
	close(out);
}

static int semantics(int argc, char **argv)
{
	struct payload pl;
	uint64_t s;

	if (argc < 2)
		return 2;
	s = argc > 2 ? strtoull(argv[2], NULL, 0) : now_seed();
	seed(s);
	diag("%s: seed %llu", argv[0], (unsigned long long)s);
	load_payload(argv[1], &pl);
	if (!pl.size) {
		printf("Bail out! empty payload %s\n", argv[1]);
		return 1;
	}
	semantics_refusals(argv[0], &pl);
	semantics_seek(argv[0], &pl);
	semantics_reads(argv[0], &pl, 400);
	semantics_mmap(argv[0], &pl);
	semantics_sendfile(argv[0], &pl);
	return failed;
}

static long finit_module(int fd)
{
	return syscall(SYS_finit_module, fd, "", 0);
}

static long delete_module(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK);
}

/* As an unprivileged user. */
static int unprivileged(int argc, char **argv)
{
	const char *file = argv[0], *ko = argv[2], *mod = argv[3];
	struct payload pl;
	void *image;
	int fd, err, ok, want;
	long r;

	if (argc < 4)
		return 2;
	load_payload(argv[1], &pl);
	result(geteuid() != 0, NULL, "%s: running as uid %d", file, geteuid());
	result(whole_file_equal(file, &pl), NULL,
	       "%s: uid %d reads the payload's bytes", file, geteuid());
	/* S_IMMUTABLE comes before the permission check (see above) */
	want = is_proc(file) ? EPERM : EACCES;
	ok = refused_open(file, O_WRONLY, &err) && err == want;
	result(ok, NULL, "%s: uid %d cannot open it for writing: %s (%s)",
	       file, geteuid(), strerror(want),
	       err ? strerror(err) : "opened");
	ok = refused_open(file, O_RDONLY | O_TRUNC, &err) && err == want;
	result(ok, NULL, "%s: nor O_RDONLY|O_TRUNC (%s)", file,
	       err ? strerror(err) : "opened");
	err = truncate(file, 0) ? errno : 0;
	result(err == want, NULL, "%s: truncate fails with %s (%s)", file,
	       strerror(want), err ? strerror(err) : "returned 0");
	err = chmod(file, 0666) ? errno : 0;
	result(err == EPERM, NULL, "%s: chmod fails with EPERM (%s)", file,
	       err ? strerror(err) : "mode changed");
	err = chown(file, geteuid(), getegid()) ? errno : 0;
	result(err == EPERM, NULL, "%s: chown fails with EPERM (%s)", file,
	       err ? strerror(err) : "owner changed");

	fd = open(ko, O_RDONLY);
	if (fd < 0)
		die(ko);
	r = finit_module(fd);
	err = errno;
	result(r < 0 && err == EPERM, NULL, "finit_module(%s) fails with EPERM (%s)",
	       ko, r < 0 ? strerror(err) : "loaded");
	image = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (image == MAP_FAILED)
		die(ko);
	r = syscall(SYS_init_module, image, 4096, "");
	err = errno;
	result(r < 0 && err == EPERM, NULL, "init_module() fails with EPERM (%s)",
	       r < 0 ? strerror(err) : "loaded");
	close(fd);
	r = delete_module(mod);
	err = errno;
	result(r < 0 && err == EPERM, NULL, "delete_module(%s) fails with EPERM (%s)",
	       mod, r < 0 ? strerror(err) : "unloaded");
	return failed;
}

/* Reader processes: stream the file, compare every chunk. */
struct reader_stats {
	unsigned long complete;	/* whole file read, all bytes right */
	unsigned long absent;	/* open: ENOENT (module not loaded) */
	unsigned long cut;	/* a read failed cleanly (module went away) */
	unsigned long wrong;	/* wrong bytes or an unexpected error */
	unsigned long long bytes;
	char why[160];
};

static volatile sig_atomic_t stop_flag;

static void on_term(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/*
 * One reader: with loop, open and stream again until told to stop;
 * otherwise one pass. A vanishing file (the module unloaded) is fine:
 * open fails with ENOENT, or a read with EIO (/proc) or ENODEV (sysfs).
 */
static void reader(const char *file, const struct payload *pl, int loop,
		   struct reader_stats *st)
{
	unsigned char *buf = malloc(MIB);
	int fd, ret;

	if (!buf)
		exit(1);
	do {
		fd = open(file, O_RDONLY);
		if (fd < 0) {
			/* gone, or going: sysfs says ENODEV meanwhile */
			if ((errno == ENOENT || errno == ENODEV) && loop) {
				st->absent++;
				usleep(1000);
				continue;
			}
			st->wrong++;
			snprintf(st->why, sizeof(st->why), "open %s: %s",
				 file, strerror(errno));
			break;
		}
		ret = stream_equal(fd, pl, buf, st->why, sizeof(st->why));
		close(fd);
		if (!ret) {
			st->complete++;
			st->bytes += pl->size;
		} else if (loop && (ret == -EIO || ret == -ENODEV)) {
			st->cut++;
		} else {
			st->wrong++;
			break;
		}
	} while (loop && !stop_flag);
	free(buf);
	exit(st->wrong ? 1 : 0);
}

static struct reader_stats *start_readers(int n, char **files, int nfiles,
					  const struct payload *pl, int loop,
					  pid_t *pids)
{
	struct reader_stats *st;
	uint64_t base = rnd();
	int i;

	st = mmap(NULL, (n ? n : 1) * sizeof(*st), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED)
		die("mmap");
	fflush(stdout);
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (!pids[i]) {
			signal(SIGTERM, on_term);
			/* hammer, but leave the CPU to module loading first */
			if (loop && nice(10) < 0)
				exit(1);
			seed(base + i);
			reader(files[i % nfiles], pl, loop, &st[i]);
		}
	}
	return st;
}

/* Wait for the readers; sum their statistics into *sum. */
static int wait_readers(int n, pid_t *pids, struct reader_stats *st,
			struct reader_stats *sum)
{
	int i, status, bad = 0;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < n; i++) {
		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			if (!bad++)
				diag("reader %d: %s", i, st[i].why[0] ?
				     st[i].why : "died");
		}
		sum->complete += st[i].complete;
		sum->absent += st[i].absent;
		sum->cut += st[i].cut;
		sum->wrong += st[i].wrong;
		sum->bytes += st[i].bytes;
	}
	return bad;
}

static int readers(int argc, char **argv)
{
	pid_t pids[MAX_READERS];
	struct reader_stats *st, sum;
	struct payload pl;
	int n, nfiles, bad;
	uint64_t s = 0;
	double t0, t;

	if (argc < 3)
		return 2;
	n = atoi(argv[0]);
	if (n < 1 || n > MAX_READERS)
		return 2;
	load_payload(argv[1], &pl);
	nfiles = argc - 2;
	if (nfiles > 2 && !strcmp(argv[argc - 2], "--")) {
		s = strtoull(argv[argc - 1], NULL, 0);
		nfiles -= 2;
	}
	if (!s)
		s = now_seed();
	seed(s);
	diag("%d readers of %d file(s), %zu bytes each, seed %llu", n, nfiles,
	     pl.size, (unsigned long long)s);
	t0 = now();
	st = start_readers(n, argv + 2, nfiles, &pl, 0, pids);
	bad = wait_readers(n, pids, st, &sum);
	t = now() - t0;
	diag("%lu complete streams, %llu bytes in %.2f s (%.1f MiB/s)",
	     sum.complete, sum.bytes, t, sum.bytes / t / MIB);
	result(!bad && sum.complete == (unsigned long)n, NULL,
	       "%d concurrent readers with random read sizes all read exactly "
	       "the payload (%lu of %d)", n, sum.complete, n);
	return failed;
}

static int load(const char *ko, char *why, size_t whylen)
{
	int fd = open(ko, O_RDONLY);
	long r;

	if (fd < 0) {
		snprintf(why, whylen, "open %s: %s", ko, strerror(errno));
		return -1;
	}
	doing = "finit_module";
	r = finit_module(fd);
	if (r)
		snprintf(why, whylen, "finit_module(%s): %s", ko,
			 strerror(errno));
	close(fd);
	return r ? -1 : 0;
}

/* delete_module(NAME), retried at most MAX times while it is busy */
static int unload_within(const char *name, int max, char *why,
			 size_t whylen)
{
	int tries;

	for (tries = 0; tries < max; tries++) {
		doing = "delete_module";
		if (!delete_module(name))
			return 0;
		if (errno != EAGAIN && errno != EBUSY)
			break;
		doing = "usleep after delete_module";
		usleep(10000);
	}
	doing = "reporting a failed delete_module";
	snprintf(why, whylen, "delete_module(%s): %s (%d tries)", name,
		 strerror(errno), tries + 1);
	return -1;
}

/* Nothing should hold the module: EBUSY/EAGAIN would be a finding */
static int unload(const char *name, char *why, size_t whylen)
{
	return unload_within(name, 50, why, whylen);
}

/* Unload NAME, waiting up to 10 s for readers that still hold it. */
static int unload_wait(const char *name, char *why, size_t whylen)
{
	return unload_within(name, 1000, why, whylen);
}

static int loaded(const char *name)
{
	char line[256];
	size_t len = strlen(name);
	FILE *f = fopen("/proc/modules", "r");
	int found = 0;

	if (!f)
		die("/proc/modules");
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ' ')
			found = 1;
	fclose(f);
	return found;
}

static int cycle(int argc, char **argv)
{
	const char *ko, *name;
	pid_t pids[MAX_READERS];
	struct reader_stats *st, sum;
	struct payload pl;
	char why[200] = "";
	int cycles, n, i, bad, done = 0;
	double t0, t, t1, tload = 0, tunload = 0, tmax = 0;

	if (argc < 5)
		return 2;
	ko = argv[0];
	name = argv[1];
	cycles = atoi(argv[2]);
	n = atoi(argv[3]);
	if (n < 0 || n > MAX_READERS || (n && argc == 5))
		return 2;
	load_payload(argv[4], &pl);
	seed(now_seed());
	if (loaded(name) && unload(name, why, sizeof(why)))
		diag("%s", why);

	st = start_readers(n, argv + 5, argc - 5, &pl, 1, pids);
	t0 = now();
	for (i = 0; i < cycles; i++) {
		t1 = now();
		if (load(ko, why, sizeof(why)))
			break;
		tload += now() - t1;
		/* let the readers in, for a random while */
		doing = "usleep between load and unload";
		if (rnd() % 2)
			usleep(rnd() % 3000);
		t1 = now();
		if (unload(name, why, sizeof(why)))
			break;
		t1 = now() - t1;
		tunload += t1;
		if (t1 > tmax)
			tmax = t1;
		done++;
	}
	t = now() - t0;
	for (i = 0; i < n; i++)
		kill(pids[i], SIGTERM);
	bad = wait_readers(n, pids, st, &sum);
	result(done == cycles, NULL, "%s: %d of %d load/unload cycles%s%s",
	       name, done, cycles, why[0] ? ": " : "", why);
	if (!done)
		done = 1;
	diag("%s: %.2f s, %.1f ms a cycle (load %.1f, unload %.1f, at most "
	     "%.1f); readers: %lu complete, %lu cut, %lu absent, %lu wrong",
	     name, t, t * 1000 / done, tload * 1000 / done,
	     tunload * 1000 / done, tmax * 1000, sum.complete, sum.cut,
	     sum.absent, sum.wrong);
	result(!bad && !sum.wrong, NULL,
	       "%s: %d readers hammering %d file(s) saw only right bytes, "
	       "clean errors or no file", name, n, argc - 5);
	result(!loaded(name), NULL, "%s: unloaded at the end", name);
	for (i = 5; i < argc; i++)
		result(access(argv[i], F_OK) && errno == ENOENT, NULL,
		       "%s: %s is gone", name, argv[i]);
	result(!load(ko, why, sizeof(why)), NULL, "%s: loads again%s%s", name,
	       why[0] ? ": " : "", why);
	for (i = 5; i < argc; i++)
		result(whole_file_equal(argv[i], &pl), NULL,
		       "%s: %s serves the payload again", name, argv[i]);
	return failed;
}

static int autoload(int argc, char **argv)
{
	const char *name;
	char *files[1];
	pid_t pids[MAX_READERS];
	struct reader_stats *st, sum;
	struct payload pl;
	struct stat sb;
	char why[200] = "";
	unsigned char *buf = malloc(MIB);
	int n, rounds, i, fd, err, done = 0;
	double t0, t;
	ssize_t r;

	if (argc != 5 || !buf)
		return 2;
	name = argv[0];
	load_payload(argv[1], &pl);
	files[0] = argv[2];
	n = atoi(argv[3]);
	rounds = atoi(argv[4]);
	if (n < 1 || n > MAX_READERS || rounds < 1)
		return 2;

	if (loaded(name) && unload_wait(name, why, sizeof(why)))
		die(why);
	result(!stat(files[0], &sb) && !loaded(name), NULL,
	       "%s: there while %s is not loaded", files[0], name);

	/* The autoload latency: one open, the module not loaded */
	t0 = now();
	fd = open(files[0], O_RDONLY);
	t = now() - t0;
	if (fd < 0)
		die(files[0]);
	result(loaded(name), NULL, "%s: the first open loads %s", files[0],
	       name);
	diag("%s: first open, %s not loaded: %.3f s", files[0], name, t);
	result(!fstat(fd, &sb) && sb.st_size == (off_t)pl.size, NULL,
	       "%s: then of the payload's size (%lld)", files[0],
	       (long long)sb.st_size);
	result(!stream_equal(fd, &pl, buf, why, sizeof(why)), NULL,
	       "%s: and serves the payload%s%s", files[0], why[0] ? ": " : "",
	       why);
	close(fd);

	/* Open, it holds the module: rmmod is refused, reading goes on */
	fd = open(files[0], O_RDONLY);
	if (fd < 0)
		die(files[0]);
	r = read(fd, buf, 4096);
	err = delete_module(name) ? errno : 0;
	result(err == EAGAIN || err == EBUSY, NULL,
	       "%s: delete_module(%s) fails with EAGAIN while it is open (%s)",
	       files[0], name, err ? strerror(err) : "unloaded");
	why[0] = '\0';
	result(r > 0 && !memcmp(buf, pl.p, r) && !lseek(fd, 0, SEEK_SET) &&
	       !stream_equal(fd, &pl, buf, why, sizeof(why)), NULL,
	       "%s: the open file still reads the whole payload%s%s",
	       files[0], why[0] ? ": " : "", why);
	close(fd);
	why[0] = '\0';
	result(!unload_wait(name, why, sizeof(why)), NULL,
	       "%s: unloads once the file is closed%s%s", name,
	       why[0] ? ": " : "", why);

	/* Concurrent first opens: one loads, the others wait for it */
	why[0] = '\0';
	t0 = now();
	for (i = 0; i < rounds; i++) {
		if (loaded(name) && unload_wait(name, why, sizeof(why)))
			break;
		st = start_readers(n, files, 1, &pl, 0, pids);
		if (wait_readers(n, pids, st, &sum) ||
		    sum.complete != (unsigned long)n) {
			snprintf(why, sizeof(why), "round %d: %lu of %d",
				 i + 1, sum.complete, n);
			break;
		}
		munmap(st, n * sizeof(*st));
		done++;
	}
	diag("%s: %d rounds in %.2f s", name, done, now() - t0);
	result(done == rounds, NULL,
	       "%s: %d of %d rounds of %d concurrent first opens read exactly the payload%s%s",
	       files[0], done, rounds, n, why[0] ? ": " : "", why);
	result(loaded(name), NULL, "%s: loaded at the end", name);
	free(buf);
	return failed;
}

static void on_alarm(int sig)
{
	(void)sig;
	printf("Bail out! blobcheck held: timed out (rmmod hung?)\n");
	fflush(stdout);
	_exit(1);
}

/* Open the files, read a little, unload the module under them. */
static int held(int argc, char **argv)
{
	const char *ko, *name;
	int fds[8], i, nfiles, err;
	struct payload pl;
	char why[200] = "";
	unsigned char buf[4096];
	ssize_t r;
	double t0;

	if (argc < 4 || argc - 3 > 8)
		return 2;
	ko = argv[0];
	name = argv[1];
	load_payload(argv[2], &pl);
	nfiles = argc - 3;
	signal(SIGALRM, on_alarm);
	alarm(120);

	if (!loaded(name) && load(ko, why, sizeof(why)))
		die(why);
	for (i = 0; i < nfiles; i++) {
		fds[i] = open(argv[3 + i], O_RDONLY);
		if (fds[i] < 0)
			die(argv[3 + i]);
		r = read(fds[i], buf, sizeof(buf));
		result(r > 0 && !memcmp(buf, pl.p, r), NULL,
		       "%s: open, first read right", argv[3 + i]);
	}
	t0 = now();
	result(!unload(name, why, sizeof(why)), NULL,
	       "%s: unloads while %d file(s) are open%s%s", name, nfiles,
	       why[0] ? ": " : "", why);
	diag("%s: delete_module took %.3f s", name, now() - t0);
	for (i = 0; i < nfiles; i++) {
		errno = 0;
		r = read(fds[i], buf, sizeof(buf));
		err = errno;
		result((r < 0 && (err == EIO || err == ENODEV)) ||
		       (r >= 0 && !memcmp(buf, pl.p + sizeof(buf), r)), NULL,
		       "%s: the next read fails cleanly or is right (%zd, %s)",
		       argv[3 + i], r, r < 0 ? strerror(err) : "data");
		r = lseek(fds[i], 0, SEEK_SET);
		diag("%s: lseek after unload: %zd (%s)", argv[3 + i], r,
		     r < 0 ? strerror(errno) : "ok");
		result(!close(fds[i]), NULL, "%s: close() works", argv[3 + i]);
	}
	result(!load(ko, why, sizeof(why)), NULL, "%s: reloads%s%s", name,
	       why[0] ? ": " : "", why);
	for (i = 0; i < nfiles; i++)
		result(whole_file_equal(argv[3 + i], &pl), NULL,
		       "%s: serves the payload after the reload", argv[3 + i]);
	alarm(0);
	return failed;
}

/* finit_module() KO and print "loaded" or strerror(errno) */
static int load_cmd(int argc, char **argv)
{
	int fd;

	if (argc != 1)
		return 2;
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		die(argv[0]);
	if (finit_module(fd)) {
		printf("%s\n", strerror(errno));
		return 1;
	}
	printf("loaded\n");
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	catch_crashes();
	seed(now_seed());
	if (argc >= 2 && !strcmp(argv[1], "semantics"))
		ret = semantics(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "unprivileged"))
		ret = unprivileged(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "readers"))
		ret = readers(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "cycle"))
		ret = cycle(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "held"))
		ret = held(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "autoload"))
		ret = autoload(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "load"))
		ret = load_cmd(argc - 2, argv + 2);
	if (ret == 2)
		fprintf(stderr, "usage: blobcheck semantics|unprivileged|"
			"readers|cycle|held|autoload|load ... (see the source)\n");
	return ret;
}

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/guest/headers-install.sh.
set -u

rel=$(uname -r)
# the kernel's name for the machine (SRCARCH)
case "$(uname -m)" in
riscv64) arch=riscv ;;
aarch64) arch=arm64 ;;
x86_64) arch=x86 ;;
*) arch=$(uname -m) ;;
esac
dir=/lib/modules/$rel
build=$dir/build
kembed=/tmp/bin/kembed

# shellcheck source=tests/lib/tap.sh
. /host/tap.sh

# "kembed headers install ARGS..." must fail, saying $1.
refuses()
{
	want=$1
	shift
	if "$kembed" headers install "$@" > /tmp/out 2>&1; then
		cat /tmp/out
		return 1
	fi
	sed 's/^/# /' /tmp/out
	grep -q "$want" /tmp/out
}

no_build()
{
	! test -e "$build" && ! test -L "$build"
}

installed()
{
	"$kembed" headers install &&
		test -d "$build" && ! test -L "$build" &&
		test "$(cat "$build/include/config/kernel.release")" = "$rel" &&
		test "$(stat -c %u "$build/Makefile")" = 0
}

build_module()
{
	mkdir -p /tmp/hello &&
		cp /host/modules/kembed_hello.c /tmp/hello/ &&
		echo 'obj-m := kembed_hello.o' > /tmp/hello/Kbuild &&
		make -C "$build" M=/tmp/hello modules > /tmp/hello.log 2>&1 &&
		insmod /tmp/hello/kembed_hello.ko && rmmod kembed_hello
}

# Tools that look for /lib/modules/<release>/build before anything else,
# as bcc (loader.cc, KBuildHelper) and bpftrace (get_kernel_dirs,
# get_kernel_cflags) do: source/ if it is a directory, else build/.
ksrc()
{
	if [ -d "$dir/source" ]; then echo "$dir/source"; else echo "$build"; fi
}

# LINUX_VERSION_CODE of version.h: KERNEL_VERSION(a, b, min(c, 255)).
version_code()
{
	code=$(sed -n 's/^#define LINUX_VERSION_CODE \([0-9]*\)$/\1/p' \
		"$build/include/generated/uapi/linux/version.h")
	IFS=.- read -r a b c _ <<EOT
$rel
EOT
	[ "$c" -le 255 ] || c=255
	[ -n "$code" ] && [ "$code" -eq $(((a << 16) + (b << 8) + c)) ]
}

build_files()
{
	[ -s "$build/Module.symvers" ] &&
		[ -f "$build/arch/$arch/Makefile" ] &&
		{ [ -e /proc/config.gz ] || modprobe configs; } &&
		zcat /proc/config.gz | cmp -s - "$build/.config"
}

# A tracer's C, compiled as bpftrace compiles it (its include paths and
# defines; gcc's own headers where clang's would be), without Kbuild.
tracer_compiles()
{
	s=$(ksrc)
	printf '%s\n' '#include <linux/sched.h>' '#include <linux/fs.h>' \
		'#include <uapi/linux/ptrace.h>' \
		'int pid_offset = __builtin_offsetof(struct task_struct, pid);' \
		>/tmp/tracer.c
	gcc -fsyntax-only -nostdinc -isystem "$(gcc -print-file-name=include)" \
		-I"$s/arch/$arch/include" -I"$build/arch/$arch/include/generated" \
		-I"$s/include" -I"$build/include" \
		-I"$s/arch/$arch/include/uapi" \
		-I"$build/arch/$arch/include/generated/uapi" \
		-I"$s/include/uapi" -I"$build/include/generated/uapi" \
		-include "$s/include/linux/kconfig.h" -D__KERNEL__ \
		-D__BPF_TRACING__ -DKBUILD_MODNAME='"tracer"' /tmp/tracer.c \
		>/tmp/tracer.log 2>&1 || {
		sed 's/^/# /' /tmp/tracer.log | tail -n 20
		return 1
	}
}

mismatch_archive()
{
	mkdir -p /tmp/other &&
		xz -dc /proc/kheaders.tar.xz | tar -xf - -C /tmp/other &&
		echo 0.0.0-other > /tmp/other/include/config/kernel.release &&
		tar -cf /tmp/other.tar -C /tmp/other .
}

# The processes below $1, deepest first.
descendants()
{
	for p in /proc/[0-9]*; do
		read -r _ _ _ ppid _ 2>/dev/null < "$p/stat" || continue
		[ "$ppid" = "$1" ] || continue
		(descendants "${p#/proc/}")
		echo "${p#/proc/}"
	done
}

# Kill the installer, deterministically, with its tree half unpacked: its
# tar (first in PATH) gets the first 8 MB of the archive, then nothing,
# so the installer waits in a write to it. Stop the installer (it must
# not see tar die and clean up), kill what it started, then kill it.
interrupted()
{
	mkdir -p /tmp/slowbin
	printf '#!/bin/sh\n{ head -c 8000000; sleep 60; } | %s "$@"\n' \
		"$(command -v tar)" > /tmp/slowbin/tar
	chmod 0755 /tmp/slowbin/tar
	# its output to a file: the killed tar's "Unexpected EOF" would
	# land in the middle of the TAP lines on the console
	PATH=/tmp/slowbin:$PATH "$kembed" headers install \
		--archive /tmp/slow.tar > /tmp/interrupted.log 2>&1 &
	pid=$!
	i=0
	while no_leftovers ||
	      [ -z "$(find "$dir"/.build.kembed-* -name '*.h' | head -n 1)" ]; do
		i=$((i + 1))
		[ "$i" -lt 60 ] || break
		sleep 1
	done
	kill -STOP "$pid"
	for p in $(descendants "$pid"); do
		kill -KILL "$p" 2>/dev/null
	done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	awk '{ print "# " $0 }' /tmp/interrupted.log
	no_build && ! no_leftovers
}

# A crafted archive: the running kernel's tree, then "tar -r ARGS..."
# from /tmp/craft. "install --archive" must refuse it, saying $1, and
# leave nothing behind, in the tree or out of it.
crafted_refused()
{
	want=$1
	shift
	rm -rf /tmp/craft /tmp/crafted.tar
	mkdir -p /tmp/craft/real/etc /tmp/craft/sub
	ln -s /etc /tmp/craft/etc
	echo pwned > /tmp/craft/real/etc/kembed-pwned
	echo x > /tmp/craft/suid
	tar -cf /tmp/crafted.tar -C /tmp/other . &&
		tar -rf /tmp/crafted.tar -C /tmp/craft "$@" &&
		refuses "kembed headers: /tmp/crafted.tar: $want" \
			--archive /tmp/crafted.tar &&
		no_build && no_leftovers && ! test -e /etc/kembed-pwned
}

symlink_refused()
{
	refuses "is a symlink" && test -L "$build" && ! test -e /tmp/evil
}

mismatch_refused()
{
	refuses "is for kernel 0.0.0-other, but $rel is running" \
		--archive /tmp/other.tar && no_build
}

no_leftovers()
{
	set -- "$dir"/.build.kembed-*
	! test -e "$1"
}

echo "TAP version 13"
echo "1..22"

check "build kembed natively" make -s -C /host/userspace O=/tmp/bin
check "kheaders.ko is not loaded yet" \
	sh -c '! grep -q "^kheaders " /proc/modules'
check "no $build yet" no_build
check "an unprivileged user is refused" \
	sh -c "! setpriv --reuid=1000 --regid=1000 --clear-groups \
		$kembed headers install 2>/dev/null"
check "install loads kheaders.ko and unpacks the running kernel's tree" \
	installed
check "kheaders.ko was loaded for it" grep -q "^kheaders " /proc/modules
check "make -C $build M=... modules builds a module that loads" \
	build_module
check "bcc's test of build/ passes (include/linux/kconfig.h): no /tmp unpacking" \
	test -f "$build/include/linux/kconfig.h"
check "version.h's LINUX_VERSION_CODE is the running kernel's" version_code
check "Module.symvers, the arch Makefile, and .config = /proc/config.gz" \
	build_files
check "a tracer's C compiles against build/ with bpftrace's flags" \
	tracer_compiles
check "a second install without --force is refused" refuses "exists"
check "--force replaces it" "$kembed" headers install --force
rm -rf "$build"
ln -s /tmp/evil "$build"
check "a symlink planted at build is refused, not followed" symlink_refused
rm -f "$build"
check "make an archive that says another release" mismatch_archive
check "an archive for another kernel is refused, nothing left" \
	mismatch_refused
chmod 0777 "$dir"
check "a directory on the way that others can write is refused" \
	refuses "writable by group or others"
chmod 0755 "$dir"
# The right release, uncompressed, for the crafted archives and the slow
# tar.
echo "$rel" > /tmp/other/include/config/kernel.release
tar -cf /tmp/slow.tar -C /tmp/other .
check "a crafted archive: a symlink out of the tree, written through" \
	crafted_refused "./etc: symlink to an absolute path" \
	./etc -C /tmp/craft/real ./etc/kembed-pwned
check "a crafted archive: a setuid file" \
	crafted_refused "./suid: mode 04755: setuid, setgid or sticky bit" \
	--mode=4755 ./suid
check "an install killed halfway leaves no build tree (only its temporary)" \
	interrupted
check "the next install works and removes the leftovers" installed
check "no temporary directory is left" no_leftovers
[ "$fails" -eq 0 ]

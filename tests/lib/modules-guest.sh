#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/guest/kheaders-modules*.sh: extract /proc/kheaders.tar.xz,
# build the modules of /host/modules with the guest's own gcc in one make
# call, then load, check and unload each.
#   modules-guest.sh [VAR=VALUE]...   make variables of both builds
#                                     (LLVM=1: the guest's clang)
set -u

makevars=$*

kh=/tmp/kheaders
mods=/tmp/modules
log=/tmp/build.log

# shellcheck source=tests/lib/tap.sh
. /host/tap.sh

now()
{
	date +%s.%N
}

said()
{
	dmesg | grep -qF "$1"
}

extract()
{
	xz -dc /proc/kheaders.tar.xz | tar -xf - -C "$kh"
}

build()
{
	# shellcheck disable=SC2086 # VAR=VALUE words
	make -C "$kh" M="$mods" $makevars modules > "$log" 2>&1 || return
	set -- "$mods"/*.ko
	[ "$#" -eq 6 ]
}

# Nothing from modpost or the compiler, but the notice that the guest's
# compiler is not the one that built the kernel.
quiet_build()
{
	! grep -iE 'warning|error|undefined|missing' "$log" |
		grep -v 'the compiler differs from the one used to build the kernel'
}

no_skew()
{
	! grep -iE 'clock skew|in the future' "$log"
}

params()
{
	test "$(cat /sys/module/kembed_params/parameters/answer)" = 42 &&
		test "$(cat /sys/module/kembed_params/parameters/who)" = kembed &&
		said "kembed_params: answer=42 who=kembed"
}

export_import()
{
	insmod "$mods/kembed_export.ko" && insmod "$mods/kembed_import.ko" &&
		said "kembed_import: imported answer=42"
}

sysfs_rw()
{
	f=/sys/kernel/kembed_sysfs/value
	test "$(cat "$f")" = 7 && echo 9 > "$f" && test "$(cat "$f")" = 9
}

no_version_trouble()
{
	! dmesg | grep -iE 'disagrees about version|no symbol version|Unknown symbol'
}

unload_all()
{
	rmmod kembed_import kembed_export kembed_sysfs kembed_multi \
		kembed_params kembed_hello &&
	! grep -q '^kembed_' /proc/modules && ! test -e /sys/kernel/kembed_sysfs
}

noop_build()
{
	# shellcheck disable=SC2086 # as in build
	make -C "$kh" M="$mods" $makevars modules > "$log.noop" 2>&1 &&
		! grep -qE '^ *(CC|LD) ' "$log.noop"
}

# The outcomes of the compiler probes, as scripts/Makefile.compiler keeps
# them in the archive's .probe-cache/: one file (one compiler), a record
# per probe.
probe_records()
{
	set -- "$kh"/.probe-cache/*
	[ "$#" -eq 1 ] && [ -f "$1" ] || return 1
	grep -c '^kbuild-probe-' "$1"
}

echo "TAP version 13"
echo "1..21"

[ -e /proc/kheaders.tar.xz ] || modprobe kheaders
mkdir -p "$kh"
cp -r /host/modules "$mods"

t0=$(now)
check "extract /proc/kheaders.tar.xz" extract
t1=$(now)
check "the archive's kernel.release is the running kernel's" \
	test "$(cat "$kh/include/config/kernel.release")" = "$(uname -r)"
check "make -C <archive> M=... modules builds all six modules" build
t2=$(now)
if [ "$fails" -ne 0 ]; then
	# Keep the console free of the words the harness fails on.
	sed 's/^/# /; s/WARNING/W_A_R_N_I_N_G/g; s/BUG:/B_U_G:/g' "$log" |
		tail -n 40
fi
check "no warning from modpost or the compiler" quiet_build
records=$(probe_records) || records=0
check "the build kept its $records compiler probes in .probe-cache/" \
	test "$records" -ge 20
check "no clock skew or file in the future" no_skew
check "insmod kembed_hello.ko" insmod "$mods/kembed_hello.ko"
t3=$(now)
check "kembed_hello said hello" \
	said "kembed_hello: hello from a module built on the target"
check "insmod kembed_params.ko answer=42 who=kembed" \
	insmod "$mods/kembed_params.ko" answer=42 who=kembed
check "kembed_params: parameters in sysfs and in its message" params
check "insmod kembed_multi.ko (two source files)" \
	insmod "$mods/kembed_multi.ko"
check "kembed_multi: one file called the other" \
	said "kembed_multi: 20 + 22 = 42"
check "insmod kembed_export.ko, then kembed_import.ko using its symbol" \
	export_import
check "insmod kembed_sysfs.ko (kobject, sysfs, procfs)" \
	insmod "$mods/kembed_sysfs.ko"
check "kembed_sysfs: sysfs attribute reads and writes" sysfs_rw
check "kembed_sysfs: its /proc file shows the new value" \
	grep -qx "value 9" /proc/kembed_sysfs
check "taint is only the out-of-tree flag (4096)" \
	test "$(cat /proc/sys/kernel/tainted)" = 4096
check "no complaint about symbol versions or unknown symbols" \
	no_version_trouble
check "rmmod all six, and they are gone" unload_all
t4=$(now)
check "a no-op rebuild compiles and links nothing" noop_build
t5=$(now)
check "... and runs no compiler probe (none added to .probe-cache/)" \
	test "$(probe_records)" = "$records"

awk -v t0="$t0" -v t1="$t1" -v t2="$t2" -v t3="$t3" -v t4="$t4" \
	-v t5="$t5" 'BEGIN {
	printf "# timing: extract %.1f s, build %.1f s, first insmod %.1f s;" \
	       " archive to module loaded %.1f s\n", t1 - t0, t2 - t1,
	       t3 - t2, t3 - t0
	printf "# timing: no-op make, i.e. Kbuild with its probes cached, %.1f s\n",
	       t5 - t4
}'
[ "$fails" -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/guest/blob-headers.sh: EMBEDDED_BLOB() instances with
# missing or hostile headers (/host/blob-modules), built against
# /proc/kheaders.tar.xz, must fail to load with the documented errno and
# leave nothing behind; an empty artifact must read as empty everywhere.
set -u

kh=/tmp/kheaders
mods=/tmp/blob-modules

# shellcheck source=tests/lib/tap.sh
. /host/tap.sh

user()
{
	setpriv --reuid=1000 --regid=1000 --clear-groups "$@"
}

# refused MODULE ERROR: finit_module fails with strerror ERROR
refused()
{
	got=$(/tmp/blobcheck load "$mods/$1.ko")
	echo "# $1: $got"
	[ "$got" != loaded ] || rmmod "$1"
	[ "$got" = "$2" ]
}

# /proc/embedded_blobs as at the start (cmp alone would go by its size, 0)
blobs_unchanged()
{
	# shellcheck disable=SC2002 # a pipe, so that cmp cannot stat it
	cat /proc/embedded_blobs | cmp -s - /tmp/blobs.before
}

# untouched MODULE NAME: not loaded, no /proc/NAME, the list as it was
untouched()
{
	! grep -q "^$1 " /proc/modules && ! test -e "/proc/$2" &&
		! test -e "/sys/kernel/$2" &&
		blobs_unchanged
}

config_intact()
{
	blobs_unchanged &&
		gzip -t /proc/config.gz &&
		! grep -q '^kembed_dupname ' /proc/modules
}

unload_empty()
{
	rmmod kembed_empty && ! test -e /proc/kembed-empty &&
		! test -e /sys/kernel/kembed-empty && blobs_unchanged
}

echo "TAP version 13"
echo "1..24"
# (cp would copy nothing: /proc files have no size for copy_file_range)
cat /proc/embedded_blobs > /tmp/blobs.before
mkdir -p "$kh"
cp -r /host/blob-modules "$mods"
check "blobcheck compiles" gcc -O2 -Wall -o /tmp/blobcheck /host/blobcheck.c
check "extract /proc/kheaders.tar.xz" \
	sh -c "xz -dc /proc/kheaders.tar.xz | tar -xf - -C $kh"
check "build the eight test modules against it" \
	sh -c "make -C $kh M=$mods modules > /tmp/build.log 2>&1 &&
	       test \$(ls $mods/*.ko | wc -l) = 8"
[ "$fails" -eq 0 ] || tail -n 20 /tmp/build.log | sed 's/^/# /'

check "bad magic: insmod fails with EINVAL" \
	refused kembed_badmagic "Invalid argument"
check "  and leaves nothing behind" untouched kembed_badmagic kembed-badmagic
check "header_size 16: insmod fails with EINVAL" \
	refused kembed_shorthdr "Invalid argument"
check "  and leaves nothing behind" untouched kembed_shorthdr kembed-shorthdr
check "name without NUL: insmod fails with EINVAL" \
	refused kembed_noname "Invalid argument"
check "  and leaves nothing behind" untouched kembed_noname "$(printf "%064d" 0 | tr 0 n)"
check "a name with a newline: insmod fails with EINVAL" \
	refused kembed_badname "Invalid argument"
check "  and leaves nothing behind" untouched kembed_badname kembed-bad
check "header_size 1 GiB: insmod fails with EINVAL" \
	refused kembed_bighdr "Invalid argument"
check "  and leaves nothing behind" untouched kembed_bighdr kembed-bighdr
check "the name config.gz again: insmod fails with EEXIST" \
	refused kembed_dupname "File exists"
check "  and /proc/config.gz is still the built-in one" config_intact

check "an empty artifact loads" insmod "$mods/kembed_empty.ko"
check "  /proc/kembed-empty: 0444, size 0" \
	test "$(stat -c '%a %s' /proc/kembed-empty)" = "444 0"
check "  /proc/kembed-empty reads as empty" \
	test "$(user cat /proc/kembed-empty | wc -c)" = 0
check "  /sys/kernel/kembed-empty: 0444" \
	test "$(stat -c %a /sys/kernel/kembed-empty)" = 444
check "  /sys/kernel/kembed-empty reads as empty, for uid 1000 too" \
	test "$(user cat /sys/kernel/kembed-empty | wc -c)" = 0
check "  listed with size 0, owned by kembed_empty" \
	grep -qx "kembed-empty 0 none 0\{64\} kembed_empty" /proc/embedded_blobs
check "  and unloads, taking its files with it" unload_empty

# Last: a NULL dereference here takes the guest down.
check "no blob linked (weak reference NULL): insmod fails with ENOENT" \
	refused kembed_noblob "No such file or directory"
check "  and leaves nothing behind" untouched kembed_noblob kembed_noblob
[ "$fails" -eq 0 ]

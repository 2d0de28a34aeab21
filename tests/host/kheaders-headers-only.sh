#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A cross compiler without the target's C library, simulated with
# CC="riscv64-linux-gnu-gcc -nostdinc": Kconfig's CC_CAN_LINK is then off
# and the kernel, which passes -nostdinc itself, is unaffected. The
# kernel must build with IKHEADERS; its archive then holds no program
# and says so: HEADERS-ONLY, a Makefile whose every target fails with a
# message naming CC_CAN_LINK (not make's "No rule to make target"), the
# Kconfig help of IKHEADERS, and "kembed list". A kernel build of its
# own, cold the first time: make matrix (KEMBED_MATRIX=1) runs it.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
. "$repo/tests/lib/kheaders.sh"
cd "$repo" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "TAP version 13"
if [ "${KEMBED_MATRIX:-}" != 1 ]; then
	echo "1..0 # SKIP set KEMBED_MATRIX=1 (make matrix)"
	exit 4
fi
echo "1..9"

cc="CC=riscv64-linux-gnu-gcc -nostdinc"
obj=$(qemu/kernel --make "$cc" --print-objtree)
t0=$(date +%s)
check "$cc: the kernel builds" qemu/kernel --make "$cc"
echo "# build: $(($(date +%s) - t0)) s, $obj"
check "  CC_CAN_LINK is off, IKHEADERS on" sh -c "
	! grep -q '^CONFIG_CC_CAN_LINK=' '$obj/.config' &&
	grep -qx 'CONFIG_IKHEADERS=[ym]' '$obj/.config'"

kheaders_unpack "$obj" "$tmp/a"
check "the archive holds headers and no program" sh -c "
	[ -f '$tmp/a/include/linux/module.h' ] && [ ! -e '$tmp/a/scripts' ]"
check "  nor any ELF" test -z "$(kheaders_elfs "$tmp/a")"
check "  its HEADERS-ONLY names CC_CAN_LINK" \
	grep -q 'CONFIG_CC_CAN_LINK is' "$tmp/a/HEADERS-ONLY"

mkdir "$tmp/mod"
printf 'obj-m += hello.o\n' > "$tmp/mod/Kbuild"
make -C "$tmp/a" M="$tmp/mod" modules > "$tmp/make.out" 2>&1
status=$?
sed 's/^/# /' "$tmp/make.out"
check "make M=... modules against it fails" test "$status" -ne 0
check "  saying why, naming CC_CAN_LINK" sh -c "
	grep -q CC_CAN_LINK '$tmp/make.out' &&
	! grep -q 'No rule to make target' '$tmp/make.out'"

check "the Kconfig help of IKHEADERS names CC_CAN_LINK" sh -c "
	sed -n '/^config IKHEADERS\$/,/^config /p' '$obj/kernel/Kconfig.kembed' |
	grep -q CC_CAN_LINK"

if make -s -C userspace O="$tmp/u" > "$tmp/u.log" 2>&1; then
	"$tmp/u/kembed" list "$obj/vmlinux" > "$tmp/list" 2>&1
	sed 's/^/# /' "$tmp/list"
	check "kembed list says the archive is headers only" \
		grep -q 'kheaders.tar.xz.*headers only' "$tmp/list"
else
	sed 's/^/# /' "$tmp/u.log"
	not_ok "kembed list says the archive is headers only: no kembed"
fi
tap_result

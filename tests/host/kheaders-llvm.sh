#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kheaders archive's programs (fixdep, modpost, ...) are built for the
# target whatever the toolchain. With LLVM=1 (clang, lld, llvm) CC and
# HOSTCC both say x86_64 (-dumpmachine), clang's --target is in the flags:
# the kernel must build and every ELF in its archive must be a riscv64
# one, none for the build machine. The gcc-built base kernel's archive is
# checked the same way. modpost's elfconfig.h must let the compiler that
# builds modpost say where it runs, so that the target's modpost does not
# get the build machine's word size and byte order.
# The LLVM=1 kernel is a build of its own, cold the first time: make check
# checks the gcc archive only, make matrix (KEMBED_MATRIX=1) all of it.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
. "$repo/tests/lib/kheaders.sh"
cd "$repo" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "TAP version 13"
echo "1..7"

base=$(qemu/kernel --print-objtree)
qemu/kernel > /dev/null || { echo "Bail out! the base kernel does not build"; exit 1; }
kheaders_unpack "$base" "$tmp/gcc"
check "gcc: every ELF in the archive is riscv64" target_elfs_only "$tmp/gcc"

if [ "${KEMBED_MATRIX:-}" != 1 ]; then
	for i in 2 3 4 5 6 7; do
		ok "LLVM=1 check $i # SKIP set KEMBED_MATRIX=1 (make matrix)"
	done
	exit 0
fi

obj=$(qemu/kernel --make LLVM=1 --print-objtree)
t0=$(date +%s)
check "LLVM=1: the kernel builds" qemu/kernel --make LLVM=1
echo "# LLVM=1 build: $(($(date +%s) - t0)) s, $obj"
check "LLVM=1: it is built by clang" \
	grep -qx 'CONFIG_CC_IS_CLANG=y' "$obj/.config"
check "  and can link target programs (CC_CAN_LINK)" \
	grep -qx 'CONFIG_CC_CAN_LINK=y' "$obj/.config"
kheaders_unpack "$obj" "$tmp/llvm"
check "LLVM=1: every ELF in the archive is riscv64" target_elfs_only "$tmp/llvm"
check "  none is an x86-64 one" \
	sh -c "! (cd '$tmp/llvm' && find . -type f -exec file {} +) | grep x86-64"
check "elfconfig.h takes HOST_ELFDATA from the compiler's macros" \
	grep -q '__BYTE_ORDER__' "$obj/scripts/mod/elfconfig.h"
tap_result

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every program in the kheaders archive of each guest architecture's base
# kernel is built for that architecture, as file(1) reads it: nothing
# built for the build machine reaches an archive for another one (and on
# x86_64, where they are the same machine, objtool is in the archive
# because the kernel uses it, and stripped again when its make relinks
# it). The check itself is shown to reject a build machine program put
# into an arm64 archive.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
. "$repo/tests/lib/kheaders.sh"
# shellcheck source=qemu/lib.sh
. "$repo/qemu/lib.sh"
cd "$repo" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

archs="riscv64 arm64 x86_64"

echo "TAP version 13"
echo "1..8"

for arch in $archs; do
	set_arch "$arch"
	if ! qemu/kernel >/dev/null; then
		not_ok "$arch: the base kernel builds"
		continue
	fi
	kheaders_unpack "$(qemu/kernel --print-objtree)" "$tmp/$arch"
	check "$arch: every ELF in the archive is for $elf_machine" \
		target_elfs_only "$tmp/$arch" "$elf_machine"
done

set_arch x86_64
objtool=$tmp/x86_64/tools/objtool/objtool
check "x86_64: the archive has objtool, which its .config uses" \
	grep -qx CONFIG_OBJTOOL=y "$tmp/x86_64/.config"
stripped_x86_64()
{
	file "$1" | grep -q "ELF 64-bit .*, x86-64, .*, stripped"
}
check "x86_64: objtool is a stripped x86-64 program" \
	stripped_x86_64 "$objtool"
# A relinked objtool is stripped again: another x86-64 program (the build
# machine's objtool, -O2) put where objtool's make links it must be what
# the next build strips into the archive's place; then the real one is
# linked again. Under tests/run, KEMBED_BUILT_OBJTREES would skip make.
rebuild()
{
	env -u KEMBED_BUILT_OBJTREES qemu/kernel
}
restripped()
{
	o=$(qemu/kernel --print-objtree)
	ot=$o/kernel/kheaders/objtool
	cp "$o/tools/objtool/objtool" "$ot-build/objtool" || return
	rebuild >"$tmp/build.log" 2>&1 || {
		tail -n 5 "$tmp/build.log" | sed 's/^/# /'
		return 1
	}
	strip -o "$tmp/objtool" "$ot-build/objtool" && cmp "$tmp/objtool" "$ot"
	rc=$?
	rm -f "$ot-build/objtool"
	rebuild >/dev/null 2>&1 && strip -o "$tmp/objtool" "$ot-build/objtool" &&
		cmp -s "$tmp/objtool" "$ot" || rc=1
	return "$rc"
}
check "x86_64: objtool is stripped again when its make relinks it" \
	restripped
check "arm64: no objtool where the kernel does not use it" \
	test ! -e "$tmp/arm64/tools/objtool/objtool"

# An archive holding one program for the build machine must fail.
caught()
{
	cp /usr/bin/true "$tmp/arm64/scripts/true"
	! target_elfs_only "$tmp/arm64" "ARM aarch64" >"$tmp/out" &&
		grep 'scripts/true:' "$tmp/out"
}
check "a build machine program in the arm64 archive is caught" caught
tap_result

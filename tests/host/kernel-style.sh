#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel side is in kernel style: checkpatch.pl --strict on every C file
# kembed adds or changes, shellcheck on its kernel-side scripts, and no
# read/init/proc code twice in kernel/ (the duplicates tool, where there).
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
# The tree qemu/kernel synced from the overlay and patches/ (tests/run
# builds the kernels before running any test).
src=$(qemu/kernel --print-objtree)/source
n=0
fails=0

check()
{
	desc=$1
	shift
	n=$((n + 1))
	if "$@" > /tmp/kembed-style.out 2>&1; then
		echo "ok $n $desc"
	else
		sed 's/^/# /' /tmp/kembed-style.out | head -n 20
		fails=$((fails + 1))
		echo "not ok $n $desc"
	fi
}

checkpatch()
{
	perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse -f "$1" |
		grep -v '^total: 0 errors, 0 warnings, 0 checks' | grep . && return 1
	return 0
}

# C files: new ones from the repo, changed ones as patched in the tree.
cfiles="include/linux/embedded_blob.h include/uapi/linux/embedded_blob.h
kernel/embedded_blob.c kernel/embedded_blob_data.S scripts/kheaders_strip.c
kernel/configs.c kernel/kheaders.c"
shfiles="scripts/kembed.sh scripts/gen_buildinfo.sh scripts/gen_defconfig.sh
kernel/gen_kheaders.sh"

echo "TAP version 13"
# shellcheck disable=SC2086 # lists of plain words
set -- $cfiles $shfiles
echo "1..$(($# + 3))"
for f in $cfiles; do
	check "checkpatch --strict: $f" checkpatch "$src/$f"
done
for f in $shfiles; do
	check "shellcheck: $f" shellcheck "$src/$f"
done
# tools/ builds against copies of uapi headers, kept equal (as
# tools/perf/check-headers.sh does for its own).
check "tools/include/uapi/linux/embedded_blob.h is the uapi header" \
	cmp include/uapi/linux/embedded_blob.h \
	tools/include/uapi/linux/embedded_blob.h
check "kernel/configs.c and kernel/kheaders.c are a few lines each" \
	test "$(cat "$src/kernel/configs.c" "$src/kernel/kheaders.c" |
		grep -cvE '^\s*(/?\*|//|$)')" -le 12
if command -v duplicates > /dev/null; then
	check "duplicates finds no repeated code in kernel/" \
		sh -c "duplicates --repo '$repo/kernel' | grep -q '^no duplicates'"
else
	n=$((n + 1))
	echo "ok $n duplicates in kernel/ # SKIP the duplicates tool is not here"
fi
[ "$fails" -eq 0 ]

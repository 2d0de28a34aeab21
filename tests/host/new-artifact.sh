#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Adding an artifact is one file, for the tests too: a copy of this
# repository gets one more declaration in artifacts.d/ (the source
# tree's COPYING, compressed with zstd, which no other declaration uses)
# and nothing else, and the generic guest tests of the copy, unedited,
# must pass and check it: built in and as a module, in /proc with the
# build's bytes, under hostile use, and through the selftest. The
# fragments enable it through their "# kembed-artifacts:" line
# (qemu/kernel). Two kernel builds and six guest runs in a cache of its
# own (sharing the pristine tree, guest roots and ccache): make matrix
# (KEMBED_MATRIX=1) runs it.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
# shellcheck source=qemu/lib.sh
. "$repo/qemu/lib.sh"
cd "$repo" || exit 1

echo "TAP version 13"
if [ "${KEMBED_MATRIX:-}" != 1 ]; then
	echo "1..0 # SKIP set KEMBED_MATRIX=1 (make matrix)"
	exit 4
fi

name=kembed-test.copying.zst
module=kembed_test_copying_zst
tests="guest/artifacts-y guest/artifacts-m guest/robust-y guest/robust-m
guest/selftests-y guest/selftests-m"
echo "1..13"

work=$CACHE/new-artifact
copy=$work/repo
mkdir -p "$work/cache" "$CACHE/root" "$CACHE/ccache"
qemu/prepare-tree --print-pristine >/dev/null || {
	echo "Bail out! qemu/prepare-tree failed"
	exit 1
}
for shared in pristine root ccache; do
	ln -sfn "$CACHE/$shared" "$work/cache/$shared"
done

# The copy: what git would commit here, plus the one declaration.
rm -rf "$copy"
mkdir -p "$copy"
repo_files "$repo" . | LC_ALL=C sort >"$work/files"
tar -cf - -T "$work/files" | tar -C "$copy" -xf -
cat >"$copy/artifacts.d/zz-test-copying" <<EOF
# SPDX-License-Identifier: GPL-2.0
# Help: a throwaway artifact of tests/host/new-artifact.sh
name = $name
config = KEMBED_TEST_COPYING
prompt = The kernel's COPYING as /proc/$name
source = COPYING
compress = zstd
EOF
check "the copy is the repository plus one file" test "$(repo_files "$copy" . |
	LC_ALL=C sort | LC_ALL=C comm -3 - "$work/files")" = \
	artifacts.d/zz-test-copying

# shellcheck disable=SC2086 # plain test names
KEMBED_CACHE=$work/cache KEMBED_TEST_LOGS=$work/logs \
	"$copy/tests/run" $tests >"$work/run.log" 2>&1
sed 's/^/# /' "$work/run.log"
for t in $tests; do
	log=$work/logs/$(echo "$t" | tr / -).log
	check "$t passes on the copy" grep -q "^PASS  $t.sh " "$work/run.log"
	check "  and its log names $name ($module)" \
		grep -qE "$name|$module" "$log"
done
tap_result

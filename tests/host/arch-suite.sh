#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-tier: matrix
# The guest suites of riscv64 on the other guest architectures, unedited:
# tests/run with KEMBED_ARCH=arm64, then x86_64, runs the kheaders demo,
# the module suite (built in, as a module, with MODVERSIONS), kembed
# headers install and the artifacts' bytes. Each must pass. Cold, two
# kernels and six guest runs per architecture, under TCG: make matrix
# (KEMBED_MATRIX=1) runs it.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
# shellcheck source=qemu/lib.sh
. "$repo/qemu/lib.sh"
cd "$repo" || exit 1

archs=${KEMBED_SUITE_ARCHS:-arm64 x86_64}
tests="guest/smoke guest/artifacts-y guest/kheaders-demo guest/kheaders-modules
guest/kheaders-modules-m guest/kheaders-modules-modversions
guest/headers-install"

echo "TAP version 13"
if [ "${KEMBED_MATRIX:-}" != 1 ]; then
	echo "1..0 # SKIP set KEMBED_MATRIX=1 (make matrix)"
	exit 4
fi
# shellcheck disable=SC2086 # plain words
echo "1..$(($(echo $archs | wc -w) * $(echo $tests | wc -w)))"

for arch in $archs; do
	logs=$repo/build/tests/arch-suite/$arch
	mkdir -p "$logs"
	t0=$(now)
	# shellcheck disable=SC2086 # plain test names
	KEMBED_ARCH=$arch KEMBED_TEST_LOGS=$logs tests/run $tests \
		>"$logs/run.log" 2>&1
	sed 's/^/# /' "$logs/run.log"
	echo "# $arch: $(($(now) - t0)) s"
	for t in $tests; do
		check "$arch: $t passes" grep -q "^PASS  $t.sh " "$logs/run.log"
	done
done
tap_result

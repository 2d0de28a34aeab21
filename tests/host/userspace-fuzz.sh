#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kembed tool's libFuzzer target (userspace/fuzz/fuzz_scan.c): replay
# the seeds that userspace/fuzz/mkseeds.sh makes, then fuzz from them for
# a few seconds (KEMBED_FUZZ_SECONDS, default 10). Any crash, sanitizer
# report, leak or timeout fails. The long runs are made by hand, see
# userspace/fuzz/README.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${KEMBED_FUZZ_SECONDS:-10}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$repo/qemu/deps"

echo "TAP version 13"
if ! command -v clang >/dev/null; then
	echo "1..0 # SKIP clang is not installed"
	exit 4
fi
if ! make -s -C "$repo/userspace" O="$tmp" fuzz >"$tmp/build.log" 2>&1; then
	if grep -q 'fuzzer' "$tmp/build.log" &&
		grep -qi 'cannot find\|not found\|no such file' "$tmp/build.log"; then
		echo "1..0 # SKIP clang has no libFuzzer runtime"
		exit 4
	fi
	sed 's/^/# /' "$tmp/build.log"
	echo "Bail out! cannot build the fuzz target"
	exit 1
fi
echo "1..3"
echo "ok 1 the fuzz target builds (clang, -fsanitize=fuzzer,address,undefined)"

"$repo/userspace/fuzz/mkseeds.sh" "$tmp/seeds"
fuzz=$tmp/kembed-fuzz
fails=0

# libFuzzer exits non-zero on a crash, a leak or a timeout
if "$fuzz" -runs=0 "$tmp/seeds" >"$tmp/replay.log" 2>&1; then
	echo "ok 2 replay of $(find "$tmp/seeds" -type f | wc -l) seeds"
else
	fails=$((fails + 1))
	echo "not ok 2 replay of the seeds"
	tail -n 40 "$tmp/replay.log" | sed 's/^/# /'
fi

mkdir -p "$tmp/corpus"
if "$fuzz" -max_total_time="$seconds" -timeout=10 -max_len=16384 \
	-print_final_stats=1 -artifact_prefix="$tmp/" \
	"$tmp/corpus" "$tmp/seeds" >"$tmp/fuzz.log" 2>&1; then
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log")
	cov=$(grep -o 'cov: [0-9]*' "$tmp/fuzz.log" | tail -n 1 | cut -d' ' -f2)
	echo "ok 3 fuzzing for $seconds s: ${execs:-?} inputs, $cov edges, no crash"
else
	fails=$((fails + 1))
	echo "not ok 3 fuzzing for $seconds s"
	tail -n 60 "$tmp/fuzz.log" | sed 's/^/# /'
	for crash in "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-*; do
		[ -f "$crash" ] || continue
		echo "# $(basename "$crash"): $(od -An -tx1 "$crash" | head -n 4 | tr -s ' \n' ' ')"
	done
fi
[ "$fails" -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench's report, without the expensive run: bench/run --report on
# fixtures (tests/fixtures/bench). A good samples file gives the exact
# METRIC lines and table, results.csv, a results.json with every metric
# and results.png; each bad one fails with its message and leaves no file.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
fixtures=tests/fixtures/bench
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-bench-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"

same()
{
	diff -u "$1" "$2" | sed 's/^/# /'
	cmp -s "$1" "$2"
}

metric_lines()
{
	grep '^METRIC' "$tmp/good/stdout" >"$tmp/metrics" &&
		[ "$(wc -l <"$tmp/metrics")" -eq 21 ] &&
		! grep -vqE '^METRIC [a-z_]+ kembed=[0-9.]+ upstream=([0-9.]+|NA) ratio=([0-9.]+|NA)$' \
			"$tmp/metrics"
}

json_metrics()
{
	[ "$(grep -c '"name": ' "$tmp/good/out/results.json")" -eq 21 ] ||
		return 1
	if command -v python3 >/dev/null; then
		python3 -m json.tool "$tmp/good/out/results.json" >/dev/null
	fi
}

png()
{
	[ "$(od -An -tx1 -N8 "$tmp/good/out/results.png" | tr -d ' ')" = \
		89504e470d0a1a0a ]
}

bad()
{
	file=$1
	expect=$(sed -n 's/^# expect: //p' "$file")
	[ -n "$expect" ] || { echo "# $file: no '# expect:' line"; return 1; }
	rm -rf "$tmp/bad"
	if bench/run --report "$file" "$tmp/bad" >/dev/null 2>"$tmp/stderr"; then
		echo "# $file: accepted"
		return 1
	fi
	sed 's/^/# /' "$tmp/stderr"
	grep -qF "$expect" "$tmp/stderr" && [ ! -e "$tmp/bad" ]
}

# The report's awk program alone, as another tool would run it.
awk_alone()
{
	mkdir -p "$tmp/awk"
	LC_ALL=C awk -v csv="$tmp/awk/results.csv" \
		-v json="$tmp/awk/results.json" -v dat="$tmp/awk/results.dat" \
		-v file="$fixtures/good.samples" -f bench/report.awk \
		"$fixtures/good.samples" >"$tmp/awk/stdout" &&
		same "$fixtures/good.out" "$tmp/awk/stdout" &&
		same "$fixtures/good.csv" "$tmp/awk/results.csv"
}

# The guest's figures under very different host loads (the host's load
# average as each guest booted): no ratio, and the table says why.
guest_withheld()
{
	sed 's/^sample guest_load upstream .*/sample guest_load upstream 2.90/' \
		"$fixtures/good.samples" >"$tmp/guest-load.samples"
	bench/run --report "$tmp/guest-load.samples" >"$tmp/guest-load.out" ||
		return 1
	grep -q '^METRIC guest_build_seconds kembed=34.00 upstream=39.00 ratio=NA$' \
		"$tmp/guest-load.out" &&
		grep -q '^guest_archive_to_module_seconds .* NA .*withheld: load 0.40 against 2.90$' \
			"$tmp/guest-load.out" &&
		grep -q '^METRIC noop_rebuild_seconds .* ratio=0.989$' \
			"$tmp/guest-load.out"
}

# Before each guest run: wait for a quiet machine, or go on after a while.
settle()
{
	env BENCH_LOADAVG="$tmp/loadavg" "$@" bench/run --settle \
		>"$tmp/settle.out" 2>&1
}

settle_quiet()
{
	echo '0.40 0.50 0.60 1/100 1' >"$tmp/loadavg"
	settle && [ ! -s "$tmp/settle.out" ]
}

settle_gives_up()
{
	echo '3.10 0.50 0.60 1/100 1' >"$tmp/loadavg"
	settle BENCH_SETTLE=0 &&
		grep -qx 'kembed: bench: load average still 3.10 after 0 s, going on' \
			"$tmp/settle.out"
}

settle_waits()
{
	echo '3.10 0.50 0.60 1/100 1' >"$tmp/loadavg"
	{ sleep 3; echo '0.90 1 1 1/1 1' >"$tmp/loadavg"; } &
	settle BENCH_SETTLE=60
	rc=$?
	wait
	[ "$rc" -eq 0 ] &&
		grep -qx 'kembed: bench: load average 3.10, waiting for 1.0' \
			"$tmp/settle.out" &&
		grep -qx 'kembed: bench: load average 0.90 after 5 s' \
			"$tmp/settle.out"
}

settle_refuses()
{
	! settle BENCH_QUIET=high &&
		grep -q 'BENCH_QUIET is not a load average: high' "$tmp/settle.out"
}

set -- "$fixtures"/bad-*.samples
echo "TAP version 13"
echo "1..$((12 + $#))"

mkdir -p "$tmp/good"
good()
{
	bench/run --report "$fixtures/good.samples" "$tmp/good/out" \
		>"$tmp/good/stdout"
}

check "good.samples: the report runs" good
check "good.samples: METRIC lines and table as in good.out" \
	same "$fixtures/good.out" "$tmp/good/stdout"
check "good.samples: one well-formed METRIC line per metric" metric_lines
check "good.samples: results.csv as in good.csv" \
	same "$fixtures/good.csv" "$tmp/good/out/results.csv"
check "good.samples: results.json has every metric" json_metrics
if command -v gnuplot >/dev/null; then
	check "good.samples: results.png is a PNG" png
else
	n=$((n + 1))
	echo "ok $n results.png # SKIP gnuplot is not installed (qemu/deps gnuplot-nox)"
fi
check "bench/report.awk alone: the same report and results.csv" \
	awk_alone
check "good.samples, guest_load 2.9 upstream: guest ratios withheld" \
	guest_withheld
for file in "$@"; do
	check "$(basename "$file"): refused" bad "$file"
done
check "--settle: a quiet machine, no wait" settle_quiet
check "--settle: load 3.1 and BENCH_SETTLE=0: says so and goes on" \
	settle_gives_up
check "--settle: waits until the load falls to BENCH_QUIET" settle_waits
check "--settle: BENCH_QUIET=high is refused" settle_refuses

tap_result

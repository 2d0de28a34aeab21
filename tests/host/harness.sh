#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The harness itself: qemu/run reports the guest script's status, and
# fails on a timeout, a missing end marker or a kernel WARNING even when
# the script said it passed; tests/run counts TAP points honestly.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
run="$repo/qemu/run"
fix="$repo/tests/fixtures"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
# expect STATUS DESCRIPTION COMMAND...: COMMAND must exit with STATUS
# ("nonzero" for any failure); output in $tmp/out.
expect()
{
	want=$1
	desc=$2
	shift 2
	n=$((n + 1))
	rc=0
	"$@" >"$tmp/out" 2>&1 </dev/null || rc=$?
	case "$want" in
	nonzero) [ "$rc" -ne 0 ] && good=1 || good= ;;
	*) [ "$rc" -eq "$want" ] && good=1 || good= ;;
	esac
	if [ -n "$good" ]; then
		echo "ok $n $desc"
	else
		fails=$((fails + 1))
		echo "not ok $n $desc (exit $rc, want $want)"
		tail -n 20 "$tmp/out" | tr -d '\r' | sed 's/^/# /'
	fi
}
# has PATTERN DESCRIPTION: the last command's output matches PATTERN
has()
{
	n=$((n + 1))
	if grep -qE -- "$1" "$tmp/out"; then
		echo "ok $n $2"
	else
		fails=$((fails + 1))
		echo "not ok $n $2"
		tail -n 20 "$tmp/out" | tr -d '\r' | sed 's/^/# /'
	fi
}

echo "TAP version 13"
echo "1..32"

expect 0 "qemu/run --help" "$run" --help
has '^usage: qemu/run' "--help prints the usage"
expect 2 "qemu/run without SCRIPT is a usage error" "$run"
has '^qemu/run: no SCRIPT' "the usage error says what is wrong"
expect 2 "qemu/run --arch sparc64 is a usage error" \
	"$run" --arch sparc64 "$fix/run/exit3.sh"
has '^qemu/run: unknown architecture: sparc64' "... naming the architecture"
expect 1 "KEMBED_ARCH=sparc64 qemu/kernel fails" \
	env KEMBED_ARCH=sparc64 "$repo/qemu/kernel" --print-objtree
has 'unknown architecture: sparc64 \(riscv64, arm64 or x86_64\)' \
	"... naming it and the ones there are"

expect 3 "a guest script's exit status 3 is qemu/run's" "$run" "$fix/run/exit3.sh"
has '^kembed: \$ timeout .*qemu-system-riscv64 ' "the QEMU command is printed"
expect 0 "arguments, --copy and /lib/modules reach the guest" \
	"$run" --copy "$fix/run" "$fix/run/args.sh" "a b" "it's \$HOME"
has '^args ok' "the guest script saw them"

expect 125 "a kernel WARNING fails the run although the script passed" \
	"$run" "$fix/run/kmsg-warning.sh"
has 'WARNING: fake' "the failure shows the kernel message"
expect 125 "a guest that powers off without an end marker fails" \
	"$run" "$fix/run/no-marker.sh"
has 'without reporting an exit status' "the failure says so"
expect 124 "a guest that hangs times out with 124" \
	env KEMBED_TIMEOUT=20 "$run" "$fix/run/hang.sh"

expect nonzero "tests/run fails on a guest test printing not ok" \
	env KEMBED_TEST_LOGS="$tmp/logs" "$repo/tests/run" \
	"$fix/guest/notok.sh"
has '^1 passed, 1 failed, 0 skipped$' "tests/run counts the failing point"

expect nonzero "tests/run counts crashed, planless and skipped tests" \
	env KEMBED_TEST_LOGS="$tmp/logs" "$repo/tests/run" \
	"$fix"/host/*.sh
has '^4 passed, 3 failed, 2 skipped$' "missing points count as failed"

# Progress lines on long host steps (qemu/lib.sh with_progress).
# shellcheck disable=SC2016 # for the inner shell
step='. "$1/qemu/lib.sh"; half() { echo half way; }
progress_status=half with_progress "a step" sh -c "sleep 3; exit $2"'
expect 0 "KEMBED_PROGRESS=1: a progress line a second" \
	env KEMBED_PROGRESS=1 sh -c "$step" sh "$repo" 0
has '^kembed: a step: [0-9]+ s, half way$' "... with the time and the status"
expect 3 "... and the step's own exit status" \
	env KEMBED_PROGRESS=1 sh -c "$step" sh "$repo" 3
# shellcheck disable=SC2016 # for the inner shell
expect 0 "KEMBED_PROGRESS=0: no progress line" \
	sh -c '! env KEMBED_PROGRESS=0 sh -c "$1" sh "$2" 0 2>&1 | grep -q a.step' \
	sh "$step" "$repo"
# shellcheck disable=SC2016 # for the inner shell
expect 0 "the progress lines end with the step, within a second" \
	sh -c 't0=$(date +%s); env KEMBED_PROGRESS=1 sh -c "$1" sh "$2" 0 2>&1 |
		cat >/dev/null; [ $(($(date +%s) - t0)) -le 4 ]' sh "$step" "$repo"
# shellcheck disable=SC2016 # for the inner shell
expect 2 "KEMBED_PROGRESS=soon is refused" \
	sh -c 'env KEMBED_PROGRESS=soon sh -c "$1" sh "$2" 0; [ $? -eq 1 ] && exit 2' \
	sh "$step" "$repo"
has 'KEMBED_PROGRESS is not a number of seconds: soon' "... naming it"
expect 0 "tests/run: a progress line while a test runs" \
	env KEMBED_PROGRESS=1 KEMBED_TEST_LOGS="$tmp/logs" "$repo/tests/run" \
	"$fix/progress/host/slow.sh"
has '^kembed: .*host/slow.sh: [0-9]+ s, 1 ok, 0 not ok so far$' \
	"... with the points printed so far"
# Under tests/run, KEMBED_BUILT_OBJTREES would skip make altogether.
expect 0 "a kernel build prints its progress" \
	env -u KEMBED_BUILT_OBJTREES KEMBED_PROGRESS=1 "$repo/qemu/kernel"
has '^kembed: kernel \(riscv64 base\) building: [0-9]+ s, 0 objects compiled, of [0-9]+ in the tree$' \
	"... objects compiled, of how many in the tree"

[ "$fails" -eq 0 ]

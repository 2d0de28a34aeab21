#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/guest/selftests-{y,m,none}.sh: build the kselftest
# tools/testing/selftests/embedded_blob with its Makefile (lib.mk) from
# the copies in /host, run it, and check its TAP and exit status.
#   selftests.sh y|m|none
#     y     every artifact built in: the selftest passes
#     m     every artifact a module: it skips (exit 4) while none is
#           loaded, and passes once they are
#     none  no artifact, no /proc/embedded_blobs: it skips (exit 4)
set -u

mode=$1
dir=/tmp/ksft/tools/testing/selftests
test=$dir/embedded_blob/embedded_blob_test

# shellcheck source=tests/lib/tap.sh
. /host/tap.sh
# shellcheck source=tests/lib/artifact-list.sh
. /host/artifact-list.sh
modules=$(artifact_modules)

# Run the selftest; its output, indented, stays in the log.
run()
{
	rc=0
	"$test" > /tmp/ksft.out 2>&1 || rc=$?
	sed 's/^/# | /' /tmp/ksft.out
}

# The selftest passed: exit 0, a plan, as many "ok" as planned, no "not ok".
passed()
{
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' /tmp/ksft.out)
	oks=$(grep -c '^ok ' /tmp/ksft.out)
	bad=$(grep -c '^not ok ' /tmp/ksft.out)
	echo "# selftest: exit $rc, plan ${plan:-none}, $oks ok, $bad not ok"
	[ "$rc" -eq 0 ] && [ -n "$plan" ] && [ "$plan" -gt 0 ] &&
		[ "$oks" -eq "$plan" ] && [ "$bad" -eq 0 ]
}

# The selftest skipped as a whole: exit 4 (KSFT_SKIP), "1..0 # SKIP".
skipped()
{
	echo "# selftest: exit $rc"
	[ "$rc" -eq 4 ] && grep -q '^1\.\.0 # SKIP' /tmp/ksft.out &&
		! grep -q '^\(not \)\{0,1\}ok ' /tmp/ksft.out
}

echo "TAP version 13"
case "$mode" in
y) echo "1..3" ;;
m) echo "1..5" ;;
none) echo "1..3" ;;
*) echo "usage: selftests.sh y|m|none" >&2; exit 2 ;;
esac

mkdir -p "$dir" /tmp/ksft/usr/include/linux
cp /host/lib.mk /host/kselftest.h /host/kselftest_harness.h "$dir"
# The uapi header where "make headers" puts it, for lib.mk's KHDR_INCLUDES
cp /host/embedded_blob.h /tmp/ksft/usr/include/linux/
cp -R /host/embedded_blob "$dir"
rm -f "$test"
check "the selftest builds with its Makefile and lib.mk" \
	sh -c "make -C '$dir/embedded_blob' > /tmp/make.out 2>&1 ||
		{ sed 's/^/# /' /tmp/make.out; exit 1; }"

case "$mode" in
y)
	check "/proc/embedded_blobs exists" test -f /proc/embedded_blobs
	run
	check "the selftest passes with every artifact built in" passed
	;;
m)
	check "/proc/embedded_blobs lists no module loaded" \
		sh -c '[ -f /proc/embedded_blobs ] && ! grep -qv " - - - " /proc/embedded_blobs'
	run
	check "the selftest skips (exit 4) while no artifact is registered" \
		skipped
	# shellcheck disable=SC2086 # a list of plain words
	check "modprobe $modules" modprobe -a $modules
	run
	check "the selftest passes with every artifact a module" passed
	;;
none)
	check "/proc/embedded_blobs does not exist" \
		test ! -e /proc/embedded_blobs
	run
	check "the selftest skips (exit 4) on a kernel without the feature" \
		skipped
	;;
esac
[ "$fails" -eq 0 ]

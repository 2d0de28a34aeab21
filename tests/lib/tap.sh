# SPDX-License-Identifier: GPL-2.0
# TAP helpers shared by the tests (sourced, not run): on the host as
# "$repo/tests/lib/tap.sh", in the guest as /host/tap.sh, where tests/run
# puts it for every guest test.
#   ok DESC, not_ok DESC  one numbered TAP line
#   check DESC CMD...   run CMD: "ok N DESC" or "not ok N DESC"
#   tap_result          exit status: 0 unless a check failed
# shellcheck shell=sh

n=0
fails=0

ok()
{
	n=$((n + 1))
	echo "ok $n $1"
}

not_ok()
{
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n $1"
}

check()
{
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

tap_result()
{
	[ "$fails" -eq 0 ]
}

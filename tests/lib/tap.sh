# SPDX-License-Identifier: GPL-2.0
# TAP helpers shared by the host tests (sourced, not run).
#   check DESC CMD...   run CMD: "ok N DESC" or "not ok N DESC"
#   tap_result          exit status: 0 unless a check failed
# shellcheck shell=sh

n=0
fails=0

check()
{
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $desc"
	else
		fails=$((fails + 1))
		echo "not ok $n $desc"
	fi
}

tap_result()
{
	[ "$fails" -eq 0 ]
}

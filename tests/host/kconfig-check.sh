#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# qemu/kernel checks the resolved .config against every fragment line:
# tests/fixtures/kconfig/good-*.config must configure, bad-*.config must
# fail naming the option and the fragment (its "# expect:" line).
# Configure only, in throwaway object trees: no kernel is built.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
: "${HOME:=$(getent passwd "$(id -u)" | cut -d: -f6)}"
cache=${KEMBED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kembed}
mkdir -p "$cache"
tmp=$(mktemp -d "$cache/test-kconfig.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

set --
for frag in "$repo"/tests/fixtures/kconfig/good-*.config \
	"$repo"/tests/fixtures/kconfig/bad-*.config; do
	[ -f "$frag" ] && set -- "$@" "$frag"
done

echo "TAP version 13"
echo "1..$#"
n=0
fails=0
for frag in "$@"; do
	n=$((n + 1))
	name=$(basename "$frag")
	rc=0
	"$repo/qemu/kernel" --configure-only --objtree "$tmp/$n" \
		--kconfig "$frag" >"$tmp/out" 2>&1 || rc=$?
	case "$name" in
	good-*)
		if [ "$rc" -eq 0 ]; then
			echo "ok $n $name configures"
			continue
		fi
		;;
	bad-*)
		expect=$(sed -n 's/^# expect: //p' "$frag")
		if [ "$rc" -ne 0 ] && grep -qF "$frag" "$tmp/out" &&
			grep -qF -- "$expect" "$tmp/out"; then
			echo "ok $n $name fails: $expect"
			continue
		fi
		;;
	esac
	fails=$((fails + 1))
	echo "not ok $n $name (exit $rc)"
	sed 's/^/# /' "$tmp/out"
	rm -rf "${tmp:?}/$n"
done
[ "$fails" -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# No artifact carries a secret or the build machine's paths. The kernel of
# qemu/configs/debug.config signs its modules (CONFIG_MODULE_SIG_ALL) with
# certs/signing_key.pem, which the build generates; the base kernel is
# scanned too. Every payload is scanned as embedded, decompressed, and
# member by member when it is a tar: no "PRIVATE KEY", no line of the
# signing key, no key or certificate file, no absolute path of the object
# tree, the source tree, the cache, the checkout or $HOME.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
cd "$repo" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-secrets.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# expand PAYLOAD DIR: the payload, its decompressed bytes and, for a tar,
# its members, as files under DIR.
expand()
{
	mkdir -p "$2"
	cp "$1" "$2/payload"
	case "$(od -An -tx1 -N6 "$1" | tr -d ' ')" in
	1f8b*) gzip -dc "$1" > "$2/data" ;;
	fd377a585a00) xz -dc "$1" > "$2/data" ;;
	*) cp "$1" "$2/data" ;;
	esac
	if tar -tf "$2/data" > "$2.members" 2>/dev/null; then
		mkdir "$2/members"
		tar -xf "$2/data" -C "$2/members"
	else
		: > "$2.members"
	fi
}

# found DIR PATTERN...: the files under DIR holding any fixed PATTERN
found()
{
	dir=$1
	shift
	for p in "$@"; do
		set -- "$@" -e "$p"
		shift
	done
	grep -r -a -l -F "$@" "$dir"
}

none_found()
{
	hits=$(found "$@")
	[ -z "$hits" ] && return 0
	echo "$hits" | head -n 5 | sed "s|^$tmp/|# found in |"
	return 1
}

# Lines of the key's base64 body: 64 characters each.
key_lines()
{
	sed -n '/BEGIN.*PRIVATE KEY/,/END.*PRIVATE KEY/p' "$1" |
		grep -E '^[A-Za-z0-9+/]{64}$'
}

echo "TAP version 13"
echo "1..13"

base=$(qemu/kernel --print-objtree)
set -- --kconfig qemu/configs/artifacts-m.config \
	--kconfig qemu/configs/debug.config
signed=$(qemu/kernel --print-objtree "$@")
if ! qemu/kernel > /dev/null || ! qemu/kernel "$@" > /dev/null; then
	echo "Bail out! a kernel does not build"
	exit 1
fi
src=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$base/Makefile")
cache=$(dirname "$(dirname "$base")")
key=$signed/certs/signing_key.pem

check "the signed kernel has a generated key and signed modules" \
	sh -c "grep -q 'PRIVATE KEY' '$key' &&
	       grep -qx CONFIG_MODULE_SIG_ALL=y '$signed/.config' &&
	       tail -c 28 \$(find '$signed/.kembed-modroot' -name kheaders.ko) |
	       grep -q 'Module signature appended'"
key_lines "$key" > "$tmp/key.lines"
check "the scan finds the key in the key file ($(wc -l < "$tmp/key.lines") base64 lines)" \
	sh -c "test -s '$tmp/key.lines' &&
	       grep -q -F -f '$tmp/key.lines' '$key' &&
	       grep -q 'PRIVATE KEY' '$key'"

paths="$base $signed $src $cache $repo"
if [ -n "${HOME:-}" ] && [ "$HOME" != / ]; then
	paths="$paths ${HOME%/}/"
fi
echo "# paths looked for: $paths"
# The scan can fail: a copy of the key and a path, in a tar member.
scan_works()
{
	d=$tmp/control
	mkdir -p "$d/members/x"
	cp "$key" "$d/members/x/key"
	echo "#define WHERE \"$src/include\"" > "$d/members/x/where.h"
	# shellcheck disable=SC2086 # one word per path
	! none_found "$d" "PRIVATE KEY" > /dev/null &&
		grep -r -a -q -F -f "$tmp/key.lines" "$d" &&
		! none_found "$d" $paths > /dev/null
}
check "the scan finds a copied key and a build path" scan_works
rm -rf "$tmp/control"

for tree in signed base; do
	obj=$base
	[ "$tree" = base ] || obj=$signed
	dir=$tmp/$tree
	count=0
	for p in "$obj"/kernel/*.payload; do
		expand "$p" "$dir/$(basename "$p" .payload)"
		count=$((count + 1))
	done
	files=$(find "$dir" -type f | wc -l)
	echo "# $tree: $count payloads, $files files scanned"
	check "$tree: $count payloads, no PRIVATE KEY in any of $files files" \
		none_found "$dir" "PRIVATE KEY" "PRIVATE-KEY"
	check "$tree: no line of the signing key" \
		sh -c "! grep -r -a -l -F -f '$tmp/key.lines' '$dir'"
	check "$tree: no key, certificate or signing file among the archive members" \
		sh -c "! cat '$dir'/*.members | grep -E '(^|/)(certs/|signing_key|x509|[^/]*\\.(pem|key|crt|der|p12|x509)$)'"
	# shellcheck disable=SC2086 # one word per path
	check "$tree: no absolute path of the build" none_found "$dir" $paths
	check "$tree: kheaders was scanned member by member" \
		test -s "$dir/kheaders.members"
done
tap_result

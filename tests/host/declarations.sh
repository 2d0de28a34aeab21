#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# artifacts.d/ declarations through scripts/kembed.sh, as the top Makefile runs it before Kconfig:
# tests/fixtures/decl/good-* must pass and generate Kconfig, kembed.mk and
# instances; bad-* must fail with the exact FILE:LINE message in their
# "expected" file, write nothing, and run nothing they contain.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-decl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# run FIXTURE: kembed.sh kconfig on a copy, in a fresh object directory,
# with a source tree holding the repo's scripts/ and symlinks out of it
# (a file and a directory).
run()
{
	rm -rf "$tmp/src" "$tmp/obj" /tmp/kembed-pwned
	mkdir -p "$tmp/src" "$tmp/obj/decl"
	cp -r "$repo/scripts" "$tmp/src/"
	ln -s /etc/passwd "$tmp/src/scripts/escape"
	ln -s /etc "$tmp/src/scripts/escdir"
	for f in "$1"/*; do
		[ "${f##*/}" = expected ] || cp "$f" "$tmp/obj/decl/"
	done
	(cd "$tmp/obj" && srctree=$tmp/src sh "$repo/scripts/kembed.sh" \
		kconfig decl) > "$tmp/out" 2> "$tmp/err"
}

good()
{
	run "$1" || { sed 's/^/# /' "$tmp/err"; return 1; }
	for f in "$1"/*; do
		sym=$(sed -n 's/^config *= *//p' "$f")
		grep -qx "config $sym" "$tmp/obj/kernel/Kconfig.kembed" ||
			return 1
		name=$(sed -n 's/^name *= *//p' "$f")
		grep -qx "kembed-artifacts += $name" "$tmp/obj/kernel/kembed.mk" ||
			return 1
	done
	test ! -s "$tmp/out"
}

bad()
{
	if run "$1"; then
		echo "# accepted"
		return 1
	fi
	if ! grep -qxF "$(cat "$1/expected")" "$tmp/err"; then
		sed 's/^/# got: /' "$tmp/err"
		sed 's/^/# want: /' "$1/expected"
		return 1
	fi
	# Nothing written, nothing run.
	test ! -e "$tmp/obj/kernel" && test ! -e /tmp/kembed-pwned
}

echo "TAP version 13"
set -- "$repo"/tests/fixtures/decl/*/
echo "1..$(($# + 2))"
for d in "$@"; do
	d=${d%/}
	case "${d##*/}" in
	good-*) check "${d##*/} is accepted" good "$d" ;;
	bad-*) check "${d##*/}: $(cat "$d/expected")" bad "$d" ;;
	esac
done

run "$repo/tests/fixtures/decl/good-all-keys"
check "good-all-keys: an instance is generated for a module without a .c" \
	grep -qx 'EMBEDDED_BLOB();' "$tmp/obj/kernel/kembed_all.kembed.c"
check "good-all-keys: the Kconfig entry has the prompt, help and depends" \
	grep -q "depends on PROC_FS && (SYSFS || !MODULES)" \
	"$tmp/obj/kernel/Kconfig.kembed"
tap_result

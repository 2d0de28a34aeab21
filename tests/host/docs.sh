#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The documentation a kernel user expects, checked:
# - kembed(1): "make -C userspace install" puts it under DESTDIR, prefix
#   and mandir; groff -ww finds no warning in it; man renders it; it names
#   every command and long option of "kembed --help";
# - every file in Documentation/ABI/ has the fields of an ABI entry
#   (What, Date, KernelVersion, Contact, Description, Users, in that
#   order), and nothing else at the start of a line;
# - every artifact declared in artifacts.d/ has an entry for
#   /proc/<name> (and /sys/kernel/<name> with "sysfs = yes"), and so has
#   /proc/embedded_blobs: a throwaway declaration in a copy shows the
#   check failing;
# - Documentation/kbuild/embedded-artifacts.rst: every file it names
#   exists (in the repository or in linux-source), it names every ABI
#   file, and in the tree qemu/sync-tree makes it is in the kbuild index
#   and MAINTAINERS covers every Documentation/ file of the repository.
# Each checker is also run on a bad sample, which it must reject.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. "$repo/tests/lib/tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-docs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

abi=Documentation/ABI
rst=Documentation/kbuild/embedded-artifacts.rst
man=userspace/Documentation/kembed.1

# Print "FILE:LINE: reason" for every ABI entry of the files $@ that lacks
# a field or has them out of order, and for stray lines.
abi_lint()
{
	awk '
	function flush() {
		if (what && !skip && seen != 6)
			printf "%s:%d: entry lacks %s\n", file, start,
				substr(order, seen * 14 + 1, 14)
		what = 0
		skip = 0
	}
	BEGIN {
		order = sprintf("%-14s%-14s%-14s%-14s%-14s%-14s", "What:", "Date:",
			"KernelVersion:", "Contact:", "Description:", "Users:")
	}
	FNR == 1 { flush(); file = FILENAME; seen = 0; prev = "" }
	/^What:/ {
		if (prev != "What:")
			flush()
		if (!what)
			start = FNR
		what = 1
		seen = 1
		prev = "What:"
		if ($0 !~ /^What:[ \t]+[^ \t]/)
			printf "%s:%d: What: without a value\n", FILENAME, FNR
		next
	}
	/^[A-Za-z]+:/ {
		tag = $0
		sub(/:.*/, ":", tag)
		prev = tag
		i = index(order, sprintf("%-14s", tag))
		if (!i) {
			printf "%s:%d: unknown field %s\n", FILENAME, FNR, tag
		} else if (skip) {
		} else if (!what) {
			printf "%s:%d: %s outside an entry\n", FILENAME, FNR, tag
		} else if ((i - 1) / 14 != seen) {
			printf "%s:%d: %s where %s belongs\n", FILENAME, FNR,
				tag, substr(order, seen * 14 + 1, 14)
			skip = 1
		} else {
			seen++
			if (tag != "Description:" && $0 !~ /^[A-Za-z]+:[ \t]+[^ \t]/)
				printf "%s:%d: %s without a value\n", FILENAME, FNR, tag
		}
		next
	}
	/^[ \t]/ || /^$/ { next }
	{ printf "%s:%d: neither a field nor indented\n", FILENAME, FNR }
	END { flush() }' "$@" | sed 's/ *$//'
}

# Print each /proc or /sys path that a declaration in $1 makes and that no
# "What:" line of the files under $2 documents.
abi_missing()
{
	cat "$2"/*/* 2>/dev/null | sed -n 's/^What:[[:space:]]*//p' |
		sed 's/[[:space:]]*$//' >"$tmp/whats"
	{
		for f in "$1"/*; do
			case "${f##*/}" in
			README* | .*) continue ;;
			esac
			[ -f "$f" ] || continue
			awk -F '[ \t]*=[ \t]*' '
				/^[ \t]*name[ \t]*=/ { name = $2 }
				/^[ \t]*sysfs[ \t]*=[ \t]*yes[ \t]*$/ { sysfs = 1 }
				END {
					sub(/[ \t]+$/, "", name)
					print "/proc/" name
					if (sysfs)
						print "/sys/kernel/" name
				}' "$f"
			echo /proc/embedded_blobs
		done
	} | sort -u | while IFS= read -r path; do
		grep -qxF "$path" "$tmp/whats" || echo "$path"
	done
}

# The files $1 names: ``dir/file`` paths under the kernel tree's top
# directories, but patterns and files the build generates.
rst_paths()
{
	# shellcheck disable=SC2016 # rst literals, not shell expansions
	grep -o '``[^`]*``' "$1" | tr -d '`' |
		grep -E '^(Documentation|arch|artifacts\.d|include|init|kernel|scripts|tools)/' |
		grep -v -e '[<*$ ]' -e '^kernel/Kconfig\.kembed$' \
			-e '^kernel/kembed\.mk$' -e '^scripts/module\.lds$' | sort -u
}

# Print each of them that exists neither in the repository (tools/kembed/
# is userspace/) nor in the pristine tree $2.
rst_missing()
{
	rst_paths "$1" | while IFS= read -r p; do
		case "$p" in
		tools/kembed) r=userspace ;;
		tools/kembed/*) r=userspace/${p#tools/kembed/} ;;
		*) r=$p ;;
		esac
		[ -e "$r" ] || [ -e "$2/$p" ] || echo "$p"
	done
}

# The helpers of the checks below
installed()
{
	[ -x "$1" ] && [ -f "$2" ]
}

groff_warnings()
{
	LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$1" 2>&1
}

echo "TAP version 13"
echo "1..18"

# kembed(1)
if make -s -C userspace O="$tmp/obj" install DESTDIR="$tmp/root" \
	>"$tmp/make.log" 2>&1; then
	ok "make -C userspace install DESTDIR=..."
else
	sed 's/^/# /' "$tmp/make.log"
	not_ok "make -C userspace install DESTDIR=..."
fi
page=$tmp/root/usr/local/share/man/man1/kembed.1
check "it installs bin/kembed and share/man/man1/kembed.1 under /usr/local" \
	installed "$tmp/root/usr/local/bin/kembed" "$page"
make -s -C userspace O="$tmp/obj" install DESTDIR="$tmp/root2" \
	prefix=/usr mandir=/usr/man >/dev/null 2>&1 || :
check "prefix=/usr mandir=/usr/man: usr/bin/kembed, usr/man/man1/kembed.1" \
	installed "$tmp/root2/usr/bin/kembed" "$tmp/root2/usr/man/man1/kembed.1"

if ! command -v groff >/dev/null; then
	ok "groff finds no warning in kembed.1 # SKIP no groff (groff-base)"
	ok "groff warns about a broken copy # SKIP no groff (groff-base)"
else
	groff_warnings "$page" >"$tmp/groff" || echo "groff failed" >>"$tmp/groff"
	sed 's/^/# /' "$tmp/groff"
	check "groff -man -ww finds no warning in the installed kembed.1" \
		test ! -s "$tmp/groff"
	{ cat "$page"; printf '.kembed-no-such-macro\n'; } >"$tmp/broken.1"
	check "groff -man -ww warns about a broken copy" \
		test -n "$(groff_warnings "$tmp/broken.1")"
fi
if command -v man >/dev/null; then
	MANWIDTH=80 MANPAGER=cat PAGER=cat man -l "$page" >"$tmp/man.txt" \
		2>"$tmp/man.err" || :
	sed 's/^/# man: /' "$tmp/man.err"
	check "man -l renders it: NAME, SYNOPSIS, EXIT STATUS" \
		test "$(grep -c -e '^NAME$' -e '^SYNOPSIS$' -e '^EXIT STATUS$' \
			-e '^ *kembed - list, extract and verify' "$tmp/man.txt")" = 4
else
	ok "man -l renders it # SKIP no man (man-db)"
fi

# What kembed --help lists, the page describes.
: >"$tmp/undocumented"
if "$tmp/obj/kembed" --help >"$tmp/help" 2>&1; then
	sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$tmp/help" | while read -r c; do
		grep -q "^\.B[IR]* $c\( \|$\)" "$man" || echo "command $c"
	done >>"$tmp/undocumented"
	grep -o -e '--[a-z][a-z-]*' "$tmp/help" | sort -u | while read -r o; do
		grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" "$man" ||
			echo "option $o"
	done >>"$tmp/undocumented"
	# the headers command has its own help
	grep -qF -- '\-\-force' "$man" && grep -q -- 'headers install' "$man" ||
		echo "headers install --force" >>"$tmp/undocumented"
else
	echo "kembed --help failed" >>"$tmp/undocumented"
fi
sed 's/^/# not in kembed.1: /' "$tmp/undocumented"
check "kembed.1 names every command and option of kembed --help" \
	test ! -s "$tmp/undocumented"

# The ABI files
find "$abi" -type f | LC_ALL=C sort >"$tmp/abi-files"
set --
while IFS= read -r f; do
	set -- "$@" "$f"
done <"$tmp/abi-files"
if [ "$#" -gt 0 ]; then
	abi_lint "$@" >"$tmp/lint" 2>&1 || :
else
	echo "no ABI file under $abi" >"$tmp/lint"
fi
sed 's/^/# /' "$tmp/lint"
check "$# ABI files: every entry has What, Date, KernelVersion, Contact, Description, Users" \
	test ! -s "$tmp/lint"

mkdir -p "$tmp/badabi/testing"
printf 'What:\t\t/proc/a\nDate:\t\tDecember 2026\nContact:\tx\nDescription:\n\t\ta\nUsers:\t\tb\n' \
	>"$tmp/badabi/testing/procfs-a"
printf 'What:\t\t/proc/b\nDate:\t\tDecember 2026\nKernelVersion:\t6.1\nContact:\tx\nDescription:\n\t\tb\n' \
	>"$tmp/badabi/testing/procfs-b"
printf 'What:\t\t/proc/c\nDate:\t\tDecember 2026\nKernelVersion:\t6.1\nContact:\tx\nDescription:\nnot indented\nUsers:\t\tb\n' \
	>"$tmp/badabi/testing/procfs-c"
abi_lint "$tmp/badabi/testing/procfs-a" "$tmp/badabi/testing/procfs-b" \
	"$tmp/badabi/testing/procfs-c" | sed "s|$tmp/badabi/||" >"$tmp/lint-bad"
sed 's/^/# rejected: /' "$tmp/lint-bad"
check "a missing KernelVersion, a missing Users and a stray line are reported" \
	test "$(cut -d: -f1 "$tmp/lint-bad" | sort -u | tr '\n' ' ')" = \
	"testing/procfs-a testing/procfs-b testing/procfs-c "

# Every artifact is documented; a new one without docs is caught.
abi_missing artifacts.d "$abi" >"$tmp/missing"
sed 's/^/# undocumented: /' "$tmp/missing"
ndecl=$(find artifacts.d -maxdepth 1 -type f ! -name 'README*' ! -name '.*' |
	wc -l)
check "every artifact in artifacts.d/ ($ndecl) has its ABI entries" \
	test ! -s "$tmp/missing"
cp -R artifacts.d "$tmp/decl"
printf '%s\n' '# SPDX-License-Identifier: GPL-2.0' 'name = zz-undocumented' \
	'config = ZZ' 'prompt = x' 'source = .config' 'sysfs = yes' \
	>"$tmp/decl/zz-undocumented"
abi_missing "$tmp/decl" "$abi" >"$tmp/missing-bad"
sed 's/^/# undocumented: /' "$tmp/missing-bad"
check "a throwaway declaration without ABI entries is caught (/proc and /sys)" \
	test "$(grep -cx -e /proc/zz-undocumented -e /sys/kernel/zz-undocumented \
		"$tmp/missing-bad")" = 2

# The Kbuild page
check "$rst starts with an SPDX line" \
	test "$(head -n 1 "$rst")" = '.. SPDX-License-Identifier: GPL-2.0'
pristine=
if pristine=$(qemu/prepare-tree --print-pristine 2>"$tmp/prepare"); then
	rst_missing "$rst" "$pristine" >"$tmp/rst-missing"
	sed 's/^/# missing: /' "$tmp/rst-missing"
	check "every file $rst names exists ($(rst_paths "$rst" | wc -l))" \
		test ! -s "$tmp/rst-missing"
	# shellcheck disable=SC2016 # an rst literal
	{ cat "$rst"; echo '``scripts/no-such-file.sh``'; } >"$tmp/bad.rst"
	check "a name of a file that does not exist is caught" \
		test "$(rst_missing "$tmp/bad.rst" "$pristine")" = scripts/no-such-file.sh
else
	sed 's/^/# /' "$tmp/prepare"
	ok "every file $rst names exists # SKIP no linux-source tree"
	ok "a name of a file that does not exist is caught # SKIP no linux-source tree"
fi
: >"$tmp/unnamed"
while IFS= read -r f; do
	grep -qF "\`\`$f\`\`" "$rst" || echo "$f" >>"$tmp/unnamed"
done <"$tmp/abi-files"
sed 's/^/# not named: /' "$tmp/unnamed"
check "$rst names every ABI file" test ! -s "$tmp/unnamed"

# In the kernel tree: the index lists the page, MAINTAINERS covers the
# files (patches/ adds both).
if [ -n "$pristine" ]; then
	mkdir "$tmp/src"
	qemu/sync-tree "$pristine" "$tmp/src" "$repo" 2>"$tmp/sync" || :
	check "in the synced tree, Documentation/kbuild/index.rst lists the page" \
		grep -qx '    embedded-artifacts' "$tmp/src/Documentation/kbuild/index.rst"
	sed -n '/^EMBEDDED BUILD ARTIFACTS$/,/^$/s/^F:[[:space:]]*//p' \
		"$tmp/src/MAINTAINERS" >"$tmp/f-lines"
	find Documentation -type f | while read -r f; do
		covered=
		while read -r pat; do
			case "$pat" in
			*/) case "$f" in "$pat"*) covered=1 ;; esac ;;
			*) [ "$f" != "$pat" ] || covered=1 ;;
			esac
		done <"$tmp/f-lines"
		[ -n "$covered" ] || echo "$f"
	done >"$tmp/unmaintained"
	sed 's/^/# no F: line: /' "$tmp/unmaintained"
	check "MAINTAINERS (EMBEDDED BUILD ARTIFACTS) covers every Documentation/ file" \
		test ! -s "$tmp/unmaintained"
	find Documentation -type f | while read -r f; do
		cmp -s "$f" "$tmp/src/$f" || echo "$f"
	done >"$tmp/unsynced"
	sed 's/^/# not synced: /' "$tmp/unsynced"
	check "qemu/sync-tree installs every Documentation/ file" \
		test ! -s "$tmp/unsynced"
else
	ok "the kbuild index lists the page # SKIP no linux-source tree"
	ok "MAINTAINERS covers every Documentation/ file # SKIP no linux-source tree"
	ok "qemu/sync-tree installs every Documentation/ file # SKIP no linux-source tree"
fi

tap_result

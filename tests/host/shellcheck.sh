#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every harness shell script (qemu/, bench/, patches/, tests/, .ci/)
# passes shellcheck.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

if ! command -v shellcheck >/dev/null; then
	echo "1..0 # SKIP shellcheck is not installed"
	exit 4
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
find qemu bench patches tests .ci -type f | LC_ALL=C sort | while IFS= read -r file; do
	case "$(head -n 1 "$file")" in
	"#!/bin/sh"* | "#!/bin/bash"* | "# shellcheck shell="*) echo "$file" ;;
	esac
done >"$tmp/list"

echo "TAP version 13"
echo "1..$(wc -l <"$tmp/list")"
n=0
fails=0
while IFS= read -r file; do
	n=$((n + 1))
	if shellcheck -x "$file" >"$tmp/out" 2>&1; then
		echo "ok $n $file"
	else
		fails=$((fails + 1))
		echo "not ok $n $file"
		sed 's/^/# /' "$tmp/out"
	fi
done <"$tmp/list"
[ "$fails" -eq 0 ]

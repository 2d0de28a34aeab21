#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The artifacts are reproducible and rebuilt exactly when they must be.
# A second object tree of the base config, at another path, built with
# another umask and locale and with TAR_OPTIONS, XZ_OPT, XZ_DEFAULTS,
# GZIP and ZSTD_CLEVEL set, must produce the same payloads, byte for byte,
# as the default tree. Then, in that second tree: a no-op rebuild
# regenerates nothing; touching a header (mtime only) rebuilds no payload
# and hashes the inputs once, not on every later build;
# a header added, or edited within the same second, is in the archive.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
cd "$repo" || exit 1

echo "TAP version 13"
echo "1..13"

base=$(qemu/kernel --print-objtree)
qemu/kernel > /dev/null || { echo "Bail out! the base kernel does not build"; exit 1; }
other=$(dirname "$base")/reproducible-check
kembed_mk=$base/kernel/kembed.mk
auto_conf=$base/include/config/auto.conf
# shellcheck source=tests/lib/artifact-list.sh
. "$repo/tests/lib/artifact-list.sh"
payloads=$(artifact_modules)
log=$other/.kembed-build.log

# build: rebuild $other, keep its log in $other.new (qemu/kernel starts
# the log afresh on every run)
build()
{
	qemu/kernel --objtree "$other" > /dev/null || return 1
	cp "$log" "$other.new"
}

# made_nothing: the last build made no artifact file (the log's lines of
# the steps in scripts/Makefile.kembed; "GEN Makefile" is Kbuild's own)
made_nothing()
{
	! grep -E '^ +(GEN|XZ|GZIP|COPY|ZSTD|EMBED) +kernel/' "$other.new"
}

same_payloads()
{
	for p in $payloads; do
		cmp "$base/kernel/$p.payload" "$other/kernel/$p.payload" || return 1
	done
}

mtime()
{
	stat -c %Y.%y "$1"
}

# Build with another umask, locale and compressor settings.
polluted_build()
(
	umask 077
	unset LC_ALL
	export LANG=C.UTF-8 TAR_OPTIONS=--format=posix XZ_OPT=-0 \
		XZ_DEFAULTS=-T0 GZIP=-1 ZSTD_CLEVEL=1
	build
)

in_archive()
{
	xz -dc "$other/kernel/kheaders.payload" | tar -xOf - "./$1"
}

rm -rf "$other"
t0=$(date +%s)
check "a second tree, other path, umask 077, polluted environment, builds" \
	polluted_build
echo "# second tree built in $(($(date +%s) - t0)) s"
check "its payloads are byte-identical to the default tree's" same_payloads

before=$(mtime "$other/kernel/kheaders.payload")
check "a no-op rebuild" build
check "  regenerated and recompressed nothing" \
	made_nothing

hdr=$other/include/generated/kembed_check.h
echo '#define KEMBED_CHECK 1 /* first */' > "$hdr"
check "a header added to the tree" build
check "  is in the archive, without its comment" \
	test "$(in_archive include/generated/kembed_check.h)" = \
	'#define KEMBED_CHECK 1'
added=$(mtime "$other/kernel/kheaders.payload")

# Edited 1 us after the build last hashed the archive's inputs (its stamp,
# written after the archive), within the same second (but for a second
# wrapping in that microsecond).
echo '#define KEMBED_CHECK 2' > "$hdr"
touch -d "@$(stat -c %.9Y "$other/kernel/kheaders.payload.in.sha256" |
	awk -F. '{ printf "%d.%09d", $1, $2 + 1000 }')" "$hdr"
check "a header edited within the same second as the archive" build
check "  is picked up" \
	test "$(in_archive include/generated/kembed_check.h)" = \
	'#define KEMBED_CHECK 2'
edited=$(mtime "$other/kernel/kheaders.payload")

touch "$hdr"
t0=$(date +%s)
check "a header touched, not changed" build
check "  leaves every payload alone" \
	test "$(mtime "$other/kernel/kheaders.payload")" = "$edited"
check "  and the build after it" build
check "  hashes the inputs no more" made_nothing
rm -f "$hdr"
check "a header removed is gone from the archive" \
	sh -c "qemu/kernel --objtree '$other' > /dev/null &&
	       ! xz -dc '$other/kernel/kheaders.payload' | tar -tf - |
	       grep -q kembed_check.h"
echo "# payload mtimes: first $before, added $added, edited $edited"
rm -rf "$other" "$other.new"
tap_result

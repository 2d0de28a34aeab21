#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kembed tool on small inputs made here (userspace/fuzz/mkseeds.sh):
# usage errors, good and bad artifacts (each bad one with its documented
# exit status and message), every compressed stream format, --limit,
# output files, and the live mode on a fake /proc and modules directory.
# Everything runs twice: with the plain build and with an
# AddressSanitizer + UBSan build.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/fixtures/userspace/lib.sh
. "$repo/tests/fixtures/userspace/lib.sh"
# shellcheck source=tests/fixtures/userspace/tap.sh
. "$repo/tests/fixtures/userspace/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$repo/qemu/deps"

echo "TAP version 13"
build_tool "$repo/userspace" "$tmp"
seeds=$tmp/seeds
"$repo/userspace/fuzz/mkseeds.sh" "$seeds"

# The fake running kernel: two artifacts registered, one module file
# (the seed ELF object) not loaded, whose artifact the kernel lists as
# "name - - - module".
fake_kernel()
{
	proc=$tmp/proc
	mods=$tmp/modules
	rm -rf "$proc" "$mods"
	mkdir -p "$proc" "$mods/kernel/kernel"
	printf 'release: 6.1.0\narch: riscv\n' >"$proc/buildinfo"
	printf 'CONFIG_IKCONFIG=y\n' | gzip -n -9 >"$proc/config.gz"
	{
		echo "buildinfo $(wc -c <"$proc/buildinfo") none $(sha "$proc/buildinfo") builtin"
		echo "config.gz $(wc -c <"$proc/config.gz") gzip $(sha "$proc/config.gz") configs"
		echo "kheaders.tar.xz - - - kfake"
	} >"$proc/embedded_blobs"
	cp "$seeds/image.o" "$mods/kernel/kernel/kfake.ko"
	xz -c "$seeds/blob-zstd" >"$mods/kernel/kernel/kfake-xz.ko.xz"
	cp "$seeds/blob-none" "$mods/kernel/kernel/not-a-module.txt"
}

for variant in plain asan; do
	kembed=$tmp/$variant/kembed

	# Usage
	run 0 '^usage: kembed' "--help" --help
	run 0 '^  list \[IMAGE\]' "help list" help list
	run 0 '^kembed [0-9]' "--version" --version
	run 2 "no command" "no command: exit 2"
	run 2 "unknown command 'frob'" "unknown command: exit 2" frob
	run 2 "invalid option" "unknown option: exit 2" list -x
	run 2 "list does not take -o" "an option of another command: exit 2" \
		list -o x
	run 2 "not a size" "--limit 0: exit 2" --limit 0 list
	run 2 "not a size" "--limit 5X: exit 2" --limit 5X list
	run 2 "no NAME" "extract without NAME: exit 2" extract
	run 2 "too many arguments" "list with two images: exit 2" list a b
	run 2 "too many arguments" "verify with three arguments: exit 2" \
		verify a b c

	# Good inputs: every artifact verifies, in every container.
	for seed in blob-none blob-gzip blob-xz blob-zstd blob-empty image \
		image.gz image.xz image.lzma image.zst image.bz2 \
		image-in-junk.gz image.o; do
		run 0 ': OK$' "verify $seed" verify "$seeds/$seed"
	done
	run 0 '^config\.gz +34 gzip [0-9a-f]{64} 0x12c$' \
		"list image: name, size, compression, sha256, offset" \
		list "$seeds/image"
	check "list image: 4 artifacts" test "$(wc -l <"$tmp/out")" -eq 4
	run 0 ' zstd@0x0:0x1ff$' "list image.zst: where, in the stream" \
		list "$seeds/image.zst"
	run 0 ' gzip@0x40:0x12c$' "list image-in-junk.gz: the stream's offset" \
		list "$seeds/image-in-junk.gz"
	run 0 '\(\.rodata\+0x12c\)$' "list image.o: the ELF section" \
		list "$seeds/image.o"
	run 0 '^CONFIG_IKCONFIG=y$' "extract -d config.gz (gzip)" \
		extract -d config.gz "$seeds/image.bz2"
	run 0 '^headers$' "extract -d kheaders.tar.xz (xz)" \
		extract --decompress kheaders.tar.xz "$seeds/image.lzma"
	run 0 '^CONFIG_64BIT=y$' "extract -d defconfig.zst (zstd)" \
		extract -d defconfig.zst "$seeds/image.gz"
	run 0 '^release: 6\.1\.0$' "extract -d of an uncompressed artifact" \
		extract -d buildinfo "$seeds/image"
	run 0 "" "extract from stdin (-)" extract buildinfo - <"$seeds/image.xz"
	"$kembed" extract buildinfo - <"$seeds/image.xz" >"$tmp/stdin.out"
	check "... the payload" grep -qx 'arch: riscv' "$tmp/stdin.out"

	# Output files: atomic replacement, nothing left behind, devices.
	mkdir -p "$tmp/outdir"
	echo old >"$tmp/outdir/bi"
	run 0 "" "extract -o replaces a file" \
		extract -o "$tmp/outdir/bi" buildinfo "$seeds/image"
	check "... with the payload" test "$(sha "$tmp/outdir/bi")" = \
		"$("$kembed" extract buildinfo "$seeds/image" | sha256sum | cut -d' ' -f1)"
	check "... and leaves no temporary file" \
		test "$(find "$tmp/outdir" -type f | wc -l)" -eq 1
	run 0 "" "extract -o /dev/null" extract -o /dev/null buildinfo \
		"$seeds/image"
	check "... writes to the device, does not replace it" test -c /dev/null
	run 1 "SHA-256 mismatch, not extracted" \
		"extract of a damaged artifact: exit 1" \
		extract -o "$tmp/outdir/short" config.gz "$seeds/bad-size-short"
	check "... writes nothing" test ! -e "$tmp/outdir/short"
	run 1 "No such file or directory" "extract -o into a missing directory" \
		extract -o "$tmp/nodir/x" buildinfo "$seeds/image"

	# Bad inputs: each with its exit status and message.
	: >"$tmp/empty"
	run 3 "empty: empty file$" "an empty file: exit 3" list "$tmp/empty"
	run 3 "no embedded artifact found$" "a file that is no kernel: exit 3" \
		list "$repo/artifacts.d/README"
	run 3 "no embedded artifact found$" "the magic alone: exit 3" \
		list "$seeds/bad-magic-only"
	run 3 "nope: no such artifact$" "extract of a missing name: exit 3" \
		extract nope "$seeds/image"
	run 3 "nope: no such artifact$" "verify of a missing name: exit 3" \
		verify nope "$seeds/image"
	run 1 "No such file or directory" "a missing file: exit 1" \
		list "$tmp/missing"
	run 1 "Is a directory" "a directory: exit 1" list "$tmp"
	run 1 "payload of 4096 bytes runs past the end of the data \(42 bytes left\)" \
		"a size field longer than the file: exit 1" \
		verify "$seeds/bad-size-long"
	run 1 "payload of 18446744073709551615 bytes runs past the end" \
		"a size field of 2^64-1: exit 1" list "$seeds/bad-size-huge"
	run 1 "config.gz: SHA-256 mismatch" \
		"a size field shorter than the payload: verify exits 1" \
		verify "$seeds/bad-size-short"
	check "... and says FAILED" grep -qx 'config.gz: FAILED' "$tmp/out"
	run 1 "invalid name field" "a name with ../ in it: exit 1" \
		list "$seeds/bad-name"
	run 1 "header runs past the end of the data" \
		"a truncated header: exit 1" list "$seeds/bad-truncated-header"
	run 1 "runs past the end of the data" "a truncated payload: exit 1" \
		list "$seeds/bad-truncated-payload"
	run 1 "xz stream at 0x0: unexpected end of data" \
		"a truncated xz image: exit 1" verify "$seeds/bad-truncated.xz"
	run 1 "decompressed size exceeds the limit" \
		"--limit stops decompression: exit 1" \
		--limit 1K verify "$seeds/image.xz"
	run 0 ": OK$" "--limit large enough" --limit 2K verify "$seeds/image.xz"
	cp "$seeds/image" "$tmp/flipped"
	# the buildinfo payload, "release: ...", starts after its header at 0x1ff
	hdr=$(frame_value 'sizeof(struct embedded_blob_header)')
	printf 'X' | patch "$tmp/flipped" $((0x1ff + hdr + 3))
	run 1 "buildinfo: SHA-256 mismatch" "a flipped byte: verify exits 1" \
		verify "$tmp/flipped"
	check "... says which one failed" grep -qx 'buildinfo: FAILED' "$tmp/out"
	check "... and which did not" grep -qx 'config.gz: OK' "$tmp/out"

	# Live, on a fake /proc and modules directory.
	fake_kernel
	export KEMBED_PROC="$proc" KEMBED_MODULES="$mods"
	run 0 '^config\.gz +[0-9]+ gzip [0-9a-f]{64} module configs$' \
		"live list: a loaded module's artifact" list
	check "... a built-in one" grep -qE '^buildinfo .* builtin$' "$tmp/out"
	check "... one in a module file that is not loaded" \
		grep -qE '^kheaders\.tar\.xz .* module kfake, not loaded$' "$tmp/out"
	check "... one in a compressed module file" \
		grep -qE '^defconfig\.zst .* module kfake_xz, not loaded$' "$tmp/out"
	check "... each name once (the registered one wins)" \
		test "$(cut -d' ' -f1 "$tmp/out" | sort | uniq -d)" = ""
	run 0 "" "live verify" verify
	check "... all OK" test "$(grep -vc ': OK$' "$tmp/out")" -eq 0
	run 0 "^CONFIG_IKCONFIG=y$" "live extract -d config.gz" \
		extract -d config.gz
	run 0 "^headers$" "live extract from a module that is not loaded" \
		extract -d kheaders.tar.xz
	run 3 "nope: no such artifact in the running kernel" \
		"live extract of a missing name: exit 3" extract nope
	run 0 "buildinfo: OK" "verify NAME, live" verify buildinfo
	echo junk >>"$proc/buildinfo"
	run 1 "longer than the [0-9]+ bytes listed" \
		"a /proc file longer than listed: exit 1" verify buildinfo
	printf 'X' | patch "$proc/config.gz" 20
	run 1 "config.gz: SHA-256 mismatch" \
		"a /proc file that does not match its sha256: exit 1" \
		verify config.gz
	echo 'buildinfo - - - builtin' >>"$proc/embedded_blobs"
	run 1 "embedded_blobs: line 4: malformed" \
		"a built-in artifact listed as not loaded: exit 1" list
	fake_kernel
	echo 'bad line' >>"$proc/embedded_blobs"
	run 1 "embedded_blobs: line 4: malformed" \
		"a malformed /proc/embedded_blobs line: exit 1" list
	cp "$seeds/bad-proc-embedded_blobs" "$proc/embedded_blobs"
	run 1 "line 1: malformed" "a bad size and sha256 field: exit 1" list
	rm -rf "$proc/embedded_blobs" "$mods"
	run 3 "the running kernel carries no artifacts" \
		"a kernel without artifacts: exit 3" list
	unset KEMBED_PROC KEMBED_MODULES
done

echo "1..$n"
[ "$fails" -eq 0 ]

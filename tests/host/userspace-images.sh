#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kembed tool on the real build outputs. Every artifact declared in
# artifacts.d/ is listed (name, size, compression, sha256) and extracted
# byte for byte (the build's kernel/<module>.payload) from vmlinux, Image,
# the Image compressed with gzip, xz, zstd, bzip2 and lzma, and (all
# artifacts =m) from its module; damaged copies of the Image (truncated,
# a flipped byte, lying size fields) and files that are no kernel fail
# with their documented status and message. Everything runs twice: with
# the plain build and with an AddressSanitizer + UBSan build.
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

# The object trees: built unless tests/run already did (or up to date).
mfrag=$repo/qemu/configs/artifacts-m.config
for frag in "" "$mfrag"; do
	if ! "$repo/qemu/kernel" ${frag:+--kconfig "$frag"} \
		>"$tmp/kernel.log" 2>&1 </dev/null; then
		sed 's/^/# /' "$tmp/kernel.log"
		echo "Bail out! cannot build the kernel (${frag:-base})"
		exit 1
	fi
done
y=$("$repo/qemu/kernel" --print-objtree)
m=$("$repo/qemu/kernel" --print-objtree --kconfig "$mfrag")

decls "$repo/artifacts.d" >"$tmp/decls"
count=$(wc -l <"$tmp/decls")

# The images: the Image as it is and compressed.
img=$tmp/img
mkdir -p "$img"
cp "$y/vmlinux" "$y/arch/riscv/boot/Image" "$img/"
gzip -9 <"$img/Image" >"$img/Image.gz"
xz -T1 <"$img/Image" >"$img/Image.xz"
zstd -q -19 <"$img/Image" >"$img/Image.zst"
bzip2 -9 <"$img/Image" >"$img/Image.bz2"
lzma <"$img/Image" >"$img/Image.lzma"
images="vmlinux Image Image.gz Image.xz Image.zst Image.bz2 Image.lzma"


# listed OBJTREE: the list lines in $tmp/out agree with every declaration
# and that tree's payloads, and there are no others.
listed()
{
	while read -r name module comp; do
		payload=$1/kernel/$module.payload
		want="$name $(wc -c <"$payload") $comp $(sha "$payload")"
		tr -s ' ' <"$tmp/out" | cut -d' ' -f1-4 | grep -qxF "$want" ||
			{ echo "missing: $want"; return 1; }
	done <"$tmp/decls"
	[ "$(wc -l <"$tmp/out")" -eq "$count" ] ||
		{ echo "not $count lines:"; cat "$tmp/out"; return 1; }
}

# The header offset of NAME in an image, from its list line.
offset()
{
	"$kembed" list "$1" | tr -s ' ' | grep "^$2 " | cut -d' ' -f5 |
		sed 's/(.*//'
}

for variant in plain asan; do
	kembed=$tmp/$variant/kembed

	for image in $images; do
		run 0 "" "list $image" list "$img/$image"
		check "list $image: the $count artifacts declared, with the build's sizes and sha256" \
			listed "$y"
		run 0 "" "verify $image" verify "$img/$image"
		check "verify $image: $count OK" \
			test "$(grep -c ': OK$' "$tmp/out")" -eq "$count"
		while read -r name module comp; do
			n=$((n + 1))
			got=$("$kembed" extract "$name" "$img/$image" 2>"$tmp/err" |
				sha256sum | cut -d' ' -f1)
			if [ "$got" = "$(sha "$y/kernel/$module.payload")" ] &&
				! grep -qE 'Sanitizer|runtime error:' "$tmp/err"; then
				echo "ok $n extract $name from $image: the build's payload ($variant)"
			else
				fails=$((fails + 1))
				echo "not ok $n extract $name from $image: the build's payload ($variant)"
				sed 's/^/# /' "$tmp/err"
			fi
		done <"$tmp/decls"
	done
	run 0 "" "extract -d config.gz from vmlinux" \
		extract -d config.gz -o "$tmp/config" "$img/vmlinux"
	check "... is the build's .config" cmp "$tmp/config" "$y/.config"
	run 0 '\(\.rodata\+0x[0-9a-f]+\)$' "list vmlinux: ELF section and offset" \
		list "$img/vmlinux"
	run 0 ' xz@0x0:0x[0-9a-f]+$' "list Image.xz: stream and offset" \
		list "$img/Image.xz"

	# Each module (all artifacts =m) carries its own artifact.
	while read -r name module comp; do
		ko=$m/kernel/$module.ko
		run 0 "" "list $module.ko" list "$ko"
		payload=$m/kernel/$module.payload
		check "list $module.ko: only $name, with the build's size and sha256" \
			test "$(tr -s ' ' <"$tmp/out" | cut -d' ' -f1-4)" = \
			"$name $(wc -c <"$payload") $comp $(sha "$payload")"
		run 0 "" "extract $name from $module.ko" \
			extract "$name" -o "$tmp/from-ko" "$ko"
		check "... the build's payload" cmp "$tmp/from-ko" "$payload"
		run 0 ": OK$" "verify $module.ko" verify "$ko"
	done <"$tmp/decls"
	run 3 "no embedded artifact found$" \
		"the =m vmlinux carries none: exit 3" list "$m/vmlinux"

	# Damaged images and files that are no kernel.
	: >"$tmp/empty"
	run 3 "empty: empty file$" "an empty file: exit 3" list "$tmp/empty"
	run 3 "no embedded artifact found$" \
		"a text file (.config): exit 3" list "$y/.config"
	run 3 "no embedded artifact found$" \
		"an ELF program (kembed itself): exit 3" list "$kembed"
	run 3 "no embedded artifact found$" \
		"a compressed file that is no kernel: exit 3" \
		list "$m/kernel/configs.payload"

	# The header's size, and where its size field is.
	hdr=$(frame_value 'sizeof(struct embedded_blob_header)')
	size_at=$(frame_value 'offsetof(struct embedded_blob_header, size)')
	kh=$(offset "$img/Image" kheaders.tar.xz)
	head -c $((kh + hdr + 1000)) "$img/Image" >"$tmp/Image.cut"
	run 1 "kheaders.tar.xz at $kh: payload of [0-9]+ bytes runs past the end of the data" \
		"an Image truncated inside kheaders: list exits 1" \
		list "$tmp/Image.cut"
	run 1 "kheaders.tar.xz: FAILED" "... verify exits 1" \
		verify "$tmp/Image.cut"
	run 1 "runs past the end" "... extract kheaders.tar.xz exits 1" \
		extract kheaders.tar.xz -o "$tmp/kh" "$tmp/Image.cut"
	check "... and writes nothing" test ! -e "$tmp/kh"
	run 0 "" "... extract config.gz (before the cut) still works" \
		extract config.gz -o "$tmp/cfg" "$tmp/Image.cut"
	check "... the build's payload" cmp "$tmp/cfg" "$y/kernel/configs.payload"

	size=$(wc -c <"$img/Image.gz")
	head -c $((size / 2)) "$img/Image.gz" >"$tmp/Image.gz.cut"
	run 1 "gzip stream at 0x0: unexpected end of data" \
		"an Image.gz cut in half: exit 1" verify "$tmp/Image.gz.cut"

	cp "$img/Image" "$tmp/Image.flip"
	printf '\377' | patch "$tmp/Image.flip" $((kh + hdr + 100000))
	bi=$(offset "$img/Image" buildinfo)
	printf '#' | patch "$tmp/Image.flip" $((bi + hdr + 1))
	run 1 "kheaders.tar.xz: SHA-256 mismatch" \
		"flipped bytes inside two artifacts: verify exits 1" \
		verify "$tmp/Image.flip"
	check "... names both as FAILED" test "$(grep -c ': FAILED$' "$tmp/out")" -eq 2
	check "... and the others OK" \
		test "$(grep -c ': OK$' "$tmp/out")" -eq $((count - 2))
	run 1 "buildinfo: SHA-256 mismatch, not extracted" \
		"... extract buildinfo exits 1" \
		extract buildinfo -o "$tmp/bi" "$tmp/Image.flip"
	check "... and writes nothing" test ! -e "$tmp/bi"

	cp "$img/Image" "$tmp/Image.long"
	le $((1 << 40)) 8 | patch "$tmp/Image.long" $((bi + size_at))
	run 1 "buildinfo at $bi: payload of 1099511627776 bytes runs past the end of the data" \
		"a size field larger than the Image: exit 1" list "$tmp/Image.long"
	run 1 "buildinfo: FAILED" "... verify says FAILED" \
		verify "$tmp/Image.long"
	check "... and checks the others" \
		test "$(grep -c ': OK$' "$tmp/out")" -eq $((count - 1))
	cp "$img/Image" "$tmp/Image.short"
	le $(($(wc -c <"$y/kernel/kbuildinfo.payload") - 1)) 8 |
		patch "$tmp/Image.short" $((bi + size_at))
	run 1 "buildinfo: SHA-256 mismatch" \
		"a size field one byte short: verify exits 1" \
		verify "$tmp/Image.short"
	run 1 "buildinfo: SHA-256 mismatch, not extracted" \
		"... extract exits 1" extract buildinfo "$tmp/Image.short"
done

echo "1..$n"
[ "$fails" -eq 0 ]

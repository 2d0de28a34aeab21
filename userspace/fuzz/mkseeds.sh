#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write small seed inputs for kembed's fuzz target (and its host tests)
# into DIR: artifacts framed as the kernel frames them, alone,
# in junk, in an ELF object and in every compressed stream format kembed
# reads, damaged ones too, and /proc/embedded_blobs text. Nothing binary
# is kept in the repository: this script makes all of it.
set -eu

me=mkseeds.sh
[ "$#" -eq 1 ] || { echo "usage: $me DIR" >&2; exit 2; }
dir=$1
mkdir -p "$dir"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-seeds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The frame is the kernel's: kernel/embedded_blob_data.S and the uapi
# header, from the tree this script is in (tools/kembed/fuzz in a kernel
# tree, userspace/fuzz in kembed's repository).
srctree=$(cd "$(dirname "$0")" && pwd)
while [ ! -f "$srctree/kernel/embedded_blob_data.S" ]; do
	if [ "$srctree" = / ]; then
		echo "$me: no kernel/embedded_blob_data.S above $0" >&2
		exit 1
	fi
	srctree=$(dirname "$srctree")
done

# Where the payload size is in struct embedded_blob_header.
printf '%s\n' '#include <stddef.h>' '#include <stdio.h>' \
	'#include <linux/embedded_blob.h>' 'int main(void)' \
	'{ printf("%zu", offsetof(struct embedded_blob_header, size)); }' |
	cc -I"$srctree/tools/include/uapi" -x c -o "$tmp/offset" -
size_offset=$("$tmp/offset")

# mkblob NAME COMPRESSION START END PAYLOAD [SIZE]: the payload framed as
# in the kernel; SIZE (-1: all bits set) replaces the real size in the
# header (a lying one).
mkblob()
{
	sha=$(sha256sum <"$5" | sed 's/ .*//; s/../0x&,/g; s/,$//')
	cc -c -I"$srctree/include" -D__ASSEMBLY__ -DBLOB_HEADER=blob \
		-DBLOB_PAYLOAD="\"$5\"" -DBLOB_NAME="\"$1\"" \
		-DBLOB_COMPRESSION="\"$2\"" -DBLOB_FLAGS=1 \
		-DBLOB_SHA256="$sha" \
		${3:+-DBLOB_START_MARKER="\"$3\""} \
		${4:+-DBLOB_END_MARKER="\"$4\""} \
		-o "$tmp/blob.o" "$srctree/kernel/embedded_blob_data.S"
	objcopy -O binary -j .rodata "$tmp/blob.o" "$tmp/blob"
	if [ -n "${6:-}" ]; then
		n=$6
		for _ in 1 2 3 4 5 6 7 8; do
			# shellcheck disable=SC2059 # the format is the octal escape
			printf "$(printf '\\%03o' $((n & 255)))"
			n=$((n >> 8))
		done | dd of="$tmp/blob" bs=1 seek="$size_offset" conv=notrunc \
			status=none
	fi
	cat "$tmp/blob"
}

printf 'release: 6.1.0\narch: riscv\n' >"$tmp/buildinfo"
printf 'CONFIG_IKCONFIG=y\n' | gzip -n -9 >"$tmp/config.gz"
printf 'headers\n' | xz -9 >"$tmp/kheaders.tar.xz"
printf 'CONFIG_64BIT=y\n' | zstd -q -19 >"$tmp/defconfig.zst"
: >"$tmp/empty"

mkblob buildinfo none '' '' "$tmp/buildinfo" >"$dir/blob-none"
mkblob config.gz gzip IKCFG_ST IKCFG_ED "$tmp/config.gz" >"$dir/blob-gzip"
mkblob kheaders.tar.xz xz '' '' "$tmp/kheaders.tar.xz" >"$dir/blob-xz"
mkblob defconfig.zst zstd '' '' "$tmp/defconfig.zst" >"$dir/blob-zstd"
mkblob empty none '' '' "$tmp/empty" >"$dir/blob-empty"
mkblob config.gz gzip IKCFG_ST IKCFG_ED "$tmp/config.gz" 4096 \
	>"$dir/bad-size-long"
mkblob config.gz gzip IKCFG_ST IKCFG_ED "$tmp/config.gz" 3 \
	>"$dir/bad-size-short"
# -1: all bits set, 2^64 - 1
mkblob config.gz gzip IKCFG_ST IKCFG_ED "$tmp/config.gz" -1 \
	>"$dir/bad-size-huge"
mkblob ../etc/passwd none '' '' "$tmp/buildinfo" >"$dir/bad-name"
head -c 100 "$dir/blob-gzip" >"$dir/bad-truncated-header"
head -c 170 "$dir/blob-gzip" >"$dir/bad-truncated-payload"
printf 'KEMBED\000\001junk' >"$dir/bad-magic-only"

# An image: junk, the artifacts, junk; then compressed in every format.
{
	head -c 300 /dev/zero
	cat "$dir/blob-gzip"
	printf 'some kernel text\n'
	cat "$dir/blob-none" "$dir/blob-xz" "$dir/blob-zstd"
	head -c 100 /dev/zero
} >"$dir/image"
gzip -n -9 <"$dir/image" >"$dir/image.gz"
xz -9 <"$dir/image" >"$dir/image.xz"
lzma -9 <"$dir/image" >"$dir/image.lzma"
zstd -q -19 <"$dir/image" >"$dir/image.zst"
bzip2 -9 <"$dir/image" >"$dir/image.bz2"
{ head -c 64 /dev/zero; cat "$dir/image.gz"; printf 'trailer'; } \
	>"$dir/image-in-junk.gz"
head -c 200 "$dir/image.xz" >"$dir/bad-truncated.xz"

# An ELF object, as a module is.
cat >"$tmp/blob.S" <<EOT
	.section .rodata, "a"
	.incbin "$dir/image"
EOT
if cc -c -o "$dir/image.o" "$tmp/blob.S" 2>/dev/null; then :; fi

printf '%s\n' \
	"config.gz 45 gzip $(sha256sum <"$tmp/config.gz" | cut -c1-64) configs" \
	"buildinfo 27 none $(sha256sum <"$tmp/buildinfo" | cut -c1-64) builtin" \
	>"$dir/proc-embedded_blobs"
printf 'config.gz x gzip 00 builtin\n../x 1 none 00 builtin\n' \
	>"$dir/bad-proc-embedded_blobs"

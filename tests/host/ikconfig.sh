#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# config.gz keeps its interfaces: the same bytes as upstream 6.1's
# kernel/config_data.gz (gzip -n -f -9 of .config, Makefile.lib's
# cmd_gzip), scripts/extract-ikconfig on vmlinux, the boot Image and
# configs.ko, and the kernel_config_data{,_end} symbols scripts/gdb reads.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib/tap.sh"
cd "$repo" || exit 1
y=$(qemu/kernel --print-objtree)
m=$(qemu/kernel --kconfig qemu/configs/artifacts-m.config --print-objtree)
extract=$y/source/scripts/extract-ikconfig

upstream_bytes()
{
	gzip -n -f -9 < "$1/.config" | cmp -s - "$1/kernel/configs.payload"
}

extracts()
{
	sh "$extract" "$1" 2>/dev/null | cmp -s - "$2"
}

# kernel_config_data_end - kernel_config_data is the payload's size, and
# the bytes between them in vmlinux are the payload.
symbols()
{
	start=$(nm "$y/vmlinux" | awk '$3 == "kernel_config_data" { print $1 }')
	end=$(nm "$y/vmlinux" | awk '$3 == "kernel_config_data_end" { print $1 }')
	[ -n "$start" ] && [ -n "$end" ] || return 1
	# The low 32 bits: dash's arithmetic saturates at 2^63.
	size=$(((0x${end#????????} - 0x${start#????????}) & 0xffffffff))
	[ "$size" -eq "$(wc -c < "$y/kernel/configs.payload")" ]
}

echo "TAP version 13"
echo "1..7"
for t in "$y" "$m"; do
	[ -f "$t/vmlinux" ] || { echo "Bail out! $t is not built"; exit 1; }
done
check "=y: config.gz has upstream's bytes (gzip -n -f -9 .config)" \
	upstream_bytes "$y"
check "=m: config.gz has upstream's bytes" upstream_bytes "$m"
check "extract-ikconfig recovers .config from vmlinux" \
	extracts "$y/vmlinux" "$y/.config"
check "extract-ikconfig recovers .config from arch/riscv/boot/Image" \
	extracts "$y/arch/riscv/boot/Image" "$y/.config"
check "extract-ikconfig recovers .config from configs.ko" \
	extracts "$m/kernel/configs.ko" "$m/.config"
check "kernel_config_data..kernel_config_data_end spans the payload" symbols
check "IKCONFIG_PROC still gates /proc/config.gz (flags of the header)" \
	grep -q -- ' -DBLOB_FLAGS=1 ' "$y/kernel/.configs.blob.o.cmd"
tap_result

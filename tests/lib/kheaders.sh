# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Helpers for the host tests of the kheaders archive (sourced, not run).
#   kheaders_unpack OBJ DIR  unpack the archive of the object tree OBJ in DIR
#   kheaders_elfs DIR        "PATH: file(1) description" of each ELF in DIR
#   target_elfs_only DIR [MACHINE]
#                            DIR holds fixdep and modpost, and every ELF in
#                            it is for MACHINE, as file(1) names it (default
#                            riscv64's, "UCB RISC-V"); each shown as a comment

kheaders_unpack()
{
	rm -rf "$2"
	mkdir -p "$2" && xz -dc "$1/kernel/kheaders.payload" | tar -xf - -C "$2"
}

kheaders_elfs()
{
	(cd "$1" && find . -type f -exec file {} + | grep ': *ELF')
}

target_elfs_only()
{
	elfs=$(kheaders_elfs "$1")
	printf '%s\n' "$elfs" | sed 's/^/# /'
	[ -x "$1/scripts/basic/fixdep" ] && [ -x "$1/scripts/mod/modpost" ] &&
		! printf '%s\n' "$elfs" |
		grep -v "ELF 64-bit LSB .*, ${2:-UCB RISC-V}, "
}

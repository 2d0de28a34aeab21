#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The minimal configuration of this kernel (what "make savedefconfig"
# writes), as a kembed generator (scripts/Makefile.kembed). Fed back to
# "make defconfig" (KBUILD_DEFCONFIG) it reproduces the .config.
#
#   gen_defconfig.sh --inputs	list the files read
#   gen_defconfig.sh OUT LIST	write the minimal configuration to OUT

set -eu

me=gen_defconfig.sh
srctree=${srctree:?"$me: run me from Kbuild"}

case "$#:${1:-}" in
1:--inputs)
	echo "${KCONFIG_CONFIG:-.config}"
	echo include/config/auto.conf
	echo scripts/kconfig/conf
	echo "$0"
	;;
2:*)
	out=$1
	scripts/kconfig/conf --savedefconfig="$out.tmp" "$srctree/Kconfig" \
		> /dev/null
	mv -f "$out.tmp" "$out"
	;;
*)
	echo "usage: $me --inputs | OUT LIST" >&2
	exit 2
	;;
esac

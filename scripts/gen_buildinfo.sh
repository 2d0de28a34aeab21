#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The build's identity, as a kembed generator (scripts/Makefile.kembed):
# release, architecture, toolchain and a hash of the configuration, one
# "key: value" line each, so that a device can tell what built its kernel.
#
#   gen_buildinfo.sh --inputs	list the files read
#   gen_buildinfo.sh OUT LIST	write the text to OUT

set -eu

me=gen_buildinfo.sh
srctree=${srctree:?"$me: run me from Kbuild"}
SRCARCH=${SRCARCH:?"$me: run me from Kbuild"}

# The value of CONFIG_$1 in include/config/auto.conf, unquoted.
conf()
{
	sed -n "s/^CONFIG_$1=\"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p" \
		include/config/auto.conf
}

# The first of the CONFIG_ symbols $@ that is set and not 0: Kconfig sets
# the version of the tool not in use (CLANG_VERSION with gcc) to 0.
version()
{
	for sym in "$@"; do
		v=$(conf "$sym")
		if [ -n "$v" ] && [ "$v" != 0 ]; then
			echo "$v"
			return
		fi
	done
	echo 0
}

case "$#:${1:-}" in
1:--inputs)
	echo include/config/kernel.release
	echo include/config/auto.conf
	echo "${KCONFIG_CONFIG:-.config}"
	echo "$0"
	;;
2:*)
	out=$1
	sha=$(sha256sum < "${KCONFIG_CONFIG:-.config}")
	{
		echo "kernel.release: $(cat include/config/kernel.release)"
		echo "arch: $SRCARCH"
		echo "cc: $(conf CC_VERSION_TEXT)"
		echo "cc.version: $(version GCC_VERSION CLANG_VERSION)"
		echo "ld.version: $(version LD_VERSION LLD_VERSION)"
		echo "as.version: $(version AS_VERSION)"
		echo "config.sha256: ${sha%% *}"
	} > "$out.tmp"
	mv -f "$out.tmp" "$out"
	;;
*)
	echo "usage: $me --inputs | OUT LIST" >&2
	exit 2
	;;
esac

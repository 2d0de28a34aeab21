# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the kembed harness scripts; sourced, never run.
# The sourcing script sets "prog" (its name, for messages) first.
# shellcheck disable=SC2034 # the variables are used by those scripts

: "${prog:=kembed}"

# Everything expensive lives outside the checkout, keyed by its inputs.
KEMBED_REPO=$(cd "$(dirname "$0")/.." && pwd)
# CI may run without HOME
: "${HOME:=$(getent passwd "$(id -u)" | cut -d: -f6)}"
CACHE=${KEMBED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kembed}
# Object trees and root images unused for this many days are removed.
KEMBED_KEEP_DAYS=14
KEMBED_ARCH=riscv
KEMBED_CROSS=riscv64-linux-gnu-
KEMBED_JOBS=${KEMBED_JOBS:-$(nproc)}

die()
{
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 1
}

warn()
{
	printf '%s: %s\n' "$prog" "$*" >&2
}

# One progress line per long step, on stderr so that stdout stays usable.
progress()
{
	printf 'kembed: %s\n' "$*" >&2
}

now()
{
	date +%s
}

# kbuild_make SRC OBJ [ARG]...: make in the kernel tree SRC, objects in
# OBJ, with the environment and command line of every kembed kernel build
# (qemu/kernel, qemu/bench): cross compiler through ccache, fixed
# timestamp, user and host. $kbuild_vars adds make variables, one
# VAR=VALUE a line (qemu/kernel --make): CC=... replaces the cross gcc
# (still through ccache), LLVM=... makes it clang.
kbuild_make()
{
	(
		src=$1
		obj=$2
		shift 2
		cc="${KEMBED_CROSS}gcc"
		set -f
		old_ifs=$IFS
		IFS='
'
		for var in ${kbuild_vars:-}; do
			case "$var" in
			CC=*) cc=${var#CC=} ;;
			LLVM=*) cc=clang; set -- "$@" "$var" ;;
			*) set -- "$@" "$var" ;;
			esac
		done
		IFS=$old_ifs
		set +f
		export CCACHE_DIR="$CACHE/ccache"
		export KBUILD_BUILD_TIMESTAMP='2025-01-01 00:00:00 UTC'
		export KBUILD_BUILD_USER=kembed
		export KBUILD_BUILD_HOST=kembed
		unset ARCH CROSS_COMPILE KCONFIG_CONFIG LLVM
		exec make -C "$src" O="$obj" ARCH="$KEMBED_ARCH" \
			CROSS_COMPILE="$KEMBED_CROSS" \
			CC="ccache $cc" -j"$KEMBED_JOBS" "$@"
	)
}

# sha256 of stdin, hex only.
hash_stdin()
{
	sha256sum | cut -c1-64
}

# Hold an exclusive lock NAME (kernel: source and object trees; root:
# guest root images) while touching shared state in the cache.  One lock
# at a time per process, on fd 9; released when the shell exits or calls
# cache_unlock.  Children see it in KEMBED_LOCKS and do not lock again
# (flock on a new open file would wait for their own parent).
cache_lock()
{
	case " ${KEMBED_LOCKS:-} " in
	*" $1 "*) return 0 ;;
	esac
	mkdir -p "$CACHE"
	exec 9>"$CACHE/$1.lock"
	if ! flock -n 9; then
		progress "waiting for another kembed $1 build to finish"
		flock 9
	fi
	kembed_lock_held=$1
	KEMBED_LOCKS="${KEMBED_LOCKS:-} $1"
	export KEMBED_LOCKS
}

cache_unlock()
{
	[ -n "${kembed_lock_held:-}" ] || return 0
	exec 9>&-
	KEMBED_LOCKS=$(echo "$KEMBED_LOCKS" | sed "s/ $kembed_lock_held\b//")
	kembed_lock_held=
}

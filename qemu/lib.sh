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

# set_arch NAME: the guest's architecture, riscv64 (the default), arm64
# or x86_64; exported as KEMBED_ARCH for the harness scripts this one
# starts. Sets Kbuild's ARCH and source directory, the cross compiler,
# the kernel image, the fragment that makes a QEMU guest of base.config,
# Debian's name of the architecture, file(1)'s name of its ELF machine,
# and the QEMU command with its machine, firmware, console and disks.
set_arch()
{
	case "$1" in
	riscv64)
		kbuild_arch=riscv srcarch=riscv
		KEMBED_CROSS=riscv64-linux-gnu-
		kernel_image=arch/riscv/boot/Image
		debian_arch=riscv64
		elf_machine='UCB RISC-V'
		qemu_system="qemu-system-riscv64 -machine virt -bios default"
		qemu_disk=virtio-blk-device
		qemu_disks_reversed=
		console="console=ttyS0 earlycon=sbi"
		;;
	arm64)
		kbuild_arch=arm64 srcarch=arm64
		KEMBED_CROSS=aarch64-linux-gnu-
		kernel_image=arch/arm64/boot/Image
		debian_arch=arm64
		elf_machine='ARM aarch64'
		qemu_system="qemu-system-aarch64 -machine virt -cpu cortex-a57"
		qemu_disk=virtio-blk-device
		# the kernel numbers this machine's virtio-mmio disks from the
		# last one given to QEMU
		qemu_disks_reversed=1
		console="console=ttyAMA0 earlycon"
		;;
	x86_64)
		kbuild_arch=x86_64 srcarch=x86
		KEMBED_CROSS=x86_64-linux-gnu-
		kernel_image=arch/x86/boot/bzImage
		debian_arch=amd64
		elf_machine='x86-64'
		# no NIC: its option ROM is in a package qemu/deps leaves out
		qemu_system="qemu-system-x86_64 -machine q35 -nic none"
		qemu_disk=virtio-blk-pci
		qemu_disks_reversed=
		console="console=ttyS0"
		;;
	*)
		die "unknown architecture: $1 (riscv64, arm64 or x86_64)"
		;;
	esac
	KEMBED_ARCH=$1
	export KEMBED_ARCH
	arch_config="$KEMBED_REPO/qemu/configs/arch/$1.config"
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

# with_progress LABEL COMMAND...: run COMMAND (a function is fine), and
# while it runs print "kembed: LABEL: N s, STATUS" every KEMBED_PROGRESS
# seconds (default 30 when stderr is a terminal, 120 when it is a log;
# 0: never). STATUS is the output of $progress_status, a command, if set.
# Returns COMMAND's status; a COMMAND that exits the shell ends the
# progress lines within a second.
with_progress()
{
	wp_label=$1
	shift
	wp_every=${KEMBED_PROGRESS:-}
	if [ -z "$wp_every" ]; then
		if [ -t 2 ]; then wp_every=30; else wp_every=120; fi
	fi
	case "$wp_every" in
	'' | *[!0-9]*)
		die "KEMBED_PROGRESS is not a number of seconds: $wp_every"
		;;
	esac
	# The ticker runs while this file exists: a signal alone may be lost,
	# when it comes before the new subshell has reset the traps it got
	# from this shell (tests/run's TERM trap): then wait would not end.
	wp_running=
	[ "$wp_every" -eq 0 ] ||
		wp_running=$(mktemp "${TMPDIR:-/tmp}/kembed-progress.XXXXXX") ||
		wp_running=
	if [ -z "$wp_running" ]; then
		"$@"
		return
	fi
	(
		# a failing status command must not end the progress lines
		set +e
		# $$ is the shell running COMMAND, also in this subshell
		t0=$(now)
		next=$((t0 + wp_every))
		while [ -e "$wp_running" ]; do
			if ! kill -0 "$$" 2>/dev/null; then
				rm -f "$wp_running"
				break
			fi
			sleep 1 >/dev/null 2>&1
			[ "$(now)" -ge "$next" ] || continue
			next=$((next + wp_every))
			status=
			[ -z "${progress_status:-}" ] ||
				status=", $($progress_status 2>/dev/null)"
			progress "$wp_label: $(($(now) - t0)) s$status"
		done
	) &
	wp_ticker=$!
	wp_rc=0
	"$@" || wp_rc=$?
	rm -f "$wp_running"
	kill "$wp_ticker" 2>/dev/null || :
	wait "$wp_ticker" 2>/dev/null || :
	return "$wp_rc"
}

# kbuild_make SRC OBJ [ARG]...: make in the kernel tree SRC, objects in
# OBJ, with the environment and command line of every kembed kernel build
# (qemu/kernel, bench/run): cross compiler through ccache, fixed
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
		exec make -C "$src" O="$obj" ARCH="$kbuild_arch" \
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

# repo_files REPO PATH...: the files under the PATHs of the kembed checkout
# REPO, relative to it: in a git checkout those git tracks or would track
# (not the build outputs it ignores), else all.
repo_files()
{
	(
		cd "$1" || exit 1
		shift
		if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
			git ls-files -co --exclude-standard -- "$@" |
				while IFS= read -r file; do
					[ ! -f "$file" ] || echo "$file"
				done
		else
			find "$@" -type f 2>/dev/null | sed 's,^\./,,'
		fi
	)
}

# The Kconfig symbols of the artifacts artifacts.d/ declares, one a line.
artifact_symbols()
{
	for decl in "$KEMBED_REPO"/artifacts.d/*; do
		[ "${decl##*/}" != README ] || continue
		sed -n 's/^[[:space:]]*config[[:space:]]*=[[:space:]]*\([A-Za-z0-9_]*\).*/\1/p' \
			"$decl"
	done
}

# kconfig_fragment FRAGMENT [--lines]: the fragment as Kconfig gets it, a
# line "# kembed-artifacts: y" (or m, n) replaced by that value for every
# declared artifact, so that a new declaration needs no fragment edit.
# --lines: for each of those lines, the number of the FRAGMENT line it
# comes from, for messages.
kconfig_fragment()
{
	artifact_symbols | awk -v frag="$1" -v lines="${2:-}" '
		{ sym[++n] = $0 }
		function out(text) { print (lines != "" ? nr : text) }
		END {
			while ((getline line < frag) > 0) {
				nr++
				if (line !~ /^# *kembed-artifacts:/) {
					out(line)
					continue
				}
				if (line !~ /^# kembed-artifacts: [ymn]$/) {
					printf "%s:%d: not \"# kembed-artifacts: y\" (or m, n): %s\n", \
						frag, nr, line > "/dev/stderr"
					exit 1
				}
				v = substr(line, length(line))
				for (i = 1; i <= n; i++)
					if (v == "n")
						out("# CONFIG_" sym[i] " is not set")
					else
						out("CONFIG_" sym[i] "=" v)
			}
		}'
}

set_arch "${KEMBED_ARCH:-riscv64}"

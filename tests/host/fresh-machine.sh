#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# qemu/deps names everything the build needs. In a minimal Debian 12
# chroot (mmdebstrap --variant=minbase, from the archive the host's apt
# uses) that holds only what "qemu/deps --list" names, build the base
# kernel of every guest architecture with its headers archive, and the
# userspace tool, as a fresh machine would: the archive's fixdep and
# modpost must be programs for the guest, its QEMU must boot the kernel,
# and the tool must verify the artifacts in the riscv64 vmlinux.
#
# The chroot is cached in $KEMBED_CACHE/fresh-machine/<hash of the list>;
# the kernel is built in a fresh object tree every run. The chroots share
# one ccache ($KEMBED_CACHE/fresh-machine/ccache, bind-mounted): a cached
# compilation is reused only if every file it read is there, unchanged,
# so a missing header still fails. The chroot has no network, and only
# /proc and that ccache mounted; nothing is loaded into the host's kernel.
# Heavy (15-30 min): make matrix runs it, make
# check skips it unless KEMBED_MATRIX=1.
#
# To see it fail, drop a needed package from the list for one run:
#   KEMBED_MATRIX=1 KEMBED_DEPS_OMIT=libc6-dev-riscv64-cross \
#           tests/run fresh-machine
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
cd "$repo"

echo "TAP version 13"
if [ "${KEMBED_MATRIX:-}" != 1 ]; then
	echo "1..0 # SKIP set KEMBED_MATRIX=1"
	exit 4
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP needs root (mmdebstrap, chroot)"
	exit 4
fi
echo "1..16"

: "${HOME:=$(getent passwd "$(id -u)" | cut -d: -f6)}"
cache=${KEMBED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kembed}
suite=bookworm
variant=minbase

# The host's enabled apt sources: the chroot gets exactly these.
sources=
for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources; do
	[ -s "$file" ] && sources="$sources $file"
done
if [ -z "$sources" ]; then
	echo "Bail out! no apt sources on the host"
	exit 1
fi

packages=$(qemu/deps --list | LC_ALL=C sort -u)
key=$({ echo "$suite $variant"; printf '%s\n' "$packages"; } |
	sha256sum | cut -c1-16)
dir="$cache/fresh-machine/$key"
root="$dir/root"
mkdir -p "$dir"
echo "# package list (${KEMBED_DEPS_OMIT:+without $KEMBED_DEPS_OMIT, }key $key):" \
	"$(printf '%s\n' "$packages" | paste -sd' ')"

# One run at a time per chroot; held until exit.
exec 9>"$dir/lock"
flock 9

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kembed-fresh.XXXXXX")
ccache="$root/root/kembed-cache/ccache"
cleanup()
{
	for mnt in "$root/proc" "$ccache"; do
		if mountpoint -q "$mnt"; then
			umount "$mnt" || umount -l "$mnt"
		fi
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now()
{
	date +%s
}

# The chroot, made once per package list.
if [ -f "$dir/done" ]; then
	ok "Debian $suite $variant chroot with the list (cached)"
else
	start=$(now)
	rm -rf "$root" "$dir/root.tmp"
	# shellcheck disable=SC2086 # one word per source file
	if mmdebstrap --quiet --mode=root --variant="$variant" \
		--include="$(printf '%s\n' "$packages" | paste -sd,)" \
		"$suite" "$dir/root.tmp" $sources >"$dir/mmdebstrap.log" 2>&1; then
		mv "$dir/root.tmp" "$root"
		touch "$dir/done"
		ok "Debian $suite $variant chroot with the list ($(($(now) - start)) s)"
	else
		sed 's/^/# /' "$dir/mmdebstrap.log" | tail -n 30
		not_ok "Debian $suite $variant chroot with the list"
		echo "Bail out! mmdebstrap failed; log: $dir/mmdebstrap.log"
		exit 1
	fi
fi

# The working tree as it is (tests run uncommitted changes too), without
# build outputs; a fresh kembed cache in the chroot, but for the ccache.
# (A run killed before its trap left its mounts; we hold the lock.)
for mnt in "$root/proc" "$ccache"; do
	if mountpoint -q "$mnt" && ! umount "$mnt"; then
		echo "Bail out! cannot unmount $mnt"
		exit 1
	fi
done
rm -rf "$root/kembed" "$root/root/kembed-cache" "$root/root/userspace"
mkdir -p "$root/kembed" "$ccache" "$cache/fresh-machine/ccache"
tar -C "$repo" --exclude=./build --exclude=./.git -cf - . |
	tar -C "$root/kembed" -xf -

mount -t proc proc "$root/proc"
mount --bind "$cache/fresh-machine/ccache" "$ccache"

# in_chroot LOG CMD: run the shell command CMD in the chroot, in /kembed,
# without network and with a clean environment; output to LOG.
in_chroot()
{
	log=$1
	shift
	unshare --net chroot "$root" /usr/bin/env -i \
		PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root \
		LANG=C.UTF-8 KEMBED_CACHE=/root/kembed-cache \
		KEMBED_JOBS="${KEMBED_JOBS:-$(nproc)}" \
		KEMBED_DEPS_OMIT="${KEMBED_DEPS_OMIT:-}" \
		/bin/sh -c "cd /kembed && $*" >"$log" 2>&1
}

# show LOG: the end of a failed step's log, as TAP comments
show()
{
	tail -n 25 "$1" | sed 's/^/# /'
}

# qemu/deps in the chroot: nothing missing (it cannot install anything,
# there is no network).
if in_chroot "$tmp/deps.log" qemu/deps; then
	ok "qemu/deps finds nothing missing in the chroot"
else
	show "$tmp/deps.log"
	not_ok "qemu/deps finds nothing missing in the chroot"
fi

# Per guest architecture: its base kernel and headers archive build, the
# archive's programs are for its machine, and its QEMU (with the firmware
# it needs) boots the kernel as far as looking for a root file system.
# arch_program ARCH OBJ PATH: PATH in OBJ's archive is an ELF executable
# for ARCH
arch_program()
{
	[ -n "$built" ] || return 1
	# (not "desc": check() in tap.sh uses it)
	what=$(in_chroot /dev/stdout "xz -dc '$2/kernel/kheaders.payload' |
		tar -xOf - './$3' >/tmp/program && file -b /tmp/program") ||
		return 1
	echo "# $3: $what"
	case "$1:$what" in
	riscv64:*ELF\ 64-bit*executable*RISC-V*) return 0 ;;
	arm64:*ELF\ 64-bit*executable*aarch64*) return 0 ;;
	x86_64:*ELF\ 64-bit*executable*x86-64*) return 0 ;;
	esac
	return 1
}

# boots ARCH: QEMU starts the kernel, which gets as far as the root
boots()
{
	[ -n "$built" ] || return 1
	in_chroot "$tmp/boot.log" ". qemu/lib.sh && set_arch $1 &&
		timeout 120 \$qemu_system -nographic -m 512M \
		-kernel \$(qemu/kernel --print-objtree)/\$kernel_image \
		-append \"\$console panic=-1\" -no-reboot"
	grep -a 'VFS: Unable to mount root fs' "$tmp/boot.log" && return
	show "$tmp/boot.log"
	return 1
}

for arch in riscv64 arm64 x86_64; do
	start=$(now)
	if in_chroot "$tmp/kernel.log" qemu/kernel --arch "$arch"; then
		ok "$arch: base kernel and its headers archive build ($(($(now) - start)) s)"
		built=1
	else
		show "$tmp/kernel.log"
		not_ok "$arch: base kernel and its headers archive build ($(($(now) - start)) s)"
		built=
	fi
	aobj=$(in_chroot /dev/stdout qemu/kernel --arch "$arch" --print-objtree)
	echo "# object tree in the chroot: $aobj"
	check "$arch: the archive's scripts/basic/fixdep is a $arch program" \
		arch_program "$arch" "$aobj" scripts/basic/fixdep
	check "$arch: the archive's scripts/mod/modpost is a $arch program" \
		arch_program "$arch" "$aobj" scripts/mod/modpost
	check "$arch: QEMU boots the kernel as far as the root" boots "$arch"
	[ "$arch" != riscv64 ] || { obj=$aobj; rbuilt=$built; }
done
built=$rbuilt

if in_chroot "$tmp/tool.log" make -C userspace O=/root/userspace; then
	ok "the userspace tool builds"
else
	show "$tmp/tool.log"
	not_ok "the userspace tool builds"
fi

if [ -n "$built" ] && in_chroot "$tmp/verify.log" \
	/root/userspace/kembed verify "$obj/vmlinux"; then
	sed 's/^/# /' "$tmp/verify.log"
	ok "the tool verifies the artifacts in vmlinux"
else
	show "$tmp/verify.log" 2>/dev/null || true
	not_ok "the tool verifies the artifacts in vmlinux"
fi

tap_result

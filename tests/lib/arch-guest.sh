#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/guest/arch-*.sh, the lean test of a guest
# architecture other than riscv64: the machine is the one the kernel was
# built for, every artifact's /proc file has the build's bytes, every
# program in the kheaders archive runs on this machine, and a module
# built from the archive alone loads.
set -u

kh=/tmp/kheaders
mod=/tmp/hello
log=/tmp/build.log

# shellcheck source=tests/lib/tap.sh
. /host/tap.sh
# shellcheck source=tests/lib/artifact-list.sh
. /host/artifact-list.sh

sha()
{
	sha256sum < "$1" | cut -d' ' -f1
}

# The machine the kernel was built for, as uname -m says it.
built_for()
{
	case "$(grep -E '^CONFIG_(RISCV|ARM64|X86_64)=y$' /host/auto.conf)" in
	CONFIG_RISCV=y) echo riscv64 ;;
	CONFIG_ARM64=y) echo aarch64 ;;
	CONFIG_X86_64=y) echo x86_64 ;;
	esac
}

# ELF class, data and machine (e_ident[4..5], e_machine) of a file.
elf_id()
{
	od -An -tx1 -j4 -N2 "$1" | tr -d ' \n'
	od -An -tx1 -j18 -N2 "$1" | tr -d ' \n'
}

# Every ELF file in the archive is for the machine /bin/sh runs on; the
# count of them is in $elfs.
elfs_native()
{
	want=$(elf_id /bin/sh)
	elfs=0
	bad=0
	while IFS= read -r f; do
		[ "$(head -c 4 "$f")" = "$(printf '\177ELF')" ] || continue
		elfs=$((elfs + 1))
		[ "$(elf_id "$f")" = "$want" ] && continue
		echo "# $f: $(elf_id "$f"), not $want"
		bad=$((bad + 1))
	done <<EOT
$(find "$kh" -type f -perm -u+x)
EOT
	echo "# $elfs ELF programs in the archive"
	[ "$bad" -eq 0 ] && [ "$elfs" -ge 2 ]
}

# objtool is in the archive exactly when the kernel's objects went
# through it (CONFIG_OBJTOOL).
objtool_if_used()
{
	if grep -qx CONFIG_OBJTOOL=y /host/auto.conf; then
		test -x "$kh/tools/objtool/objtool"
	else
		test ! -e "$kh/tools/objtool/objtool"
	fi
}

build()
{
	make -C "$kh" M="$mod" modules > "$log" 2>&1
	status=$?
	tail -n 5 "$log" | sed 's/^/# /'
	[ "$status" -eq 0 ] && [ -f "$mod/kembed_hello.ko" ]
}

quiet_build()
{
	! grep -iE 'warning|error|undefined|missing' "$log" |
		grep -v 'the compiler differs from the one used to build the kernel'
}

echo "TAP version 13"
echo "# $(uname -a)"
check "uname -m is the machine the kernel was built for ($(built_for))" \
	test "$(uname -m)" = "$(built_for)"
while read -r name module _; do
	check "$name: sha256 equals the build's payload" \
		test "$(sha "/proc/$name")" = "$(sha "/host/$module.payload")"
done <<EOT
$(artifacts)
EOT
check "/proc/config.gz decompresses to the build's .config" \
	sh -c 'gzip -dc /proc/config.gz | cmp -s - /host/.config'
check "/sys/kernel/kheaders.tar.xz has the same bytes" \
	test "$(sha /sys/kernel/kheaders.tar.xz)" = "$(sha /proc/kheaders.tar.xz)"
mkdir -p "$kh" "$mod"
check "the archive extracts" \
	sh -c "xz -dc /proc/kheaders.tar.xz | tar -xf - -C $kh"
check "every program in the archive is for $(uname -m)" elfs_native
check "objtool is in the archive if and only if CONFIG_OBJTOOL" \
	objtool_if_used
cp /host/kembed_hello.c "$mod/"
echo 'obj-m := kembed_hello.o' > "$mod/Kbuild"
check "make -C <archive> M=... modules builds kembed_hello.ko" build
check "... without a warning" quiet_build
if grep -qx CONFIG_UNWINDER_ORC=y /host/auto.conf; then
	check "... and objtool gave it ORC unwind tables" \
		sh -c "readelf -S $mod/kembed_hello.ko | grep -q '\.orc_unwind_ip'"
fi
check "insmod kembed_hello.ko" insmod "$mod/kembed_hello.ko"
check "... its init ran" \
	sh -c 'dmesg | grep -q "kembed_hello: hello from a module built on the target"'
check "rmmod kembed_hello" rmmod kembed_hello

echo "1..$n"
[ "$fails" -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-copy: @OBJ@/include/config/kernel.release
# The guest boots the kernel we built, with its config and modules.
set -u

# shellcheck source=tests/lib/tap.sh
. /host/tap.sh

echo "TAP version 13"
echo "1..7"
release=$(cat /host/kernel.release)
echo "# uname: $(uname -a)"
check "uname -r is the build's kernel.release ($release)" \
	test "$(uname -r)" = "$release"
machine=$(sed -n 's/^CONFIG_\(RISCV\|ARM64\|X86_64\)=y$/\1/p' /host/auto.conf |
	sed 's/RISCV/riscv64/; s/ARM64/aarch64/; s/X86_64/x86_64/')
check "uname -m is the kernel's machine ($machine)" \
	test "$(uname -m)" = "$machine"
check "/proc/config.gz exists" test -r /proc/config.gz
check "/proc/config.gz has CONFIG_IKCONFIG_PROC=y" \
	sh -c 'gzip -dc /proc/config.gz | grep -qx CONFIG_IKCONFIG_PROC=y'
check "/lib/modules/$release is there" test -d "/lib/modules/$release"
check "/tmp is a sticky, world-writable tmpfs" \
	sh -c 'grep -q "^tmpfs /tmp " /proc/mounts && test -k /tmp && test -w /tmp'
check "the unprivileged user kembed (uid 1000) exists" \
	test "$(id -u kembed)" = 1000
[ "$fails" -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-tier: matrix
# kembed-make: LLVM=1
# kembed-kconfig: qemu/configs/stack-init-pattern.config
# kembed-copy: @REPO@/tests/fixtures/modules
# kembed-copy: @REPO@/tests/lib/modules-guest.sh
# kembed-timeout: 1500
# A kernel built with LLVM=1 (Debian's clang, lld, llvm): its archive
# builds the modules in the guest with the guest's clang, make LLVM=1, as
# its own build tree would. Its own kernel build, cold the first time:
# make matrix runs it. The guest's clang is 19, the host's 14: see
# stack-init-pattern.config for the one flag that differs.
exec sh /host/modules-guest.sh LLVM=1

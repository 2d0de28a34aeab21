#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-tier: matrix
# kembed-arch: arm64
# kembed-make: LLVM=1
# kembed-kconfig: qemu/configs/android-arm64.config
# kembed-kconfig: qemu/configs/stack-init-pattern.config
# kembed-copy: @REPO@/tests/fixtures/modules
# kembed-copy: @REPO@/tests/lib/modules-guest.sh
# kembed-timeout: 1500
# The module suite on an Android-like arm64 kernel built with LLVM=1:
# the guest's clang builds the modules from the archive (make LLVM=1,
# with the kernel's shadow call stack and module PLT flags), and they
# load.
exec sh /host/modules-guest.sh LLVM=1

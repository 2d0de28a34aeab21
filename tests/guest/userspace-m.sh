#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/artifacts-m.config
# kembed-copy: @REPO@/userspace
# kembed-copy: @REPO@/include
# kembed-copy: @REPO@/tests/fixtures/userspace/guest.sh
# kembed-copy: @REPO@/tests/fixtures/userspace/lib.sh
# kembed-copy: @REPO@/artifacts.d
# kembed-copy: @OBJ@/kernel/*.payload
# kembed-copy: @OBJ@/.config
# The kembed tool, built natively in the guest, on the running kernel with
# every artifact a module, loaded or not: list, extract, verify against
# /proc, the module files and the build.
exec sh /host/guest.sh m

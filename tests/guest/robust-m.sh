#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/artifacts-m.config
# kembed-copy: @OBJ@/kernel/*.payload
# kembed-copy: @REPO@/tests/lib/blobcheck.c
# kembed-copy: @REPO@/tests/lib/robust.sh
# kembed-timeout: 600
# kembed-smp: 2
# Every artifact as a module: hostile, concurrent and unprivileged use, and
# 200 load/unload cycles of each module under readers.
exec sh /host/robust.sh m

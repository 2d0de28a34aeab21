#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/artifacts-m.config
# kembed-kconfig: qemu/configs/debug.config
# kembed-copy: @OBJ@/kernel/*.payload
# kembed-copy: @OBJ@/kernel/*.ko
# kembed-copy: @REPO@/tests/lib/blobcheck.c
# kembed-copy: @REPO@/tests/lib/robust.sh
# kembed-timeout: 900
# kembed-smp: 2
# As robust-m, on a kernel with kmemleak, lockdep, debugobjects, SLUB
# debugging and signed modules: the module cycles must leak nothing. The
# installed, signed kbuildinfo.ko must load; the cycles then load the
# build's unsigned modules (copied in), as checking a signature takes 2 s
# here.
exec sh /host/robust.sh debug

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/artifacts-m.config
# kembed-kconfig: qemu/configs/debug.config
# kembed-copy: @OBJ@/kernel/configs.payload
# kembed-copy: @OBJ@/kernel/kheaders.payload
# kembed-copy: @OBJ@/kernel/kbuildinfo.payload
# kembed-copy: @OBJ@/kernel/kdefconfig.payload
# kembed-copy: @OBJ@/kernel/configs.ko
# kembed-copy: @OBJ@/kernel/kheaders.ko
# kembed-copy: @OBJ@/kernel/kbuildinfo.ko
# kembed-copy: @OBJ@/kernel/kdefconfig.ko
# kembed-copy: @REPO@/tests/lib/blobcheck.c
# kembed-copy: @REPO@/tests/lib/robust.sh
# kembed-timeout: 900
# kembed-smp: 2
# As robust-m, on a kernel with kmemleak, lockdep, debugobjects, SLUB
# debugging and signed modules: the module cycles must leak nothing. They
# load the build's unsigned modules (copied in): the installed, signed
# ones fail to load on this config (a TODO point says so), and checking a
# signature takes 2 s here.
exec sh /host/robust.sh debug

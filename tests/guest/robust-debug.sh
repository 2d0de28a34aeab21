#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/artifacts-m.config
# kembed-kconfig: qemu/configs/debug.config
# kembed-copy: @OBJ@/kernel/configs.payload
# kembed-copy: @OBJ@/kernel/kheaders.payload
# kembed-copy: @OBJ@/kernel/kbuildinfo.payload
# kembed-copy: @OBJ@/kernel/kdefconfig.payload
# kembed-copy: @REPO@/tests/lib/blobcheck.c
# kembed-copy: @REPO@/tests/lib/robust.sh
# kembed-timeout: 900
# As robust-m, on a kernel with kmemleak, lockdep, debugobjects, SLUB
# debugging and signed modules: the module cycles must leak nothing.
exec sh /host/robust.sh debug

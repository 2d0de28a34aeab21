#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/artifacts-m.config
# kembed-copy: @OBJ@/kernel/configs.payload
# kembed-copy: @OBJ@/kernel/kheaders.payload
# kembed-copy: @OBJ@/kernel/kbuildinfo.payload
# kembed-copy: @OBJ@/kernel/kdefconfig.payload
# kembed-copy: @OBJ@/.config
# kembed-copy: @REPO@/tests/lib/artifacts.sh
# Every artifact as a module: load, serve, unload, reload.
exec sh /host/artifacts.sh m

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/artifacts-m.config
# kembed-copy: @OBJ@/kernel/*.payload
# kembed-copy: @OBJ@/.config
# kembed-copy: @REPO@/tests/lib/artifacts.sh
# Every artifact as a module: load, serve, unload, reload.
exec sh /host/artifacts.sh m

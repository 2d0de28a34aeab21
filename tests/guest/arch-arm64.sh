#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-arch: arm64
# kembed-copy: @OBJ@/kernel/*.payload
# kembed-copy: @OBJ@/.config
# kembed-copy: @REPO@/tests/lib/arch-guest.sh
# kembed-copy: @REPO@/tests/fixtures/modules/kembed_hello.c
# kembed-timeout: 900
# The arm64 guest: boots, serves every artifact's bytes, and builds a module
# from /proc/kheaders.tar.xz alone and loads it.
exec sh /host/arch-guest.sh

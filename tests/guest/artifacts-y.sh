#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-copy: @OBJ@/kernel/*.payload
# kembed-copy: @OBJ@/.config
# kembed-copy: @REPO@/tests/lib/artifacts.sh
# Every artifact built in: /proc files, sizes, hashes against the build.
exec sh /host/artifacts.sh y

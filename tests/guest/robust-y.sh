#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-copy: @OBJ@/kernel/*.payload
# kembed-copy: @REPO@/tests/lib/blobcheck.c
# kembed-copy: @REPO@/tests/lib/robust.sh
# kembed-timeout: 600
# kembed-smp: 2
# Every artifact built in: hostile, concurrent and unprivileged use.
exec sh /host/robust.sh y

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/artifacts-m.config
# kembed-kconfig: qemu/configs/module-sig.config
# kembed-copy: @OBJ@/kernel/*.payload
# kembed-copy: @OBJ@/.config
# kembed-copy: @REPO@/tests/lib/artifacts.sh
# Every artifact as a signed module (MODULE_SIG_FORCE): the installed
# modules are signed, load, and serve their payloads, as artifacts-m.
exec sh /host/artifacts.sh sig

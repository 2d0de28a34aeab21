#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/artifacts-m.config
# kembed-copy: @REPO@/tests/fixtures/modules
# kembed-copy: @REPO@/tests/lib/modules-guest.sh
# kembed-timeout: 900
# kheaders=m: modprobe kheaders, then the same as kheaders-modules.sh
exec sh /host/modules-guest.sh

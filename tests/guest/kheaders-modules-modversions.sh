#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/modversions.config
# kembed-copy: @REPO@/tests/fixtures/modules
# kembed-copy: @REPO@/tests/lib/modules-guest.sh
# kembed-timeout: 900
# CONFIG_MODVERSIONS=y: the modules load without version complaints
exec sh /host/modules-guest.sh

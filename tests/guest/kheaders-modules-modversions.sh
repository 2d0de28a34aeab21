#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/modversions.config
# kembed-kconfig: qemu/configs/ftrace.config
# kembed-copy: @REPO@/tests/fixtures/modules
# kembed-copy: @REPO@/tests/lib/modules-guest.sh
# kembed-timeout: 900
# CONFIG_MODVERSIONS=y: the modules load without version complaints; with
# the function tracer, their objects go through recordmcount.pl.
exec sh /host/modules-guest.sh

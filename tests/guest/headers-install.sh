#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/artifacts-m.config
# kembed-copy: @REPO@/userspace
# kembed-copy: @REPO@/include
# kembed-copy: @REPO@/tests/fixtures/modules
# kembed-copy: @REPO@/tests/lib/install-guest.sh
# kembed-timeout: 900
# kembed headers install: loads kheaders.ko, installs build/ for the running
# kernel, and refuses what it must, leaving nothing half-written.
exec sh /host/install-guest.sh

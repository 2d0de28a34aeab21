#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-copy: @REPO@/tests/fixtures/modules
# kembed-copy: @REPO@/tests/lib/modules-guest.sh
# kembed-timeout: 900
# Build and load modules from /proc/kheaders.tar.xz alone (kheaders=y).
exec sh /host/modules-guest.sh

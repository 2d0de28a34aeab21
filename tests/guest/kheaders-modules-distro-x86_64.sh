#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-tier: matrix
# kembed-arch: x86_64
# kembed-kconfig: qemu/configs/distro-x86_64.config
# kembed-copy: @REPO@/tests/fixtures/modules
# kembed-copy: @REPO@/tests/lib/modules-guest.sh
# kembed-timeout: 900
# The module suite on an x86_64 kernel configured as distributions do:
# the archive's objtool makes the mitigation and IBT passes over each
# module object in the guest. (TCG does not enforce IBT: the modules
# load, their ENDBR instructions are not put to the test.)
exec sh /host/modules-guest.sh

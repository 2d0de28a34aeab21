#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-kconfig: qemu/configs/no-artifacts.config
# kembed-copy: @REPO@/tools/testing/selftests/embedded_blob
# kembed-copy: @OBJ@/source/tools/testing/selftests/lib.mk
# kembed-copy: @OBJ@/source/tools/testing/selftests/kselftest.h
# kembed-copy: @OBJ@/source/tools/testing/selftests/kselftest_harness.h
# kembed-copy: @OBJ@/source/include/uapi/linux/embedded_blob.h
# kembed-copy: @REPO@/tests/lib/selftests.sh
# The embedded_blob kselftest, built in the guest, on a kernel without the
# feature (no artifact, no /proc/embedded_blobs): it skips with exit 4.
exec sh /host/selftests.sh none

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-copy: @REPO@/tools/testing/selftests/embedded_blob
# kembed-copy: @OBJ@/source/tools/testing/selftests/lib.mk
# kembed-copy: @OBJ@/source/tools/testing/selftests/kselftest.h
# kembed-copy: @OBJ@/source/tools/testing/selftests/kselftest_harness.h
# kembed-copy: @OBJ@/source/include/uapi/linux/embedded_blob.h
# kembed-copy: @REPO@/tests/lib/selftests.sh
# The embedded_blob kselftest, built in the guest, every artifact built in.
exec sh /host/selftests.sh y

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kembed-copy: @REPO@/tests/fixtures/blob-modules
# kembed-copy: @REPO@/tests/lib/blob-headers-guest.sh
# kembed-copy: @REPO@/tests/lib/blobcheck.c
# kembed-timeout: 900
# embedded_blob_register() against missing, malformed, duplicate and empty
# headers, from modules built in the guest (kheaders=y).
exec sh /host/blob-headers-guest.sh

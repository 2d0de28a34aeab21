// SPDX-License-Identifier: GPL-2.0
#include "../../scripts/mod/file2alias.c"

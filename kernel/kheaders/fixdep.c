// SPDX-License-Identifier: GPL-2.0
#include "../../scripts/basic/fixdep.c"

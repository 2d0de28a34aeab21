// SPDX-License-Identifier: GPL-2.0
#include "../../scripts/genksyms/genksyms.c"

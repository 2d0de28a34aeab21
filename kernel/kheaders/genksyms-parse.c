// SPDX-License-Identifier: GPL-2.0
/* generated in the object tree from scripts/genksyms/parse.y */
#include "parse.tab.c"

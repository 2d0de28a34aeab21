// SPDX-License-Identifier: GPL-2.0
/* generated in the object tree from scripts/genksyms/lex.l */
#include "lex.lex.c"

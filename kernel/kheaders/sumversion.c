// SPDX-License-Identifier: GPL-2.0
#include "../../scripts/mod/sumversion.c"

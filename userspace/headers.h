/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KEMBED_HEADERS_H
#define KEMBED_HEADERS_H

/* kembed headers install [--force] [--archive FILE] */
int cmd_headers(int argc, char **argv);

#endif

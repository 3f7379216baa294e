/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_LIST_H
#define OSDHIST_LIST_H

#include <stdio.h>

#include "ceph/binary.h"
#include "cli.h"

/* osdhist --inspect PATH: one line (build-id, version, traceable), the
 * refusal on stderr; with -v every offset.  Returns the exit status: 0
 * traceable, 1 not. */
int list_inspect(const struct options *o);

/* osdhist --list: one line per running ceph-osd.  Returns 0. */
int list_osds(const struct options *o);

/* The -v lines: "  NAME = 0xHEX  (witnesses: ...)" or "  NAME = none  (why)". */
void list_print_offsets(FILE *f, const struct osd_binary *b);

#endif

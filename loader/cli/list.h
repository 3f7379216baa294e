/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_LIST_H
#define OSDHIST_LIST_H

#include <stdbool.h>
#include <stdio.h>

#include "ceph/binary.h"

/* osdhist --inspect PATH: one line (build-id, version, traceable), the
 * refusal on stderr; with verbose (-v) every offset and the kernel's
 * features (the variant as --perf-uprobes would pick it).  0 traceable,
 * else binary_inspect's negative errno (the refusal said). */
int list_inspect(const char *path, bool verbose, bool perf_uprobes);

/* osdhist --list: one line per running ceph-osd, after the kernel's.
 * 0, or procs_each's negative errno when /proc cannot be scanned (said). */
int list_osds(bool verbose, bool perf_uprobes);

/* The -v lines: "  NAME = 0xHEX  (witnesses: ...)" or "  NAME = none  (why)". */
void list_print_offsets(FILE *f, const struct osd_binary *b);

#endif

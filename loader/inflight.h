/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_INFLIGHT_H
#define OSDHIST_INFLIGHT_H

#include <linux/types.h>
#include "osdhist.h"

/*
 * The done-mark table (maps/osdhist.h: struct mark_set, MARK_SETS sets),
 * as the loader reads it in bpf/'s .bss (inflight.c; tracer.h has the
 * tracer's wrappers, which add the in-flight LRU map).
 */

/* Marks in the table now; those of processes that are not running under
 * proc_root (gone, or zombies) are removed and added to *reaped. */
__u64 marks_scan(struct mark_set *sets, const char *proc_root, __u64 *reaped);
/* Removes every mark (only while no probe is in place); returns how many. */
__u64 marks_drop(struct mark_set *sets);

#endif

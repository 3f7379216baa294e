/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_INFLIGHT_H
#define OSDHIST_INFLIGHT_H

#include <linux/types.h>
#include "osdhist.h"

/*
 * The in-flight state as the loader reads it (inflight.c): the done-mark
 * table (maps/osdhist.h: struct mark_set, MARK_SETS sets) in bpf/'s .bss
 * and the in-flight LRU map, both reached through the BPF handles.
 */
struct bpf_handles;

/* What the loader took out of the in-flight state (marks and LRU
 * entries), and the evictions it infers.  Only inflight.c writes these. */
struct inflight_counts {
	__u64 reaped;		/* removed: their process had exited */
	__u64 reaped_lost;	/* ... of which ops not yet done: lost */
	__u64 dropped;		/* removed at the close of a sampling window */
	__u64 evicted;		/* highest lower bound of LRU evictions seen */
};

/* Entries that left the in-flight state without their op's end, at
 * least: entries made, less those bpf/ removed (removed), those the loader
 * removed and those still there (fill).  The highest bound seen so far. */
__u64 inflight_evicted(struct inflight_counts *c, __u64 entries, __u64 removed,
		       __u64 fill);

/* Marks in the table now; those of processes that are not running under
 * proc_root (gone, or zombies) are removed and added to *reaped. */
__u64 marks_scan(struct mark_set *sets, const char *proc_root, __u64 *reaped);
/* Removes every mark (only while no probe is in place); returns how many. */
__u64 marks_drop(struct mark_set *sets);

/* Done marks and in-flight entries now, those of processes that are not
 * running under proc_root removed (counted in *ic); *capacity: how many
 * fit. */
__u64 inflight_scan(const struct bpf_handles *bpf, const char *proc_root,
		    struct inflight_counts *ic, __u64 *capacity);
/* In-flight ops followed now (not marked outside the window). */
__u64 inflight_followed(const struct bpf_handles *bpf);
/* Removes every mark and in-flight entry (counted in *ic); returns how
 * many were followed ops.  Only while no probe is in place. */
__u64 inflight_drop(const struct bpf_handles *bpf, struct inflight_counts *ic);

#endif

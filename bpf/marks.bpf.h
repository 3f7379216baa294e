/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Done marks: an op that reached its success end, until its last
 * reference (maps/osdhist.h: struct mark_set); a full set spills into the
 * in-flight LRU map, where -P and --phases also follow ops from their
 * start.
 */
#ifndef OSDHIST_MARKS_BPF_H
#define OSDHIST_MARKS_BPF_H

#include "base.bpf.h"

/* Done marks (maps/osdhist.h: struct mark_set), and how many spilled marks
 * the in-flight LRU map may hold (LRU evictions and the loader's drops
 * leave it too high, never too low): while it is 0, a last reference with
 * no mark in the table does not look in the LRU map. */
struct mark_set marks[MARK_SETS];
__u64 lru_marks = 0;

/* Ways of a set in use: MARK_WAYS; 0 (the test build's
 * OSDHIST_TEST_MARK_WAYS) spills every mark, to test the spill path. */
const volatile __u32 mark_ways = MARK_WAYS;

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, INFLIGHT_ENTRIES);
	__type(key, struct op_key);
	__type(value, struct op_state);
} inflight SEC(".maps");


static __always_inline struct mark_set *mark_set_of(__u64 tag)
{
	return &marks[((tag * 0x9e3779b97f4a7c15ULL) >> (64 - MARK_SET_BITS)) &
		      (MARK_SETS - 1)];
}

/* A done mark in the table: 1, or 0 if its set is full (it spills), or
 * -1 if the op has one already (a second success end). */
static __always_inline int mark_put(__u64 tag, __u32 pid)
{
	struct mark_set *s = mark_set_of(tag);

	for (int i = 0; i < MARK_WAYS; i++)
		if (s->way[i].tag == tag && s->way[i].tgid == pid)
			return -1;
	for (int i = 0; i < MARK_WAYS && i < mark_ways; i++)
		if (!s->way[i].tag &&
		    __sync_val_compare_and_swap(&s->way[i].tag, 0, tag) == 0) {
			s->way[i].tgid = pid;
			return 1;
		}
	return 0;
}

/* Removes the op's done mark from the table; false if it has none there. */
static __always_inline bool mark_take(__u64 tag, __u32 pid)
{
	struct mark_set *s = mark_set_of(tag);

	for (int i = 0; i < MARK_WAYS; i++)
		if (s->way[i].tag == tag && s->way[i].tgid == pid) {
			s->way[i].tgid = 0;
			return __sync_val_compare_and_swap(&s->way[i].tag, tag, 0) == tag;
		}
	return false;
}


/* The in-flight entry of a done mark: a global, not on the stack (op_done's
 * stack is all used). */
const struct op_state done_mark = { .pool = -1, .done = 1 };

#endif /* OSDHIST_MARKS_BPF_H */

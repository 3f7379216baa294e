/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The histogram and counter updates: an op's phases into its key's
 * histograms, and the op-code counters the vector scan adds to.
 */
#ifndef OSDHIST_RECORD_BPF_H
#define OSDHIST_RECORD_BPF_H

#include "view.bpf.h"

/* Shared by all CPUs, keys allocated when first used: see maps/osdhist.h. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, HISTS_ENTRIES);
	__type(key, struct hist_key);
	__type(value, struct hist_pair);
} hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, PHASE_HISTS_ENTRIES);
	__type(key, struct hist_key);
	__type(value, struct hist_pair);
} phase_hists SEC(".maps");

/* Shared too, and preallocated (a few KiB a key): the per-CPU allocator
 * would keep a 2 KiB x CPUs object in reserve on every CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OPCOUNT_ENTRIES);
	__type(key, __u32);
	__type(value, struct op_counts);
} opcounts SEC(".maps");


/* Zeroes to create new keys of hists and opcounts from (too big for the
 * stack). */
union zero_value {
	struct hist_pair h;
	struct op_counts c;
	struct slow_sets s;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, union zero_value);
} zero SEC(".maps");


/* The value of key in map (hists, phase_hists, opcounts), created zeroed
 * if it is new; NULL (counted) if the map is full. */
static __always_inline void *value_of(void *map, const void *key)
{
	void *v = bpf_map_lookup_elem(map, key);
	__u32 z = 0;
	void *zv;

	if (v)
		return v;
	zv = bpf_map_lookup_elem(&zero, &z);
	if (!zv)
		return NULL;
	bpf_map_update_elem(map, key, zv, BPF_NOEXIST);
	v = bpf_map_lookup_elem(map, key);
	if (!v)
		count(H_HIST_FAIL);
	return v;
}

/* Shared by all CPUs, and a uprobe program can be preempted: atomic adds.
 * count is left to the loader (the sum of the buckets): one add less. */
static __always_inline void add(struct hist_pair *p, __u32 ph, __u64 ns)
{
	__u32 idx = osdhist_bucket(ns);

	if (idx >= NR_BUCKETS)
		idx = NR_BUCKETS - 1;
	__sync_fetch_and_add(&p->sum_ns[ph & 1], ns);
	__sync_fetch_and_add(&p->buckets[ph & 1][idx], 1);
}

static __always_inline void record2(void *map, struct hist_key *key,
				    __u64 ns0, __u64 ns1, bool has1)
{
	struct hist_pair *p = value_of(map, key);

	if (!p)
		return;
	add(p, 0, ns0);
	if (has1)
		add(p, 1, ns1);
}


/*
 * Every phase of an op that ends now, all on Ceph's clock (REALTIME).  Total
 * is Ceph's own op latency, now - recv_stamp; queue ends at the
 * dequeued_time stamp OSD::dequeue_op wrote (0: the op never left the
 * queue); with --phases, execute runs from there to the write's
 * submit_transaction (or the end), commit from there to the end.
 */
static __always_inline void record_op(__u32 pid, __u8 cls, __u8 optype,
				      const struct op_view *v,
				      const struct op_state *st, struct scratch_buf *sb)
{
	__u64 rt = now_rt(), total = rt > v->recv ? rt - v->recv : 0;
	__u64 deq = dequeued(v, rt);
	__u64 sub = st ? st->submit_rt : 0;
	struct hist_key key = { .tgid = pid, .cls = cls, .optype = optype,
				.pool = -1 };

	if (sb)
		sb->cand.total = total;	/* for the slowest ops: the same value */
	if (sub && (sub < deq || sub > rt))
		sub = 0;
	if (split_pool) {
		if (optype != OPTYPE_ALL)
			record2(&hists, &key, total, deq - v->recv, true);
		key.optype = OPTYPE_ALL;
		key.pool = st ? st->pool : -1;
	}
	record2(&hists, &key, total, deq - v->recv, true);
	if (phases)
		record2(&phase_hists, &key, (sub ? sub : rt) - deq, rt - sub, sub);
}

#endif /* OSDHIST_RECORD_BPF_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The histogram and counter updates: an op's phases into its key's
 * histograms, and the op-code counters the vector scan adds to.
 */
#ifndef OSDHIST_RECORD_BPF_H
#define OSDHIST_RECORD_BPF_H

#include "view.bpf.h"

/*
 * The front: per-CPU rows for the hot keys, which the loader picks
 * (maps/osdhist.h: front rows) and bpf/ only reads the choice of.  An op
 * whose key has a row adds to its CPU's copy of it: memory no other CPU
 * writes.  The loader sizes the row maps at load time.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FRONT_ROWS_MAX);
	__type(key, struct hist_key);
	__type(value, __u32);
} front_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FRONT_ROWS_MAX);
	__type(key, __u32);
	__type(value, struct hist_pair);
} front SEC(".maps");

/* --phases: the same rows' execute and commit (1 row without it) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FRONT_ROWS_MAX);
	__type(key, __u32);
	__type(value, struct hist_pair);
} phase_front SEC(".maps");

/* The op-code counters' front: a row per hot OSD process (key: tgid). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OPC_ROWS_MAX);
	__type(key, __u32);
	__type(value, __u32);
} opc_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, OPC_ROWS_MAX);
	__type(key, __u32);
	__type(value, struct op_counts);
} opc_front SEC(".maps");

/* The tail: every key without a row, shared by all CPUs, keys allocated
 * when first used. */
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

/* The op-code counters' tail, preallocated (a few KiB a key): the per-CPU
 * allocator would keep a 2 KiB x CPUs object in reserve on every CPU.  It
 * also holds each process's call-name counter (calls_next), in the front
 * or not. */
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

/* A front row is one CPU's, but a uprobe program can be preempted by
 * another OSD thread's on the same CPU: atomic adds, on a line no other
 * CPU writes (a tail key's line is every CPU's).  count is left to the
 * loader (the sum of the buckets): one add less. */
static __always_inline void add(struct hist_pair *p, __u32 ph, __u64 ns)
{
	__u32 idx = osdhist_bucket(ns);

	if (idx >= NR_BUCKETS)
		idx = NR_BUCKETS - 1;
	__sync_fetch_and_add(&p->sum_ns[ph & 1], ns);
	__sync_fetch_and_add(&p->buckets[ph & 1][idx], 1);
}

/* Where an op's phases of key go: its front row on this CPU, or the tail
 * (*tail set). */
static __always_inline struct hist_pair *hist_of(void *front_map, void *tail_map,
						 const struct hist_key *key,
						 const __u32 *row, bool *tail)
{
	struct hist_pair *p = row ? bpf_map_lookup_elem(front_map, row) : NULL;

	if (p)
		return p;
	*tail = true;
	return value_of(tail_map, key);
}

static __always_inline void record2(struct hist_pair *p, __u64 ns0, __u64 ns1, bool has1)
{
	if (!p)
		return;
	add(p, 0, ns0);
	if (has1)
		add(p, 1, ns1);
}

/* The key's total and queue, and with --phases its execute and commit. */
static __always_inline bool record_key(const struct hist_key *key, __u64 total,
				       __u64 queue, bool ph, __u64 exec, __u64 commit,
				       bool sub)
{
	const __u32 *row = bpf_map_lookup_elem(&front_slots, key);
	bool tail = false;

	record2(hist_of(&front, &hists, key, row, &tail), total, queue, true);
	if (phases && ph)
		record2(hist_of(&phase_front, &phase_hists, key, row, &tail),
			exec, commit, sub);
	return tail;
}

/* The op-code counters of process pid: its front row on this CPU, or its
 * tail entry (counted as the tail). */
static __always_inline struct op_counts *opc_of(__u32 pid)
{
	const __u32 *row = bpf_map_lookup_elem(&opc_slots, &pid);
	struct op_counts *oc = row ? bpf_map_lookup_elem(&opc_front, row) : NULL;

	if (oc)
		return oc;
	count(H_TAIL_OPC);
	return value_of(&opcounts, &pid);
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

	bool tail = false;

	if (sb)
		sb->cand.total = total;	/* for the slowest ops: the same value */
	if (sub && (sub < deq || sub > rt))
		sub = 0;
	if (split_pool) {
		if (optype != OPTYPE_ALL)
			tail |= record_key(&key, total, deq - v->recv, false, 0, 0, false);
		key.optype = OPTYPE_ALL;
		key.pool = st ? st->pool : -1;
	}
	tail |= record_key(&key, total, deq - v->recv, true, (sub ? sub : rt) - deq,
			   rt - sub, sub);
	if (tail)
		count(H_TAIL);
}

#endif /* OSDHIST_RECORD_BPF_H */

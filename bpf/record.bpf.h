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

/* key -> row, written by the loader alone (maps/osdhist.h) */
struct front_set front_table[FRONT_SETS];

/* The row of key (osdhist_front_key), or FRONT_NO_ROW: one line of the
 * table. */
static __always_inline __u32 front_row(__u64 key)
{
	const struct front_set *s = &front_table[osdhist_front_set(key)];

	if (!key)
		return FRONT_NO_ROW;
	for (int i = 0; i < FRONT_WAYS; i++) {
		__u64 w = s->way[i];

		if ((w & ~FRONT_ROW_MASK) == key)
			return w & FRONT_ROW_MASK;
	}
	return FRONT_NO_ROW;
}

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FRONT_ROWS_MAX);
	__type(key, __u32);
	__type(value, struct front_pair);
} front SEC(".maps");

/* --phases: the same rows' execute and commit (1 row without it) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FRONT_ROWS_MAX);
	__type(key, __u32);
	__type(value, struct front_pair);
} phase_front SEC(".maps");

/* The op-code counters' front: a row per hot OSD process. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, OPC_ROWS_MAX);
	__type(key, __u32);
	__type(value, struct front_opc);
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
 * loader (the sum of the buckets): one add less.  Each bucket computed
 * where it is used: osdhist_log2's comparisons are branches to the
 * verifier, and two buckets alive at once multiplied its states. */
static __always_inline __u32 bucket_of(__u64 ns)
{
	__u32 idx = osdhist_bucket(ns);

	return idx < NR_BUCKETS ? idx : NR_BUCKETS - 1;
}

static __always_inline void front_add(struct front_pair *f, __u32 ph, __u64 ns)
{
	__sync_fetch_and_add(&f->sum_ns[ph & 1], ns);
	__sync_fetch_and_add(&f->buckets[ph & 1][bucket_of(ns)], 1);
}

static __always_inline void tail_add(struct hist_pair *t, __u32 ph, __u64 ns)
{
	__sync_fetch_and_add(&t->sum_ns[ph & 1], ns);
	__sync_fetch_and_add(&t->buckets[ph & 1][bucket_of(ns)], 1);
}

/*
 * Two phases of a key, ns0 and (has1) ns1: into its front row on this CPU
 * (row: the key's front row, or FRONT_NO_ROW), or into its tail entry; 1
 * if the tail's.  Inlined into one global function per pair of maps, so
 * that each lookup call sees one map: a call that may see two is not
 * inlined by the verifier but goes through the map's ops, an indirect
 * call (and clang merges two calls that differ only in the map).
 */
static __always_inline int pair_add(void *front_map, void *tail_map,
				    const struct hist_key *key, __u32 row,
				    bool has1, __u64 ns0, __u64 ns1)
{
	struct front_pair *f = NULL;
	struct hist_pair *t;

	if (row != FRONT_NO_ROW)
		f = bpf_map_lookup_elem(front_map, &row);
	if (f) {
		front_add(f, 0, ns0);
		if (has1)
			front_add(f, 1, ns1);
		return 0;
	}
	t = value_of(tail_map, key);
	if (t) {
		tail_add(t, 0, ns0);
		if (has1)
			tail_add(t, 1, ns1);
	}
	return 1;
}

/* Total and queue.  Global functions, as scan_ops: the verifier walks
 * their front and tail paths once, not once per combination of the keys
 * an op updates (-P --phases passed its million instructions). */
__noinline int hist_add(const struct hist_key *key, __u32 row, __u64 ns0,
			__u64 ns1)
{
	if (!key)
		return 0;
	return pair_add(&front, &hists, key, row, true, ns0, ns1);
}

/* --phases: execute and (sub) commit. */
__noinline int phase_add(const struct hist_key *key, __u32 row, int sub,
			 __u64 ns0, __u64 ns1)
{
	if (!key)
		return 0;
	return pair_add(&phase_front, &phase_hists, key, row, sub, ns0, ns1);
}

/* The key's total and queue, and (ph, with --phases) its execute and
 * commit (sub: a commit); 1 if any went to the tail. */
static __always_inline int record_key(const struct hist_key *key, __u64 total,
				      __u64 queue, bool ph, __u64 exec, __u64 commit,
				      bool sub)
{
	__u32 row = front_row(osdhist_front_key(key->tgid, key->cls, key->optype, key->pool));
	int tail = hist_add(key, row, total, queue);

	if (phases && ph)
		tail |= phase_add(key, row, sub, exec, commit);
	return tail;
}

/* The op-code counters of process pid: its front row on this CPU (*fo),
 * or else its tail entry (*oc; counted as the tail).  -1: neither. */
static __always_inline int opc_of(__u32 pid, struct op_counts **oc, struct front_opc **fo)
{
	__u32 row = front_row(osdhist_front_key(pid, FRONT_CLS_OPC, 0, -1));

	*oc = NULL;
	*fo = row != FRONT_NO_ROW ? bpf_map_lookup_elem(&opc_front, &row) : NULL;
	if (*fo)
		return 0;
	count(H_TAIL_OPC);
	*oc = value_of(&opcounts, &pid);
	return *oc ? 0 : -1;
}

/*
 * Every phase of the op in sb (note_op) that ends now, all on Ceph's clock
 * (REALTIME).  Total
 * is Ceph's own op latency, now - recv_stamp; queue ends at the
 * dequeued_time stamp OSD::dequeue_op wrote (0: the op never left the
 * queue); with --phases, execute runs from there to the write's
 * submit_transaction (or the end), commit from there to the end.  A global
 * function, as scan_ops: the verifier walks its front and tail paths once,
 * not once per path of each caller (-P --phases passed its million
 * instructions otherwise).
 */
__noinline int record_op(const struct op_view *v, const struct op_state *st,
			 struct scratch_buf *sb)
{
	struct hist_key key = { .pool = -1 };
	__u64 rt, total, deq, sub;
	__u8 optype;
	int tail = 0;

	if (!v || !sb)
		return 0;
	key.tgid = sb->cand.pid;	/* note_op() */
	key.cls = sb->cand.cls;
	key.optype = optype = sb->cand.optype;
	rt = now_rt();
	total = rt > v->recv ? rt - v->recv : 0;
	deq = dequeued(v, rt);
	sub = st ? st->submit_rt : 0;
	sb->cand.total = total;	/* for the slowest ops: the same value */
	if (sub && (sub < deq || sub > rt))
		sub = 0;
	if (split_pool) {
		if (optype != OPTYPE_ALL)
			tail = record_key(&key, total, deq - v->recv, false, 0, 0, false);
		key.optype = OPTYPE_ALL;
		key.pool = st ? st->pool : -1;
	}
	tail |= record_key(&key, total, deq - v->recv, true, (sub ? sub : rt) - deq,
			   rt - sub, sub);
	if (tail)
		count(H_TAIL);
	return 0;
}

#endif /* OSDHIST_RECORD_BPF_H */

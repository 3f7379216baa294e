/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slowest ops of each interval per OSD process, with what names them
 * (maps/osdhist.h: struct slow_sets).
 */
#ifndef OSDHIST_SLOWOPS_BPF_H
#define OSDHIST_SLOWOPS_BPF_H

#include "record.bpf.h"

/* The slowest ops per OSD process (maps/osdhist.h: struct slow_sets).
 * Preallocated, as opcounts: without it, the allocator would keep an 18 KiB
 * object in reserve on every CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SLOWOPS_ENTRIES);
	__type(key, __u32);
	__type(value, struct slow_sets);
} slowops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct slow_filter);
} slowfilt SEC(".maps");


/* The fastest slot of s's first k, after one of them changed. */
static __always_inline void slow_min(struct slow_set *s, __u32 k)
{
	__u64 min = ~0ULL;
	__u32 at = 0;

	for (__u32 i = 0; i < SLOW_K_MAX; i++) {
		if (i >= k)
			break;
		if (s->slot[i].total_ns < min) {
			min = s->slot[i].total_ns;
			at = i;
		}
	}
	s->min_ns = min;
	s->min_slot = at;
}

/* The field at off of the hobject_t read into sb->hobj (the loader
 * keeps every hobj_ offset inside hobjw_len). */
static __always_inline void *hobj_at(struct scratch_buf *sb, __u32 off)
{
	return sb->hobj + (off & (HOBJ_WINDOW - 1));
}

/* The std::string at off of that hobject_t (libstdc++: data pointer,
 * then length): its first max bytes into out; its whole length, clamped
 * to a u32, or 0 when it is empty or its bytes cannot be read. */
static __always_inline __u32 hobj_str(struct scratch_buf *sb, __u32 off, char *out, __u32 max)
{
	__u64 *s = hobj_at(sb, off), p = s[0], len = s[1];
	__u32 n = len > max ? max : len;

	barrier_var(n);
	if (!p || !n || n > max || bpf_probe_read_user(out, n, (void *)p))
		return 0;
	return len > 0xffffffffULL ? 0xffffffff : len;
}

/* Slot o for the candidate in sb: what names the op, read from its
 * OpRequest and MOSDOp now (four reads, and one for each of the object's
 * strings that is not empty: for slow ops only), and its first
 * op indices from scan_ops.  A field that cannot be read stays zero. */
static __always_inline void slow_fill(const struct binary_row *r, struct scratch_buf *sb,
				      const struct op_view *v, struct slowop *o)
{
	__u64 rt;
	__u32 n;

	__builtin_memset(o, 0, sizeof(*o));
	o->total_ns = sb->cand.total;
	rt = v->recv + o->total_ns;
	o->queue_ns = dequeued(v, rt) - v->recv;	/* as record_op recorded it */
	o->end_rt = rt;
	o->cls = sb->cand.cls;
	o->optype = sb->cand.optype;
	bpf_probe_read_user(o->client, sizeof(o->client), (void *)(v->op + r->offs.op_reqid));
	if (!bpf_probe_read_user(sb->ptr, sizeof(sb->ptr),
				 (void *)(v->msg + r->offs.mosdop_pgid))) {
		o->pool = sb->ptr[0];
		o->pg_seed = sb->ptr[1];
	}
	/* same cache line as the pgid just read: as spg_t's operator<<
	 * prints it, 2.3s0 for a shard of an EC PG */
	if (bpf_probe_read_user(&o->shard, 1,
				(void *)(v->msg + r->offs.mosdop_pgid + SPG_SHARD)))
		o->shard = -1;
	/* the object, as hobject_t's operator<< prints it: one read of the
	 * hobject_t, then each of its strings that is not empty */
	n = r->hobjw_len > HOBJ_WINDOW ? HOBJ_WINDOW : r->hobjw_len;
	barrier_var(n);		/* the bound stays on n itself */
	if (n >= 16 && !bpf_probe_read_user(sb->hobj, n, (void *)(v->msg + r->offs.mosdop_oid))) {
		o->name_len = hobj_str(sb, 0, o->name, SLOW_NAME_BYTES);
		o->ns_len = hobj_str(sb, r->offs.hobj_nspace, o->ns, SLOW_LOC_BYTES);
		o->key_len = hobj_str(sb, r->offs.hobj_key, o->key, SLOW_LOC_BYTES);
		o->obj_pool = *(__s64 *)hobj_at(sb, r->offs.hobj_pool);
		o->snap = *(__u64 *)hobj_at(sb, r->offs.hobj_snap);
		o->revhash = *(__u32 *)hobj_at(sb, r->offs.hobj_revhash);
	}
	/* the first ops by code, from the vector scan_ops left in b; a call
	 * by its class.method only where it leads the message (the op type) */
	n = sb->nops;
	o->nops = n > 255 ? 255 : n;
	for (__u32 i = 0; i < SLOW_OPS && i < n; i++) {
		__u32 off = i * r->offs.osdop_size;
		__u16 code = *(__u16 *)(sb->b + (off & (SCRATCH_BYTES - 8)));

		o->op[i] = code == OPC_CALL && i == 0 ? o->optype : osdhist_opi(code);
	}
}

/* Whether the candidate in sb passes its CPU's filter entry for its OSD:
 * the fastest slot's latency there when that CPU last looked, which only
 * grows within an interval, so an op at or below it cannot take a slot. */
static __always_inline bool slow_passes(struct slow_filter *f, __u32 h, __u32 pid,
					__u32 g, __u64 total)
{
	return !(f->e[h].tgid == pid && f->e[h].gen == g && total <= f->e[h].min_ns);
}

/*
 * A client op at its end, in sb->cand: into its OSD's slots for this
 * interval if it is slower than the fastest there (or a slot is free).
 * The fast path is the filter; past it the set is taken with a cmpxchg,
 * and a candidate that finds it taken is counted (slow_busy), never waited
 * for: a uprobe program may be preempted while it holds the set.  A global
 * function: its stack is not added to scan_ops'.
 */
__noinline int slow_note(struct scratch_buf *sb, const struct op_view *v)
{
	__u32 g = slow_gen, k = slow_k, pid, at, h, z = 0;
	const struct binary_row *r;
	struct slow_filter *f;
	struct slow_sets *ss;
	struct slow_set *s;
	__u64 word, total;

	if (!sb || !v)
		return 0;
	r = &rows[sb->cand.row & (MAX_BINARIES - 1)];
	f = bpf_map_lookup_elem(&slowfilt, &z);
	if (!f)
		return 0;
	pid = sb->cand.pid;
	total = sb->cand.total;
	h = ((pid * 0x9e3779b1u) >> (32 - SLOW_FILTER_BITS)) & ((1 << SLOW_FILTER_BITS) - 1);
	if (!slow_passes(f, h, pid, g, total))
		return 0;
	ss = value_of(&slowops, &pid);
	if (!ss)
		return count(H_SLOW_BUSY);
	s = &ss->s[g & 1];
	word = s->lockseq;
	if ((word & 1) || __sync_val_compare_and_swap(&s->lockseq, word, word | 1) != word)
		return count(H_SLOW_BUSY);
	/* the loader moved on since g was read: it may be reading this set
	 * now (it waits only for a write begun before it moved) */
	if (slow_gen != g) {
		__sync_fetch_and_add(&s->lockseq, 1);
		return count(H_SLOW_LATE);
	}
	if (s->gen != g) {
		s->gen = g;
		s->n = 0;
		s->min_ns = 0;
	}
	if (k > SLOW_K_MAX)
		k = SLOW_K_MAX;
	if (s->n < k)
		at = s->n++;
	else if (total > s->min_ns)
		at = s->min_slot;
	else
		at = SLOW_K_MAX;
	if (at < SLOW_K_MAX) {
		slow_fill(r, sb, v, &s->slot[at & (SLOW_K_MAX - 1)]);
		if (s->n >= k)
			slow_min(s, k);
	}
	f->e[h].tgid = pid;
	f->e[h].gen = g;
	f->e[h].min_ns = s->n >= k ? s->min_ns : 0;
	__sync_fetch_and_add(&s->lockseq, 1);	/* taken bit off, one more write */
	return 0;
}

/* Before the op is recorded: whether it may be a candidate, and what it
 * is (cand.row, the binary's index in rows[], is set when sb is taken). */
static __always_inline void slow_prepare(const struct binary_row *r,
					 struct scratch_buf *sb)
{
	sb->cand.on = slow_k && r->slow;
}

/* After, with the latency the histogram got (record_op put it there). */
static __always_inline void slow_check(struct scratch_buf *sb, const struct op_view *v)
{
	if (slow_k && sb && sb->cand.on)
		slow_note(sb, v);
}

#endif /* OSDHIST_SLOWOPS_BPF_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Entry uprobes on ceph-osd.  They only fill maps: no printing, no policy,
 * no per-event output.  See maps/osdhist.h for how an op is followed.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "osdhist.h"

/* Per-binary offsets and traced time, written in place by the loader
 * (loader/attach.c); the uprobe's cookie selects the row. */
struct binary_row rows[MAX_BINARIES];
/* CLOCK_TAI - CLOCK_REALTIME in ns (whole seconds), kept current by the
 * loader: BPF reads TAI, Ceph stamps ops with REALTIME. */
__s64 tai_offset_ns = 0;
/* Without the TAI helper (have_tai false): CLOCK_REALTIME - CLOCK_MONOTONIC
 * in ns, refreshed by the loader at every rescan of /proc. */
__s64 rt_mono_offset_ns = 0;
/* --sample: ends of ops received inside the current window; the loader
 * ends a drain once this stops moving. */
__u64 window_ends = 0;

/* Done marks (maps/osdhist.h: struct mark_set), and how many spilled marks
 * the in-flight LRU map may hold (LRU evictions and the loader's drops
 * leave it too high, never too low): while it is 0, a last reference with
 * no mark in the table does not look in the LRU map. */
struct mark_set marks[MARK_SETS];
__u64 lru_marks = 0;

/* Ways of a set in use: MARK_WAYS; 0 (the test build's
 * OSDHIST_TEST_MARK_WAYS) spills every mark, to test the spill path. */
const volatile __u32 mark_ways = MARK_WAYS;
const volatile bool split_pool = false;
const volatile bool trace_subops = true;
const volatile bool phases = false;
/* What the kernel has, by loader/kfeatures.c's probes.  The verifier reads
 * these as constants and never walks the other branch, and a privileged
 * load removes the dead code: a helper this kernel lacks is then not in the
 * loaded program at all (test_fallbacks.sh looks at the xlated code). */
const volatile bool have_tai = true;	/* bpf_ktime_get_tai_ns */
const volatile bool have_loop = true;	/* bpf_loop */
/* Read client messages' op vectors: op-code counts and op types. */
const volatile bool op_types = true;
/* -P or --phases: entries are made before the success end (enqueue_op,
 * submit_transaction), which then looks them up. */
const volatile bool start_probe = false;
/* --slowest: slots per OSD and interval; 0, none (the verifier drops the
 * code).  The interval the slots are for: the loader's (maps/osdhist.h). */
const volatile __u32 slow_k = 0;
__u32 slow_gen = 0;

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, INFLIGHT_ENTRIES);
	__type(key, struct op_key);
	__type(value, struct op_state);
} inflight SEC(".maps");

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

/* Call names per OSD process -> their number (maps/osdhist.h: CALLS_MAX a
 * process); the loader names the op indices from it and deletes a dead
 * process's keys. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, CALLS_ENTRIES);
	__type(key, struct call_key);
	__type(value, __u32);
} calls SEC(".maps");

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

/* A uprobe program can be preempted by another OSD thread on its CPU that
 * runs the same program: each user of a buffer takes a slot first. */
struct scratch_buf {
	__u64 busy;
	__u8 b[SCRATCH_BYTES];
	/* For call ops, off the stack (the callers of scan_ops fill it):
	 * what call_index() reads, and its name and buffer::ptr. */
	struct call_args {
		__u64 ops;	/* the op vector's address */
		__u32 pid;
		__u32 cls, indata, bl_first, node_ptr;	/* struct osd_offsets' */
		__u32 ptr_raw, ptr_off, ptr_len, raw_data;
	} ca;
	struct call_key call;
	__u64 ptr[2];
	/* For the slowest ops: how many of the message's ops scan_ops
	 * read into b (0: none), and the candidate (set before the
	 * histograms are, so that the callers keep nothing on the stack
	 * across that: it is all used) */
	__u32 nops;
	struct {
		__u64 total;
		__u32 pid;
		__u8 on;	/* slow_k and the row's slow */
		__u8 row, cls, optype;
	} cand;
	/* The slowest ops' slow path only, last so that the fields every op
	 * touches keep their lines: MOSDOp::hobj's first hobjw_len bytes
	 * (16 more: a string at any offset below HOBJ_WINDOW is inside) */
	__u8 hobj[HOBJ_WINDOW + 16];
};

struct scratch {
	struct scratch_buf buf[SCRATCH_SLOTS];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_HEALTH);
	__type(key, __u32);
	__type(value, __u64);
} health SEC(".maps");

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

static __always_inline int count(__u32 h)
{
	__u64 *v = bpf_map_lookup_elem(&health, &h);

	if (v)
		*v += 1;
	return 0;
}

static __always_inline __u32 tgid(void)
{
	return bpf_get_current_pid_tgid() >> 32;
}

/* The binary's row in rows[]: the uprobe's BPF cookie. */
static __always_inline __u32 row_index(void *ctx)
{
	return bpf_get_attach_cookie(ctx) & (MAX_BINARIES - 1);
}

static __always_inline struct binary_row *row(void *ctx)
{
	return &rows[row_index(ctx)];
}

static __always_inline __u64 read_u64(const void *addr)
{
	__u64 v = 0;

	if (bpf_probe_read_user(&v, sizeof(v), addr))
		return 0;
	return v;
}

/* CLOCK_REALTIME now, the clock of Ceph's stamps.  TAI differs from it by
 * whole seconds that change only with a leap second.  MONOTONIC differs
 * from it by an offset that NTP's slewing leaves alone (both run at the
 * same adjusted rate) and only a step of the clock moves: the loader
 * reads that offset again at every rescan. */
static __always_inline __u64 now_rt(void)
{
	if (have_tai)
		return bpf_ktime_get_tai_ns() - tai_offset_ns;
	return bpf_ktime_get_ns() + rt_mono_offset_ns;
}

/* What an end needs from its OpRequest and Message: two user memory reads,
 * one per object, over the windows the loader computed (each field read on
 * its own cost ~100 ns here: five of them were most of a program's time). */
struct op_view {
	__u64 op;
	__u64 msg;
	__u64 recv;	/* Message::recv_stamp, ns */
	__u64 rmw;	/* OpInfo::rmw_flags */
	__u64 deq;	/* OpRequest::dequeued_time, ns; 0: never dequeued */
	__u64 ops, ops_end;	/* MOSDOp::ops; 0: not read */
	__u16 type;	/* Message::header.type */
};

static __always_inline __u64 win_u64(const __u8 *buf, __u32 rel)
{
	return *(const __u64 *)(buf + (rel & (READ_WINDOW_MAX - 8)));
}

/* utime_t (seconds, nanoseconds: two u32) in ns. */
static __always_inline __u64 utime_ns(__u64 t)
{
	return (t & 0xffffffffULL) * 1000000000ULL + (t >> 32);
}

static __always_inline __u64 win_utime(const __u8 *buf, __u32 rel)
{
	return utime_ns(win_u64(buf, rel));
}

/* A scratch buffer of this CPU for one program run, or NULL if none is
 * free (a run preempted by another on the same CPU holds one). */
static __always_inline struct scratch_buf *take_scratch(void)
{
	__u32 z = 0;
	struct scratch *s = bpf_map_lookup_elem(&scratch, &z);

	if (!s)
		return NULL;
	for (__u32 i = 0; i < SCRATCH_SLOTS; i++)
		if (!__sync_lock_test_and_set(&s->buf[i].busy, 1))
			return &s->buf[i];
	return NULL;
}

static __always_inline void drop_scratch(struct scratch_buf *buf)
{
	if (buf)
		buf->busy = 0;
}

static __always_inline __u64 sbuf_u64(const __u8 *sb, __u32 rel)
{
	return *(const __u64 *)(sb + (rel & (SCRATCH_BYTES - 8)));
}

/* The op's fields.  With sb, the op is known to be a client op (its
 * success end): the Message window read, into sb, is the one with
 * recv_stamp and MOSDOp::ops. */
static __always_inline int view_op(struct binary_row *r, __u64 op,
				   struct op_view *v, struct scratch_buf *sbuf)
{
	__u8 buf[READ_WINDOW_MAX];
	__u32 len, off;

	v->op = op;
	v->ops = v->ops_end = 0;
	len = r->opw_len;
	if (!op || len > READ_WINDOW_MAX ||
	    bpf_probe_read_user(buf, len, (void *)(op + r->opw_off)))
		return -1;
	v->msg = win_u64(buf, r->offs.op_request - r->opw_off);
	v->rmw = win_u64(buf, r->offs.op_rmw - r->opw_off);
	v->deq = win_utime(buf, r->offs.op_dequeued - r->opw_off);
	if (!v->msg)
		return -1;
	if (sbuf && r->cmsgw_len) {
		__u8 *sb = sbuf->b;

		len = r->cmsgw_len;
		off = r->cmsgw_off;
		if (len > SCRATCH_BYTES ||
		    bpf_probe_read_user(sb, len, (void *)(v->msg + off)))
			return -1;
		v->type = MSG_OSD_OP;
		v->ops = sbuf_u64(sb, r->offs.mosdop_ops - off);
		v->ops_end = sbuf_u64(sb, r->offs.mosdop_ops + 8 - off);
		v->recv = utime_ns(sbuf_u64(sb, r->offs.msg_recv - off));
		return v->recv ? 0 : -1;
	}
	len = r->msgw_len;
	off = r->msgw_off;
	if (len > READ_WINDOW_MAX ||
	    bpf_probe_read_user(buf, len, (void *)(v->msg + off)))
		return -1;
	v->type = (__u16)win_u64(buf, r->offs.msg_type - off);
	v->recv = win_utime(buf, r->offs.msg_recv - off);
	return v->recv ? 0 : -1;
}

/* MOSDOp::ops of a client op whose view did not read them (its last
 * reference, where the message's type was not known beforehand). */
static __always_inline void view_ops(struct binary_row *r, struct op_view *v)
{
	__u64 vec[2];

	if (!r->cmsgw_len ||
	    bpf_probe_read_user(vec, sizeof(vec), (void *)(v->msg + r->offs.mosdop_ops)))
		return;
	v->ops = vec[0];
	v->ops_end = vec[1];
}

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

/* Is the op in the traced time (received in [open_rt, close_rt))?  Ops
 * received outside it are not recorded: they were, or will be, only partly
 * seen.  Its ends inside a --sample window are counted for the drain. */
static __always_inline bool traced(struct binary_row *r, __u64 recv)
{
	if (recv < r->open_rt || recv >= r->close_rt)
		return false;
	if (r->close_rt != ~0ULL)
		__sync_fetch_and_add(&window_ends, 1);
	return true;
}

/* An untraced op at its last reference: one of the previous sampling window
 * that ended after its probes were gone may have lost its success end. */
static __always_inline int count_untraced(struct binary_row *r, __u64 recv)
{
	return count(recv >= r->prev_open_rt && recv < r->prev_close_rt ?
		     H_LATE : H_OUTSIDE);
}

static __always_inline bool followed(__u16 type)
{
	return type == MSG_OSD_OP || (trace_subops && type == MSG_OSD_REPOP);
}

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

/* What the per-op step of scan_ops needs. */
struct scan_ctx {
	struct scratch_buf *sb;
	struct op_counts *oc;
	/* u16: the verifier counts this struct in the stack of three frames */
	__u16 stride, rvo;	/* <= OSDOP_STRIDE_MAX */
	__u16 failed;
	__u16 calls;	/* name the calls: sb->ca is filled */
	struct osdhist_type_acc type;
};

#define OPC_CALL	0x1401	/* CEPH_OSD_OP_CALL */

/* The u32 at byte off (0, 4, 8 or 12) of a buffer::ptr read as two u64. */
static __always_inline __u32 ptr_u32(const __u64 p[2], __u32 off)
{
	__u64 w = off & 8 ? p[1] : p[0];

	return off & 4 ? w >> 32 : (__u32)w;
}

/* The number of a call name in its process, found or made; CALLS_MAX when
 * the process has numbered as many as it may, or the map is full. */
static __always_inline __u32 call_number(struct op_counts *oc, struct call_key *k)
{
	__u32 *n = bpf_map_lookup_elem(&calls, k);
	__u32 mine;

	if (n)
		return *n;
	if (oc->calls_next >= CALLS_MAX)
		return CALLS_MAX;
	mine = __sync_fetch_and_add(&oc->calls_next, 1);
	if (mine >= CALLS_MAX)
		return CALLS_MAX;
	/* another CPU may have made the same name meanwhile: its number
	 * stands, mine stays unused */
	bpf_map_update_elem(&calls, k, &mine, BPF_NOEXIST);
	n = bpf_map_lookup_elem(&calls, k);
	return n ? *n : CALLS_MAX;
}

/*
 * Op i, a call: its op index by class.method, or OPI_0x1401 if the names
 * cannot be read.  As OpInfo::set_from_op and operator<<(OSDOp) read them:
 * class_len and method_len in the op, the names the first bytes of
 * OSDOp::indata.  Three dependent reads (the first ptr_node's buffer::ptr,
 * its raw's data, the names), for call ops only; the names must lie in the
 * first buffer.
 */
static __always_inline __u32 call_index(struct scan_ctx *c, __u32 off)
{
	const struct call_args *o = &c->sb->ca;
	struct call_key *k = &c->sb->call;
	__u64 *p = c->sb->ptr, list, node, data;
	__u32 n, plen, poff;

	__builtin_memset(k, 0, sizeof(*k));
	k->tgid = o->pid;
	k->class_len = c->sb->b[(off + o->cls) & (SCRATCH_BYTES - 1)];
	k->method_len = c->sb->b[(off + o->cls + 1) & (SCRATCH_BYTES - 1)];
	list = o->ops + off + o->indata;
	node = sbuf_u64(c->sb->b, off + o->indata + o->bl_first);
	/* no class name, or an empty list (its first node is itself) */
	if (!k->class_len || !node || node == list + o->bl_first)
		return OPI_0x1401;
	/* the loader sets calls only if _raw, _off and _len lie in 16 bytes */
	if (bpf_probe_read_user(p, sizeof(c->sb->ptr), (void *)(node + o->node_ptr)))
		return OPI_0x1401;
	poff = ptr_u32(p, o->ptr_off);
	plen = ptr_u32(p, o->ptr_len);
	n = k->class_len + k->method_len;
	if (n > plen)
		return OPI_0x1401;
	data = read_u64((void *)((o->ptr_raw & 8 ? p[1] : p[0]) + o->raw_data));
	if (n > CALL_NAME_BYTES)
		n = CALL_NAME_BYTES;
	barrier_var(n);
	if (!data || n < 1 || n > CALL_NAME_BYTES ||
	    bpf_probe_read_user(k->name, n, (void *)(data + poff)))
		return OPI_0x1401;
	return OPI_CALL_FIRST + call_number(c->oc, k);
}

/* Op i of the message, in sb: counted under its code (a call under its
 * class.method), and as failed when its rval < 0 or the whole message
 * failed. */
static int scan_one(__u32 i, struct scan_ctx *c)
{
	__u32 off = (i & (OSDHIST_OPS_MAX - 1)) * c->stride;
	__u16 code = *(__u16 *)(c->sb->b + (off & (SCRATCH_BYTES - 8)));
	__s32 rval = *(__s32 *)(c->sb->b + ((off + c->rvo) & (SCRATCH_BYTES - 4)));
	__u32 ix = osdhist_opi(code);

	if (code == OPC_CALL && c->calls)
		ix = call_index(c, off);
	ix &= OPCOUNT_SLOTS - 1;

	__sync_fetch_and_add(&c->oc->ops[ix], 1);
	if (c->failed || rval < 0)
		__sync_fetch_and_add(&c->oc->failed[ix], 1);
	osdhist_op_type_step(&c->type, ix);
	return 0;
}

/*
 * The ops of a client message, read at once into a scratch slot and
 * counted by code; returns the message's op type (OPTYPE_ALL when the
 * binary's op vector cannot be read).  A global function, and bpf_loop
 * where the kernel has it, so that the verifier checks them once instead
 * of once per path of the callers and per op.
 */
__noinline int scan_ops(const struct binary_row *r, __u32 pid,
			const struct op_view *v, int failed, struct scratch_buf *sb)
{
	struct scan_ctx c = { .type = { OPI_NONE, 0 } };
	__u64 ops, ops_end, len;
	__u32 n;

	if (sb)
		sb->nops = 0;
	if (!r || !v || !op_types || !r->cmsgw_len)
		return OPTYPE_ALL;
	ops = v->ops;
	ops_end = v->ops_end;
	if (!ops || ops_end < ops || !r->offs.osdop_size ||
	    r->offs.osdop_size > OSDOP_STRIDE_MAX ||
	    r->offs.osdop_rval + 4 > r->offs.osdop_size)
		goto unseen;
	c.stride = r->offs.osdop_size;
	c.rvo = r->offs.osdop_rval;
	c.failed = !!failed;
	n = (ops_end - ops) / c.stride;
	if (n == 0)
		return OPI_NONE;	/* decoded no op: rejected before do_op */
	if (n > OSDHIST_OPS_MAX) {
		count(H_OPS_CUT);
		n = OSDHIST_OPS_MAX;
	}
	c.oc = value_of(&opcounts, &pid);
	len = (__u64)n * c.stride;	/* <= OSDHIST_OPS_MAX * OSDOP_STRIDE_MAX */
	barrier_var(len);	/* keep the bound for the verifier */
	if (!sb || !c.oc || len > SCRATCH_BYTES ||
	    bpf_probe_read_user(sb->b, len, (void *)ops))
		goto unseen;
	c.sb = sb;
	sb->nops = n;
	if (r->calls) {
		const struct osd_offsets *o = &r->offs;
		struct call_args *a = &sb->ca;

		/* field by field: a compound literal would be built on the
		 * stack first, and the stack is all used */
		a->ops = ops;
		a->pid = pid;
		a->cls = o->osdop_cls;
		a->indata = o->osdop_indata;
		a->bl_first = o->bl_first;
		a->node_ptr = o->node_ptr;
		a->ptr_raw = o->ptr_raw;
		a->ptr_off = o->ptr_off;
		a->ptr_len = o->ptr_len;
		a->raw_data = o->raw_data;
		c.calls = 1;
	}
	if (have_loop) {
		bpf_loop(n, scan_one, &c, 0);
	} else {
		/* A bounded loop (Linux 5.3): the verifier walks each of
		 * the OSDHIST_OPS_MAX turns, once, in this global function. */
		for (__u32 i = 0; i < OSDHIST_OPS_MAX; i++) {
			if (i >= n)
				break;
			scan_one(i, &c);
		}
	}
	return c.type.type;
unseen:
	count(H_OPS_UNSEEN);
	return OPI_NONE;
}

/* Ceph's own split, PrimaryLogPG::log_op_stats():
 * may_read && may_write -> op_rw, may_read -> op_r, may_write||may_cache -> op_w */
static __always_inline __u8 classify(__u64 rmw)
{
	bool rd = rmw & (RMW_READ | RMW_CLASS_READ);
	bool wr = rmw & (RMW_WRITE | RMW_CLASS_WRITE);

	if (rd && wr)
		return CLASS_RW;
	if (rd)
		return CLASS_READ;
	return CLASS_WRITE;
}

/* Where the op's queue time ended, for an op ending at rt: its
 * dequeued_time, or rt if it never left the queue (or the stamp is not
 * between its receipt and rt). */
static __always_inline __u64 dequeued(const struct op_view *v, __u64 rt)
{
	__u64 deq = v->deq;

	return !deq || deq < v->recv || deq > rt ? rt : deq;
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
					 struct scratch_buf *sb, __u32 pid, __u8 cls,
					 __u8 optype)
{
	if (!sb)
		return;
	sb->cand.on = slow_k && r->slow;
	sb->cand.pid = pid;
	sb->cand.cls = cls;
	sb->cand.optype = optype;
}

/* After, with the latency the histogram got (record_op put it there). */
static __always_inline void slow_check(struct scratch_buf *sb, const struct op_view *v)
{
	if (slow_k && sb && sb->cand.on)
		slow_note(sb, v);
}

/* The in-flight entry of a done mark: a global, not on the stack (op_done's
 * stack is all used). */
const struct op_state done_mark = { .pool = -1, .done = 1 };

/* The end where Ceph counts the op: record it and leave a done mark for
 * _unregistered (an entry made at enqueue_op is marked in place). */
static __always_inline int success_end(__u32 ri, __u64 op, bool subop,
				       struct scratch_buf *sb)
{
	struct binary_row *r = &rows[ri];
	struct op_key key = { .tgid = tgid(), .op = op };
	struct op_state *st = NULL;
	__u8 optype = OPTYPE_ALL, cls;
	struct op_view v;
	__u64 tag;
	int put;

	if (view_op(r, op, &v, sb))
		return count(H_READ_FAIL);
	if (!traced(r, v.recv))
		return 0;
	if (start_probe) {
		st = bpf_map_lookup_elem(&inflight, &key);
		if (st && st->done)
			return count(H_DONE_TWICE);
	}
	if (!subop)
		optype = scan_ops(r, key.tgid, &v, 0, sb);
	cls = subop ? CLASS_SUBOP : classify(v.rmw);
	if (!subop)
		slow_prepare(r, sb, key.tgid, cls, optype);
	record_op(key.tgid, cls, optype, &v, st, sb);
	if (!subop)
		slow_check(sb, &v);
	count(H_DONE);
	if (st) {
		st->done = 1;
		return 0;
	}
	if (start_probe) {
		if (bpf_map_update_elem(&inflight, &key, &done_mark, BPF_NOEXIST))
			return count(H_INSERT_FAIL);
		return count(H_ENTRIES);
	}
	/* entries (marks made) = done - done_twice: the loader's */
	tag = osdhist_mark_tag(key.tgid, op);
	put = tag ? mark_put(tag, key.tgid) : 0;
	if (put)
		return put > 0 ? 0 : count(H_DONE_TWICE);
	count(H_SPILLED);
	if (bpf_map_update_elem(&inflight, &key, &done_mark, BPF_NOEXIST))
		return count(H_DONE_TWICE);
	__sync_fetch_and_add(&lru_marks, 1);
	return 0;
}

/*
 * PrimaryLogPG::log_op_stats(const OpRequest& op, uint64_t inb, uint64_t outb):
 * the success end of a client op, and the only place Ceph counts op_r, op_w
 * and op_rw.  The reference arrives as the OpRequest* itself.
 */
SEC("uprobe")
int BPF_KPROBE(op_done, void *pg, void *op)
{
	struct scratch_buf *sb = op_types || slow_k ? take_scratch() : NULL;
	__u32 ri = row_index(ctx);	/* once: it is a helper call */
	int ret;

	if (sb)
		sb->cand.row = ri;
	ret = success_end(ri, (__u64)op, false, sb);

	drop_scratch(sb);
	return ret;
}

/*
 * ReplicatedBackend::repop_commit(RepModifyRef rm): a replica sub-op has
 * committed and its reply goes out; Ceph counts subop_w here.  The
 * shared_ptr is passed by invisible reference.
 */
SEC("uprobe")
int BPF_KPROBE(subop_done, void *backend, void **rmref)
{
	__u32 ri = row_index(ctx);
	__u64 rm = read_u64(rmref);

	if (!rm)
		return count(H_READ_FAIL);
	return success_end(ri, read_u64((void *)(rm + rows[ri].offs.repmod_op)), true,
			   NULL);
}

/*
 * OpRequest::_unregistered(): TrackedOp::put() calls it once per op when
 * the last reference goes, whatever path the op took and whether the op
 * tracker is on or off (off, OpTracker::unregister_inflight_op never runs).
 * A client op without a done mark ended without reaching log_op_stats: an
 * error reply, an early reject, a dup answered from the pg log, a PG op.
 * Replica replies and other messages cost this one hit and are ignored.
 */
SEC("uprobe")
int BPF_KPROBE(op_unregistered, void *op)
{
	struct binary_row *r;
	__u32 ri;
	struct op_key key = { .tgid = tgid(), .op = (__u64)op };
	struct op_state *st = NULL;
	struct op_view v;
	__u8 cls, optype = OPTYPE_ALL;

	if (!start_probe) {
		/* The common case: one cache line. */
		__u64 tag = osdhist_mark_tag(key.tgid, key.op);

		if (tag && mark_take(tag, key.tgid))
			return count(H_REMOVED);
		if (lru_marks && bpf_map_delete_elem(&inflight, &key) == 0) {
			__sync_fetch_and_add(&lru_marks, -1);
			return count(H_REMOVED);
		}
	} else {
		st = bpf_map_lookup_elem(&inflight, &key);
		if (st && st->done) {
			if (bpf_map_delete_elem(&inflight, &key) == 0)
				count(H_REMOVED);
			return 0;
		}
	}
	/* Not before: most runs end above, at their mark, and the cookie is
	 * one more helper call. */
	ri = row_index(ctx);
	r = &rows[ri];
	if (view_op(r, key.op, &v, NULL))
		count(H_READ_FAIL);
	else if (!followed(v.type))
		count(H_IGNORED);
	else if (!traced(r, v.recv))
		count_untraced(r, v.recv);
	else {
		if (v.type == MSG_OSD_REPOP)
			cls = CLASS_ERROR;	/* a sub-op that never committed */
		else if (v.rmw & RMW_PGOP)
			cls = CLASS_PG;
		else
			cls = CLASS_ERROR;
		struct scratch_buf *sb = NULL;

		if ((op_types || slow_k) && v.type == MSG_OSD_OP)
			sb = take_scratch();
		if (op_types && v.type == MSG_OSD_OP) {
			view_ops(r, &v);
			/* a PG op is not a failure: Ceph never counts it */
			optype = scan_ops(r, key.tgid, &v, cls == CLASS_ERROR, sb);
		}
		if (sb)
			sb->cand.row = ri;
		slow_prepare(r, sb, key.tgid, cls, optype);
		record_op(key.tgid, cls, optype, &v, st, sb);
		slow_check(sb, &v);
		drop_scratch(sb);
		count(H_ERROR_END);
	}
	if (st && bpf_map_delete_elem(&inflight, &key) == 0)
		count(H_REMOVED);
	return 0;
}

/*
 * -P only.  OSD::enqueue_op(spg_t pgid, OpRequestRef&& op,
 * unsigned owner_cost): every op the OSD accepted is queued here once.  The
 * rvalue reference arrives as a pointer to the intrusive_ptr; spg_t (24
 * bytes, trivially copyable) is on the stack, pgid.m_pool first.
 */
SEC("uprobe")
int BPF_KPROBE(op_enqueue, void *osd, void **opref)
{
	struct binary_row *r = row(ctx);
	struct op_key key = { .tgid = tgid(), .op = read_u64(opref) };
	struct op_state st = { .pool = -1 };
	struct op_view v;

	if (view_op(r, key.op, &v, NULL))
		return count(H_READ_FAIL);
	if (!followed(v.type) || v.recv < r->open_rt || v.recv >= r->close_rt)
		return 0;	/* counted at its end */
	if (split_pool)
		st.pool = (__s64)read_u64((void *)(PT_REGS_SP(ctx) + r->offs.sp_spg));
	if (bpf_map_update_elem(&inflight, &key, &st, BPF_ANY))
		return count(H_INSERT_FAIL);
	return count(H_ENTRIES);
}

/*
 * --phases only.  {Replicated,EC}Backend::submit_transaction(..., osd_reqid_t,
 * OpRequestRef op) (ECSwitch:: in 20.x, which dispatches to both EC
 * backends): a write's transaction goes to the object store and the
 * replicas.  op is the last of twelve arguments: a pointer to the
 * intrusive_ptr, on the stack.  The write's entry is made here (or, with
 * -P, at enqueue_op).
 */
SEC("uprobe")
int BPF_KPROBE(op_submit)
{
	struct binary_row *r = row(ctx);
	void *opref = (void *)read_u64((void *)(PT_REGS_SP(ctx) + r->offs.sp_submit_op));
	struct op_key key = { .tgid = tgid(), .op = read_u64(opref) };
	struct op_state *st = bpf_map_lookup_elem(&inflight, &key);
	struct op_state fresh = { .pool = -1 };

	if (st) {
		st->submit_rt = now_rt();
		return 0;
	}
	if (!key.op)
		return count(H_READ_FAIL);
	fresh.submit_rt = now_rt();
	if (bpf_map_update_elem(&inflight, &key, &fresh, BPF_NOEXIST))
		return count(H_INSERT_FAIL);
	return count(H_ENTRIES);
}

char LICENSE[] SEC("license") = "GPL";

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The op vector of a client message: each op counted under its code, a
 * call under its class.method (the calls map numbers the names), and the
 * message's op type.
 */
#ifndef OSDHIST_OPSCAN_BPF_H
#define OSDHIST_OPSCAN_BPF_H

#include "record.bpf.h"

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


/* What the per-op step of scan_ops needs. */
struct scan_ctx {
	struct scratch_buf *sb;
	struct op_counts *oc;	/* the tail's, or */
	struct front_opc *fo;	/* a front row's */
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
static __always_inline __u32 call_number(struct call_key *k)
{
	__u32 *n = bpf_map_lookup_elem(&calls, k);
	struct op_counts *oc;
	__u32 mine;

	if (n)
		return *n;
	/* the process's counter is in its tail entry, front row or not */
	oc = value_of(&opcounts, &k->tgid);
	if (!oc || oc->calls_next >= CALLS_MAX)
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
	return OPI_CALL_FIRST + call_number(k);
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

	if (c->fo) {
		__sync_fetch_and_add(&c->fo->ops[ix], 1);
		if (c->failed || rval < 0)
			__sync_fetch_and_add(&c->fo->failed[ix], 1);
	} else if (c->oc) {
		__sync_fetch_and_add(&c->oc->ops[ix], 1);
		if (c->failed || rval < 0)
			__sync_fetch_and_add(&c->oc->failed[ix], 1);
	}
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
	len = (__u64)n * c.stride;	/* <= OSDHIST_OPS_MAX * OSDOP_STRIDE_MAX */
	barrier_var(len);	/* keep the bound for the verifier */
	if (!sb || opc_of(pid, &c.oc, &c.fo) || len > SCRATCH_BYTES ||
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

#endif /* OSDHIST_OPSCAN_BPF_H */

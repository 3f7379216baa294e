/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an end reads of Ceph's op: the OpRequest and Message windows the
 * loader computed, in one read each, into a scratch buffer of the CPU;
 * and what follows from them (class, traced time, queue end).
 */
#ifndef OSDHIST_VIEW_BPF_H
#define OSDHIST_VIEW_BPF_H

#include "base.bpf.h"

/* A uprobe program can be preempted by another OSD thread on its CPU that
 * runs the same program: each user of a buffer takes a slot first. */
struct scratch_buf {
	__u64 busy;
	/* An end's OpRequest and Message windows (view_op), off the stack:
	 * the stack is the verifier's 512 bytes for three frames */
	__u8 win[READ_WINDOW_MAX];
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
	/* The op being recorded (note_op), which record_op reads, and
	 * the slowest ops' candidate: its latency, set by record_op
	 * before the slowest ops look (so that the callers keep nothing
	 * on the stack across that) */
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


/* Who the op is, for record_op and the slowest ops (in sb: a global
 * function takes five arguments at most). */
static __always_inline void note_op(struct scratch_buf *sb, __u32 pid, __u8 cls,
				    __u8 optype)
{
	sb->cand.pid = pid;
	sb->cand.cls = cls;
	sb->cand.optype = optype;
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

/* The op's fields, its windows read into sb.  A client op's success end
 * (client) knows the Message's type: of the Message it reads recv_stamp
 * alone, one line, or with op types the window from recv_stamp to
 * MOSDOp::ops, into sb->b, where scan_ops finds the vector's address.
 * (The reads cost what they touch here: the 168-byte type-and-recv_stamp
 * window was four lines where one is used.) */
static __always_inline int view_op(struct binary_row *r, __u64 op, struct op_view *v,
				   struct scratch_buf *sb, bool client)
{
	__u32 len, off;

	v->op = op;
	v->ops = v->ops_end = 0;
	if (!sb)
		return -1;
	sb->nops = 0;	/* no op of a vector read yet (scan_ops) */
	len = r->opw_len;
	if (!op || len > READ_WINDOW_MAX ||
	    bpf_probe_read_user(sb->win, len, (void *)(op + r->opw_off)))
		return -1;
	v->msg = win_u64(sb->win, r->offs.op_request - r->opw_off);
	v->rmw = win_u64(sb->win, r->offs.op_rmw - r->opw_off);
	v->deq = win_utime(sb->win, r->offs.op_dequeued - r->opw_off);
	if (!v->msg)
		return -1;
	if (client && !r->cmsgw_len) {
		v->type = MSG_OSD_OP;
		v->recv = utime_ns(read_u64((void *)(v->msg + r->offs.msg_recv)));
		return v->recv ? 0 : -1;
	}
	if (client) {
		len = r->cmsgw_len;
		off = r->cmsgw_off;
		if (len > SCRATCH_BYTES ||
		    bpf_probe_read_user(sb->b, len, (void *)(v->msg + off)))
			return -1;
		v->type = MSG_OSD_OP;
		v->ops = sbuf_u64(sb->b, r->offs.mosdop_ops - off);
		v->ops_end = sbuf_u64(sb->b, r->offs.mosdop_ops + 8 - off);
		v->recv = utime_ns(sbuf_u64(sb->b, r->offs.msg_recv - off));
		return v->recv ? 0 : -1;
	}
	len = r->msgw_len;
	off = r->msgw_off;
	if (len > READ_WINDOW_MAX ||
	    bpf_probe_read_user(sb->win, len, (void *)(v->msg + off)))
		return -1;
	v->type = (__u16)win_u64(sb->win, r->offs.msg_type - off);
	v->recv = win_utime(sb->win, r->offs.msg_recv - off);
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

#endif /* OSDHIST_VIEW_BPF_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Entry uprobes on ceph-osd.  They only fill maps: no printing, no policy,
 * no per-event output.  See maps/osdhist.h for how an op is followed.
 */
#include "base.bpf.h"
#include "view.bpf.h"
#include "marks.bpf.h"
#include "record.bpf.h"
#include "opscan.bpf.h"
#include "slowops.bpf.h"
#include "procwatch.bpf.h"

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

	/* a client op's: its recv_stamp, and with op types its op vector's
	 * address (view_op) */
	if (view_op(r, op, &v, sb, !subop))
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
	note_op(sb, key.tgid, cls, optype);
	if (!subop)
		slow_prepare(r, sb);
	record_op(&v, st, sb);
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
	struct scratch_buf *sb = take_scratch();
	__u32 ri = row_index(ctx);	/* once: it is a helper call */
	int ret;

	if (!sb)
		return count(H_READ_FAIL);
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
	struct scratch_buf *sb;
	int ret;

	if (!rm || !(sb = take_scratch()))
		return count(H_READ_FAIL);
	ret = success_end(ri, read_u64((void *)(rm + rows[ri].offs.repmod_op)), true, sb);
	drop_scratch(sb);
	return ret;
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
	struct scratch_buf *sb;
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
	sb = take_scratch();
	if (view_op(r, key.op, &v, sb, false))
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
		if (op_types && v.type == MSG_OSD_OP) {
			view_ops(r, &v);
			/* a PG op is not a failure: Ceph never counts it */
			optype = scan_ops(r, key.tgid, &v, cls == CLASS_ERROR, sb);
		}
		sb->cand.row = ri;
		note_op(sb, key.tgid, cls, optype);
		slow_prepare(r, sb);
		record_op(&v, st, sb);
		if (v.type == MSG_OSD_OP)
			slow_check(sb, &v);
		count(H_ERROR_END);
	}
	drop_scratch(sb);
	if (st && bpf_map_delete_elem(&inflight, &key) == 0)
		count(H_REMOVED);
	return 0;
}

/*
 * -P only.  OSD::enqueue_op(spg_t pgid, OpRequestRef&& op,
 * unsigned owner_cost): every op the OSD accepted is queued here once.  The
 * rvalue reference arrives as a pointer to the intrusive_ptr; spg_t (24
 * bytes, trivially copyable), pgid.m_pool first, is on the stack on x86-64
 * and behind a pointer on arm64: ENQ_OPREF and ENQ_SPG (arch.bpf.h).
 */
SEC("uprobe")
int BPF_KPROBE(op_enqueue)
{
	void **opref = ENQ_OPREF(ctx);
	struct binary_row *r = row(ctx);
	struct op_key key = { .tgid = tgid(), .op = read_u64(opref) };
	struct op_state st = { .pool = -1 };
	struct scratch_buf *sb = take_scratch();
	struct op_view v;
	int bad = view_op(r, key.op, &v, sb, false);

	drop_scratch(sb);
	if (bad)
		return count(H_READ_FAIL);
	if (!followed(v.type) || v.recv < r->open_rt || v.recv >= r->close_rt)
		return 0;	/* counted at its end */
	if (split_pool)
		st.pool = (__s64)read_u64((void *)(ENQ_SPG(ctx) + r->offs.sp_spg));
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
	void *opref = (void *)read_u64((void *)(STACK_ARGS(ctx) + r->offs.sp_submit_op));
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

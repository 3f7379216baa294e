// SPDX-License-Identifier: GPL-2.0
/*
 * Entry uprobes on ceph-osd.  They only fill maps: no printing, no policy,
 * no per-event output.  See maps/osdhist.h for how an op is followed.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "osdhist.h"

/* Set by the loader, after load and before the first probe is attached, from
 * its table of verified offsets for the binary's build-id (loader/binary.c).
 * Not rodata: the programs load before any ceph-osd is known. */
__u32 off_op_request = 0;	/* OpRequest::request (Message*) */
__u32 off_op_rmw = 0;		/* OpRequest -> OpInfo::rmw_flags */
__u32 off_msg_type = 0;		/* Message::header.type (u16) */
__u32 off_msg_recv = 0;		/* Message::recv_stamp (utime_t) */
__u32 off_op_dequeued = 0;	/* OpRequest::dequeued_time (utime_t) */
__u32 off_repmod_op = 0;	/* ReplicatedBackend::RepModify::op */
__u32 sp_spg = 0;		/* enqueue_op's spg_t, from the entry %rsp */
__u32 sp_submit_op = 0;		/* submit_transaction's OpRequestRef, likewise */
/* CLOCK_TAI - CLOCK_REALTIME in ns (whole seconds), kept current by the
 * loader: BPF reads TAI, Ceph stamps ops with REALTIME. */
__s64 tai_offset_ns = 0;
/* CLOCK_REALTIME ns when the traced time last began: an op received before
 * it that ends without an entry started outside the traced time. */
__u64 window_open_rt = 0;
/* Sampling gate: ops enqueued while it is shut (a window being opened or
 * drained) get an entry marked outside, so their end is told apart without
 * any race on the window's edges.  Always open without --sample. */
__u32 gate_open = 0;

const volatile bool split_pool = false;
const volatile bool trace_subops = true;
const volatile bool phases = false;

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, INFLIGHT_ENTRIES);
	__type(key, struct op_key);
	__type(value, struct op_state);
} inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, HISTS_ENTRIES_MAX);	/* lowered by the loader */
	__type(key, struct hist_key);
	__type(value, struct hist);
} hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_HEALTH);
	__type(key, __u32);
	__type(value, __u64);
} health SEC(".maps");

/* A zeroed struct hist to create new keys from: it is too big for the stack. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hist);
} zero_hist SEC(".maps");

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

static __always_inline __u64 read_u64(const void *addr)
{
	__u64 v = 0;

	if (bpf_probe_read_user(&v, sizeof(v), addr))
		return 0;
	return v;
}

/* The op's Message* (OpRequest::request); 0 if unreadable. */
static __always_inline __u64 op_msg(__u64 op)
{
	return read_u64((void *)(op + off_op_request));
}

/* Message::header.type; 0 if unreadable. */
static __always_inline __u16 msg_type(__u64 msg)
{
	__u16 type = 0;

	if (!msg || bpf_probe_read_user(&type, sizeof(type),
					(void *)(msg + off_msg_type)))
		return 0;
	return type;
}

static __always_inline __u64 utime_ns(const void *addr)
{
	__u32 t[2] = { 0, 0 };	/* utime_t: seconds, nanoseconds */

	if (bpf_probe_read_user(t, sizeof(t), addr))
		return 0;
	return (__u64)t[0] * 1000000000ULL + t[1];
}

/* An op that ends without an entry: a loss, unless the messenger received it
 * before the start probe was attached (Message::recv_stamp). */
static __always_inline int count_miss(__u64 msg, __u32 loss)
{
	__u64 recv = msg ? utime_ns((void *)(msg + off_msg_recv)) : 0;

	return count(recv && recv < window_open_rt ? H_OUTSIDE : loss);
}

static __always_inline bool followed(__u16 type)
{
	return type == MSG_OSD_OP || (trace_subops && type == MSG_OSD_REPOP);
}

static __always_inline void record(__u32 pid, __u8 cls, __u8 phase,
				   __s64 pool, __u64 ns)
{
	struct hist_key key = { .tgid = pid, .cls = cls, .phase = phase,
				.pool = pool };
	struct hist *h = bpf_map_lookup_elem(&hists, &key);
	__u32 idx;

	if (!h) {
		__u32 z = 0;
		struct hist *zero = bpf_map_lookup_elem(&zero_hist, &z);

		if (!zero)
			return;
		bpf_map_update_elem(&hists, &key, zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &key);
		if (!h) {
			count(H_HIST_FAIL);
			return;
		}
	}
	idx = osdhist_bucket(ns);
	if (idx >= NR_BUCKETS)
		idx = NR_BUCKETS - 1;
	/* Per-CPU memory, but a uprobe program can be preempted by another
	 * OSD thread on the same CPU: keep the adds atomic. */
	__sync_fetch_and_add(&h->count, 1);
	__sync_fetch_and_add(&h->sum_ns, ns);
	__sync_fetch_and_add(&h->buckets[idx], 1);
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

/*
 * OSD::enqueue_op(spg_t pgid, OpRequestRef&& op, unsigned owner_cost):
 * every op the OSD accepted from the messenger is queued here once, client
 * ops and replica sub-ops alike.  The rvalue reference arrives as a pointer
 * to the intrusive_ptr; spg_t (24 bytes, trivially copyable) is on the stack,
 * pgid.m_pool first.
 */
SEC("uprobe")
int BPF_KPROBE(op_enqueue, void *osd, void **opref)
{
	__u64 op = read_u64(opref);
	__u16 type;
	struct op_key key = { .tgid = tgid(), .op = op };
	struct op_state st = {
		.start_ns = bpf_ktime_get_ns(),
		.start_rt = bpf_ktime_get_tai_ns() - tai_offset_ns,
		.pool = -1,
	};

	if (!op)
		return count(H_READ_FAIL);
	type = msg_type(op_msg(op));
	if (!type)
		return count(H_READ_FAIL);
	if (!followed(type))
		return count(H_IGNORED);
	st.kind = type;
	st.outside = !gate_open;
	if (split_pool)
		st.pool = (__s64)read_u64((void *)(PT_REGS_SP(ctx) + sp_spg));
	if (bpf_map_update_elem(&inflight, &key, &st, BPF_ANY))
		return st.outside ? 0 : count(H_INSERT_FAIL);
	return st.outside ? 0 : count(H_STARTED);
}

/* Queue time without a probe on dequeue_op: OSD::dequeue_op stamps the op
 * with CLOCK_REALTIME in OpRequest::dequeued_time; 0 if never dequeued. */
static __always_inline __u64 queue_ns(__u64 op, struct op_state *st, __u64 total)
{
	__u64 deq;

	if (phases)
		return st->dequeue_ns ? st->dequeue_ns - st->start_ns : total;
	deq = utime_ns((void *)(op + off_op_dequeued));
	if (!deq)
		return total;		/* ended without leaving the queue */
	if (deq <= st->start_rt)
		return 0;
	deq -= st->start_rt;
	return deq < total ? deq : total;
}

/* Every phase of an op that ends now, all with the same count. */
static __always_inline void record_op(__u32 pid, __u8 cls, __u64 op,
				      struct op_state *st, __u64 now)
{
	__u64 total = now - st->start_ns;

	record(pid, cls, PHASE_TOTAL, st->pool, total);
	record(pid, cls, PHASE_QUEUE, st->pool, queue_ns(op, st, total));
	if (!phases)
		return;
	if (st->dequeue_ns)
		record(pid, cls, PHASE_EXECUTE, st->pool,
		       (st->submit_ns ? st->submit_ns : now) - st->dequeue_ns);
	if (st->submit_ns)
		record(pid, cls, PHASE_COMMIT, st->pool, now - st->submit_ns);
}

/* The end where Ceph counts the op: record it and mark the entry done (it is
 * deleted at unregister, which every op reaches). */
static __always_inline int success_end(__u64 op, bool subop)
{
	struct op_key key = { .tgid = tgid(), .op = op };
	struct op_state *st = bpf_map_lookup_elem(&inflight, &key);
	__u64 now = bpf_ktime_get_ns();

	if (!st)
		return count_miss(op_msg(op), H_DONE_MISS);
	if (st->done)
		return count(H_DONE_MISS);
	st->done = 1;
	if (!st->outside)
		record_op(key.tgid, subop ? CLASS_SUBOP :
			  classify(read_u64((void *)(op + off_op_rmw))), op, st, now);
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
	return success_end((__u64)op, false);
}

/*
 * ReplicatedBackend::repop_commit(RepModifyRef rm): a replica sub-op has
 * committed and its reply goes out; Ceph counts subop_w here.  The
 * shared_ptr is passed by invisible reference; RepModify::op comes first.
 */
SEC("uprobe")
int BPF_KPROBE(subop_done, void *backend, void **rmref)
{
	__u64 rm = read_u64(rmref);

	if (!rm)
		return count(H_READ_FAIL);
	return success_end(read_u64((void *)(rm + off_repmod_op)), true);
}

/*
 * OpTracker::unregister_inflight_op(TrackedOp* op), the copy inside
 * ceph-osd: TrackedOp::put() calls it when the last reference to a live op
 * goes, whatever path the op took.  An entry not marked done here ended
 * without reaching log_op_stats: an error reply, an early reject, a dup
 * answered from the pg log, a discarded op, a PG op.
 */
SEC("uprobe")
int BPF_KPROBE(op_unregister, void *tracker, void *op)
{
	struct op_key key = { .tgid = tgid(), .op = (__u64)op };
	struct op_state *st;
	__u8 cls;

	st = bpf_map_lookup_elem(&inflight, &key);
	if (!st) {
		/* Only a loss if it is a kind of op we follow. */
		__u64 msg = op_msg(key.op);

		if (followed(msg_type(msg)))
			count_miss(msg, H_END_MISS);
		return 0;
	}
	if (st->outside) {
		bpf_map_delete_elem(&inflight, &key);
		return count(H_OUTSIDE);
	}
	if (!st->done) {
		if (st->kind == MSG_OSD_REPOP)
			cls = CLASS_ERROR;	/* a sub-op that never committed */
		else if (read_u64(op + off_op_rmw) & RMW_PGOP)
			cls = CLASS_PG;
		else
			cls = CLASS_ERROR;
		record_op(key.tgid, cls, key.op, st, bpf_ktime_get_ns());
	}
	bpf_map_delete_elem(&inflight, &key);
	return count(H_ENDED);
}

/*
 * --phases only.  OSD::dequeue_op(PGRef pg, OpRequestRef op, TPHandle&): the
 * op leaves the shard queue (again, if it was requeued).  Both smart
 * pointers are non-trivial, so each arrives as a pointer to it.
 */
SEC("uprobe")
int BPF_KPROBE(op_dequeue, void *osd, void **pgref, void **opref)
{
	struct op_key key = { .tgid = tgid(), .op = read_u64(opref) };
	struct op_state *st = bpf_map_lookup_elem(&inflight, &key);

	if (st)
		st->dequeue_ns = bpf_ktime_get_ns();
	return 0;
}

/*
 * --phases only.  {Replicated,EC}Backend::submit_transaction(..., osd_reqid_t,
 * OpRequestRef op): a write's transaction goes to the object store and the
 * replicas.  op is the last of twelve arguments: a pointer to the
 * intrusive_ptr, on the stack.
 */
SEC("uprobe")
int BPF_KPROBE(op_submit)
{
	void *opref = (void *)read_u64((void *)(PT_REGS_SP(ctx) + sp_submit_op));
	struct op_key key = { .tgid = tgid(), .op = read_u64(opref) };
	struct op_state *st = bpf_map_lookup_elem(&inflight, &key);

	if (st)
		st->submit_ns = bpf_ktime_get_ns();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

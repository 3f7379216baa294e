/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osdhist: the one contract between the BPF programs (bpf/) and the loader
 * (loader/).  Every key, value, class, phase, health counter, map size and
 * the bucket math live here and nowhere else.
 *
 * How an op is followed (Ceph 16.2.x, PrimaryLogPG), three uprobe hits per
 * normal client op in the default mode:
 *
 *   OSD::enqueue_op            start: insert {tgid, OpRequest*} in inflight
 *   PrimaryLogPG::log_op_stats success: the only place Ceph's op_r/op_w/op_rw
 *                              are counted; we classify by the same rmw flags
 *                              and record the latency; the entry is marked
 *                              done, not deleted
 *   OpTracker::unregister_inflight_op
 *                              every tracked op passes here exactly once, on
 *                              every path (errors, rejects, dups, discards);
 *                              an entry not marked done is an op that ended
 *                              without Ceph counting it: class "error".  The
 *                              entry is deleted here, so nothing leaks.
 *   ReplicatedBackend::repop_commit
 *                              the end of a replica sub-op, where Ceph
 *                              counts subop_w (only ops of that kind hit it)
 *
 * --phases adds OSD::dequeue_op and {Replicated,EC}Backend::submit_transaction:
 * five hits for a write, four for a read.
 *
 * Classification reads OpInfo::rmw_flags at a build-specific offset inside
 * OpRequest; the loader verifies the offsets against the instruction bytes
 * of the running binary before it loads (see loader/binary.c).
 */
#ifndef OSDHIST_H
#define OSDHIST_H

/* Op classes.  READ/WRITE/RW are exactly Ceph's op_r/op_w/op_rw. */
enum op_class {
	CLASS_READ,	/* may_read && !may_write */
	CLASS_WRITE,	/* may_write || may_cache, not may_read */
	CLASS_RW,	/* may_read && may_write */
	CLASS_ERROR,	/* client op that ended without reaching log_op_stats */
	CLASS_PG,	/* PG op (pgnls from `rados ls`), never in log_op_stats */
	CLASS_SUBOP,	/* replica sub-op (MOSDRepOp) on the replica OSD */
	NR_CLASSES,
};

/*
 * Phases.  total and queue cost no extra probe: queue ends at the
 * OpRequest::dequeued_time stamp that OSD::dequeue_op writes.  execute and
 * commit need --phases (dequeue_op and submit_transaction probes).
 */
enum op_phase {
	PHASE_TOTAL,	/* enqueue_op -> end of op */
	PHASE_QUEUE,	/* enqueue_op -> dequeue_op (the last one, if requeued) */
	PHASE_EXECUTE,	/* dequeue_op -> transaction submitted (writes) or end */
	PHASE_COMMIT,	/* transaction submitted -> end (commit on all replicas) */
	NR_PHASES,
};

/* Per-CPU counters about the tracer itself, summed by the loader. */
enum health {
	H_STARTED,	/* ops inserted into inflight */
	H_INSERT_FAIL,	/* insert into inflight failed: op not followed */
	H_DONE_MISS,	/* log_op_stats for an op started in traced time but
			 * not found: evicted from the LRU, or its insert failed */
	H_END_MISS,	/* the same at unregister */
	H_ENDED,	/* entries deleted at unregister */
	H_HIST_FAIL,	/* histogram key could not be created (map full) */
	H_READ_FAIL,	/* a user memory read failed: op not followed */
	H_IGNORED,	/* messages of kinds we do not follow (not a loss) */
	H_OUTSIDE,	/* started outside the traced time: ended with no entry
			 * but received before the window opened (before
			 * osdhist, or between sampling windows), or enqueued
			 * while the window was shut; not a loss */
	NR_HEALTH,
};

/* Ceph message types we follow (src/msg/Message.h). */
#define MSG_OSD_OP		42	/* MOSDOp: client op */
#define MSG_OSD_REPOP		112	/* MOSDRepOp: replica sub-op */

/* OpInfo rmw flags (src/osd/OpInfo.h, CEPH_OSD_RMW_FLAG_*). */
#define RMW_READ		0x02
#define RMW_WRITE		0x04
#define RMW_CLASS_READ		0x08
#define RMW_CLASS_WRITE		0x10
#define RMW_PGOP		0x20
#define RMW_CACHE		0x40

/* Map sizes.  INFLIGHT holds ops in flight on all OSDs of the host; a
 * saturated OSD has a few hundred.  HISTS is a ceiling: the loader lowers it
 * at load time so that the per-CPU copies stay within HIST_MEM_BUDGET. */
#define INFLIGHT_ENTRIES	16384
#define HISTS_ENTRIES_MAX	1024
#define HISTS_ENTRIES_MIN	64
#define HIST_MEM_BUDGET		(12u << 20)

/*
 * Log-linear buckets on nanoseconds: 8 sub-buckets per power of two, so a
 * bucket is at most 1/8 = 12.5 % of its lower bound wide.  Bucket 0 holds
 * everything below 2^HIST_MIN_SHIFT ns, the last one everything from
 * 2^HIST_MAX_SHIFT ns (137 s) up.
 */
#define HIST_SUB_BITS	3
#define HIST_SUB	(1u << HIST_SUB_BITS)
#define HIST_MIN_SHIFT	8
#define HIST_MAX_SHIFT	37
#define NR_BUCKETS	(2 + (HIST_MAX_SHIFT - HIST_MIN_SHIFT) * HIST_SUB)

struct op_key {
	__u32 tgid;
	__u32 pad;
	__u64 op;		/* OpRequest*: stable for the op's life */
};

struct op_state {
	__u64 start_ns;		/* bpf_ktime_get_ns() at enqueue_op */
	__u64 start_rt;		/* the same instant in CLOCK_REALTIME ns, the
				 * clock of Ceph's dequeued_time stamp */
	__u64 dequeue_ns;	/* --phases: last dequeue_op */
	__u64 submit_ns;	/* --phases: submit_transaction */
	__s64 pool;		/* from spg_t, -1 unless pool split is on */
	__u8 kind;		/* MSG_OSD_OP or MSG_OSD_REPOP */
	__u8 done;		/* log_op_stats has recorded it */
	__u8 outside;		/* enqueued while the sampling gate was shut:
				 * kept only to be told apart at its end */
	__u8 pad[5];
};

struct hist_key {
	__u32 tgid;		/* the loader maps tgid -> OSD id */
	__u8 cls;		/* enum op_class */
	__u8 phase;		/* enum op_phase */
	__u16 pad;
	__s64 pool;		/* -1 unless pool split is on */
};

struct hist {
	__u64 count;
	__u64 sum_ns;
	__u64 buckets[NR_BUCKETS];
};

/*
 * Offsets inside Ceph's objects and stack frames that the BPF programs read.
 * One row per attached ceph-osd binary (the uprobe's BPF cookie is the row
 * index), every field derived by loader/derive.c from that binary's own
 * machine code, each from at least two witnesses that agree.
 */
#define MAX_BINARIES	16

struct osd_offsets {
	__u32 op_request;	/* OpRequest::request (Message*) */
	__u32 op_rmw;		/* OpRequest::op_info.rmw_flags (u64) */
	__u32 op_dequeued;	/* OpRequest::dequeued_time (utime_t) */
	__u32 msg_type;		/* Message::header.type (u16) */
	__u32 msg_recv;		/* Message::recv_stamp (utime_t) */
	__u32 repmod_op;	/* ReplicatedBackend::RepModify::op (OpRequestRef) */
	__u32 sp_spg;		/* OSD::enqueue_op's spg_t: entry %rsp + this */
	__u32 sp_submit_op;	/* submit_transaction's OpRequestRef*: likewise */
	__u32 mosdop_ops;	/* MOSDOp::ops (std::vector<OSDOp>); 0: unknown */
	__u32 osdop_size;	/* sizeof(OSDOp), the vector's stride; 0: unknown */
	__u32 osdop_rval;	/* OSDOp::rval (s32); 0: unknown */
	__u32 pad;
};

/* floor(log2(v)) for v > 0, with shifts only (the verifier wants no loops). */
static inline __u32 osdhist_log2(__u64 v)
{
	__u32 r = 0, s;

	s = (v > 0xffffffffULL) << 5; v >>= s; r |= s;
	s = (v > 0xffffULL) << 4; v >>= s; r |= s;
	s = (v > 0xffULL) << 3; v >>= s; r |= s;
	s = (v > 0xfULL) << 2; v >>= s; r |= s;
	s = (v > 0x3ULL) << 1; v >>= s; r |= s;
	return r | (__u32)(v >> 1);
}

static inline __u32 osdhist_bucket(__u64 ns)
{
	__u32 k;

	if (ns < (1ULL << HIST_MIN_SHIFT))
		return 0;
	if (ns >= (1ULL << HIST_MAX_SHIFT))
		return NR_BUCKETS - 1;
	k = osdhist_log2(ns);
	return 1 + (k - HIST_MIN_SHIFT) * HIST_SUB +
	       (__u32)((ns >> (k - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

/* Lowest value that falls in bucket idx. */
static inline __u64 osdhist_bucket_lower(__u32 idx)
{
	__u32 k, j;

	if (idx == 0)
		return 0;
	if (idx >= NR_BUCKETS - 1)
		return 1ULL << HIST_MAX_SHIFT;
	k = HIST_MIN_SHIFT + (idx - 1) / HIST_SUB;
	j = (idx - 1) % HIST_SUB;
	return (1ULL << k) + ((__u64)j << (k - HIST_SUB_BITS));
}

/* First value above bucket idx (exclusive bound); ~0 for the last bucket. */
static inline __u64 osdhist_bucket_upper(__u32 idx)
{
	if (idx >= NR_BUCKETS - 1)
		return ~0ULL;
	return osdhist_bucket_lower(idx + 1);
}

#endif /* OSDHIST_H */

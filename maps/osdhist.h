/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osdhist: the one contract between the BPF programs (bpf/) and the loader
 * (loader/).  Every key, value, class, phase, health counter, map size, the
 * per-binary offsets and the bucket math live here and nowhere else.
 *
 * How an op is followed, two uprobe hits per client op in the default mode,
 * both at its end (Ceph stamps the op's start itself: Message::recv_stamp):
 *
 *   PrimaryLogPG::log_op_stats  success: the only place Ceph counts op_r,
 *                               op_w, op_rw; classified by the same rmw
 *                               flags, latency = now - recv_stamp as Ceph
 *                               computes it; a done mark {tgid, op} is left
 *                               in the in-flight map
 *   ReplicatedBackend::repop_commit
 *                               the same for a replica sub-op (subop_w)
 *   OpRequest::_unregistered    every OpRequest passes here once, from
 *                               TrackedOp::put(), with the op tracker on or
 *                               off: an op with a done mark is finished (the
 *                               mark is deleted); a client op without one
 *                               ended without Ceph counting it: class error
 *                               (or pg), with its latency
 *
 * So done marks only exist for ops between their success end and their last
 * reference (microseconds, or as long as Ceph's op history holds the op):
 * error floods never touch them.  They go to a table in .bss (struct
 * mark_set), which costs one cache line and no lock at each end; a set
 * whose ways are all taken spills into the in-flight LRU map.  -P and
 * --phases add OSD::enqueue_op (the pool, and an in-flight entry per op, in
 * the LRU map), --phases also OSD::dequeue_op and the backends'
 * submit_transaction.
 */
#ifndef OSDHIST_H
#define OSDHIST_H

#include "osdhist_ops.h"

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
 * Phases.  total and queue cost no extra probe: both are read at the end
 * from Ceph's own stamps (recv_stamp, and the dequeued_time that
 * OSD::dequeue_op writes).  execute and commit need --phases.
 */
enum op_phase {
	PHASE_TOTAL,	/* Message::recv_stamp -> end of op (Ceph's op latency) */
	PHASE_QUEUE,	/* recv_stamp -> OpRequest::dequeued_time (last dequeue) */
	PHASE_EXECUTE,	/* dequeued_time -> transaction submitted (writes) or end */
	PHASE_COMMIT,	/* transaction submitted -> end (commit on all replicas) */
	NR_PHASES,
};

/*
 * Per-CPU counters about the tracer itself, summed by the loader.  One list,
 * X(name, json_name, is_loss): the enum, the renderers' names and the loss
 * rule all come from it.
 */
#define OSDHIST_HEALTH(X)						\
	/* success ends recorded (log_op_stats, repop_commit) */	\
	X(H_DONE, "done", 0)						\
	/* ops recorded at their last reference (_unregistered) with no	\
	 * success end: class error, or pg */				\
	X(H_ERROR_END, "error_ends", 0)					\
	/* entries put in the in-flight map (done marks; with -P or	\
	 * --phases, one per op at enqueue_op).  Without them bpf/	\
	 * leaves it to the loader: done - done_twice */		\
	X(H_ENTRIES, "entries", 0)					\
	/* entries removed at their op's last reference */		\
	X(H_REMOVED, "removed", 0)					\
	/* an entry could not be stored: the op's end is recorded, but	\
	 * it may be counted again as an error, or lack pool/phases */	\
	X(H_INSERT_FAIL, "insert_failed", 1)				\
	/* a second success end for an op already marked done */	\
	X(H_DONE_TWICE, "done_twice", 1)				\
	/* histogram key could not be created (map full) */		\
	X(H_HIST_FAIL, "hist_full", 1)					\
	/* a user memory read failed: op not recorded */		\
	X(H_READ_FAIL, "read_failed", 1)				\
	/* messages of kinds not followed (replica replies, ...) */	\
	X(H_IGNORED, "ignored_msgs", 0)					\
	/* received outside the traced time (before osdhist, or between	\
	 * --sample windows): not recorded, not a loss */		\
	X(H_OUTSIDE, "outside", 0)					\
	/* --sample: received in the previous window, ended after its	\
	 * probes were gone: its success end may have been missed */	\
	X(H_LATE, "late", 1)						\
	/* client messages with more than OSDHIST_OPS_MAX ops: the op is	\
	 * recorded, its ops past that are not counted by code */	\
	X(H_OPS_CUT, "ops_cut", 0)					\
	/* client messages whose ops could not be read (a read failed,	\
	 * or every scratch buffer of the CPU was in use): recorded with	\
	 * op type "none", their ops not counted by code */		\
	X(H_OPS_UNSEEN, "ops_unseen", 0)				\
	/* done marks put in the in-flight LRU map because their set of	\
	 * the mark table was full: not a loss (the LRU may evict them:	\
	 * counted as evicted) */					\
	X(H_SPILLED, "marks_spilled", 0)					\
	/* slowest ops: a candidate found its OSD's slots being written	\
	 * by another CPU, or the slots map full: counted in the	\
	 * histograms, maybe missing from the slowest ops */		\
	X(H_SLOW_BUSY, "slow_busy", 0)					\
	/* slowest ops: a candidate that ended as the loader closed the	\
	 * interval, not in its slowest ops */				\
	X(H_SLOW_LATE, "slow_late", 0)					\
	/* ops whose histograms went (partly) to the shared tail: their	\
	 * key had no front row (per-CPU) yet, or none was free */	\
	X(H_TAIL, "tail_ops", 0)					\
	/* client messages whose op codes were counted in the tail */	\
	X(H_TAIL_OPC, "tail_opcounts", 0)

#define OSDHIST_ENUM(id, name, loss) id,
enum health { OSDHIST_HEALTH(OSDHIST_ENUM) NR_HEALTH };
#undef OSDHIST_ENUM

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

/*
 * Map sizes.  INFLIGHT holds ops in flight on all OSDs of the host; a
 * saturated OSD has a few hundred.
 *
 * Histograms and op-code counters have a front and a tail.  The front is
 * per-CPU rows (PERCPU_ARRAY) for the hot keys: an op adds to its CPU's
 * copy, memory no other CPU writes, so no cache line moves between CPUs.
 * The loader picks the keys (the front table below: key -> row), from the
 * tail's busiest ones at each snapshot, and frees a row only once the
 * process of its key has exited (no program can then be writing it): it
 * reads the row a last time, then zeroes it.  Every other key is in the
 * tail, hash maps shared by all CPUs (atomic adds), keys allocated when
 * first used, so they cost what is in use whatever the CPU count; their
 * size is a ceiling.  A key may have counts in both: the loader adds them.
 * A front row costs its value once per possible CPU, copied at every
 * snapshot, so the loader sizes the fronts at load time to FRONT_BYTES
 * and OPC_FRONT_BYTES (FRONT_ROWS_MAX, OPC_ROWS_MAX rows at most): on a
 * host of 128 possible CPUs, 34 histogram keys (17 with --phases) and 24
 * OSD processes; the hottest keys get rows, and the health counters say
 * how many ops took the tail.  The model of
 * a large host: bench/mapmodel.py, printed by make bench.
 */
#define FRONT_ROWS_MAX		256
#define OPC_ROWS_MAX		64
#define FRONT_BYTES		(8u << 20)	/* the histograms' (both maps) */
#define OPC_FRONT_BYTES		(6u << 20)
#define INFLIGHT_ENTRIES	16384	/* the LRU map; the mark table: MARK_SETS */
#define HISTS_ENTRIES		8192
#define PHASE_HISTS_ENTRIES	8192
#define OPCOUNT_ENTRIES		64

/*
 * The front table (bpf/'s .bss, written by loader/front.c only): which key
 * has which front row.  FRONT_SETS sets of FRONT_WAYS words, a set one
 * cache line, the set chosen by a hash of the key.  A word is a key and
 * its row in 64 bits (0: a free way), stored and loaded whole, so that a
 * program never sees half of an entry the loader is writing.  A lookup is
 * one line read: a hash map's lookup (its hash, bucket and element lines)
 * cost an op 139 ns on this VM's uprobe path (bench/pair.sh), the two of
 * them most of the histogram and op-code stages.  A key that does not fit
 * a word (a pool id of 2^20 - 1 or more) or whose set is full stays in the
 * tail.  Layout: row (9 bits), tgid (22: pid_max is at most 2^22), class
 * (3; FRONT_CLS_OPC for a process's op-code counters), op type (8), pool
 * + 1 (20; 0: every pool).
 */
#define FRONT_WAYS		8
#define FRONT_SET_BITS		8
#define FRONT_SETS		(1 << FRONT_SET_BITS)	/* 2048 ways, 16 KiB */
#define FRONT_ROW_BITS		9
#define FRONT_ROW_MASK		((1ull << FRONT_ROW_BITS) - 1)
#define FRONT_NO_ROW		0xffffffffu
#define FRONT_CLS_OPC		7
#define FRONT_POOL_LIMIT	((1ll << 20) - 1)

struct front_set {
	__u64 way[FRONT_WAYS];
} __attribute__((aligned(64)));

/* A key's word without its row; 0 if it cannot have one. */
static inline __u64 osdhist_front_key(__u32 tgid, __u8 cls, __u8 optype, __s64 pool)
{
	if (!tgid || tgid >> 22 || cls > FRONT_CLS_OPC || pool < -1 ||
	    pool >= FRONT_POOL_LIMIT)
		return 0;
	return ((__u64)tgid << FRONT_ROW_BITS) | ((__u64)cls << 31) |
	       ((__u64)optype << 34) | ((__u64)(pool + 1) << 42);
}

static inline __u32 osdhist_front_set(__u64 key)
{
	return (__u32)((key * 0x9e3779b97f4a7c15ULL) >> (64 - FRONT_SET_BITS)) &
	       (FRONT_SETS - 1);
}
_Static_assert(FRONT_ROWS_MAX <= FRONT_ROW_MASK + 1 && OPC_ROWS_MAX <= FRONT_ROW_MASK + 1,
	       "front table: a row does not fit its bits");

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
_Static_assert(NR_CLASSES <= FRONT_CLS_OPC, "front table: a class takes the op codes' value");

struct op_key {
	__u32 tgid;
	__u32 pad;
	__u64 op;		/* OpRequest*: stable for the op's life */
};

/*
 * The done-mark table (bpf/'s .bss, read and reaped by loader/inflight.c):
 * MARK_SETS sets of MARK_WAYS marks, a set one cache line.  A mark is the
 * op's tag and its process: the tag alone is unique for ops of processes
 * whose tgids differ below 2^21 (user addresses are below 2^47, OpRequests
 * at least 16 bytes apart), the tgid makes it exact.  Order of the stores,
 * so that the loader never takes a live mark for a dead process's: a mark
 * is made by a cmpxchg of tag 0 -> tag, then tgid; it is removed by tgid
 * -> 0, then a cmpxchg of tag -> 0.
 */
#define MARK_WAYS	4
#define MARK_SET_BITS	12
#define MARK_SETS	(1 << MARK_SET_BITS)	/* 16384 marks, 256 KiB */
#define MARK_TGID_SHIFT	43

struct done_mark {
	__u64 tag;		/* (OpRequest* >> 4) | tgid << MARK_TGID_SHIFT; 0: free */
	__u32 tgid;		/* 0: being made or removed */
	__u32 pad;
};

struct mark_set {
	struct done_mark way[MARK_WAYS];
} __attribute__((aligned(64)));

/* An op's tag; 0 for an address above 47 bits (not x86-64 user space as
 * glibc and tcmalloc use it): bpf/ spills such marks. */
static inline __u64 osdhist_mark_tag(__u32 tgid, __u64 op)
{
	if (op >> 47)
		return 0;
	return (op >> 4) | ((__u64)tgid << MARK_TGID_SHIFT);
}

/* An in-flight LRU entry: a spilled done mark, or (-P, --phases) an op
 * followed from enqueue_op. */
struct op_state {
	__u64 submit_rt;	/* --phases: submit_transaction, CLOCK_REALTIME ns */
	__s64 pool;		/* -P: from enqueue_op's spg_t, else -1 */
	__u8 done;		/* a success end has recorded it */
	__u8 pad[7];
};

/*
 * A histogram key.  Without -P a client op updates one key, (osd, class, op
 * type, pool -1): the loader sums op types into the class series.  With -P
 * it updates two, (osd, class, OPTYPE_ALL, pool) and (osd, class, op type,
 * -1), so pools and op types add up instead of multiplying.  Sub-ops, and
 * client ops of a binary whose op vector osdhist cannot read, have
 * OPTYPE_ALL only.
 */
#define OPTYPE_ALL	0xff

struct hist_key {
	__u32 tgid;		/* the loader maps tgid -> OSD id */
	__u8 cls;		/* enum op_class */
	__u8 optype;		/* enum op_index (maps/osdhist_ops.h), OPTYPE_ALL */
	__u16 pad;
	__s64 pool;		/* -1: every pool (no -P) */
};

/* One phase of a key, as the loader folds it (from a struct hist_pair). */
struct hist {
	__u64 count;		/* the sum of the buckets: the maps keep none */
	__u64 sum_ns;
	__u64 buckets[NR_BUCKETS];
};

/* The value of both histogram maps, two phases of one key: hists holds
 * PHASE_TOTAL and PHASE_QUEUE (one lookup per op), phase_hists (--phases)
 * PHASE_EXECUTE and PHASE_COMMIT.  Phase p is index p & 1 of its map.
 * Both sums first: with the key, one cache line of the element, so an op
 * touches three of its lines (that one and a bucket of each phase), not
 * four.  No counts: the loader sums the buckets (struct hist's). */
struct hist_pair {
	__u64 sum_ns[2];
	__u64 buckets[2][NR_BUCKETS];
};

/*
 * A front row of the histograms (maps/osdhist.h: the front): struct
 * hist_pair with u32 buckets, half the bytes of every CPU's copy.  The
 * loader adds the CPUs' buckets mod 2^32 and accumulates the difference
 * from its last read, which is exact while no bucket of a row takes 2^32
 * ops between two snapshots (4 * 10^9: over an hour at a million ops a
 * second in one bucket of one key).
 */
struct front_pair {
	__u64 sum_ns[2];
	__u32 buckets[2][NR_BUCKETS];
};
_Static_assert(__builtin_offsetof(struct hist_pair, buckets) == 2 * 8 &&
	       sizeof(struct front_pair) == 2 * 8 + 2 * NR_BUCKETS * 4,
	       "front_pair: hist_pair's sums, then its buckets in u32");

/*
 * A call op (class method: rbd.get_size, lock.lock, ...) is counted under
 * its class.method, read from the start of the op's input as Ceph's own
 * operator<<(OSDOp) prints it.  Each OSD process numbers the names it
 * meets, in the calls map: the first CALLS_MAX distinct ones get op indices
 * OPI_CALL_FIRST.., the rest OPI_CALL_OTHER ("call other"), so neither a
 * workload nor a hostile client can grow the maps without bound.  A call
 * whose names cannot be read (none sent, not in the input's first buffer,
 * the binary's layout not derived) stays OPI_0x1401, "call".
 */
#define CALLS_MAX	64	/* names per OSD process */
#define CALL_NAME_BYTES	48	/* class + method bytes kept; longer ones
				 * are cut (the key keeps both lengths) */
#define OPI_CALL_FIRST	NR_OPCODES
#define OPI_CALL_OTHER	(OPI_CALL_FIRST + CALLS_MAX)
#define NR_OPTYPES	(OPI_CALL_OTHER + 1)

struct call_key {
	__u32 tgid;
	__u8 class_len, method_len;	/* as the op says: may exceed the bytes */
	__u16 pad;
	char name[CALL_NAME_BYTES];	/* class then method, zero-padded */
};

/* The calls map's value: the name's number in its process, < CALLS_MAX. */
#define CALLS_ENTRIES	(CALLS_MAX * OPCOUNT_ENTRIES)

/* Per OSD process (key: tgid), per op index: ops that ran, and ops that
 * failed: rval < 0, or any op of a message that ended without Ceph counting
 * it (class error: an error reply, often before any op ran). */
#define OPCOUNT_SLOTS	256	/* >= NR_OPTYPES, a power of two: BPF masks */

struct op_counts {
	__u64 ops[OPCOUNT_SLOTS];
	__u64 failed[OPCOUNT_SLOTS];
	__u64 calls_next;	/* call names numbered so far (may pass CALLS_MAX) */
};
_Static_assert(NR_OPTYPES <= OPCOUNT_SLOTS, "op_counts: too many op types");

/* The op-code counters' front row: u32, read as struct front_pair's. */
struct front_opc {
	__u32 ops[OPCOUNT_SLOTS];
	__u32 failed[OPCOUNT_SLOTS];
};
_Static_assert(NR_OPTYPES < OPTYPE_ALL, "op types: OPTYPE_ALL taken");

/*
 * The slowest client ops of each interval, per OSD process, with their
 * object, PG, client and first op types: at most slow_k (--slowest) of
 * them, in the slowops map (key: tgid).  Nothing is cleared: the loader
 * advances slow_gen (bpf/'s .bss) at each interval, bpf/ writes set
 * slow_gen & 1 and starts it afresh when its gen is older, and the loader
 * reads the other set, the interval just closed.  A set is written under
 * lockseq (bit 0: taken); a writer that finds slow_gen moved once it holds
 * the set writes nothing (slow_late), so once the loader has moved it and
 * then sees bit 0 clear, the closed set no longer changes.
 *
 * An op pays a per-CPU filter first (slowfilt): the fastest slot's latency
 * of its OSD when that CPU last looked, which only grows within an
 * interval, so an op at or below it cannot enter the slots.
 */
#define SLOW_K_MAX	64
#define SLOW_K_DEFAULT	10
#define SLOW_NAME_BYTES	64	/* of the object name; name_len is the whole */
#define SLOW_LOC_BYTES	32	/* of its namespace and its locator key, each */
#define SLOW_OPS	4	/* op types of the message's first ops */
#define SLOW_FILTER_BITS 6

struct slowop {
	__u64 total_ns;		/* the latency the histogram got */
	__u64 queue_ns;
	__u64 end_rt;		/* CLOCK_REALTIME ns */
	/* OpRequest::reqid (osd_reqid_t) as read: the client's entity
	 * type (low byte; the rest is padding), its number, the op's tid,
	 * the client's incarnation (low 32 bits) */
	__u64 client[4];
	__s64 pool;		/* MOSDOp::pgid */
	__u32 pg_seed;
	__u32 name_len;		/* 0: not decoded yet (rejected early) */
	/* The rest of the object as Ceph prints it, from MOSDOp::hobj
	 * (hobject_t): its pool, snap, hash as printed (hash_reverse_bits),
	 * and the whole lengths of nspace and key, whose first
	 * SLOW_LOC_BYTES are kept. */
	__s64 obj_pool;
	__u64 snap;
	__u32 revhash;
	__u32 ns_len, key_len;
	__u8 cls;		/* enum op_class */
	__u8 optype;		/* the message's op index, as counted */
	__u8 nops;		/* ops read of the message (first SLOW_OPS in op) */
	__s8 shard;		/* MOSDOp::pgid.shard: an EC PG's shard; -1 none */
	__u8 op[SLOW_OPS];	/* op indices (maps/osdhist_ops.h, calls) */
	char name[SLOW_NAME_BYTES];
	char ns[SLOW_LOC_BYTES];
	char key[SLOW_LOC_BYTES];
};

struct slow_set {
	__u64 lockseq;
	__u32 gen;		/* the slow_gen it holds ops of */
	__u32 n;		/* slots in use, <= slow_k */
	__u64 min_ns;		/* n == slow_k: the fastest slot's total_ns */
	__u32 min_slot, pad;
	struct slowop slot[SLOW_K_MAX];
};

struct slow_sets {
	struct slow_set s[2];	/* by gen & 1 */
};

struct slow_filter {
	struct {
		__u32 tgid, gen;
		__u64 min_ns;	/* 0: every op is a candidate */
	} e[1 << SLOW_FILTER_BITS];	/* by a hash of the tgid */
};

#define SLOWOPS_ENTRIES		OPCOUNT_ENTRIES

/*
 * Offsets inside Ceph's objects and stack frames that the BPF programs read.
 * One row per attached ceph-osd binary (the uprobe's BPF cookie is the row
 * index), every field derived by loader/ceph/derive.c from that binary's own
 * machine code, each from at least two witnesses that agree.
 *
 * One row per offset, X(id, field, need); bpf/ uses only the field:
 *   id     the loader's name of it (enum osd_off, loader/ceph/derive.h)
 *   field  its member of struct osd_offsets (a __u32), the name --inspect
 *          -v prints and OSDHIST_TEST_OFFSETS takes; its witnesses are
 *          witnesses_FIELD() in loader/ceph/derive_witness.c
 *   need   what needs it (loader/ceph/cephfns.h's enum osd_feature, which bpf/
 *          never sees): FEAT_TRACE, a binary without it is refused; or the
 *          one feature refused without it
 */
#define MAX_BINARIES	16

/* spg_t is `pg_t pgid; shard_id_t shard;` (src/osd/osd_types.h, 16 to 20)
 * and pg_t is 16 bytes (u64 m_pool, u32 m_seed, padding): the shard, an
 * s8 (-1: NO_SHARD, a replicated pool), is 16 bytes into the spg_t. */
#define SPG_SHARD	16

#define OSDHIST_OFFSETS(X)						\
	/* OpRequest::request (Message*) */				\
	X(OFF_OP_REQUEST, op_request, FEAT_TRACE)			\
	/* OpRequest::op_info.rmw_flags (u64) */			\
	X(OFF_OP_RMW, op_rmw, FEAT_TRACE)				\
	/* OpRequest::dequeued_time (utime_t) */			\
	X(OFF_OP_DEQUEUED, op_dequeued, FEAT_TRACE)			\
	/* Message::header.type (u16) */				\
	X(OFF_MSG_TYPE, msg_type, FEAT_TRACE)				\
	/* Message::recv_stamp (utime_t) */				\
	X(OFF_MSG_RECV, msg_recv, FEAT_TRACE)				\
	/* ReplicatedBackend::RepModify::op (OpRequestRef) */		\
	X(OFF_REPMOD_OP, repmod_op, FEAT_TRACE)				\
	/* OSD::enqueue_op's spg_t: entry %rsp + this */		\
	X(OFF_SP_SPG, sp_spg, FEAT_POOL)				\
	/* submit_transaction's OpRequestRef*: likewise */		\
	X(OFF_SP_SUBMIT_OP, sp_submit_op, FEAT_PHASES)			\
	/* MOSDOp::ops (std::vector<OSDOp>); 0: unknown */		\
	X(OFF_MOSDOP_OPS, mosdop_ops, FEAT_OPTYPES)			\
	/* sizeof(OSDOp), the vector's stride; 0: unknown */		\
	X(OFF_OSDOP_SIZE, osdop_size, FEAT_OPTYPES)			\
	/* OSDOp::rval (s32); 0: unknown */				\
	X(OFF_OSDOP_RVAL, osdop_rval, FEAT_OPTYPES)			\
	/* A call op's class.method, the first bytes of its input:	\
	 * OSDOp::indata (buffer::list) */				\
	X(OFF_OSDOP_INDATA, osdop_indata, FEAT_CALLS)			\
	/* OSDOp::op.cls.class_len (u8; method_len is the next byte) */	\
	X(OFF_OSDOP_CLS, osdop_cls, FEAT_CALLS)				\
	/* list::_buffers' first ptr_node* (the list itself if empty) */	\
	X(OFF_BL_FIRST, bl_first, FEAT_CALLS)				\
	/* the buffer::ptr inside a ptr_node */				\
	X(OFF_NODE_PTR, node_ptr, FEAT_CALLS)				\
	/* ptr::_raw (buffer::raw*), _off and _len (u32) */		\
	X(OFF_PTR_RAW, ptr_raw, FEAT_CALLS)				\
	X(OFF_PTR_OFF, ptr_off, FEAT_CALLS)				\
	X(OFF_PTR_LEN, ptr_len, FEAT_CALLS)				\
	/* raw::data (char*) */						\
	X(OFF_RAW_DATA, raw_data, FEAT_CALLS)				\
	/* The slowest ops' names: OpRequest::reqid (osd_reqid_t: name	\
	 * type u8, num u64 at +8, tid u64 at +16) */			\
	X(OFF_OP_REQID, op_reqid, FEAT_SLOWOPS)				\
	/* MOSDOp::hobj.oid.name (std::string: data, length at +8) */	\
	X(OFF_MOSDOP_OID, mosdop_oid, FEAT_SLOWOPS)			\
	/* MOSDOp::pgid (spg_t: m_pool u64, m_seed u32 at +8,	\
	 * shard_id_t (s8) at +SPG_SHARD) */				\
	X(OFF_MOSDOP_PGID, mosdop_pgid, FEAT_SLOWOPS)			\
	/* The rest of the object as hobject_t's operator<< prints it,	\
	 * pool:hash:nspace:key:name:snap, relative to the hobject_t	\
	 * MOSDOp::hobj at mosdop_oid (its first member is oid.name):	\
	 * snap (u64), hash_reverse_bits (u32, the hash as printed),	\
	 * pool (s64), nspace and key (std::string) */			\
	X(OFF_HOBJ_SNAP, hobj_snap, FEAT_SLOWOPS)			\
	X(OFF_HOBJ_REVHASH, hobj_revhash, FEAT_SLOWOPS)			\
	X(OFF_HOBJ_POOL, hobj_pool, FEAT_SLOWOPS)			\
	X(OFF_HOBJ_NSPACE, hobj_nspace, FEAT_SLOWOPS)			\
	X(OFF_HOBJ_KEY, hobj_key, FEAT_SLOWOPS)

#define OSDHIST_OFF_FIELD(id, field, need) __u32 field;
struct osd_offsets {
	OSDHIST_OFFSETS(OSDHIST_OFF_FIELD)
	__u32 pad;
};
#undef OSDHIST_OFF_FIELD

/*
 * One row per attached binary, in bpf/'s .bss (the loader writes it in
 * place); the uprobes' BPF cookie is the row index.  Ops are recorded when
 * their recv_stamp (CLOCK_REALTIME) is in [open_rt, close_rt): the time the
 * binary's probes have all been in place, or a --sample window.
 */
#define READ_WINDOW_MAX	256
#define HOBJ_WINDOW	128	/* a power of 2: sizeof(hobject_t) in 16 to 20 */

/* Scratch buffers per CPU, too big for the BPF stack: a client message's
 * window, then its op vector (OSDHIST_OPS_MAX ops of up to OSDOP_STRIDE_MAX
 * bytes), each read at once. */
#define SCRATCH_SLOTS		2
#define SCRATCH_BYTES		4096
#define OSDOP_STRIDE_MAX	(SCRATCH_BYTES / OSDHIST_OPS_MAX)

struct binary_row {
	/* What every end reads is in the row's first two cache lines
	 * (rows are aligned to them): this line, and the offsets up to the
	 * op vector's; the call split's and the slowest ops' offsets, read
	 * by rarer paths, come after. */
	__u64 open_rt;
	__u64 close_rt;		/* ~0: open-ended */
	__u64 prev_open_rt;	/* --sample: the previous window, to tell */
	__u64 prev_close_rt;	/* its late ends apart */
	/* What an end reads of the op, in one read each: OpRequest bytes
	 * [opw_off, opw_off + opw_len) (request, op_info, dequeued_time) and
	 * Message bytes [msgw_off, msgw_off + msgw_len) (header, recv_stamp);
	 * at most READ_WINDOW_MAX each. */
	__u32 opw_off, opw_len;
	__u32 msgw_off, msgw_len;
	/* A client op's success end reads Message bytes [cmsgw_off,
	 * cmsgw_off + cmsgw_len) instead, into a scratch slot (at most
	 * SCRATCH_BYTES): recv_stamp and MOSDOp::ops (the type is known
	 * there).  cmsgw_len 0: the binary's op vector cannot be read
	 * (FEAT_OPTYPES refused), its ops have OPTYPE_ALL. */
	__u32 cmsgw_off, cmsgw_len;
	/* Count call ops by class.method (FEAT_CALLS derived, op types on);
	 * 0: they stay "call". */
	__u32 calls;
	/* Name the slowest ops (FEAT_SLOWOPS derived, --slowest not 0) */
	__u32 slow;
	struct osd_offsets offs;
	/* The slowest ops read MOSDOp::hobj's first hobjw_len bytes at
	 * once: every hobj_ field and oid.name's pointer and length (at most
	 * HOBJ_WINDOW). */
	__u32 hobjw_len;
} __attribute__((aligned(64)));

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

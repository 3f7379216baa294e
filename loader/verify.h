/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_VERIFY_H
#define OSDHIST_VERIFY_H

/*
 * The built-in oracle: osdhist's own per-OSD counts of read, write, rw and
 * subop ops against the OSD's cumulative op_r, op_w, op_rw and subop_w
 * (perf dump over the admin socket), since a baseline taken after attach.
 *
 * The rule.  Ceph's counters are read twice at every check, once before
 * osdhist reads its maps (c1) and once after (c2).  BPF counts an op at the
 * entry of PrimaryLogPG::log_op_stats (ReplicatedBackend::repop_commit for
 * sub-ops), before Ceph increments its counter in that same call, so over
 * the time between the baseline's map read and this check's map read,
 * Ceph counted at least  lo = c1 - base.c2  and at most  hi = c2 - base.c1
 * ops, and a correct tracer's count since the baseline, ours, lies in
 * [lo - VERIFY_SLACK, hi + VERIFY_SLACK].  The slack covers ops caught
 * inside log_op_stats at a read (at most one per OSD worker thread, 16 by
 * default) and ops that started before the probes went in and ended after
 * the baseline (Ceph counts them, osdhist does not follow them; the baseline
 * waits VERIFY_SETTLE_S after an OSD is first traced so that these have
 * ended).  None of these grows with time, so the bound is fixed: a correct
 * tracer stays inside it at every check however long it runs, while wrong
 * offsets (ops in the wrong class, or in none) move ours away from Ceph's in
 * proportion to the ops done.  A class outside the bound at VERIFY_PERSIST
 * consecutive checks is a mismatch; it is cleared when the class is inside
 * again at VERIFY_PERSIST consecutive checks.
 *
 * Never harm the OSD: read-only "perf dump" of one logger, one request at a
 * time, each bounded by VERIFY_TIMEOUT_MS (non-blocking socket and poll), at
 * most one check every VERIFY_PERIOD_S, and an OSD whose socket timed out
 * or answered garbage is left alone for VERIFY_BACKOFF_S.
 */
#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#define VERIFY_SLACK		16
#define VERIFY_PERSIST		2
#define VERIFY_PERIOD_S		1.0
#define VERIFY_TIMEOUT_MS	200
#define VERIFY_SETTLE_S		0.5
#define VERIFY_BACKOFF_S	10.0

/* The classes compared, and Ceph's counter for each. */
enum verify_class { VC_READ, VC_WRITE, VC_RW, VC_SUBOP, NR_VC };
extern const char *const verify_counter[NR_VC];	/* "op_r" ... */
extern const __u8 verify_op_class[NR_VC];		/* CLASS_READ ... */

enum verify_state { VERIFY_UNVERIFIED, VERIFY_VERIFIED, VERIFY_MISMATCH, NR_VERIFY_STATES };
extern const char *const verify_state_name[NR_VERIFY_STATES];

/* One class at one check. */
struct verify_reading {
	__u64 c1;	/* Ceph's counter before osdhist's maps were read */
	__u64 o;	/* osdhist's cumulative count */
	__u64 c2;	/* Ceph's counter after */
};

struct verify_judgement {
	__u64 ours;		/* osdhist's ops since the baseline */
	__s64 ceph_lo, ceph_hi;	/* Ceph's over the same time: at least, at most */
	__s64 excess;		/* ours beyond [lo - slack, hi + slack]; 0 inside */
};

/* The rule above: fills j; true if ours is within the bound. */
bool verify_judge(const struct verify_reading *base, const struct verify_reading *now,
		  __u64 slack, struct verify_judgement *j);

struct verify_class_report {
	bool compared;		/* false: not checked yet, or --no-subops */
	struct verify_judgement j;
	int outside;		/* consecutive checks outside the bound */
	int inside;		/* consecutive checks inside */
	bool mismatch;
};

/* One traced OSD's health as a verifier sees it, in every snapshot. */
struct verify_report {
	int osd;
	pid_t pid;
	enum verify_state state;
	char reason[160];	/* unverified: why ("timeout: ...") */
	char socket[256];	/* the admin socket used, "" if none */
	double since;		/* unix time of the baseline, 0 if none */
	__u64 checks;		/* comparisons made since the baseline */
	struct verify_class_report cls[NR_VC];
};

/* The state machine of one class across checks (apart for unit tests):
 * feeds one judgement, returns whether the class is now a mismatch. */
bool verify_step(struct verify_class_report *c, bool inside);

struct options;
struct proc_table;
struct report;
struct verifier;

/* NULL with --no-verify (or out of memory, said on stderr). */
struct verifier *verify_new(const struct options *o, const char *proc_root);
void verify_free(struct verifier *v);
/* Before the snapshot reads the maps: Ceph's first reading of each traced
 * OSD, if a check is due. */
void verify_begin(struct verifier *v, const struct proc_table *pt);
/* After: the second reading, the comparison with r's cumulative counts,
 * and r->verify / r->nverify set for the renderers. */
void verify_end(struct verifier *v, struct report *r);

#endif

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
 * Never harm the OSD: read-only "perf dump" of one logger, at most one
 * request to an OSD at a time, at most one round every VERIFY_PERIOD_S,
 * of VERIFY_ROUND_OSDS OSDs at most (those asked longest ago).
 *
 * Never be stalled by a process: anything named ceph-osd may
 * offer an admin socket, and answer slowly, never, or at length.  So:
 *  - The check is a non-blocking state machine that main's loop drives
 *    (verify_run, with its sockets in main's ppoll), not a thread: the
 *    rule above needs the map read between the two readings, and
 *    tracer_snapshot is not thread-safe; a state machine reads the maps
 *    from the loop like any snapshot, with nothing shared and no lock.
 *    A snapshot never waits for it: a snapshot due while a round is in
 *    flight is printed on time with the last finished judgements.
 *  - A round: connect and send to every OSD due, all at once; poll until
 *    all have answered or VERIFY_TIMEOUT_MS; read osdhist's maps (c1 all
 *    in before, so the rule holds); send the second requests; poll again,
 *    until VERIFY_TIMEOUT_MS or the round's budget VERIFY_ROUND_MS since it
 *    began; judge.  64 OSDs that answer after 190 ms cost one round ~0.4 s,
 *    in the background, not 64 x 2 x 0.19 s of blocked loop.
 *  - An answer is at most ASOK_MAX_REPLY (asok.h), sized from real ones;
 *    more is garbage.
 *  - Only OSDs osdhist traces are asked (main gives the targets: not a
 *    process whose binary was refused, nor one not traced at all).
 *  - After a failure (timeout, garbage, no socket found, permission) the
 *    OSD is left alone for verify_backoff(failures): VERIFY_BACKOFF_S,
 *    doubling at each failure in a row up to VERIFY_BACKOFF_MAX_S.  A
 *    socket once found is kept (an O_PATH descriptor) until it fails, so
 *    the search runs once per OSD, not at every check.
 * What a round still does inline, in the loop: asok_find() for an OSD
 * with no socket yet (reads of its /proc files and config, each capped,
 * asok_find.h), the parse of each answer (at most 64 KiB), and one map
 * read, as a snapshot does.
 */
#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#include "report/verify_report.h"

#define VERIFY_PERSIST		2
#define VERIFY_PERIOD_S		1.0
#define VERIFY_ROUND_OSDS	8	/* asked in a round, at most */
/* Each of a round's two legs; a whole round (both, and the map read).
 * tests/integration/test_verify.sh reads VERIFY_TIMEOUT_MS's line. */
#define VERIFY_TIMEOUT_MS	200
#define VERIFY_ROUND_MS		500
#define VERIFY_SETTLE_S		0.5
/* After a first failure; doubling at each one in a row, up to the max. */
#define VERIFY_BACKOFF_S	10.0
#define VERIFY_BACKOFF_MAX_S	320.0

/* One class at one check. */
struct verify_reading {
	__u64 c1;	/* Ceph's counter before osdhist's maps were read */
	__u64 o;	/* osdhist's cumulative count */
	__u64 c2;	/* Ceph's counter after */
};

/* The rule above: fills j; true if ours is within the bound. */
bool verify_judge(const struct verify_reading *base, const struct verify_reading *now,
		  __u64 slack, struct verify_judgement *j);

/* The state machine of one class across checks (apart for unit tests):
 * feeds one judgement, returns whether the class is now a mismatch. */
bool verify_step(struct verify_class_report *c, bool inside);

/* Seconds an OSD is left alone after its n-th failure in a row (n >= 1). */
double verify_backoff(int failures);

struct trace_config;
struct pollfd;
struct report;
struct verifier;

/* A process the check may ask: one osdhist traces. */
struct verify_target {
	pid_t pid;
	int osd;	/* OSD_UNKNOWN: no id on its command line */
};

/* NULL when out of memory (said on stderr). */
struct verifier *verify_new(const struct trace_config *o, const char *proc_root);
void verify_free(struct verifier *v);
/* The traced processes, after each rescan: new ones are added, gone ones
 * forgotten (a request to one in flight is dropped). */
void verify_set_targets(struct verifier *v, const struct verify_target *t, int n);
/* Reads osdhist's cumulative counts without advancing the snapshots
 * (tracer_snapshot(t, r, false)); 0, or a negative errno. */
typedef int (*verify_read_maps)(void *ctx, struct report *r);
/* Moves the round on as far as it can without waiting: starts one when
 * due, reads what the sockets have, reads the maps and judges when a leg
 * is over.  Returns the CLOCK_MONOTONIC time it wants to run again at the
 * latest; sooner if verify_pollfds' sockets are ready. */
double verify_run(struct verifier *v, verify_read_maps read_maps, void *ctx);
/* The sockets of the round in flight and what to poll them for; at most
 * max, returns how many. */
int verify_pollfds(const struct verifier *v, struct pollfd *p, int max);
/* r->verify / r->nverify: the last finished judgement of each OSD. */
void verify_report(struct verifier *v, struct report *r);

#endif

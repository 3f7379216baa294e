// SPDX-License-Identifier: GPL-2.0
/* osdhist's counts against each OSD's own perf counters (see verify.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include "ceph/asok.h"
#include "ceph/asok_find.h"
#include "util/escape.h"
#include "report/names.h"
#include "report/report.h"
#include "util/clock.h"
#include "trace_config.h"	/* MAX_PROCS */
#include "report/clusters.h"
#include "readers.h"
#include "verify.h"

bool verify_judge(const struct verify_reading *base, const struct verify_reading *now,
		  __u64 slack, struct verify_judgement *j)
{
	j->ours = now->o - base->o;
	j->ceph_lo = (__s64)(now->c1 - base->c2);	/* < 0 possible right after the baseline */
	j->ceph_hi = (__s64)(now->c2 - base->c1);
	if ((__s64)j->ours > j->ceph_hi + (__s64)slack)
		j->excess = (__s64)j->ours - (j->ceph_hi + (__s64)slack);
	else if ((__s64)j->ours < j->ceph_lo - (__s64)slack)
		j->excess = (__s64)j->ours - (j->ceph_lo - (__s64)slack);
	else
		j->excess = 0;
	return j->excess == 0;
}

bool verify_step(struct verify_class_report *c, bool inside)
{
	if (inside) {
		c->outside = 0;
		c->inside++;
		if (c->mismatch && c->inside >= VERIFY_PERSIST)
			c->mismatch = false;
	} else {
		c->inside = 0;
		c->outside++;
		if (c->outside >= VERIFY_PERSIST)
			c->mismatch = true;
	}
	return c->mismatch;
}

double verify_backoff(int failures)
{
	double d = VERIFY_BACKOFF_S;

	for (int i = 1; i < failures && d < VERIFY_BACKOFF_MAX_S; i++)
		d *= 2;
	return d < VERIFY_BACKOFF_MAX_S ? d : VERIFY_BACKOFF_MAX_S;
}

/* What the verifier keeps per traced process. */
struct vosd {
	struct verify_report rep;
	double seen;		/* CLOCK_MONOTONIC when first traced */
	double next_try;	/* backoff after a failure */
	int failures;		/* in a row */
	int sock;		/* O_PATH of its admin socket; -1: none found yet */
	struct job locate;	/* ... being looked for (readers.h) */
	bool has_base;
	bool in_round;		/* asked in the round in flight */
	double asked;		/* CLOCK_MONOTONIC of its last round; 0: none */
	struct asok_call call;	/* ... its request */
	struct ceph_osd_counts c1;
	__u64 o[NR_VC];		/* osdhist's counts at the round's map read */
	struct verify_reading base[NR_VC];
	bool present;
};

enum round_phase { ROUND_IDLE, ROUND_BEFORE, ROUND_AFTER };

/* How long a round waits for the admin socket searches it started, in all. */
#define LOCATE_WAIT_S	0.2

struct verifier {
	const struct trace_config *opt;
	const char *proc_root;
	double started, next_check;
	enum round_phase phase;
	double round_start, deadline;
	double map_time;	/* unix time of the round's map read */
	bool first;
	struct vosd osds[MAX_PROCS];
	int n;
	struct verify_report reports[MAX_PROCS];
};

struct verifier *verify_new(const struct trace_config *o, const char *proc_root)
{
	struct verifier *v;

	v = calloc(1, sizeof(*v));
	if (!v) {
		fprintf(stderr, "osdhist: out of memory for verification; running "
			"without it (as with --no-verify)\n");
		return NULL;
	}
	v->opt = o;
	v->proc_root = proc_root;
	v->started = mono_now();
	v->next_check = v->started + VERIFY_SETTLE_S;
	v->first = true;
	return v;
}

/* The OSD's name (report.h osd_label), for a line on stderr. */
static const char *name(const struct vosd *e)
{
	static char buf[OSD_LABEL_MAX];

	osd_label(buf, e->rep.osd);
	return buf;
}

static void drop_sock(struct vosd *e)
{
	if (e->sock >= 0)
		close(e->sock);
	e->sock = -1;
}

static void drop(struct vosd *e)
{
	job_cancel(&e->locate);
	if (e->in_round)
		asok_call_end(&e->call);
	e->in_round = false;
	drop_sock(e);
}

void verify_free(struct verifier *v)
{
	if (!v)
		return;
	for (int i = 0; i < v->n; i++)
		drop(&v->osds[i]);
	free(v);
}

static __u64 counter_of(const struct ceph_osd_counts *c, int k)
{
	switch (k) {
	case VC_READ: return c->op_r;
	case VC_WRITE: return c->op_w;
	case VC_RW: return c->op_rw;
	default: return c->subop_w;
	}
}

static void unverified(struct vosd *e, const char *fmt, const char *a, const char *b)
{
	e->rep.state = VERIFY_UNVERIFIED;
	snprintf(e->rep.reason, sizeof(e->rep.reason), fmt, a, b);
}

/* Any failure: said in the report, the OSD left alone for a while. */
static void failed(struct vosd *e, enum asok_err err, const char *why)
{
	unverified(e, "%s: %s", asok_err_name[err], why);
	if (err == ASOK_NO_SOCKET || err == ASOK_PERMISSION)
		drop_sock(e);	/* look again after the backoff: it may move */
	e->failures++;
	e->next_try = mono_now() + verify_backoff(e->failures);
	if (e->in_round)
		asok_call_end(&e->call);
	e->in_round = false;
}

/* The admin socket of e, searched for once, in a job (readers.h): its
 * config and its socket are in the process's root, where a FUSE mount may
 * stall any lookup.  The round waits for it until `until`, then goes on
 * without e (looked at again next round); past READ_CONFIG_S e fails.
 * False if e is not asked in this round. */
static bool have_sock(struct verifier *v, struct vosd *e, double until)
{
	struct socket_req req = { v->proc_root, e->rep.pid, osd_id_of(e->rep.osd) };
	static struct socket_ans a;
	int fds[JOB_FDS], nfds, err;
	ssize_t n;

	if (e->sock >= 0)
		return true;
	if (!e->locate.pid && job_still_stalled(&e->locate)) {
		failed(e, ASOK_NO_SOCKET, "its last look for its admin socket did not "
		       "answer and is still stalled (a stalled mount in its root?)");
		return false;
	}
	if (!e->locate.pid) {
		err = job_start(&e->locate, find_socket, &req, READ_CONFIG_S);
		if (err) {
			failed(e, ASOK_NO_SOCKET, err == -EBUSY ? "too many readers "
			       "stalled to look for its admin socket" : strerror(-err));
			return false;
		}
	}
	n = job_wait(&e->locate, until, &a, sizeof(a), fds, &nfds);
	if (n == -EINPROGRESS) {
		unverified(e, "%s%s", "waiting for its admin socket to be found", "");
		return false;
	}
	if (n == -ETIMEDOUT) {
		failed(e, ASOK_NO_SOCKET, "its config or admin socket did not answer "
		       "within 5 s (a stalled mount in its root?)");
		return false;
	}
	if (n != (ssize_t)sizeof(a)) {
		for (int i = 0; i < nfds; i++)
			close(fds[i]);
		failed(e, ASOK_NO_SOCKET, strerror(n < 0 ? (int)-n : EIO));
		return false;
	}
	if (a.err || nfds != 1) {
		for (int i = 0; i < nfds; i++)
			close(fds[i]);
		e->rep.socket[0] = 0;
		/* why names the cause ("config ... is not a regular file
		 * (fifo)"); the renderers escape it, the path is the process's */
		failed(e, a.err == -EACCES || a.err == -EPERM ? ASOK_PERMISSION : ASOK_NO_SOCKET,
		       a.err == -ENOENT && !a.why[0] ? "no admin socket found (listening "
		       "sockets, command line, config)" : a.why[0] ? a.why :
		       strerror(a.err ? -a.err : EIO));
		return false;
	}
	e->sock = fds[0];
	if (snprintf(e->rep.socket, sizeof(e->rep.socket), "%s", a.path) >=
	    (int)sizeof(e->rep.socket))
		memcpy(e->rep.socket + sizeof(e->rep.socket) - 4, "...", 4);
	if (v->opt->verbose)
		fprintf(stderr, "osdhist: %s (pid %d): admin socket %s (%s)\n",
			name(e), e->rep.pid, ESC(a.path), a.how);
	return true;
}

static struct vosd *find(struct verifier *v, pid_t pid)
{
	for (int i = 0; i < v->n; i++)
		if (v->osds[i].rep.pid == pid)
			return &v->osds[i];
	return NULL;
}

void verify_set_targets(struct verifier *v, const struct verify_target *t, int n)
{
	double now = mono_now();

	if (!v)
		return;
	for (int i = 0; i < v->n; i++)
		v->osds[i].present = false;
	for (int i = 0; i < n; i++) {
		struct vosd *e;

		if (v->opt->osd >= 0 && osd_id_of(t[i].osd) != v->opt->osd)
			continue;
		e = find(v, t[i].pid);
		if (!e) {
			if (v->n == MAX_PROCS)
				continue;
			e = &v->osds[v->n++];
			memset(e, 0, sizeof(*e));
			e->sock = -1;
			e->rep.pid = t[i].pid;
			/* the OSDs there at start were attached before the
			 * first snapshot; later ones, before this scan */
			e->seen = v->first ? v->started : now;
			unverified(e, "%s%s", "waiting for the first check", "");
		}
		e->rep.osd = t[i].osd;
		e->present = true;
	}
	v->first = false;
	for (int i = 0; i < v->n; i++)	/* processes gone or untraced: forget them */
		if (!v->osds[i].present) {
			drop(&v->osds[i]);
			v->osds[i--] = v->osds[--v->n];
		}
}

/* Whether e is asked in a round beginning now (the reason set if not). */
static bool due(struct verifier *v, struct vosd *e, double now)
{
	if (v->opt->sample_on > 0) {
		unverified(e, "%s%s", "--sample: osdhist follows only the ops "
			   "of its windows, Ceph counts them all", "");
		return false;
	}
	if (e->rep.osd < 0) {
		unverified(e, "%s%s", "no OSD id on the command line", "");
		return false;
	}
	/* a failure's reason is kept through its backoff */
	return now >= e->next_try && now - e->seen >= VERIFY_SETTLE_S;
}

/* One leg: the same request to every OSD of the round, all at once. */
static bool send_all(struct verifier *v, double deadline)
{
	bool any = false;

	for (int i = 0; i < v->n; i++) {
		struct vosd *e = &v->osds[i];

		if (!e->in_round)
			continue;
		asok_call_start(&e->call, e->sock, ASOK_PERF_CMD);
		any = true;
	}
	v->deadline = deadline;
	return any;
}

/* A round asks at most VERIFY_ROUND_OSDS OSDs, those asked longest ago
 * first: on a host of 24 OSDs each is checked every 3 s, and a round's
 * parses stay what 8 OSDs cost (bench/loader_cost.sh). */
static bool start_round(struct verifier *v, double now)
{
	int picked = 0;

	v->round_start = now;
	for (int i = 0; i < v->n; i++)
		v->osds[i].in_round = false;
	while (picked < VERIFY_ROUND_OSDS) {
		struct vosd *best = NULL;

		for (int i = 0; i < v->n; i++) {
			struct vosd *e = &v->osds[i];

			if (!e->in_round && e->asked < now && (!best || e->asked < best->asked) &&
			    due(v, e, now))
				best = e;
		}
		if (!best)
			break;
		best->asked = now;	/* not picked again in this round */
		if (!have_sock(v, best, now + LOCATE_WAIT_S))
			continue;
		best->in_round = true;
		picked++;
	}
	return send_all(v, now + VERIFY_TIMEOUT_MS / 1e3);
}

/* Reads and writes what is ready; true when every request is done. */
static bool step_all(struct verifier *v)
{
	bool done = true;

	for (int i = 0; i < v->n; i++)
		if (v->osds[i].in_round)
			done &= asok_call_step(&v->osds[i].call);
	return done;
}

/* The leg is over: each answer parsed into c (c1 or c2 of its OSD), or
 * the OSD failed and out of the round. */
static void end_leg(struct verifier *v, struct ceph_osd_counts *c2)
{
	for (int i = 0; i < v->n; i++) {
		struct vosd *e = &v->osds[i];
		struct ceph_osd_counts *c = c2 ? &c2[i] : &e->c1;
		enum asok_err err;
		char why[128];

		if (!e->in_round)
			continue;
		asok_call_expire(&e->call);
		err = e->call.err;
		if (!err)
			err = asok_parse_perf(e->call.buf, e->call.len, c, why, sizeof(why));
		else
			snprintf(why, sizeof(why), "%s", e->call.why);
		asok_call_end(&e->call);
		if (err)
			failed(e, err, why);
	}
}

/* osdhist's cumulative count of one OSD and class, all pools. */
static __u64 ours_of(const struct report *r, int osd, __u8 cls)
{
	__u64 n = 0;

	for (int i = 0; i < r->n; i++)
		if (r->s[i].osd == osd && r->s[i].cls == cls &&
		    r->s[i].optype == OPTYPE_ALL && r->s[i].phase == PHASE_TOTAL)
			n += r->s[i].cum.count;
	return n;
}

/* Between the legs: osdhist's own counts, after every c1 came in. */
static bool read_ours(struct verifier *v, verify_read_maps read_maps, void *ctx)
{
	struct report r = { 0 };
	bool any = false;

	if (read_maps(ctx, &r) < 0)
		return false;	/* out of memory: this round is void */
	v->map_time = r.time;
	for (int i = 0; i < v->n; i++) {
		struct vosd *e = &v->osds[i];

		if (!e->in_round)
			continue;
		for (int k = 0; k < NR_VC; k++)
			e->o[k] = ours_of(&r, e->rep.osd, verify_op_class[k]);
		any = true;
	}
	return any;
}

static void say_mismatch(const struct vosd *e, int k)
{
	const struct verify_judgement *j = &e->rep.cls[k].j;

	fprintf(stderr, "osdhist: VERIFY MISMATCH %s class %s: osdhist counted %llu "
		"ops, Ceph's %s %lld..%lld since the baseline; the offsets osdhist "
		"derived may be wrong for this build of ceph-osd: do not trust its "
		"histograms\n", name(e), class_name[verify_op_class[k]],
		(unsigned long long)j->ours, verify_counter[k], (long long)j->ceph_lo,
		(long long)j->ceph_hi);
}

static void compare(struct verifier *v, struct vosd *e, const struct ceph_osd_counts *c2)
{
	struct verify_reading now[NR_VC];
	bool any = false, reset = false;

	e->failures = 0;
	for (int k = 0; k < NR_VC; k++) {
		now[k].c1 = counter_of(&e->c1, k);
		now[k].c2 = counter_of(c2, k);
		now[k].o = e->o[k];
		/* a counter going back: someone ran "perf reset" */
		if (e->has_base && (now[k].c1 < e->base[k].c1 || now[k].o < e->base[k].o))
			reset = true;
	}
	if (!e->has_base || reset) {
		memcpy(e->base, now, sizeof(now));
		e->has_base = true;
		e->rep.since = v->map_time;
		e->rep.checks = 0;
		memset(e->rep.cls, 0, sizeof(e->rep.cls));
		unverified(e, "%s%s", reset ? "Ceph's counters were reset; new baseline "
			   "taken" : "baseline taken; the first comparison is at the "
			   "next check", "");
		return;
	}
	e->rep.checks++;
	e->rep.state = VERIFY_VERIFIED;
	e->rep.reason[0] = 0;
	for (int k = 0; k < NR_VC; k++) {
		struct verify_class_report *c = &e->rep.cls[k];
		bool was = c->mismatch;

		if (k == VC_SUBOP && v->opt->no_subops)
			continue;
		c->compared = true;
		if (verify_step(c, verify_judge(&e->base[k], &now[k], VERIFY_SLACK, &c->j)) &&
		    !was)
			say_mismatch(e, k);
		any |= c->mismatch;
		/* outside once: not verified, not yet a mismatch */
		if (c->outside && !c->mismatch && e->rep.state == VERIFY_VERIFIED) {
			e->rep.state = VERIFY_UNVERIFIED;
			snprintf(e->rep.reason, sizeof(e->rep.reason), "outside the bound "
				 "in class %s at this check (osdhist %llu, Ceph's %s "
				 "%lld..%lld); a mismatch if it persists",
				 class_name[verify_op_class[k]], (unsigned long long)c->j.ours,
				 verify_counter[k], (long long)c->j.ceph_lo,
				 (long long)c->j.ceph_hi);
		}
	}
	if (any) {
		e->rep.state = VERIFY_MISMATCH;
		e->rep.reason[0] = 0;
	}
}

/* The second leg is over: judge every OSD that answered both. */
static void judge_all(struct verifier *v)
{
	static struct ceph_osd_counts c2[MAX_PROCS];

	end_leg(v, c2);
	for (int i = 0; i < v->n; i++) {
		struct vosd *e = &v->osds[i];

		if (e->in_round)
			compare(v, e, &c2[i]);
		e->in_round = false;
	}
}

double verify_run(struct verifier *v, verify_read_maps read_maps, void *ctx)
{
	double now = mono_now(), end;

	if (!v)
		return now + 3600;
	if (v->phase == ROUND_IDLE) {
		if (now < v->next_check)
			return v->next_check;
		v->next_check = now + VERIFY_PERIOD_S;
		if (!start_round(v, now))
			return v->next_check;
		v->phase = ROUND_BEFORE;
	}
	while (step_all(v) || (now = mono_now()) >= v->deadline) {
		if (v->phase == ROUND_AFTER) {
			judge_all(v);
			v->phase = ROUND_IDLE;
			return v->next_check;
		}
		end_leg(v, NULL);
		end = v->round_start + VERIFY_ROUND_MS / 1e3;
		now = mono_now();
		if (!read_ours(v, read_maps, ctx) ||
		    !send_all(v, now + VERIFY_TIMEOUT_MS / 1e3 < end ?
			      now + VERIFY_TIMEOUT_MS / 1e3 : end)) {
			for (int i = 0; i < v->n; i++)
				v->osds[i].in_round = false;
			v->phase = ROUND_IDLE;
			return v->next_check;
		}
		v->phase = ROUND_AFTER;
	}
	return v->deadline;
}

int verify_pollfds(const struct verifier *v, struct pollfd *p, int max)
{
	int n = 0;

	for (int i = 0; v && i < v->n && n < max; i++) {
		const struct vosd *e = &v->osds[i];
		short ev = e->in_round ? asok_call_events(&e->call) : 0;

		if (ev)
			p[n++] = (struct pollfd){ .fd = e->call.s, .events = ev };
	}
	return n;
}

void verify_report(struct verifier *v, struct report *r)
{
	if (!v)
		return;
	for (int i = 0; i < v->n; i++)
		v->reports[i] = v->osds[i].rep;
	r->verify = v->reports;
	r->nverify = v->n;
}

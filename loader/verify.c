// SPDX-License-Identifier: GPL-2.0
/* osdhist's counts against each OSD's own perf counters (see verify.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "asok.h"
#include "asok_find.h"
#include "cli.h"
#include "report.h"
#include "clock.h"
#include "proctable.h"
#include "verify.h"

const char *const verify_counter[NR_VC] = {
	[VC_READ] = "op_r", [VC_WRITE] = "op_w", [VC_RW] = "op_rw", [VC_SUBOP] = "subop_w",
};

const __u8 verify_op_class[NR_VC] = {
	[VC_READ] = CLASS_READ, [VC_WRITE] = CLASS_WRITE, [VC_RW] = CLASS_RW,
	[VC_SUBOP] = CLASS_SUBOP,
};

const char *const verify_state_name[NR_VERIFY_STATES] = {
	[VERIFY_UNVERIFIED] = "unverified",
	[VERIFY_VERIFIED] = "verified",
	[VERIFY_MISMATCH] = "mismatch",
};

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

/* What the verifier keeps per traced process. */
struct vosd {
	struct verify_report rep;
	double seen;		/* CLOCK_MONOTONIC when first traced */
	double next_try;	/* backoff after a timeout or garbage */
	int sock;		/* O_PATH of its admin socket; -1: none found yet */
	bool has_base;
	bool c1_ok;		/* this check's first reading is in c1 */
	struct ceph_osd_counts c1;
	struct verify_reading base[NR_VC];
	bool present;
};

struct verifier {
	const struct options *opt;
	const char *proc_root;
	double started, next_check;
	bool due;		/* a check is under way (begin done) */
	bool first;
	struct vosd osds[MAX_PROCS];
	int n;
	struct verify_report reports[MAX_PROCS];
};

struct verifier *verify_new(const struct options *o, const char *proc_root)
{
	struct verifier *v;

	if (o->no_verify)
		return NULL;
	v = calloc(1, sizeof(*v));
	if (!v) {
		fprintf(stderr, "osdhist: out of memory for verification; running "
			"without it (as with --no-verify)\n");
		return NULL;
	}
	v->opt = o;
	v->proc_root = proc_root;
	v->started = mono_now();
	v->first = true;
	return v;
}

static void drop_sock(struct vosd *e)
{
	if (e->sock >= 0)
		close(e->sock);
	e->sock = -1;
}

void verify_free(struct verifier *v)
{
	if (!v)
		return;
	for (int i = 0; i < v->n; i++)
		drop_sock(&v->osds[i]);
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

/* One perf dump of e's OSD; false (and e unverified, with the reason) on
 * failure. */
static bool read_ceph(struct verifier *v, struct vosd *e, struct ceph_osd_counts *c)
{
	char why[128], path[PATH_MAX];
	const char *how;
	enum asok_err err;
	char *reply;
	size_t len;
	int r;

	if (e->sock < 0) {
		r = asok_find(v->proc_root, e->rep.pid, e->rep.osd, &e->sock, path,
			      sizeof(path), &how);
		if (r) {
			e->rep.socket[0] = 0;
			unverified(e, "%s: %s", asok_err_name[r == -EACCES || r == -EPERM ?
					ASOK_PERMISSION : ASOK_NO_SOCKET],
				   r == -ENOENT ? "no admin socket found (listening "
				   "sockets, command line, config)" : strerror(-r));
			return false;
		}
		if (snprintf(e->rep.socket, sizeof(e->rep.socket), "%s", path) >=
		    (int)sizeof(e->rep.socket))
			memcpy(e->rep.socket + sizeof(e->rep.socket) - 4, "...", 4);
		if (v->opt->verbose)
			fprintf(stderr, "osdhist: osd.%d (pid %d): admin socket %s (%s)\n",
				e->rep.osd, e->rep.pid, path, how);
	}
	err = asok_request(e->sock, ASOK_PERF_CMD, VERIFY_TIMEOUT_MS,
			   &reply, &len, why, sizeof(why));
	if (!err) {
		err = asok_parse_perf(reply, len, c, why, sizeof(why));
		free(reply);
	}
	if (!err)
		return true;
	unverified(e, "%s: %s", asok_err_name[err], why);
	if (err == ASOK_NO_SOCKET || err == ASOK_PERMISSION)
		drop_sock(e);	/* look again next time: it may move */
	if (err == ASOK_TIMEOUT || err == ASOK_GARBAGE)
		e->next_try = mono_now() + VERIFY_BACKOFF_S;
	return false;
}

static struct vosd *find(struct verifier *v, pid_t pid)
{
	for (int i = 0; i < v->n; i++)
		if (v->osds[i].rep.pid == pid)
			return &v->osds[i];
	return NULL;
}

void verify_begin(struct verifier *v, const struct proc_table *pt)
{
	const struct proc_slot *procs = pt->slot;
	double now = mono_now();

	if (!v)
		return;
	for (int i = 0; i < v->n; i++)
		v->osds[i].present = false;
	for (int i = 0; i < pt->n; i++) {
		struct vosd *e;

		if (procs[i].dead || (v->opt->osd >= 0 && procs[i].osd != v->opt->osd))
			continue;
		e = find(v, procs[i].pid);
		if (!e) {
			if (v->n == MAX_PROCS)
				continue;
			e = &v->osds[v->n++];
			memset(e, 0, sizeof(*e));
			e->sock = -1;
			e->rep.pid = procs[i].pid;
			/* the OSDs there at start were attached before the
			 * first snapshot; later ones, before this one */
			e->seen = v->first ? v->started : now;
			unverified(e, "%s%s", "waiting for the first check", "");
		}
		e->rep.osd = procs[i].osd;
		e->present = true;
	}
	v->first = false;
	for (int i = 0; i < v->n; i++)	/* processes gone: forget them */
		if (!v->osds[i].present)
		{
			drop_sock(&v->osds[i]);
			v->osds[i--] = v->osds[--v->n];
		}

	v->due = now >= v->next_check;
	if (!v->due)
		return;
	/* a snapshot a little early (SIGUSR1, jitter) still checks */
	v->next_check = now + VERIFY_PERIOD_S * 0.9;
	for (int i = 0; i < v->n; i++) {
		struct vosd *e = &v->osds[i];

		e->c1_ok = false;
		if (v->opt->sample_on > 0) {
			unverified(e, "%s%s", "--sample: osdhist follows only the ops "
				   "of its windows, Ceph counts them all", "");
			continue;
		}
		if (e->rep.osd < 0) {
			unverified(e, "%s%s", "no OSD id on the command line", "");
			continue;
		}
		if (now < e->next_try)
			continue;	/* keeps the reason of the last failure */
		if (now - e->seen < VERIFY_SETTLE_S)
			continue;
		e->c1_ok = read_ceph(v, e, &e->c1);
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

static void say_mismatch(const struct vosd *e, int k)
{
	const struct verify_judgement *j = &e->rep.cls[k].j;

	fprintf(stderr, "osdhist: VERIFY MISMATCH osd.%d class %s: osdhist counted %llu "
		"ops, Ceph's %s %lld..%lld since the baseline; the offsets osdhist "
		"derived may be wrong for this build of ceph-osd: do not trust its "
		"histograms\n", e->rep.osd, class_name[verify_op_class[k]],
		(unsigned long long)j->ours, verify_counter[k], (long long)j->ceph_lo,
		(long long)j->ceph_hi);
}

static void compare(struct verifier *v, struct vosd *e, const struct report *r,
		    const struct ceph_osd_counts *c2)
{
	struct verify_reading now[NR_VC];
	bool any = false, reset = false;

	for (int k = 0; k < NR_VC; k++) {
		now[k].c1 = counter_of(&e->c1, k);
		now[k].c2 = counter_of(c2, k);
		now[k].o = ours_of(r, e->rep.osd, verify_op_class[k]);
		/* a counter going back: someone ran "perf reset" */
		if (e->has_base && (now[k].c1 < e->base[k].c1 || now[k].o < e->base[k].o))
			reset = true;
	}
	if (!e->has_base || reset) {
		memcpy(e->base, now, sizeof(now));
		e->has_base = true;
		e->rep.since = r->time;
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

void verify_end(struct verifier *v, struct report *r)
{
	if (!v)
		return;
	for (int i = 0; v->due && i < v->n; i++) {
		struct vosd *e = &v->osds[i];
		struct ceph_osd_counts c2;

		if (!e->c1_ok)
			continue;
		e->c1_ok = false;
		if (read_ceph(v, e, &c2))
			compare(v, e, r, &c2);
	}
	v->due = false;
	for (int i = 0; i < v->n; i++)
		v->reports[i] = v->osds[i].rep;
	r->verify = v->reports;
	r->nverify = v->n;
}

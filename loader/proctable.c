// SPDX-License-Identifier: GPL-2.0
/* The table of traced ceph-osd processes (proctable.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ceph/asok_find.h"
#include "ceph/procs.h"
#include "claims.h"
#include "util/clock.h"
#include "report/clusters.h"
#include "readers.h"
#include "proctable.h"
#include "report/report.h"
#include "verify.h"

void proc_table_init(struct proc_table *pt, const char *proc_root, bool verbose)
{
	memset(pt, 0, sizeof(*pt));
	pt->proc_root = proc_root;
	pt->verbose = verbose;
	pt->wait_end = mono_now() + FSID_WAIT_S;	/* until the first scan */
}

/* What a slot holds beyond itself: its cluster's reader, its handle. */
static void slot_release(struct proc_slot *s)
{
	job_cancel(&s->fsid);
	if (s->handle >= 0)
		close(s->handle);
}

void proc_table_close(struct proc_table *pt)
{
	for (int i = 0; i < pt->n; i++)
		slot_release(&pt->slot[i]);
	pt->n = 0;
}

/* Is slot s's process alive?  By its handle where it has one: each
 * snapshot asks this of every slot, and a read of an open file costs a
 * third of opening, reading and closing it. */
static bool slot_alive(const struct proc_table *pt, const struct proc_slot *s)
{
	return s->handle >= 0 ? !procs_handle_exited(s->handle)
			      : procs_alive(pt->proc_root, s->pid);
}

static struct proc_slot *find_proc(struct proc_table *pt, pid_t pid)
{
	for (int i = 0; i < pt->n; i++)
		if (pt->slot[i].pid == pid)
			return &pt->slot[i];
	return NULL;
}

/* Keys a and b may name one OSD: the same id, and the same cluster or
 * one of them unknown. */
static bool same_osd(int a, int b)
{
	return a >= 0 && b >= 0 && osd_id_of(a) == osd_id_of(b) &&
	       (osd_cluster_of(a) == osd_cluster_of(b) || !osd_cluster_of(a) ||
		!osd_cluster_of(b));
}

/* The live traced process other than pid that holds osd: its ops count
 * for it. */
static const struct proc_slot *holder(const struct proc_table *pt, int osd, pid_t pid)
{
	for (int i = 0; osd >= 0 && i < pt->n; i++) {
		const struct proc_slot *s = &pt->slot[i];

		/* dead is as of the last scan: an OSD that restarted since
		 * has exited, and its successor takes the id back */
		if (same_osd(s->osd, osd) && s->pid != pid && !s->dead && !s->exited &&
		    slot_alive(pt, s))
			return s;
	}
	return NULL;
}

/* Decides the OSD of slot s, new (osd unset) or held: the id it claims
 * unless a live process that is not its parent or child holds it. */
static void decide(struct proc_table *pt, struct proc_slot *s)
{
	struct proc_slot *h = (struct proc_slot *)holder(pt, s->claimed, s->pid);
	bool was_held = s->osd == OSD_HELD && s->holder;
	char name[OSD_LABEL_MAX];

	osd_label(name, s->claimed);
	if (h && (h->ppid == s->pid || s->ppid == h->pid)) {
		struct proc_slot *parent = h->ppid == s->pid ? s : h;

		if (!parent->prefork)
			fprintf(stderr, "osdhist: pid %d forked pid %d, both %s: "
				"a daemonizing start, counted as one OSD\n",
				parent->pid, parent == s ? h->pid : s->pid, name);
		parent->prefork = true;
		h = NULL;
	}
	if (h) {
		if (!was_held)
			fprintf(stderr, "osdhist: pid %d claims %s, which pid %d "
				"already has: its ops are held until one of them exits "
				"(reported as a duplicate OSD id)\n", s->pid, name, h->pid);
		s->osd = OSD_HELD;
		s->holder = h->pid;
		return;
	}
	s->osd = s->claimed;
	if (was_held)
		fprintf(stderr, "osdhist: pid %d, which held %s, is gone: "
			"pid %d is %s, its held ops counted as %s's\n",
			s->holder, name, s->pid, name, name);
	else if (pt->verbose)
		fprintf(stderr, "osdhist: tracing pid %d (%s)\n", s->pid, name);
}

/* s's cluster, read in a job (readers.h: its config may be on a stalled
 * mount), waited for until `until`.  False while it is still being read;
 * then s->claimed names the cluster, or none if it was not found. */
static bool read_cluster(struct proc_slot *s, double until)
{
	char fsid[ASOK_FSID_LEN + 1] = "", name[OSD_LABEL_MAX];
	ssize_t n = job_wait(&s->fsid, until, fsid, sizeof(fsid), NULL, NULL);

	if (n == -EINPROGRESS)
		return false;
	if (n == -ETIMEDOUT) {
		osd_label(name, s->claimed);
		fprintf(stderr, "osdhist: pid %d: its config did not answer within %.0f s "
			"(a stalled mount in its root?): it is %s of a cluster not "
			"known\n", s->pid, READ_CONFIG_S, name);
	}
	if (n == ASOK_FSID_LEN + 1) {
		fsid[ASOK_FSID_LEN] = 0;
		s->claimed = osd_key(cluster_index(fsid), osd_id_of(s->claimed));
	}
	return true;
}

/* The held slots: decided once their cluster is known (holder 0) and
 * their holder is gone; one that exited while its holder ran was a
 * duplicate. */
static void redecide(struct proc_table *pt)
{
	for (int i = 0; i < pt->n; i++) {
		struct proc_slot *s = &pt->slot[i];

		if (s->osd != OSD_HELD)
			continue;
		if (s->fsid.pid) {	/* its cluster is being read */
			if (!s->dead && !s->exited && !read_cluster(s, mono_now()))
				continue;
			job_cancel(&s->fsid);
			decide(pt, s);
		} else if (s->dead || s->exited) {
			char name[OSD_LABEL_MAX];

			osd_label(name, s->claimed);
			fprintf(stderr, "osdhist: pid %d, which claimed %s while "
				"pid %d ran it, has exited: its ops are counted as "
				"osd.dup\n", s->pid, name, s->holder);
			s->osd = OSD_DUPLICATE;
		} else {
			decide(pt, s);
		}
	}
}

/* A traced process: known from now on.  False if the table is full. */
static bool note_traced(struct proc_table *pt, const struct osd_proc *p, int key)
{
	struct proc_slot *s = find_proc(pt, p->pid);

	if (!s) {
		if (pt->n == MAX_PROCS)
			return false;
		s = &pt->slot[pt->n++];
		memset(s, 0, sizeof(*s));
		s->pid = p->pid;
		s->handle = procs_handle(pt->proc_root, p->pid);
		s->ppid = p->ppid;
		s->claimed = key;
		s->osd = key;
		if (key >= 0 && !osd_cluster_of(key)) {
			struct fsid_req req = { pt->proc_root, p->pid, p->osd_id };

			/* held until its cluster is known: never guessed */
			if (!job_start(&s->fsid, read_fsid, &req, READ_CONFIG_S) &&
			    !read_cluster(s, pt->wait_end)) {
				s->osd = OSD_HELD;
				s->holder = 0;
				key = OSD_HELD;
			}
		}
		if (key >= 0)
			decide(pt, s);
		else if (pt->verbose)
			fprintf(stderr, "osdhist: tracing pid %d (no OSD id)\n", p->pid);
	}
	s->dead = false;
	s->exited = false;
	s->seen = true;
	return true;
}

/* The OSD p claims: as noted if it is traced already, else as far as
 * its command line tells (its cluster if --fsid names it).  A process not
 * traced is read no further: nothing in its root is touched. */
static int cmdline_key(struct proc_table *pt, const struct osd_proc *p)
{
	const struct proc_slot *s = find_proc(pt, p->pid);
	char fsid[ASOK_FSID_LEN + 1];

	if (s)
		return s->claimed;
	if (p->osd_id < 0)
		return p->osd_id;
	asok_fsid_cmdline(pt->proc_root, p->pid, fsid);
	return osd_key(cluster_index(fsid), p->osd_id);
}

bool proc_table_note(struct proc_table *pt, const struct osd_proc *p, bool traced)
{
	int key = cmdline_key(pt, p);
	bool noted = traced && note_traced(pt, p, key);

	if (noted)		/* its cluster may be known now */
		key = find_proc(pt, p->pid)->claimed;

	/* the daemon of a daemonizing start: its parent's claim is its own
	 * (asked only of a second claim: one read of the parent's /proc) */
	if (pt->scanning && key >= 0 &&
	    !(claims_of(key) && procs_forked_from(pt->proc_root, p)))
		claims_add(key);
	if (!noted)
		pt->untraced_scan++;
	return noted;
}

void proc_table_begin_scan(struct proc_table *pt)
{
	claims_reset();
	pt->wait_end = mono_now() + FSID_WAIT_S;
	pt->untraced_scan = 0;
	pt->scanning = true;
	for (int i = 0; i < pt->n; i++)
		pt->slot[i].seen = false;
}

static int holder_pid(int key, void *arg)
{
	const struct proc_slot *h = holder(arg, key, 0);

	return h ? h->pid : 0;
}

void proc_table_end_scan(struct proc_table *pt)
{
	for (int i = 0; i < pt->n; i++)
		pt->slot[i].dead = !pt->slot[i].seen;
	redecide(pt);
	claims_dups(&pt->dup, holder_pid, pt);
	pt->untraced = pt->untraced_scan;
	pt->scanning = false;
}

int proc_table_osd_of(struct proc_table *pt, pid_t tgid)
{
	struct proc_slot *s = find_proc(pt, tgid);
	struct osd_proc p;

	if (s)
		return s->osd;
	/* Started since the last scan, and traced: its ops are in the maps. */
	if (procs_inspect(pt->proc_root, tgid, &p) == 0 &&
	    note_traced(pt, &p, cmdline_key(pt, &p)))
		return find_proc(pt, tgid)->osd;
	return OSD_NONE;
}

void proc_table_note_exited(struct proc_table *pt)
{
	for (int i = 0; i < pt->n; i++)
		pt->slot[i].exited = !slot_alive(pt, &pt->slot[i]);
	pt->wait_end = mono_now() + FSID_WAIT_S;
	redecide(pt);
}

bool proc_table_alive(const struct proc_table *pt, pid_t tgid)
{
	for (int i = 0; i < pt->n; i++)
		if (pt->slot[i].pid == tgid)
			return !pt->slot[i].exited;
	return procs_alive(pt->proc_root, tgid);
}

void proc_table_forget_exited(struct proc_table *pt)
{
	for (int i = 0; i < pt->n; i++)
		if (pt->slot[i].exited) {
			slot_release(&pt->slot[i]);
			pt->slot[i--] = pt->slot[--pt->n];
		}
}

int proc_table_held(const struct proc_table *pt, const struct proc_slot **first)
{
	int n = 0;

	*first = NULL;
	for (int i = 0; i < pt->n; i++)
		if (pt->slot[i].osd == OSD_HELD && !n++)
			*first = &pt->slot[i];
	return n;
}

int proc_table_live(const struct proc_table *pt)
{
	int n = 0;

	for (int i = 0; i < pt->n; i++)
		n += !pt->slot[i].dead;
	return n;
}

void proc_table_health(const struct proc_table *pt, struct health_report *h)
{
	const struct proc_slot *first;

	h->osds = pt->untraced + proc_table_live(pt);
	h->untraced = pt->untraced;
	h->dup = pt->dup;
	h->held = proc_table_held(pt, &first);
	if (first) {
		h->held_pid = first->pid;
		h->held_osd = first->claimed;
		h->held_holder = first->holder;
	}
}

/* The table holds traced processes only, so the self-check asks none
 * whose binary osdhist refused: anything may be named ceph-osd, and
 * answer slowly or never.  One that claims the id of another (held, or
 * counted as OSD_DUPLICATE) has no OSD of its own to check: its
 * duplicate is in health; nor has the parent of a daemonizing start: its
 * daemon is asked. */
int proc_table_verify_targets(const struct proc_table *pt,
			      struct verify_target *out, int max)
{
	int n = 0;

	for (int i = 0; i < pt->n && n < max; i++) {
		const struct proc_slot *p = &pt->slot[i];

		if (!p->dead && !p->prefork && !(p->osd < 0 && p->claimed >= 0))
			out[n++] = (struct verify_target){ .pid = p->pid, .osd = p->osd };
	}
	return n;
}

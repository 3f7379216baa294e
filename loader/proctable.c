// SPDX-License-Identifier: GPL-2.0
/* The table of traced ceph-osd processes (proctable.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ceph/procs.h"
#include "proctable.h"
#include "report.h"
#include "verify.h"

/*
 * Per OSD id, how many processes the scan under way found claiming it
 * (saturating): one byte for every id a command line may name, 1 MB, so
 * no number of processes, nor of distinct ids, can make it forget a claim.
 * Scratch of the scan under way; osdhist has one proc table.
 */
static uint8_t claims[PROCS_OSD_ID_MAX + 1];

void proc_table_init(struct proc_table *pt, const char *proc_root, bool verbose)
{
	memset(pt, 0, sizeof(*pt));
	pt->proc_root = proc_root;
	pt->verbose = verbose;
}

static struct proc_slot *find_proc(struct proc_table *pt, pid_t pid)
{
	for (int i = 0; i < pt->n; i++)
		if (pt->slot[i].pid == pid)
			return &pt->slot[i];
	return NULL;
}

/* The live traced process other than pid whose ops count for osd. */
static const struct proc_slot *holder(const struct proc_table *pt, int osd, pid_t pid)
{
	for (int i = 0; osd >= 0 && i < pt->n; i++) {
		const struct proc_slot *s = &pt->slot[i];

		/* dead is as of the last scan: an OSD that restarted since
		 * has exited, and its successor takes the id back */
		if (s->osd == osd && s->pid != pid && !s->dead &&
		    procs_alive(pt->proc_root, s->pid))
			return s;
	}
	return NULL;
}

/* A traced process: known from now on.  False if the table is full. */
static bool note_traced(struct proc_table *pt, const struct osd_proc *p)
{
	struct proc_slot *s = find_proc(pt, p->pid);

	if (!s) {
		const struct proc_slot *h = holder(pt, p->osd_id, p->pid);

		if (pt->n == MAX_PROCS)
			return false;
		s = &pt->slot[pt->n++];
		s->pid = p->pid;
		s->claimed = p->osd_id;
		/* decided once: a process's ops never move between series */
		s->osd = h ? OSD_DUPLICATE : p->osd_id;
		if (h)
			fprintf(stderr, "osdhist: pid %d claims osd.%d, which pid %d "
				"already has: its ops are not counted as osd.%d's "
				"(reported as a duplicate OSD id)\n", p->pid,
				p->osd_id, h->pid, p->osd_id);
		else if (pt->verbose)
			fprintf(stderr, "osdhist: tracing pid %d (osd.%d)\n",
				p->pid, p->osd_id);
	}
	s->dead = false;
	s->exited = false;
	s->seen = true;
	return true;
}

/* One more process claims osd in the scan under way. */
static void claim(struct proc_table *pt, int osd)
{
	struct dup_ids *d = &pt->dup_scan;
	int c;

	if (osd < 0 || osd > PROCS_OSD_ID_MAX || claims[osd] == UINT8_MAX)
		return;
	c = ++claims[osd];
	if (c == 2) {
		if (d->n < DUP_IDS_LISTED)
			d->id[d->n].osd = osd;
		d->n++;
	}
	for (int i = 0; c >= 2 && i < d->n && i < DUP_IDS_LISTED; i++)
		if (d->id[i].osd == osd)
			d->id[i].procs = c;
}

bool proc_table_note(struct proc_table *pt, const struct osd_proc *p, bool traced)
{
	if (pt->scanning)
		claim(pt, p->osd_id);
	if (traced && note_traced(pt, p))
		return true;
	pt->untraced_scan++;
	return false;
}

void proc_table_begin_scan(struct proc_table *pt)
{
	memset(claims, 0, sizeof(claims));
	memset(&pt->dup_scan, 0, sizeof(pt->dup_scan));
	pt->untraced_scan = 0;
	pt->scanning = true;
	for (int i = 0; i < pt->n; i++)
		pt->slot[i].seen = false;
}

void proc_table_end_scan(struct proc_table *pt)
{
	struct dup_ids *d = &pt->dup_scan;

	for (int i = 0; i < pt->n; i++)
		pt->slot[i].dead = !pt->slot[i].seen;
	for (int i = 0; i < d->n && i < DUP_IDS_LISTED; i++) {
		const struct proc_slot *h = holder(pt, d->id[i].osd, 0);

		d->id[i].pid = h ? h->pid : 0;
	}
	pt->dup = *d;
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
	if (procs_inspect(pt->proc_root, tgid, &p) == 0 && note_traced(pt, &p))
		return find_proc(pt, tgid)->osd;
	return -2;
}

void proc_table_note_exited(struct proc_table *pt)
{
	for (int i = 0; i < pt->n; i++)
		pt->slot[i].exited = !procs_alive(pt->proc_root, pt->slot[i].pid);
}

void proc_table_forget_exited(struct proc_table *pt)
{
	for (int i = 0; i < pt->n; i++)
		if (pt->slot[i].exited)
			pt->slot[i--] = pt->slot[--pt->n];
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
	h->osds = pt->untraced + proc_table_live(pt);
	h->untraced = pt->untraced;
	h->dup = pt->dup;
}

/* The table holds traced processes only (issue 23: anything may be named
 * ceph-osd), and one that claims the id of another (counted as
 * OSD_DUPLICATE) has no OSD of its own to check: its duplicate is in
 * health. */
int proc_table_verify_targets(const struct proc_table *pt,
			      struct verify_target *out, int max)
{
	int n = 0;

	for (int i = 0; i < pt->n && n < max; i++) {
		const struct proc_slot *p = &pt->slot[i];

		if (!p->dead && !(p->osd < 0 && p->claimed >= 0))
			out[n++] = (struct verify_target){ .pid = p->pid, .osd = p->osd };
	}
	return n;
}

// SPDX-License-Identifier: GPL-2.0
/* The table of traced ceph-osd processes (proctable.h). */
#include <stdio.h>
#include <string.h>

#include "procs.h"
#include "proctable.h"
#include "report.h"

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

void proc_table_note(struct proc_table *pt, const struct osd_proc *p)
{
	struct proc_slot *s = find_proc(pt, p->pid);

	if (!s) {
		if (pt->n == MAX_PROCS)
			return;
		s = &pt->slot[pt->n++];
		s->pid = p->pid;
		if (pt->verbose)
			fprintf(stderr, "osdhist: tracing pid %d (osd.%d)\n",
				p->pid, p->osd_id);
	}
	s->osd = p->osd_id;
	s->dead = false;
	s->exited = false;
}

void proc_table_begin_scan(struct proc_table *pt)
{
	for (int i = 0; i < pt->n; i++)
		pt->slot[i].dead = true;
}

void proc_table_end_scan(struct proc_table *pt, int found, int traced)
{
	pt->untraced = found - traced;
}

int proc_table_osd_of(struct proc_table *pt, pid_t tgid)
{
	struct proc_slot *s = find_proc(pt, tgid);
	struct osd_proc p;

	if (s)
		return s->osd;
	/* Started since the last scan: its probes are already there. */
	if (procs_inspect(pt->proc_root, tgid, &p) == 0) {
		proc_table_note(pt, &p);
		return p.osd_id;
	}
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

void proc_table_health(const struct proc_table *pt, struct health_report *h)
{
	h->osds = pt->n;
	h->untraced = pt->untraced;
}

// SPDX-License-Identifier: GPL-2.0
/* The table of traced ceph-osd processes, refreshed from /proc. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/types.h>
#include "osdhist.h"
#include "osdhist.skel.h"

#include "procs.h"
#include "tracer.h"

static struct proc_slot *find_proc(struct tracer *t, pid_t pid)
{
	for (int i = 0; i < t->nprocs; i++)
		if (t->procs[i].pid == pid)
			return &t->procs[i];
	return NULL;
}

static void note_proc(struct tracer *t, const struct osd_proc *p)
{
	struct proc_slot *s = find_proc(t, p->pid);

	if (!s) {
		if (t->nprocs == MAX_PROCS)
			return;
		s = &t->procs[t->nprocs++];
		s->pid = p->pid;
		if (t->opt->verbose)
			fprintf(stderr, "osdhist: tracing pid %d (osd.%d)\n",
				p->pid, p->osd_id);
	}
	s->osd = p->osd_id;
	s->dead = false;
}

int tracer_osd_of(struct tracer *t, pid_t tgid)
{
	struct proc_slot *s = find_proc(t, tgid);
	struct osd_proc p;

	if (s)
		return s->osd;
	/* Started since the last scan: its probes are already there. */
	if (procs_inspect(t->proc_root, tgid, &p) == 0) {
		note_proc(t, &p);
		return p.osd_id;
	}
	return -2;
}

/* BPF reads CLOCK_TAI, Ceph stamps ops with CLOCK_REALTIME; their
 * difference is a whole number of seconds that adjtimex may change. */
static void update_tai_offset(struct tracer *t)
{
	struct timespec tai, rt;

	clock_gettime(CLOCK_TAI, &tai);
	clock_gettime(CLOCK_REALTIME, &rt);
	t->skel->bss->tai_offset_ns = llround((tai.tv_sec - rt.tv_sec) +
					      (tai.tv_nsec - rt.tv_nsec) / 1e9) * 1000000000LL;
}

int tracer_discover(struct tracer *t)
{
	static struct osd_proc found[MAX_PROCS];
	int n, traced = 0;

	update_tai_offset(t);

	if (t->opt->pid) {
		n = procs_inspect(t->proc_root, t->opt->pid, &found[0]);
		if (n == -ENOENT || n == -EINVAL)
			n = 0;
		else if (n < 0)
			return n;
		else
			n = 1;
	} else {
		n = procs_scan(t->proc_root, found, MAX_PROCS);
		if (n < 0) {
			fprintf(stderr, "osdhist: cannot read %s: %s\n",
				t->proc_root, strerror(-n));
			return -1;
		}
	}

	for (int i = 0; i < t->nbins; i++)
		t->bins[i].nprocs = 0;
	for (int i = 0; i < t->nprocs; i++)
		t->procs[i].dead = true;
	for (int i = 0; i < n; i++) {
		int r = attach_binary(t, found[i].pid, found[i].exe,
				      found[i].dev, found[i].ino);
		if (r < 0)
			return -1;
		note_proc(t, &found[i]);
		if (r == 0)
			traced++;
	}
	detach_unused(t);
	t->untraced = n - traced;
	return traced;
}

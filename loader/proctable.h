/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_PROCTABLE_H
#define OSDHIST_PROCTABLE_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The ceph-osd processes being traced (proctable.c): pid, OSD id, and
 * whether the last scan still found them.  Only proctable.c writes the
 * table; others read a slot (verify.c) or ask with the functions below.
 * A process stays here after it exits until its keys are retired by a
 * snapshot, so its ops are still given to the right OSD.
 */

#define MAX_PROCS	256

struct osd_proc;
struct health_report;

struct proc_slot {
	pid_t pid;
	int osd;
	bool dead;			/* gone: retire its state at next snapshot */
	bool exited;			/* had exited when the snapshot began */
};

struct proc_table {
	const char *proc_root;		/* "/proc", or a fixture tree */
	bool verbose;			/* say each new process on stderr */
	struct proc_slot slot[MAX_PROCS];
	int n;
	int untraced;			/* found at the last scan, not traced */
};

void proc_table_init(struct proc_table *pt, const char *proc_root, bool verbose);

/* A rescan begins: every process is dead until the scan finds it again. */
void proc_table_begin_scan(struct proc_table *pt);
/* The scan found p: known from now on, alive, with p's OSD id. */
void proc_table_note(struct proc_table *pt, const struct osd_proc *p);
/* The scan is over: it found `found` processes, `traced` of them traced. */
void proc_table_end_scan(struct proc_table *pt, int found, int traced);

/* OSD id of a traced tgid (dead ones too until forgotten); one started
 * since the last scan is looked up and noted.  -2 if not a ceph-osd. */
int proc_table_osd_of(struct proc_table *pt, pid_t tgid);

/* A snapshot begins: note which processes have exited by now.  Their keys
 * are all read as dead, and retired, by this snapshot. */
void proc_table_note_exited(struct proc_table *pt);
/* ... and once it has read the maps, forget them.  One that exited while
 * the maps were read may have had keys read as live: it stays, for its
 * OSD id, until the next snapshot retires them. */
void proc_table_forget_exited(struct proc_table *pt);

/* osds and untraced of the health report. */
void proc_table_health(const struct proc_table *pt, struct health_report *h);

#endif

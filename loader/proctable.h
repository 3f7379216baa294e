/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_PROCTABLE_H
#define OSDHIST_PROCTABLE_H

#include <stdbool.h>
#include <sys/types.h>

#include "util/job.h"
#include "report/report.h"
#include "trace_config.h"	/* MAX_PROCS */

/*
 * The ceph-osd processes being traced (proctable.c): pid, OSD id, and
 * whether the last scan still found them.  Only proctable.c writes the
 * table; others read a slot (verify.c) or ask with the functions below.
 * A process stays here after it exits until its keys are retired by a
 * snapshot, so its ops are still given to the right OSD.
 *
 * Only processes whose binary is traced take a slot: anyone can start a
 * process named ceph-osd, and those (their binaries refused) are only
 * counted, so however many there are they cannot take a real OSD's slot.
 * MAX_PROCS bounds the traced ones, which run a binary that passed
 * binary_inspect; more than that are counted as untraced.
 *
 * OSD ids.  Each scan counts, for every OSD id, the live processes that
 * claim it on their command line, traced or not; a daemon forked by a
 * process that claims its id (a daemonizing start: procs_forked_from) is
 * one OSD with its parent, not a second claim.  An id claimed more than
 * once is reported (health: struct dup_ids).
 *
 * A traced process whose id a live traced process already holds:
 *  - if one forked the other (a daemonizing start, ppid), both are that
 *    OSD: the parent parses the arguments, forks the daemon and exits once
 *    it runs; the self-check asks the daemon;
 *  - otherwise its OSD is undecided (OSD_HELD): its ops are held, in the
 *    maps, counted in health but in no series, never guessed.  When the
 *    holder exits, it becomes the OSD from the next snapshot on, its held
 *    ops with it (were it kept a duplicate, a daemonizing restart's
 *    daemon would count every op of the OSD as osd.dup's while it serves);
 *    when it exits first, it was a duplicate: its ops are osd.dup's.
 */

/* How long a scan, or a snapshot, waits for the clusters it reads, in all
 * (a config read takes a few ms; past this the OSD's ops are held). */
#define FSID_WAIT_S	0.3

struct osd_proc;
struct verify_target;

struct proc_slot {
	pid_t pid;
	pid_t ppid;
	int handle;			/* procs_handle: whether it has exited,
					 * at the cost of a read; negative: none */
	int osd;			/* the OSD its ops count for: the id it
					 * claims; OSD_HELD while undecided,
					 * OSD_DUPLICATE once decided so */
	int claimed;			/* the OSD it claims (clusters.h: its
					 * cluster, the id on its command
					 * line), or OSD_UNKNOWN */
	pid_t holder;			/* OSD_HELD: the process that holds it;
					 * 0: held while its cluster is read */
	struct job fsid;		/* ... by this job (readers.h) */
	bool prefork;			/* forked the daemon of its OSD id */
	bool dead;			/* gone: retire its state at next snapshot */
	bool exited;			/* had exited when the snapshot began */
	bool seen;			/* found by the scan under way */
};

struct proc_table {
	const char *proc_root;		/* PROC_ROOT (ceph/procs.h), or a fixture tree */
	bool verbose;			/* say each new process on stderr */
	bool scanning;			/* between begin_scan and end_scan */
	struct proc_slot slot[MAX_PROCS];
	int n;
	int untraced;			/* found at the last scan, not traced */
	int untraced_scan;		/* ... in the scan under way */
	struct dup_ids dup;		/* at the last scan */
	double wait_end;		/* the scan or snapshot under way waits
					 * for the clusters it reads no longer */
};

void proc_table_init(struct proc_table *pt, const char *proc_root, bool verbose);
void proc_table_close(struct proc_table *pt);

/* A rescan begins: every process is dead until the scan finds it again. */
void proc_table_begin_scan(struct proc_table *pt);
/* The scan found p: its OSD id claim is counted; if traced (its binary
 * is), it is known from now on, alive.  False if traced but the table is
 * full (counted as untraced). */
bool proc_table_note(struct proc_table *pt, const struct osd_proc *p, bool traced);
/* The scan is over. */
void proc_table_end_scan(struct proc_table *pt);

/* OSD id of a traced tgid (dead ones too until forgotten); one started
 * since the last scan is looked up and noted.  OSD_NONE if not a ceph-osd, or
 * not yet one that can be told (an exec under way: procs_inspect). */
int proc_table_osd_of(struct proc_table *pt, pid_t tgid);

/* A snapshot begins: note which processes have exited by now.  Their keys
 * are all read as dead, and retired, by this snapshot. */
void proc_table_note_exited(struct proc_table *pt);
/* Whether tgid runs: as noted when the snapshot began (one /proc read per
 * process and snapshot, not per map key), or, for a process not in the
 * table, as /proc says now. */
bool proc_table_alive(const struct proc_table *pt, pid_t tgid);
/* ... and once it has read the maps, forget them.  One that exited while
 * the maps were read may have had keys read as live: it stays, for its
 * OSD id, until the next snapshot retires them. */
void proc_table_forget_exited(struct proc_table *pt);

/* How many slots hold their ops (OSD_HELD), and the first one. */
int proc_table_held(const struct proc_table *pt, const struct proc_slot **first);

/* Traced processes the last scan found. */
int proc_table_live(const struct proc_table *pt);
/* osds, untraced and dup of the health report. */
void proc_table_health(const struct proc_table *pt, struct health_report *h);

/* The processes the self-check may ask, at most max of them into out;
 * returns how many. */
int proc_table_verify_targets(const struct proc_table *pt,
			      struct verify_target *out, int max);

#endif

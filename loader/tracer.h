/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_TRACER_H
#define OSDHIST_TRACER_H

#include <limits.h>
#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "binary.h"
#include "clock.h"
#include "cli.h"
#include "proctable.h"
#include "report.h"

/* A binary no process runs is kept this many scans (an OSD restart), unless
 * the file was deleted or replaced (an upgrade). */
#define IDLE_SCANS_KEEP	60

/* Sampling: probes are attached for the open window and until the ops that
 * started in it have drained; ops start being followed only while open. */
enum window { WIN_OPEN, WIN_DRAIN, WIN_CLOSED };

/* A ceph-osd binary (device + inode) and the uprobes on it. */
struct binary_slot {
	dev_t dev;
	ino_t ino;
	char build_id[41];
	char where[PATH_MAX];		/* the exe path as the process sees it */
	struct bpf_link *links[NR_PROBE_FNS];	/* NULL: not attached now */
	uint64_t fn_off[NR_PROBE_FNS];
	pid_t pid;			/* the process it was first seen in */
	int row;			/* its row in bpf/'s rows[]: the cookie */
	bool refused;			/* cannot be traced; said so once */
	int nprocs;			/* processes running it at the last scan */
	int fd;				/* pins the inode; its st_nlink tells an upgrade */
	int idle_scans;			/* scans in a row with no process */
};

/* Cumulative numbers for one (osd, pool, class, phase). */
struct series_acc {
	int osd;
	__s64 pool;
	__u8 cls, phase;
	struct hist retired;	/* from processes that have exited */
	struct hist live;	/* from running processes, this snapshot */
	struct hist prev;	/* retired + live at the previous snapshot */
};

struct tracer {
	const struct options *opt;
	const char *proc_root;
	struct osdhist_bpf *skel;
	bool multi;			/* uprobe_multi links, not perf-event uprobes */
	unsigned rows_used;		/* bit per row of bpf/'s rows[] */
	struct binary_slot bins[MAX_BINARIES];
	int nbins;
	struct proc_table procs;
	struct series_acc *series;
	int nseries, series_cap;
	struct series_delta *deltas;
	struct hist *percpu;	/* one value per possible CPU */
	int ncpus;
	__u64 reaped, unknown_ops;
	__u64 reaped_lost;	/* ... of which ops not yet done: lost */
	__u64 dropped;		/* in-flight entries the loader removed */
	__u64 evicted;		/* highest lower bound of LRU evictions seen */
	__u64 drain_ends;	/* --sample: window_ends at the last drain poll */
	double drain_moved;	/* ... and when it last moved */
	enum window win;
	double traced;		/* seconds the sampling gate has been open */
	double traced_prev;	/* ... at the previous snapshot */
	double win_since;	/* CLOCK_MONOTONIC when win last changed */
	double period_start;	/* when the current sampling period began */
	__u64 drain_timeouts;	/* ops still in flight when a drain timed out */
	__u64 moves;		/* sampling: probe moves (attach or detach sets) */
	double move_time;	/* ... and the seconds they took */
};

/* Loads the BPF programs (no probe yet).  0, or -1 after one line on stderr. */
int tracer_open(struct tracer *t, const struct options *opt);
void tracer_close(struct tracer *t);

/* attach.c: attach to the binary of a process, once per inode. */
int attach_binary(struct tracer *t, pid_t pid, const char *exe, dev_t dev, ino_t ino);
/* Detach every probe of every binary, all at once. */
void tracer_detach_all(struct tracer *t);
/* Move every binary's probes to what window win wants. */
int tracer_set_window(struct tracer *t, enum window win);
void detach_unused(struct tracer *t);

/* discover.c: rescan /proc; attach new binaries, let go of unused ones.
 * Returns the number of traced processes, or -1 on a fatal error. */
int tracer_discover(struct tracer *t);
/* OSD id of a traced tgid (dead ones too until retired), -2 if unknown. */
static inline int tracer_osd_of(struct tracer *t, pid_t tgid)
{
	return proc_table_osd_of(&t->procs, tgid);
}

/* snapshot.c: read the maps and fill r with the interval since the last
 * call that advanced (and the cumulative figures); without advance the next
 * interval still starts where the last advancing one ended. */
int tracer_snapshot(struct tracer *t, struct report *r, bool advance);
/* In-flight ops followed now (not marked outside the window). */
__u64 tracer_inflight_followed(struct tracer *t);
/* Removes every in-flight entry; returns how many were followed ops. */
__u64 tracer_drop_inflight(struct tracer *t);

/* sample.c: open, drain and close sampling windows.  Returns the
 * CLOCK_MONOTONIC time at which it wants to run next. */
double sampler_step(struct tracer *t, double now);

#endif

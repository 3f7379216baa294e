/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_TRACER_H
#define OSDHIST_TRACER_H

/*
 * struct tracer is the composition, not a bag: the loaded BPF object, the
 * trace configuration main gives it, and one component per job.  Each component's fields are written
 * only by the file that owns it; every other file calls its functions.
 *
 *   struct binaries    binaries.h, attach.c: binary slots, their rows of
 *                      bpf/'s rows[] and their uprobe links
 *   struct proc_table  proctable.h, proctable.c: traced processes, OSD
 *                      ids, liveness
 *   struct sampler     sampler.h, sample.c: the --sample window, traced
 *                      time, the cost of moving the probes
 *   struct snapshots   snapshot.h, snapshot.c: the cumulative series
 *                      and op-code counters, the report's deltas
 *   struct inflight_counts  inflight.h, inflight.c: what the loader
 *                      removed from the in-flight state, LRU evictions
 *   struct front       front.h, front.c: the per-CPU front rows of the
 *                      histograms and of the op-code counters
 *   skel, bpf, opt     tracer.c loads and unloads (and picks the kind of
 *                      uprobe), and alone knows the skeleton: the others
 *                      use its maps, programs and globals through bpf
 *                      (bpf_handles.h); discover.c composes a rescan of /proc
 *                      from the proc table and the binaries; sample.c's
 *                      sampler_step moves the binaries' probes
 */

#include <limits.h>
#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "binaries.h"
#include "bpf_handles.h"
#include "clock.h"
#include "front.h"
#include "inflight.h"
#include "kfeatures.h"
#include "proctable.h"
#include "report.h"
#include "sampler.h"
#include "snapshot.h"
#include "trace_config.h"

struct tracer {
	const struct trace_config *opt;	/* main's, from the options */
	const char *proc_root;	/* PROC_ROOT: the proc table has it too */
	struct osdhist_bpf *skel;	/* tracer.c's alone: the others use bpf */
	struct bpf_handles bpf;		/* its maps, programs and globals */
	struct variant variant;	/* which bpf/ runs, by the feature probes */
	struct binaries bins;
	struct proc_table procs;
	struct sampler smp;
	struct snapshots snap;
	struct inflight_counts inf;
	/* the per-CPU front rows: histograms, op-code counters */
	struct front hfront, ofront;
	int ncpus;		/* possible CPUs */
};

/* Loads the variant of the BPF programs that fits kf (no probe yet).  0,
 * or -1 after one line on stderr. */
int tracer_open(struct tracer *t, const struct trace_config *opt,
		const struct kfeatures *kf);
void tracer_close(struct tracer *t);

/* discover.c: rescan /proc; attach new binaries, let go of unused ones.
 * Returns the number of traced processes, or -1 on a fatal error. */
int tracer_discover(struct tracer *t);
/* discover.c: the -p process into *p, 0 if it is a ceph-osd.  Else
 * procs_inspect's -errno and, where it ends osdhist, one line on stderr
 * with the cause and what to do.  At the start (tracing false) every error
 * ends it; while tracing, two are not said: -EAGAIN, an exec or an exit
 * under way (keep what there was), and -ESRCH, the process is gone (the
 * caller says it has exited). */
int discover_pid(const char *proc_root, pid_t pid, bool tracing, struct osd_proc *p);
/* OSD of a traced tgid (dead ones too until retired), OSD_NONE if unknown. */
static inline int tracer_osd_of(struct tracer *t, pid_t tgid)
{
	return proc_table_osd_of(&t->procs, tgid);
}

/* Whether tgid runs, as the snapshot sees it (proc_table_alive). */
static inline bool tracer_alive(const struct tracer *t, pid_t tgid)
{
	return proc_table_alive(&t->procs, tgid);
}

/* The processes the self-check may ask (proctable.c), at most max. */
static inline int tracer_verify_targets(const struct tracer *t,
					struct verify_target *out, int max)
{
	return proc_table_verify_targets(&t->procs, out, max);
}

/* The first sampling window opens at now (CLOCK_MONOTONIC), with the
 * probes that attach at the first scan. */
static inline void tracer_start_sampling(struct tracer *t, double now)
{
	sampler_start(&t->smp, now);
}

/* snapshot.c: read the maps and fill r with the interval since the last
 * call that advanced (and the cumulative figures); without advance the next
 * interval still starts where the last advancing one ended. */
int tracer_snapshot(struct tracer *t, struct report *r, bool advance);
/* inflight.c: done marks and in-flight entries now, those of processes
 * that exited removed; *capacity: how many fit. */
__u64 tracer_scan_inflight(struct tracer *t, __u64 *capacity);
/* In-flight ops followed now (not marked outside the window). */
__u64 tracer_inflight_followed(struct tracer *t);
/* Removes every in-flight entry; returns how many were followed ops. */
__u64 tracer_drop_inflight(struct tracer *t);

/* sample.c: open, drain and close sampling windows (moving the binaries'
 * probes, dropping what is left in flight).  Returns the CLOCK_MONOTONIC
 * time at which it wants to run next. */
double sampler_step(struct tracer *t, double now);

#endif

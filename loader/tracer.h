/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_TRACER_H
#define OSDHIST_TRACER_H

/*
 * struct tracer is the composition, not a bag: the loaded BPF object, the
 * trace configuration main gives it, and one component per job.  Each
 * component's fields are written only by the file that owns it; every other
 * file calls its functions.  tracer.c is the only composer: below main.c,
 * which holds one and calls tracer_*, it alone knows struct tracer, and it
 * lends each component the parts it works on, never the whole.
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
 *                      (bpf_handles.h)
 *
 * What tracer.c composes: a rescan of /proc (discover.h: the proc table
 * and the binaries), a snapshot (snapshot.h's two halves, the in-flight
 * scan between them, the sampler's and the binaries' figures) and a
 * sampling step (sampler.h: the binaries' probes and the in-flight state).
 */

#include <limits.h>
#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "binaries.h"
#include "bpf_handles.h"
#include "discover.h"
#include "util/clock.h"
#include "front.h"
#include "inflight.h"
#include "kfeatures.h"
#include "proctable.h"
#include "report/report.h"
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
	/* bpf/procwatch.bpf.h's programs attached, and what discover.c
	 * last saw of their counter */
#define NR_WATCH 3
	struct bpf_link *watch[NR_WATCH];
	struct proc_watch watch_seen;
};

/* Loads the variant of the BPF programs that fits kf (no probe yet).  0,
 * or a negative errno after one line on stderr (libbpf's for a refused
 * load: -EPERM no privilege). */
int tracer_open(struct tracer *t, const struct trace_config *opt,
		const struct kfeatures *kf);
void tracer_close(struct tracer *t);

/* Rescan /proc; attach new binaries, let go of unused ones.  Returns the
 * number of traced processes, or a negative errno on a fatal error
 * (discover_scan's, said). */
int tracer_discover(struct tracer *t);

/* The processes the self-check may ask (proctable.c), at most max. */
int tracer_verify_targets(const struct tracer *t, struct verify_target *out, int max);

/* The first sampling window opens at now (CLOCK_MONOTONIC), with the
 * probes that attach at the first scan. */
void tracer_start_sampling(struct tracer *t, double now);

/* Read the maps and fill r with the interval since the last call that
 * advanced (and the cumulative figures); without advance the next interval
 * still starts where the last advancing one ended.  0, or -errno. */
int tracer_snapshot(struct tracer *t, struct report *r, bool advance);

/* --sample: open, drain and close sampling windows (sampler.h).  Returns
 * the CLOCK_MONOTONIC time at which it wants to run next. */
double tracer_sample_step(struct tracer *t, double now);

#endif

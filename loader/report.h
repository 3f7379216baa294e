/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_REPORT_H
#define OSDHIST_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "osdhist.h"

/* One interval's worth of one histogram series. */
struct series_delta {
	int osd;		/* -1: a process osdhist could not identify */
	__s64 pool;		/* -1 unless -P */
	__u8 cls;
	__u8 phase;
	struct hist h;		/* what happened in the interval */
	struct hist cum;	/* since osdhist started (Prometheus wants this) */
};

/* The tracer's own health, cumulative since osdhist started. */
struct health_report {
	__u64 bpf[NR_HEALTH];	/* summed per-CPU counters from bpf/ */
	__u64 reaped;		/* in-flight entries of dead processes removed */
	__u64 drain_timeouts;	/* --sample: ops still running when a drain timed out */
	double traced_total;	/* seconds ops were followed since osdhist started */
	__u64 window_moves;	/* --sample: times the probes were moved */
	double window_move_s;	/* ... and the seconds it took, in total */
	__u64 unknown_ops;	/* ops of processes not identified as an OSD */
	__u64 inflight;		/* in-flight map fill now */
	__u64 inflight_max;
	__u64 hists;		/* histogram keys in use now */
	__u64 hists_max;
	int osds;		/* ceph-osd processes found now, traced or not */
	int untraced;		/* ... of which not traced (binary refused) */
	int binaries;		/* ceph-osd binaries attached now */
};

struct report {
	double time;		/* unix seconds at the end of the interval */
	double interval;	/* seconds the interval lasted */
	double traced;		/* seconds of it ops were followed (the sampling
				 * gate open): the interval, unless --sample */
	bool sampled;
	const struct series_delta *s;
	int n;
	struct health_report health;
};

extern const char *const class_name[NR_CLASSES];
extern const char *const phase_name[NR_PHASES];
extern const char *const health_name[NR_HEALTH];

/* Counters that mean an op was not followed (as opposed to activity). */
bool health_is_loss(int h);

/* The loss counters the loader keeps, beside the BPF ones, in output order. */
#define NR_LOADER_LOSSES 3
struct loader_loss {
	const char *name;
	__u64 value;
};
void health_loader_losses(const struct health_report *h,
			  struct loader_loss out[NR_LOADER_LOSSES]);
/* Total of every loss counter, loader-side ones included. */
__u64 health_losses(const struct health_report *h);

void render_text(FILE *f, const struct report *r, bool timestamp, bool millis);
void render_json(FILE *f, const struct report *r);

#endif

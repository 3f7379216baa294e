/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_SAMPLER_H
#define OSDHIST_SAMPLER_H

#include <stdbool.h>
#include <linux/types.h>

#include "report/report.h"	/* struct window_span, WINDOW_SPANS_MAX */

/*
 * --sample: the state of the sampling windows (sample.c explains them).
 * Only sample.c writes these fields; the window the probes follow is read
 * with sampler_window(), the traced time and the cost with the functions
 * below.  sampler_step() moves the probes: it is lent the parts of the
 * tracer it moves (struct sample_parts).
 */

/* Probes are attached for the open window and until the ops that started
 * in it have drained; ops start being followed only while open. */
enum window { WIN_OPEN, WIN_DRAIN, WIN_CLOSED };

struct health_report;
struct binaries;
struct bpf_handles;
struct inflight_counts;
struct trace_config;

struct sampler {
	enum window win;
	double traced;		/* seconds the sampling gate has been open */
	double traced_prev;	/* ... at the previous advancing snapshot */
	double win_since;	/* CLOCK_MONOTONIC when win last changed */
	double period_start;	/* when the current sampling period began */
	__u64 drain_ends;	/* window_ends at the last drain poll */
	double drain_moved;	/* ... and when it last moved */
	__u64 drain_timeouts;	/* ops still in flight when a drain timed out */
	__u64 moves;		/* probe moves (attach or detach sets) */
	double move_time;	/* ... and the seconds they took */
	struct window_span spans[WINDOW_SPANS_MAX];
	int nspans;		/* closed since the last advancing snapshot */
	__u64 spans_unlisted;	/* ... beyond WINDOW_SPANS_MAX, all along */
};

/* The first window opens at now (CLOCK_MONOTONIC), with the probes that
 * attach at the first scan. */
void sampler_start(struct sampler *s, double now);

/* What sampler_step works on besides the sampler (tracer.c lends them). */
struct sample_parts {
	const struct trace_config *opt;	/* --sample, --drain-timeout */
	struct binaries *bins;		/* whose probes move */
	const struct bpf_handles *bpf;	/* window_ends, the in-flight state */
	struct inflight_counts *inf;	/* counts what a closed window drops */
};

/* Open, drain and close sampling windows (moving the binaries' probes,
 * dropping what is left in flight).  Returns the CLOCK_MONOTONIC time at
 * which it wants to run next. */
double sampler_step(struct sampler *s, const struct sample_parts *p, double now);

static inline enum window sampler_window(const struct sampler *s)
{
	return s->win;
}

/* Seconds the gate was open since the last call with advance, up to now. */
double sampler_traced(struct sampler *s, bool advance);

/* The windows closed since the last call with advance (*n of them), and
 * from then on none. */
const struct window_span *sampler_spans(struct sampler *s, bool advance, int *n);

/* Its cost and its cut drains, into the health report. */
void sampler_health(const struct sampler *s, struct health_report *h);

#endif

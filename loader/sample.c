// SPDX-License-Identifier: GPL-2.0
/*
 * --sample ON/PERIOD: every uprobe hit is a trap whether or not the program
 * does anything, so the only way to cost less than full tracing is to have
 * no probe at all most of the time.  A window opens (every probe attached,
 * then ops received from then on are traced), closes after ON (ops received
 * from then on are not the window's), drains (the probes stay while the
 * window's ops keep ending, up to the drain timeout), then everything is
 * detached until the next PERIOD.
 *
 * With end probes only, nothing counts a window's ops while they run: the
 * drain ends once no op of the window has ended for DRAIN_QUIET.  One that
 * is still running then and ends in a later window is counted as late; one
 * that ends while no probe is in is not seen at all, so DRAIN_QUIET is far
 * longer than an op's latency on a healthy OSD.
 */
#include <stdio.h>
#include <linux/types.h>

#include "osdhist.h"

#include "binaries.h"
#include "bpf_handles.h"
#include "util/clock.h"
#include "inflight.h"
#include "report/report.h"
#include "sampler.h"
#include "trace_config.h"

/* How often a draining window checks whether its ops have ended, and how
 * long none of them must have ended for the drain to be over. */
#define DRAIN_POLL 0.005
#define DRAIN_QUIET 0.1

/* Traced time runs from the moment the gate opens (after the probes are in)
 * to the moment it shuts. */
static void move_to(struct sampler *s, const struct sample_parts *p,
		    enum window win, double now)
{
	double done;

	struct window_span span = { 0 };

	if (s->win == WIN_OPEN)
		s->traced += now - s->win_since;
	s->win = win;
	if (binaries_set_window(p->bins, win, &span) < 0)
		fprintf(stderr, "osdhist: some probes could not be moved to the "
			"next sampling window\n");
	if (win == WIN_DRAIN && span.open_rt) {	/* 0: nothing was traced */
		if (s->nspans < WINDOW_SPANS_MAX)
			s->spans[s->nspans++] = span;
		else
			s->spans_unlisted++;
	}
	/* No probe is left: a done mark whose op ends now would stay, and an
	 * OpRequest address reused later must not find it. */
	if (win == WIN_CLOSED)
		s->drain_timeouts += inflight_drop(p->bpf, p->inf);
	done = mono_now();
	s->moves++;
	s->move_time += done - now;
	s->win_since = win == WIN_OPEN ? done : now;
}

/* Are the window's ops still ending (or, with -P or --phases, any of them
 * still in the in-flight map)? */
static bool drain_busy(struct sampler *s, const struct sample_parts *p, double now)
{
	__u64 ends = __atomic_load_n(p->bpf->window_ends, __ATOMIC_RELAXED);

	if (ends != s->drain_ends) {
		s->drain_ends = ends;
		s->drain_moved = now;
	}
	return now < s->drain_moved + DRAIN_QUIET || inflight_followed(p->bpf);
}

double sampler_step(struct sampler *s, const struct sample_parts *p, double now)
{
	const struct trace_config *o = p->opt;

	if (o->sample_on <= 0)
		return now + 3600;	/* full tracing: nothing to do */

	switch (s->win) {
	case WIN_OPEN:
		if (now < s->win_since + o->sample_on)
			return s->win_since + o->sample_on;
		move_to(s, p, WIN_DRAIN, now);
		s->drain_ends = __atomic_load_n(p->bpf->window_ends,
						__ATOMIC_RELAXED);
		s->drain_moved = now;
		/* fall through */
	case WIN_DRAIN:
		if (drain_busy(s, p, now)) {
			if (now < s->win_since + o->drain_timeout)
				return now + DRAIN_POLL;
			s->drain_timeouts++;	/* cut short: said in health */
		}
		move_to(s, p, WIN_CLOSED, now);
		/* fall through */
	case WIN_CLOSED:
		if (now < s->period_start + o->sample_period)
			return s->period_start + o->sample_period;
		move_to(s, p, WIN_OPEN, now);
		s->period_start = now;
		return now + o->sample_on;
	}
	return now + o->sample_on;
}

void sampler_start(struct sampler *s, double now)
{
	s->win = WIN_OPEN;
	s->win_since = s->period_start = now;
}

double sampler_traced(struct sampler *s, bool advance)
{
	double traced = s->traced, d;

	if (s->win == WIN_OPEN)
		traced += mono_now() - s->win_since;
	d = traced - s->traced_prev;
	if (advance)
		s->traced_prev = traced;
	return d;
}

const struct window_span *sampler_spans(struct sampler *s, bool advance, int *n)
{
	*n = s->nspans;
	if (advance)	/* the caller prints them before the next move */
		s->nspans = 0;
	return s->spans;
}

void sampler_health(const struct sampler *s, struct health_report *h)
{
	h->windows_unlisted = s->spans_unlisted;
	h->drain_timeouts = s->drain_timeouts;
	h->window_moves = s->moves;
	h->window_move_s = s->move_time;
}

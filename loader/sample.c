// SPDX-License-Identifier: GPL-2.0
/*
 * --sample ON/PERIOD: every uprobe hit is a trap whether or not the program
 * does anything, so the only way to cost less than full tracing is to have
 * no probe at all most of the time.  A window opens (every probe attached,
 * then the gate in bpf/ opened), closes after ON (the gate shut: ops that
 * start now are marked outside), drains (the probes stay until every op
 * followed in the window has ended, or the drain timeout), then everything
 * is detached until the next PERIOD.
 */
#include <stdio.h>

#include "tracer.h"

/* How often a draining window checks whether its ops have ended. */
#define DRAIN_POLL 0.005

/* Traced time runs from the moment the gate opens (after the probes are in)
 * to the moment it shuts. */
static void move_to(struct tracer *t, enum window win, double now)
{
	double done;

	if (t->win == WIN_OPEN)
		t->traced += now - t->win_since;
	if (tracer_set_window(t, win))
		fprintf(stderr, "osdhist: some probes could not be moved to the "
			"next sampling window\n");
	done = mono_now();
	t->moves++;
	t->move_time += done - now;
	t->win_since = win == WIN_OPEN ? done : now;
}

double sampler_step(struct tracer *t, double now)
{
	const struct options *o = t->opt;

	if (o->sample_on <= 0)
		return now + 3600;	/* full tracing: nothing to do */

	switch (t->win) {
	case WIN_OPEN:
		if (now < t->win_since + o->sample_on)
			return t->win_since + o->sample_on;
		move_to(t, WIN_DRAIN, now);
		/* fall through - its ops may all have ended already */
	case WIN_DRAIN:
		if (tracer_inflight_followed(t) &&
		    now < t->win_since + o->drain_timeout)
			return now + DRAIN_POLL;
		/* Detach first, then drop what is left: followed ops still
		 * running at the timeout (counted) and ops marked outside. */
		move_to(t, WIN_CLOSED, now);
		t->drain_timeouts += tracer_drop_inflight(t);
		/* fall through */
	case WIN_CLOSED:
		if (now < t->period_start + o->sample_period)
			return t->period_start + o->sample_period;
		move_to(t, WIN_OPEN, now);
		t->period_start = now;
		return now + o->sample_on;
	}
	return now + o->sample_on;
}

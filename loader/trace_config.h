/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_TRACE_CONFIG_H
#define OSDHIST_TRACE_CONFIG_H

#include <stdbool.h>
#include <sys/types.h>

/* How many processes osdhist traces at once: the proc table's slots, and
 * so the self-check's targets and main's poll set.  More are counted as
 * untraced (proctable.h).  Here, not in proctable.h, because the
 * self-check and main size their arrays by it and need nothing else of
 * the proc table. */
#define MAX_PROCS	256

/*
 * What the tracer core needs of the command line, and nothing else: main.c
 * fills it from struct options (cli.h), which nothing below main knows.
 */
struct trace_config {
	pid_t pid;		/* -p: only this process, 0 = all */
	int osd;		/* --osd: only this OSD id is checked, -1 = all */
	bool pool;		/* -P: key histograms by pool id too */
	bool phases;		/* --phases: execute/commit phases (more probes) */
	bool no_subops;		/* --no-subops */
	bool no_op_types;	/* --no-op-types: no op codes, no op types */
	int slowest;		/* --slowest K: slowest ops per OSD and interval, 0 = off */
	bool perf_uprobes;	/* --perf-uprobes: no uprobe_multi links */
	double sample_on;	/* --sample ON/PERIOD, seconds; 0 = full tracing */
	double sample_period;
	double drain_timeout;	/* --drain-timeout, seconds */
	bool verbose;		/* -v: libbpf and attach details on stderr */
};

#endif

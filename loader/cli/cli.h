/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_CLI_H
#define OSDHIST_CLI_H

#include <stdbool.h>
#include <sys/types.h>

#include "output/prom.h"
#include "util/version.h"

/* Without --table or --text: the table once more than this many OSDs are
 * traced and stdout is a terminal (main.c says why). */
#define TABLE_AUTO_OSDS	4

struct options {
	double interval;	/* seconds between snapshots */
	long count;		/* snapshots to print, 0 = until a signal */
	bool timestamp;		/* -T */
	bool millis;		/* -m */
	bool json;		/* --json */
	bool table;		/* --table (or --sort) */
	bool text;		/* --text: never the table */
	int sort;		/* --sort: enum table_sort (output/render.h) */
	bool sorted;		/* --sort given: --table, unless --top */
	bool top;		/* --top: the table full screen, live */
	int heatmap;		/* --heatmap CLASS: enum op_class; -1, off */
	bool pool;		/* -P: key histograms by pool id too */
	bool phases;		/* --phases: execute/commit phases (more probes) */
	bool no_subops;		/* --no-subops */
	bool no_op_types;	/* --no-op-types: no op codes, no op types */
	int slowest;		/* --slowest K: slowest ops per OSD and interval */
	pid_t pid;		/* -p: only this process, 0 = all */
	int osd;		/* --osd: only this OSD id, -1 = all */
	bool verbose;		/* -v: libbpf and attach details on stderr */
	bool perf_uprobes;	/* --perf-uprobes: no uprobe_multi links */
	double sample_on;	/* --sample ON/PERIOD, seconds; 0 = full tracing */
	double sample_period;
	double drain_timeout;	/* --drain-timeout, seconds */
	const char *prometheus;	/* --prometheus [ADDR:]PORT, NULL = off */
	char prom_host[256];	/* its address, 127.0.0.1 by default */
	unsigned prom_port;	/* 0 = any free port */
	const char *textfile;	/* --textfile PATH, NULL = off */
	struct prom_buckets buckets;	/* --prom-buckets, in ns */
	bool quiet;		/* --quiet: no snapshots on stdout */
	bool no_verify;		/* --no-verify: no check against perf dump */
	const char *inspect;	/* --inspect PATH: report on a binary, exit */
	bool list;		/* --list: report on every running ceph-osd, exit */
	bool exit_now;		/* --help/--usage/--version printed: exit 0 */
};

/* "1.5", "1500ms", "2s", "1m" -> seconds; -1 if not a duration. */
double cli_duration(const char *s);

/* Parses argv into *o.  Returns 0 on success; on a user error prints one
 * line on stderr and returns -EINVAL (main exits 2: bad usage); argp's own
 * failure (-ENOMEM) returns its errno. */
int cli_parse(int argc, char **argv, struct options *o);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_SNAPSHOT_H
#define OSDHIST_SNAPSHOT_H

#include <linux/types.h>

#include "calls.h"
#include "osdhist.h"
#include "report.h"
#include "slowops.h"

/*
 * What snapshot.c keeps from one snapshot to the next: the cumulative
 * series and op-code counters, the report's delta arrays, and the figures
 * only it counts.  Only snapshot.c writes these fields; the tracer calls
 * tracer_snapshot() (tracer.h).
 */

/* Cumulative numbers for one (osd, pool, class, op type, phase): a class
 * series has optype OPTYPE_ALL, an op-type series pool -1. */
struct series_acc {
	int osd;
	__s64 pool;
	__u8 cls, optype, phase;
	struct hist retired;	/* from processes that have exited */
	struct hist live;	/* from running processes, this snapshot */
	struct hist prev;	/* retired + live at the previous snapshot */
};

/* Cumulative op-code counters of one OSD. */
struct opc_acc {
	int osd;
	struct op_counts retired, live, prev;
};

struct snapshots {
	struct series_acc *series;
	int nseries, series_cap;
	struct series_delta *deltas;	/* series_cap: the report's series */
	struct opc_acc *opc;	/* by op id (calls.h) */
	int nopc, opc_cap;
	struct opcode_delta *opd;	/* opc_cap * NR_OPX */
	struct call_xlate calls;	/* bpf/'s call numbers -> op ids */
	__u64 call_keys;		/* the calls map's keys, at the last read */
	int ncpus;		/* possible CPUs: values per key of a per-CPU map */
	__u64 unknown_ops;	/* ops of exited processes never identified */
	__u64 held_ops;		/* ops of processes whose OSD is undecided */
	struct slow_list slow;	/* the last closed interval's slowest ops */
	__u64 slow_keys;	/* the slowops map's keys, at the last read */
	__u64 slow_unread;
};

/* Counts the possible CPUs; 0, or -1 after one line on stderr. */
int snapshots_init(struct snapshots *s);
void snapshots_free(struct snapshots *s);

#endif

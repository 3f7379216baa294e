/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_SNAPSHOT_H
#define OSDHIST_SNAPSHOT_H

#include <linux/types.h>

#include "report/calls.h"
#include "util/deadkeys.h"
#include "osdhist.h"
#include "report/report.h"
#include "report/slowops.h"

/*
 * What snapshot.c keeps from one snapshot to the next: the cumulative
 * series and op-code counters, the report's delta arrays, and the figures
 * only it counts.  Only snapshot.c writes these fields; tracer.c takes a
 * snapshot with snapshot_read() and snapshot_report() (below).
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

/* Counts the possible CPUs; 0, or libbpf's negative errno after one line
 * on stderr. */
int snapshots_init(struct snapshots *s);
void snapshots_free(struct snapshots *s);

struct bpf_handles;
struct front;
struct inflight_counts;
struct proc_table;
struct trace_config;

/* What a snapshot reads and writes besides its own snapshots (tracer.c
 * lends them). */
struct snap_parts {
	const struct trace_config *opt;	/* -P, --phases, --slowest */
	const struct bpf_handles *bpf;	/* the maps it reads, slow_gen */
	struct proc_table *procs;	/* the keys' OSDs; exited ones forgotten */
	struct snapshots *snap;
	struct front *hfront, *ofront;	/* the histograms', the op codes' */
	struct inflight_counts *inf;	/* for the LRU evictions it infers */
};

/* One snapshot from its first half to its second. */
struct snap_pass {
	size_t deferred;		/* dead keys that found no room: next time */
	struct dead_keys dead_calls;	/* calls keys of processes gone at the start */
};

/*
 * A snapshot in two halves, because the in-flight state (inflight.h) is
 * scanned between them: bpf/'s entries counted before the scan and its
 * removals counted after it make the evictions a lower bound.
 * snapshot_read reads the maps and fills r->health's key counts and bpf/'s
 * counters: 0, or -errno (nothing to undo, no second half).  The caller
 * then sets r->health.inflight, and snapshot_report fills the rest of r
 * with the interval since the last call that advanced (and the cumulative
 * figures); without advance the next interval still starts where the last
 * advancing one ended.
 */
int snapshot_read(const struct snap_parts *sp, struct snap_pass *pass,
		  struct health_report *h, bool advance);
void snapshot_report(const struct snap_parts *sp, struct snap_pass *pass,
		     struct report *r, bool advance);

#endif

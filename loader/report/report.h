/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_REPORT_H
#define OSDHIST_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "osdhist.h"
#include "names.h"	/* NR_HTTP_REJECT, the counters health carries */
#include "util/osd_id.h"	/* OSD_UNKNOWN, ...: the series no OSD id names */

/* The variant of bpf/ that runs, and why: what the health line, --list and
 * --inspect -v print (kfeatures_variant() chooses it). */
struct variant {
	const char *clock;	/* "tai" | "mono+offset" */
	const char *scan;	/* "bpf_loop" | "loop" */
	const char *uprobes;	/* "multi" | "perf" */
};

/* A window's traced time in CLOCK_REALTIME ns, the clock of Ceph's
 * recv_stamp: every traced binary followed the ops received in
 * [open_rt, close_rt) (a binary attached during the window, from its
 * attach: open_rt is the latest of their opens). */
struct window_span {
	__u64 open_rt, close_rt;
};

/* The windows closed since the last advancing snapshot that a report
 * lists; more in one interval are counted, not listed. */
#define WINDOW_SPANS_MAX 64

/* One interval's worth of one histogram series: a class series
 * (optype OPTYPE_ALL) or an op-type series (pool -1). */
struct series_delta {
	int osd;		/* or OSD_UNKNOWN, OSD_DUPLICATE (osd_id.h) */
	__s64 pool;		/* -1 unless -P */
	__u8 cls;
	__u8 optype;		/* enum op_index, or OPTYPE_ALL */
	__u8 phase;
	struct hist h;		/* what happened in the interval */
	struct hist cum;	/* since osdhist started (Prometheus wants this) */
};

/* One OSD's ops of one op code: in the interval, and since osdhist started. */
struct opcode_delta {
	int osd;
	__u8 opi;		/* enum op_index */
	__u64 ops, failed;
	__u64 ops_cum, failed_cum;
};

/* The maps whose keys osdhist creates as ops come (map full: hist_full). */
enum keymap { KM_HISTS, KM_PHASE_HISTS, KM_OPCOUNTS, KM_CALLS, KM_SLOWOPS, NR_KEYMAPS };
extern const char *const keymap_name[NR_KEYMAPS];

/* OSD ids that more than one live ceph-osd process claims (--id N on each
 * command line): a fake next to the real OSD, or a second cluster.  The
 * osd.N series stay those of the process that held the id first, and only
 * if it is traced; the others are never merged into them. */
#define DUP_IDS_LISTED	8
struct dup_id {
	int osd;
	int procs;		/* live processes claiming it (255: 255 or more) */
	int pid;		/* the one osd.N's series are from; 0: none traced */
};
struct dup_ids {
	int n;			/* OSD ids claimed more than once, at the last scan */
	struct dup_id id[DUP_IDS_LISTED];	/* the first min(n, DUP_IDS_LISTED) */
};

/* The tracer's own health, cumulative since osdhist started. */
struct health_report {
	__u64 bpf[NR_HEALTH];	/* summed per-CPU counters from bpf/ */
	__u64 reaped;		/* in-flight entries of dead processes removed */
	__u64 evicted;		/* in-flight entries gone without their op's end
				 * (LRU eviction): at least this many */
	__u64 drain_timeouts;	/* --sample: drains cut by the timeout while the
				 * window's ops were still ending, and (-P,
				 * --phases) ops still in flight then */
	double traced_total;	/* seconds ops were followed since osdhist started */
	__u64 window_moves;	/* --sample: times the probes were moved */
	__u64 windows_unlisted;	/* --sample: closed windows not listed in a
				 * report (more than WINDOW_SPANS_MAX in one) */
	double window_move_s;	/* ... and the seconds it took, in total */
	__u64 unknown_ops;	/* ops of processes not identified as an OSD */
	__u64 inflight;		/* in-flight map fill now */
	__u64 inflight_max;
	__u64 hists;		/* histogram keys in use now, both maps */
	__u64 hists_max;
	/* per-CPU front rows in use now (maps/osdhist.h), and how many */
	__u32 front_rows, front_rows_max, opc_rows, opc_rows_max;
	__u64 keys[NR_KEYMAPS];	/* ... per map, and op-code counter keys */
	__u64 keys_max[NR_KEYMAPS];
	int osds;		/* ceph-osd processes found now, traced or not */
	int untraced;		/* ... of which not traced (binary refused) */
	int binaries;		/* ceph-osd binaries attached now */
	struct dup_ids dup;	/* OSD ids claimed by more than one process */
	int held;		/* processes whose OSD is undecided (OSD_HELD) */
	int held_pid, held_osd, held_holder;	/* the first: it claims held_osd,
						 * which held_holder runs */
	__u64 held_ops;		/* their ops, in no series until decided */
	struct variant variant;	/* the bpf/ variant that runs (NULLs: unknown) */
	__u64 slow_unread;	/* slowest-op sets still being written after the
				 * wait (slowops.h): not in their interval */
	bool http;		/* --prometheus: http_rejected is meaningful */
	__u64 http_rejected[NR_HTTP_REJECT];
};

struct verify_report;	/* verify.h */
struct slow_entry;	/* slowops.h */

struct report {
	double time;		/* unix seconds at the end of the interval */
	double interval;	/* seconds the interval lasted */
	double traced;		/* seconds of it ops were followed (the sampling
				 * gate open): the interval, unless --sample */
	bool sampled;
	const struct window_span *windows;	/* --sample: closed in the interval */
	int nwindows;
	const struct series_delta *s;
	int n;
	const struct opcode_delta *opc;	/* by OSD, then op code */
	int nopc;
	struct health_report health;
	const struct verify_report *verify;	/* per OSD; NULL with --no-verify */
	int nverify;
	/* the last closed interval's slowest ops, by OSD, slowest first */
	const struct slow_entry *slow;
	int nslow;
	int slow_k;		/* --slowest: slots per OSD; 0, off */
};

/* Counters that mean an op was not followed (as opposed to activity). */
bool health_is_loss(int h);

/* The loss counters the loader keeps, beside the BPF ones, in output order. */
#define NR_LOADER_LOSSES 4
struct loader_loss {
	const char *name;
	__u64 value;
};
void health_loader_losses(const struct health_report *h,
			  struct loader_loss out[NR_LOADER_LOSSES]);
/* Total of every loss counter, loader-side ones included. */
__u64 health_losses(const struct health_report *h);

/* An OSD's name in text (clusters.h): "osd.N"; "osd.N@1b2c3d4e", its
 * cluster's fsid's first 8 digits, once more than one cluster is traced;
 * osd.dup and osd.? for the series no OSD id names. */
#define OSD_LABEL_MAX	32
void osd_label(char out[OSD_LABEL_MAX], int osd);

/* --osd: points r's series, op codes and verify lines at copies of those of
 * OSD id osd only (of every cluster), in one buffer the caller frees after rendering (NULL: out
 * of memory, r untouched).  The arrays r pointed to are never written:
 * they are the tracer's, for the next snapshot.  A NULL verify (--no-verify)
 * stays NULL. */
void *report_keep_osd(struct report *r, int osd);
/* ... with osd REPORT_EVERY_OSD: every series, op code, verify line and
 * slowest op, a copy that outlives the tracer's next snapshot (--top). */
#define REPORT_EVERY_OSD	(-1000)	/* no OSD id, no osd_id.h name */

#endif

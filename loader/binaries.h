/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_BINARIES_H
#define OSDHIST_BINARIES_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <linux/types.h>
#include "osdhist.h"
#include "ceph/binary.h"
#include "util/job.h"
#include "sampler.h"

/*
 * The ceph-osd binaries being traced (attach.c): one slot per binary
 * (device + inode), its row of bpf/'s rows[] (the probes' cookie) and its
 * uprobe links.  Only attach.c writes these fields.
 *
 * A binary osdhist refuses takes no slot: anyone can run a renamed copy
 * of anything as ceph-osd, and MAX_BINARIES slots (bpf/'s rows) are for
 * binaries osdhist traces.  Its verdict is remembered apart, in a small
 * table of (device, inode, size, ctime), so it is inspected, and its
 * refusal said, once, not at every scan.
 */

/* A binary no process runs is kept this many scans (an OSD restart), unless
 * the file was deleted or replaced (an upgrade). */
#define IDLE_SCANS_KEEP	60

/* Refusals remembered (48 bytes each).  When more distinct refused
 * binaries run than this, the one seen least recently is forgotten, never
 * one seen in the scan under way (a scan would otherwise evict each before
 * it is seen again): only the excess is inspected again at each scan.  An
 * inspection costs ~1 ms for a renamed sleep, at most ~0.7 s of CPU for the
 * worst file (binary.h), so this many is what a scan is spared. */
#define REFUSED_KEEP	4096

struct bpf_link;
struct trace_config;
struct bpf_handles;
struct osd_proc;

/* A binary refused: which one, in which version of its file. */
struct refused_bin {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec ctime;
	uint64_t seen;			/* scan it was last seen in */
};

/* A ceph-osd binary (device + inode) and the uprobes on it. */
struct binary_slot {
	dev_t dev;
	ino_t ino;
	char build_id[41];
	char where[PATH_MAX];		/* the exe path as the process sees it */
	struct bpf_link *links[NR_PROBE_FNS];	/* NULL: not attached now */
	uint64_t fn_off[NR_PROBE_FNS];
	pid_t pid;			/* the process it was first seen in */
	int row;			/* its row in bpf/'s rows[]: the cookie */
	int nprocs;			/* processes running it at the last scan */
	int fd;				/* pins the inode; its st_nlink tells an upgrade */
	int idle_scans;			/* scans in a row with no process */
};

/* A binary being inspected by a job (readers.h), over scans if it must. */
#define PENDING_MAX	4
/* How long a scan waits for the inspections it started, in all. */
#define SCAN_WAIT_S	0.4
struct pending_bin {
	dev_t dev;
	ino_t ino;
	struct job job;			/* pid 0: free */
	uint64_t scan;			/* the last scan that asked for it */
};

struct binaries {
	const struct bpf_handles *bpf;	/* its programs, and bpf/'s rows[] */
	const struct trace_config *opt;	/* the options the probes follow */
	bool multi;			/* uprobe_multi links, not perf-event uprobes */
	unsigned rows_used;		/* bit per row of bpf/'s rows[] */
	struct binary_slot slot[MAX_BINARIES];
	int n;
	struct refused_bin refused[REFUSED_KEEP];
	int nrefused;
	uint64_t scan;			/* scans begun */
	struct pending_bin pending[PENDING_MAX];
	double wait_end;		/* the scan under way waits no longer */
};

/* bpf is loaded; multi as tracer_open() chose it for the programs. */
void binaries_init(struct binaries *bs, const struct bpf_handles *bpf,
		   const struct trace_config *opt, bool multi);
/* Detach everything and close the binaries (also after a failed open). */
void binaries_close(struct binaries *bs);

/* A rescan of /proc begins: no process is known to run any binary. */
void binaries_begin_scan(struct binaries *bs);
/* What became of a process's binary.  The scan stops at FATAL and counts
 * TRACED; REFUSED and RETRY differ in whether the verdict is kept. */
enum attach_result {
	ATTACH_TRACED,		/* its probes are in place (or already were) */
	ATTACH_REFUSED,		/* not traced, said once: remembered, not inspected again */
	ATTACH_RETRY,		/* not traced, not remembered: the next scan tries
				 * again (the process left before its binary could
				 * be opened, or every slot is taken) */
	ATTACH_FATAL,		/* said: no privilege to attach, osdhist stops */
};

/* Process p runs this binary: attach its probes once per inode, as window
 * win wants them. */
enum attach_result binaries_attach(struct binaries *bs, const struct osd_proc *p,
				   enum window win);
/* The scan is over: let go of binaries no process runs any more. */
void binaries_release_unused(struct binaries *bs);

/* Move every binary's probes to what window win wants.  0, or -EPERM when
 * a probe could not be attached for want of privilege (said; a refusal
 * for another cause is said, not returned).  At WIN_DRAIN, *span gets the
 * window's traced time as bpf/ bounds it (the rows' open_rt, the close
 * just stored); otherwise span is left alone. */
int binaries_set_window(struct binaries *bs, enum window win,
			struct window_span *span);
/* Detach every probe of every binary, all at once. */
void binaries_detach_all(struct binaries *bs);

/* How many binaries are traced now. */
int binaries_traced(const struct binaries *bs);

#endif

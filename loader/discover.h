/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_DISCOVER_H
#define OSDHIST_DISCOVER_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#include "sampler.h"

/*
 * A rescan of /proc (discover.c): the processes found go to the proc
 * table, the binaries they run to the binaries.  tracer.c lends it those
 * two and the BPF handles, whose clock offsets each scan brings up to date.
 */
struct binaries;
struct bpf_handles;
struct osd_proc;
struct proc_table;

/* What a rescan last saw of bpf/'s process events: it walks /proc when
 * they moved since, or when PROC_WALK_MAX_S have passed. */
struct proc_watch {
	__u64 seen;		/* bpf/'s proc_changes at the last walk */
	double walked;		/* mono_now() of the last walk, 0: none yet */
	double max_s;		/* PROC_WALK_MAX_S (the test build's hook) */
};

/* The longest between two walks of /proc while no event says one is
 * needed: what bpf/procwatch.bpf.h cannot see (an OSD only its binary's
 * name or argv[0] names, an OSD that execs another program) is found
 * within this. */
#define PROC_WALK_MAX_S	10.0

struct discover_parts {
	const struct bpf_handles *bpf;	/* bpf/'s clock offsets */
	struct binaries *bins;
	struct proc_table *procs;
	const char *proc_root;
	pid_t pid;		/* -p: only this process, 0 = all */
	enum window win;	/* as a new binary's probes are attached */
	struct proc_watch *watch;
};

/* Rescan: attach new binaries, let go of unused ones, if bpf/'s process
 * events (or PROC_WALK_MAX_S) say /proc may have changed.  Returns the
 * number of traced processes, or a negative errno on a fatal error (said):
 * -p's process no longer one to trace (discover_pid's), /proc unreadable,
 * -EPERM no privilege to attach. */
int discover_scan(const struct discover_parts *p);
/* The -p process into *p, 0 if it is a ceph-osd.  Else procs_inspect's
 * -errno and, where it ends osdhist, one line on stderr with the cause and
 * what to do.  At the start (tracing false) every error ends it; while
 * tracing, two are not said: -EAGAIN, an exec or an exit under way (keep
 * what there was), and -ESRCH, the process is gone (the caller says it
 * has exited). */
int discover_pid(const char *proc_root, pid_t pid, bool tracing, struct osd_proc *p);

#endif

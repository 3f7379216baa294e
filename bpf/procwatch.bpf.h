/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When /proc may hold a new OSD or have lost one: a counter the loader
 * reads before it walks /proc (loader/discover.c), so that a quiet host is
 * not walked every second.  An OSD comes with an exec (systemd, cephadm,
 * a restart) and a daemonizing start with a fork of ceph-osd, and goes
 * with an exit; each bumps proc_changes.  Only processes named like an
 * OSD count (the first 8 bytes of comm, the name exec gives it): a host's
 * other execs and forks are not the tracer's business, and cost these
 * programs one comm read.  An OSD that only its binary's name or argv[0]
 * betrays (procs.c), and an OSD that execs another program, are found by
 * the walk the loader still makes every PROC_WALK_MAX_S.  Not per op:
 * these run per exec, fork and exit.
 */
#ifndef OSDHIST_PROCWATCH_BPF_H
#define OSDHIST_PROCWATCH_BPF_H

#include "base.bpf.h"

__u64 proc_changes = 0;

/* Eight characters as the u64 they make in memory (little-endian: x86-64
 * and arm64 alike). */
#define HEAD8(s) ((__u64)(s)[0] | (__u64)(s)[1] << 8 | (__u64)(s)[2] << 16 |	\
		  (__u64)(s)[3] << 24 | (__u64)(s)[4] << 32 |			\
		  (__u64)(s)[5] << 40 | (__u64)(s)[6] << 48 | (__u64)(s)[7] << 56)

/* "ceph-osd" (and ceph-osd-classic), "crimson-" (crimson-osd): the names
 * loader/ceph/procs.c takes for an OSD, by their first 8 bytes. */
static __always_inline bool osd_named(void)
{
	char c[TASK_COMM_LEN] = {};
	__u64 head;

	bpf_get_current_comm(c, sizeof(c));
	__builtin_memcpy(&head, c, sizeof(head));
	return head == HEAD8("ceph-osd") || head == HEAD8("crimson-");
}

static __always_inline int changed(void)
{
	__sync_fetch_and_add(&proc_changes, 1);
	return 0;
}

/* Raw tracepoints: attached by name, with no tracefs (a container may
 * have none).  Their arguments are not read: comm says all. */

/* after exec: comm is the new program's */
SEC("raw_tp/sched_process_exec")
int proc_exec(void *ctx)
{
	return osd_named() ? changed() : 0;
}

/* in the parent: a daemonizing OSD forks its daemon; also each thread an
 * OSD's main thread starts, a few at its start */
SEC("raw_tp/sched_process_fork")
int proc_fork(void *ctx)
{
	return osd_named() ? changed() : 0;
}

/* the thread group leader's exit: the process is going */
SEC("raw_tp/sched_process_exit")
int proc_exit(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();

	return (__u32)id == id >> 32 && osd_named() ? changed() : 0;
}

#endif

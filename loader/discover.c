// SPDX-License-Identifier: GPL-2.0
/* A rescan of /proc: the processes found go to the proc table, the binaries
 * they run to the binaries (attached as the sampling window wants). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/types.h>
#include "osdhist.h"
#include "osdhist.skel.h"

#include "procs.h"
#include "testhooks.h"
#include "tracer.h"

/* BPF reads CLOCK_TAI, Ceph stamps ops with CLOCK_REALTIME; their
 * difference is a whole number of seconds that adjtimex may change. */
static void update_tai_offset(struct tracer *t)
{
	struct timespec tai, rt;

	clock_gettime(CLOCK_TAI, &tai);
	clock_gettime(CLOCK_REALTIME, &rt);
	t->skel->bss->tai_offset_ns = llround((tai.tv_sec - rt.tv_sec) +
					      (tai.tv_nsec - rt.tv_nsec) / 1e9) * 1000000000LL;
}

int tracer_discover(struct tracer *t)
{
	static struct osd_proc found[MAX_PROCS];
	enum window win = sampler_window(&t->smp);
	int n, traced = 0;

	update_tai_offset(t);

	if (t->opt->pid) {
		pid_t pid = t->opt->pid;

		/* test build only: OSDHIST_TEST_PID_ERRNO */
		n = testhook_pid_errno(procs_inspect(t->proc_root, pid, &found[0]));
		if (n == -ENOENT && !procs_alive(t->proc_root, pid))
			n = 0;	/* gone: the caller says it has exited */
		else if (n == -EINVAL) {
			fprintf(stderr, "osdhist: pid %d is no longer a ceph-osd "
				"process (-p)\n", pid);
			return -1;
		} else if (n < 0) {
			fprintf(stderr, "osdhist: cannot inspect pid %d (-p) any more: "
				"%s\n", pid, strerror(-n));
			return -1;
		} else {
			n = 1;
		}
	} else {
		n = procs_scan(t->proc_root, found, MAX_PROCS);
		if (n < 0) {
			fprintf(stderr, "osdhist: cannot read %s: %s\n",
				t->proc_root, strerror(-n));
			return -1;
		}
	}

	binaries_begin_scan(&t->bins);
	proc_table_begin_scan(&t->procs);
	for (int i = 0; i < n; i++) {
		int r = binaries_attach(&t->bins, found[i].pid, found[i].exe,
					found[i].dev, found[i].ino, win);
		if (r < 0)
			return -1;
		proc_table_note(&t->procs, &found[i]);
		if (r == 0)
			traced++;
	}
	binaries_release_unused(&t->bins);
	proc_table_end_scan(&t->procs, n, traced);
	return traced;
}

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

#include "binaries.h"
#include "bpf_handles.h"
#include "ceph/procs.h"
#include "discover.h"
#include "proctable.h"
#include "util/clock.h"
#include "util/testhooks.h"

/* BPF reads CLOCK_TAI, Ceph stamps ops with CLOCK_REALTIME; their
 * difference is a whole number of seconds that adjtimex may change. */
static void update_tai_offset(const struct bpf_handles *bpf)
{
	struct timespec tai, rt;

	clock_gettime(CLOCK_TAI, &tai);
	clock_gettime(CLOCK_REALTIME, &rt);
	*bpf->tai_offset_ns = llround((tai.tv_sec - rt.tv_sec) +
				      (tai.tv_nsec - rt.tv_nsec) / 1e9) * 1000000000LL;
}

static __s64 ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

/*
 * Without the TAI helper bpf/ reads CLOCK_MONOTONIC and adds this offset.
 * NTP's slewing changes the rate of both clocks alike, so the offset only
 * moves when the clock is stepped (settimeofday, a leap second, resume
 * from suspend): then bpf/ is off by the step until this next runs, at
 * most one rescan (RESCAN_SEC) later.  Read as the middle of the
 * tightest of a few MONOTONIC brackets around a REALTIME read: error
 * below half that bracket (tens of ns).
 */
static void update_rt_mono_offset(const struct bpf_handles *bpf)
{
	__s64 best = -1, off = 0;

	for (int i = 0; i < 4; i++) {
		struct timespec m0, rt, m1;
		__s64 width;

		clock_gettime(CLOCK_MONOTONIC, &m0);
		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC, &m1);
		width = ts_ns(&m1) - ts_ns(&m0);
		if (best < 0 || width < best) {
			best = width;
			off = ts_ns(&rt) - (ts_ns(&m0) + width / 2);
		}
	}
	*bpf->rt_mono_offset_ns = off;
}

/* One scan's work on each process found: its binary is attached (or
 * refused, remembered apart), the proc table notes it. */
struct scan {
	const struct discover_parts *p;
	int traced;
	bool fatal;	/* said: no privilege to attach */
};

static bool on_proc(const struct osd_proc *p, void *arg)
{
	struct scan *sc = arg;
	enum attach_result r = binaries_attach(sc->p->bins, p, sc->p->win);

	if (r == ATTACH_FATAL) {
		sc->fatal = true;
		return false;
	}
	if (proc_table_note(sc->p->procs, p, r == ATTACH_TRACED))
		sc->traced++;
	return true;
}

int discover_pid(const char *proc_root, pid_t pid, bool tracing, struct osd_proc *p)
{
	static const char pick[] = "give the pid of a running ceph-osd "
				   "(pgrep -x ceph-osd), or no -p to trace every one";
	int err = procs_inspect(proc_root, pid, p);

	if (!tracing) {
		if (err == -ENOENT)
			fprintf(stderr, "osdhist: no process with pid %d (-p); %s\n",
				pid, pick);
		else if (err == -EINVAL)
			fprintf(stderr, "osdhist: pid %d is not a ceph-osd process "
				"(-p); %s\n", pid, pick);
		else if (err == -EAGAIN)
			fprintf(stderr, "osdhist: pid %d (-p) is a ceph-osd starting or "
				"exiting right now (no command line yet); run osdhist "
				"again in a moment\n", pid);
		else if (err == -EACCES || err == -EPERM)
			fprintf(stderr, "osdhist: cannot inspect pid %d (-p): %s; run "
				"osdhist as root\n", pid, strerror(-err));
		else if (err)
			fprintf(stderr, "osdhist: cannot inspect pid %d (-p): %s\n",
				pid, strerror(-err));
		return err;
	}
	/* while tracing: is it still a ceph-osd osdhist can read? */
	err = testhook_pid_errno(err);	/* test build only */
	if (err == -ENOENT && !procs_alive(proc_root, pid))
		return -ESRCH;
	if (err == -EINVAL)
		fprintf(stderr, "osdhist: pid %d is no longer a ceph-osd process "
			"(-p)\n", pid);
	else if (err && err != -EAGAIN)
		fprintf(stderr, "osdhist: cannot inspect pid %d (-p) any more: %s\n",
			pid, strerror(-err));
	return err;
}

/* Is a walk of /proc due?  The counter is read before the walk: an event
 * during it brings the next. */
static bool walk_due(const struct discover_parts *p)
{
	struct proc_watch *w = p->watch;
	double now = mono_now();
	__u64 c;

	if (!p->bpf->proc_changes)
		return true;
	c = __atomic_load_n(p->bpf->proc_changes, __ATOMIC_RELAXED);
	if (w->walked && c == w->seen && now - w->walked < w->max_s)
		return false;
	w->seen = c;
	w->walked = now;
	return true;
}

int discover_scan(const struct discover_parts *p)
{
	struct scan sc = { p, 0, false };
	struct osd_proc one;
	pid_t pid = p->pid;
	bool found = false;
	int n;

	update_tai_offset(p->bpf);
	update_rt_mono_offset(p->bpf);

	if (pid) {
		n = discover_pid(p->proc_root, pid, true, &one);
		if (n == -EAGAIN)	/* an exec or exit under way: as it was */
			return proc_table_live(p->procs);
		if (n && n != -ESRCH)	/* said */
			return n;
		found = n == 0;	/* else gone: the caller says it has exited */
	} else if (!walk_due(p)) {
		return proc_table_live(p->procs);
	}
	binaries_begin_scan(p->bins);
	proc_table_begin_scan(p->procs);
	if (found) {
		on_proc(&one, &sc);
	} else if (!pid) {
		/* every ceph-osd, however many: nothing but traced ones is kept */
		n = procs_each(p->proc_root, on_proc, &sc);
		if (n < 0) {
			fprintf(stderr, "osdhist: cannot read %s: %s\n",
				p->proc_root, strerror(-n));
			return n;
		}
	}
	if (sc.fatal)
		return -EPERM;
	binaries_release_unused(p->bins);
	proc_table_end_scan(p->procs);
	return sc.traced;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Uprobes once per ceph-osd binary (device + inode), for every process that
 * runs it (pid -1), so a restarted OSD is traced from its first op.  A
 * binary no process runs any more (an upgrade replaced it) is let go.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/libbpf.h>

#include "osdhist.skel.h"
#include "tracer.h"

/* The program for a probed function, NULL when the options leave it out. */
static struct bpf_program *prog_of(struct tracer *t, int fn)
{
	switch (fn) {
	case FN_ENQUEUE_OP: return t->skel->progs.op_enqueue;
	case FN_LOG_OP_STATS: return t->skel->progs.op_done;
	case FN_UNREGISTERED: return t->skel->progs.op_unregister;
	case FN_REPOP_COMMIT:
		return t->opt->no_subops ? NULL : t->skel->progs.subop_done;
	case FN_DEQUEUE_OP:
		return t->opt->phases ? t->skel->progs.op_dequeue : NULL;
	case FN_REP_SUBMIT:
	case FN_EC_SUBMIT:
		return t->opt->phases ? t->skel->progs.op_submit : NULL;
	}
	return NULL;
}

static struct binary_slot *find_slot(struct tracer *t, dev_t dev, ino_t ino)
{
	for (int i = 0; i < t->nbins; i++)
		if (t->bins[i].dev == dev && t->bins[i].ino == ino)
			return &t->bins[i];
	return NULL;
}

static void set_offsets(struct tracer *t, const struct osd_offsets *o)
{
	t->skel->bss->off_op_request = o->op_request;
	t->skel->bss->off_op_rmw = o->op_rmw;
	t->skel->bss->off_msg_type = o->msg_type;
	t->skel->bss->off_msg_recv = o->msg_recv;
	t->skel->bss->off_op_dequeued = o->op_dequeued;
	t->skel->bss->off_repmod_op = o->repmod_op;
	t->skel->bss->sp_spg = o->sp_spg;
	t->skel->bss->sp_submit_op = o->sp_submit_op;
	t->offs = *o;
	t->offsets_set = true;
}

/* Which probes the current window wants: all of them until the window's
 * ops have drained (the start probe too: it marks what starts while the
 * gate is shut), none while it is closed. */
static bool wanted(struct tracer *t, int fn)
{
	return prog_of(t, fn) && t->win != WIN_CLOSED;
}

/* Longest wait between attaching a window's probes and opening its gate. */
#define SETTLE_S 0.05

static void *destroy_one(void *link)
{
	bpf_link__destroy(link);
	return NULL;
}

/* Detaching a uprobe link waits for several RCU grace periods (~100 ms
 * each here, measured): detach them all at once so they share the wait and
 * the remaining probes trap for as short a time as possible. */
static void destroy_links(struct bpf_link **links, int n)
{
	pthread_t th[NR_PROBE_FNS * MAX_BINARIES];
	bool started[NR_PROBE_FNS * MAX_BINARIES];

	for (int i = 0; i < n; i++)
		started[i] = pthread_create(&th[i], NULL, destroy_one, links[i]) == 0;
	for (int i = 0; i < n; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		else
			bpf_link__destroy(links[i]);
	}
}

/* Detach, on every binary, the probes the window does not want (all of
 * them with all set: at exit). */
static void detach_unwanted(struct tracer *t, bool all)
{
	struct bpf_link *links[NR_PROBE_FNS * MAX_BINARIES];
	int n = 0;

	for (int i = 0; i < t->nbins; i++)
		for (int f = 0; f < NR_PROBE_FNS; f++)
			if (t->bins[i].links[f] && (all || !wanted(t, f))) {
				links[n++] = t->bins[i].links[f];
				t->bins[i].links[f] = NULL;
			}
	destroy_links(links, n);
}

void tracer_detach_all(struct tracer *t)
{
	detach_unwanted(t, true);
}

/* Attach what the window wants and is missing.  0, 1 when a probe could not
 * be attached (said), -1 when that is fatal (no privilege). */
static int sync_links(struct tracer *t, struct binary_slot *b)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uo);
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", b->fd);
	/* The start probe last: by the time it is attached every end probe
	 * is in, so no op that gets an entry can end unseen. */
	for (int i = 1; i <= NR_PROBE_FNS; i++) {
		int f = (FN_ENQUEUE_OP + i) % NR_PROBE_FNS;	/* FN_ENQUEUE_OP last */

		if (!wanted(t, f) || b->links[f])
			continue;
		b->links[f] = bpf_program__attach_uprobe_opts(prog_of(t, f),
				t->opt->pid ? t->opt->pid : -1, path, b->fn_off[f], &uo);
		if (!b->links[f]) {
			int e = errno;

			fprintf(stderr, "osdhist: cannot attach a uprobe to %s in %s "
				"(pid %d): %s%s\n", probe_fn_pretty[f], b->where, b->pid,
				strerror(e), e == EPERM || e == EACCES ?
				"; run as root or with CAP_PERFMON and CAP_SYS_ADMIN" : "");
			for (int g = 0; g < NR_PROBE_FNS; g++) {
				bpf_link__destroy(b->links[g]);
				b->links[g] = NULL;
			}
			return e == EPERM || e == EACCES ? -1 : 1;
		}
	}
	return 0;
}

/* Called once the start probe is attached: an op the messenger receives from
 * now on is followed, so ending without an entry is a loss. */
static void mark_window_open(struct tracer *t)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	t->skel->bss->window_open_rt = now.tv_sec * 1000000000ULL + now.tv_nsec;
	__atomic_store_n(&t->skel->bss->gate_open, 1, __ATOMIC_SEQ_CST);
}

int tracer_set_window(struct tracer *t, enum window win)
{
	int err = 0;

	/* Shut first: no op starts being followed while probes move; and
	 * unless a window's ops are draining, an op ending without an entry
	 * started outside the traced time. */
	__atomic_store_n(&t->skel->bss->gate_open, 0, __ATOMIC_SEQ_CST);
	if (win != WIN_DRAIN)
		t->skel->bss->window_open_rt = ~0ULL;
	t->win = win;
	detach_unwanted(t, false);
	for (int i = 0; i < t->nbins; i++) {
		if (t->bins[i].refused)
			continue;
		if (sync_links(t, &t->bins[i]) < 0)
			err = -1;
	}
	if (win == WIN_OPEN) {
		/* Let the OSD get past the probes' installation before its ops
		 * count: measured, ops starting in the first tens of ms after
		 * the attach had a p99 one or two buckets above full tracing's. */
		double s = t->opt->sample_on / 4 < SETTLE_S ? t->opt->sample_on / 4 : SETTLE_S;
		struct timespec settle = { 0, (long)(s * 1e9) };

		nanosleep(&settle, NULL);
		mark_window_open(t);
	}
	return err;
}

/* Returns 0 when the binary is traced, 1 when it is refused (said once),
 * -1 on a fatal error. */
int attach_binary(struct tracer *t, pid_t pid, const char *exe, dev_t dev, ino_t ino)
{
	struct binary_slot *b = find_slot(t, dev, ino);
	struct osd_binary ob;
	char err[512];
	ssize_t n;
	int r;

	if (b) {
		b->nprocs++;
		return b->refused;
	}
	if (t->nbins == MAX_BINARIES) {
		fprintf(stderr, "osdhist: more than %d distinct ceph-osd binaries; "
			"pid %d is not traced\n", MAX_BINARIES, pid);
		return 1;
	}
	b = &t->bins[t->nbins++];
	memset(b, 0, sizeof(*b));
	b->dev = dev;
	b->ino = ino;
	b->nprocs = 1;
	b->fd = -1;
	n = readlink(exe, b->where, sizeof(b->where) - 1);
	if (n < 0)
		snprintf(b->where, sizeof(b->where), "%s", exe);

	if (binary_inspect(exe, b->where, &ob, err, sizeof(err))) {
		fprintf(stderr, "osdhist: cannot trace pid %d: %s\n", pid, err);
		b->refused = true;
		return 1;
	}
	memcpy(b->build_id, ob.build_id, sizeof(b->build_id));
	if (!t->offsets_set)
		set_offsets(t, &ob.offs);
	else if (memcmp(&t->offs, &ob.offs, sizeof(ob.offs))) {
		fprintf(stderr, "osdhist: cannot trace pid %d: its ceph-osd (build-id %s) "
			"needs other offsets than the one already traced; run one "
			"osdhist per build\n", pid, ob.build_id);
		b->refused = true;
		return 1;
	}

	/* Through /proc/PID/exe: the binary may only exist in the process's
	 * own mount namespace (containers).  The fd also pins the inode. */
	b->fd = open(exe, O_RDONLY | O_CLOEXEC);
	if (b->fd < 0) {
		fprintf(stderr, "osdhist: cannot open the binary of pid %d: %s\n",
			pid, strerror(errno));
		b->refused = true;
		return 1;
	}
	memcpy(b->fn_off, ob.fn_off, sizeof(b->fn_off));
	b->pid = pid;
	r = sync_links(t, b);
	if (r) {
		b->refused = true;
		return r;
	}
	if (t->win == WIN_OPEN)
		mark_window_open(t);
	fprintf(stderr, "osdhist: attached to ceph-osd %s (build-id %s, inode %lu) "
		"seen in pid %d%s\n", b->where, b->build_id, (unsigned long)ino, pid,
		t->opt->sample_on > 0 ? " (sampled: probes follow the windows)" : "");
	return 0;
}

static bool replaced(const struct binary_slot *b)
{
	struct stat st;

	return b->fd < 0 || fstat(b->fd, &st) || st.st_nlink == 0;
}

/* Let go of binaries no process runs any more: at once when the file was
 * deleted or replaced (an upgrade), after IDLE_SCANS_KEEP scans otherwise,
 * so an OSD that restarts finds its probes already there. */
void detach_unused(struct tracer *t)
{
	for (int i = 0; i < t->nbins; i++) {
		struct binary_slot *b = &t->bins[i];

		if (b->nprocs) {
			b->idle_scans = 0;
			continue;
		}
		if (!b->refused && !replaced(b) && ++b->idle_scans < IDLE_SCANS_KEEP)
			continue;
		if (!b->refused)
			fprintf(stderr, "osdhist: released ceph-osd %s (build-id %s, "
				"inode %lu): no process runs it any more\n",
				b->where, b->build_id, (unsigned long)b->ino);
		destroy_links(b->links, NR_PROBE_FNS);
		if (b->fd >= 0)
			close(b->fd);
		t->bins[i--] = t->bins[--t->nbins];
	}
}

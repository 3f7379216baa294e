// SPDX-License-Identifier: GPL-2.0
/*
 * Uprobes once per ceph-osd binary (device + inode), for every process that
 * runs it (pid -1), so a restarted OSD is traced from its first op.  A
 * binary no process runs any more (an upgrade replaced it) is let go.
 * The state is struct binaries (binaries.h); only this file writes it.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/libbpf.h>

#include <linux/types.h>
#include "osdhist.h"
#include "binaries.h"
#include "util/clock.h"
#include "readers.h"
#include "bpf_handles.h"
#include "util/escape.h"
#include "ceph/procs.h"
#include "util/testhooks.h"
#include "trace_config.h"

/* The program for a probed function, NULL when the options leave it out:
 * its row's ATTACH(prog, when) (ceph/cephfns.h), when in terms of the
 * trace configuration. */
static struct bpf_program *prog_of(const struct binaries *bs, int fn)
{
#define WHEN_ALWAYS	true
#define WHEN_SUBOPS	!bs->opt->no_subops
#define WHEN_POOL	bs->opt->pool
#define WHEN_PHASES	bs->opt->phases
#define ATTACH(prog, when)	(WHEN_##when ? bs->bpf->progs.prog : NULL)
#define NO_ATTACH		NULL
#define PROG_OF(id, cf, prefer, need, call, attach) case id: return attach;
	switch (fn) {
	OSDHIST_PROBES(PROG_OF)
	}
	return NULL;
#undef PROG_OF
#undef NO_ATTACH
#undef ATTACH
#undef WHEN_ALWAYS
#undef WHEN_SUBOPS
#undef WHEN_POOL
#undef WHEN_PHASES
}

static struct binary_slot *find_slot(struct binaries *bs, dev_t dev, ino_t ino)
{
	for (int i = 0; i < bs->n; i++)
		if (bs->slot[i].dev == dev && bs->slot[i].ino == ino)
			return &bs->slot[i];
	return NULL;
}

static __u64 realtime_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return now.tv_sec * 1000000000ULL + now.tv_nsec;
}

/* Ops received from now on are traced: every probe of the binary is in. */
static void open_row(struct binaries *bs, int row, __u64 now)
{
	struct binary_row *r = &bs->bpf->rows[row];

	r->close_rt = ~0ULL;
	__atomic_store_n(&r->open_rt, now, __ATOMIC_SEQ_CST);
}

/* Bytes [lo, hi) of an object that bpf/ reads in one go: the fields it
 * covers, from the lowest offset to the end of the highest. */
struct span {
	__u32 lo, hi;
};

static struct span span_of(__u32 off, __u32 size)
{
	return (struct span){ off, off + size };
}

/* s, grown to cover the size bytes at off too. */
static void span_cover(struct span *s, __u32 off, __u32 size)
{
	if (off < s->lo)
		s->lo = off;
	if (off + size > s->hi)
		s->hi = off + size;
}

/* The byte ranges an end reads of the OpRequest and of its Message; with
 * optypes, also a client op's Message window (recv_stamp, MOSDOp::ops). */
static void read_windows(struct binary_row *r, bool optypes)
{
	const struct osd_offsets *o = &r->offs;
	struct span op = span_of(o->op_request, 8), msg = span_of(o->msg_type, 8);
	struct span cmsg = span_of(o->msg_recv, 8);

	span_cover(&op, o->op_rmw, 8);
	span_cover(&op, o->op_dequeued, 8);
	span_cover(&msg, o->msg_recv, 8);
	span_cover(&cmsg, o->mosdop_ops, 16);
	r->opw_off = op.lo;
	r->opw_len = op.hi - op.lo;
	r->msgw_off = msg.lo;
	r->msgw_len = msg.hi - msg.lo;
	r->cmsgw_off = optypes ? cmsg.lo : 0;
	r->cmsgw_len = optypes && cmsg.hi - cmsg.lo <= SCRATCH_BYTES &&
		       o->osdop_size <= OSDOP_STRIDE_MAX ? cmsg.hi - cmsg.lo : 0;
}

/* Whether the fields an end reads lie close enough for one read each. */
static bool windows_fit(const struct osd_offsets *o)
{
	struct binary_row r = { .offs = *o };

	read_windows(&r, false);
	return r.opw_len <= READ_WINDOW_MAX && r.msgw_len <= READ_WINDOW_MAX;
}

/* Whether bpf/ can read a call's names with these offsets: the OSDOp
 * fields inside one op of the vector, the buffer::ptr fields in 16 bytes. */
static bool calls_fit(const struct osd_offsets *o)
{
	return o->osdop_cls + 2 <= o->osdop_size &&
	       o->osdop_indata + o->bl_first + 8 <= o->osdop_size &&
	       (o->ptr_raw | 8) == 8 && (o->ptr_off | 12) == 12 &&
	       (o->ptr_len | 12) == 12;
}

/* How much of MOSDOp::hobj the slowest ops read at once: up to the end of
 * its last field osdhist prints; 0 if that passes HOBJ_WINDOW (then the
 * offsets are not of an hobject_t as osdhist knows it). */
static __u32 hobj_window(const struct osd_offsets *o)
{
	struct span s = span_of(0, 16);

	span_cover(&s, o->hobj_snap, 8);
	span_cover(&s, o->hobj_revhash, 4);
	span_cover(&s, o->hobj_pool, 8);
	span_cover(&s, o->hobj_nspace, 16);
	span_cover(&s, o->hobj_key, 16);
	return s.hi <= HOBJ_WINDOW ? s.hi : 0;
}

/* A free row of bpf/'s rows[] for a new binary; -1 if none. */
static int take_row(struct binaries *bs, const struct osd_offsets *o, bool optypes,
		    bool calls, bool slow)
{
	for (int i = 0; i < MAX_BINARIES; i++) {
		struct binary_row *r = &bs->bpf->rows[i];

		if (bs->rows_used & (1u << i))
			continue;
		bs->rows_used |= 1u << i;
		memset(r, 0, sizeof(*r));
		r->open_rt = ~0ULL;	/* nothing is traced until attached */
		r->offs = *o;
		read_windows(r, optypes);
		if (optypes && !r->cmsgw_len)
			fprintf(stderr, "osdhist: op types are not counted for this "
				"ceph-osd: its recv_stamp and MOSDOp::ops lie more "
				"than %d bytes apart, or an OSDOp takes more than %d\n",
				SCRATCH_BYTES, OSDOP_STRIDE_MAX);
		r->calls = calls && r->cmsgw_len && calls_fit(o);
		r->hobjw_len = hobj_window(o);
		r->slow = slow && r->hobjw_len;
		if (slow && !r->slow)
			fprintf(stderr, "osdhist: the slowest ops of this ceph-osd are "
				"not named: its hobject_t fields lie more than %d "
				"bytes apart\n", HOBJ_WINDOW);
		if (calls && r->cmsgw_len && !r->calls)
			fprintf(stderr, "osdhist: call ops of this ceph-osd are counted "
				"as \"call\", not by class.method: its OSDOp or "
				"buffer::ptr layout is not one osdhist reads\n");
		return i;
	}
	return -1;
}

/* Which probes window win wants: all of them until the window's
 * ops have drained, none while it is closed. */
static bool wanted(const struct binaries *bs, int fn, enum window win)
{
	return prog_of(bs, fn) && win != WIN_CLOSED;
}

/* Longest wait between attaching a window's probes and opening it. */
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

/* Detach, on every binary, the probes window win does not want (all of
 * them with all set: at exit). */
static void detach_unwanted(struct binaries *bs, enum window win, bool all)
{
	struct bpf_link *links[NR_PROBE_FNS * MAX_BINARIES];
	int n = 0;

	for (int i = 0; i < bs->n; i++)
		for (int f = 0; f < NR_PROBE_FNS; f++)
			if (bs->slot[i].links[f] && (all || !wanted(bs, f, win))) {
				links[n++] = bs->slot[i].links[f];
				bs->slot[i].links[f] = NULL;
			}
	destroy_links(links, n);
}

void binaries_detach_all(struct binaries *bs)
{
	detach_unwanted(bs, WIN_CLOSED, true);
}

/* One probe on one function of a binary; its cookie is the binary's row. */
static struct bpf_link *attach_one(struct binaries *bs, struct binary_slot *b, int f,
				   const char *path)
{
	pid_t pid = bs->opt->pid ? bs->opt->pid : -1;

	if (bs->multi) {
		/* uprobe_multi (where kfeatures.c found it): a detach takes the consumer out
		 * before the breakpoint goes, so no OSD thread waits on it. */
		unsigned long off = b->fn_off[f];
		__u64 cookie = b->row;
		LIBBPF_OPTS(bpf_uprobe_multi_opts, mo, .offsets = &off,
			    .cookies = &cookie, .cnt = 1);

		return bpf_program__attach_uprobe_multi(prog_of(bs, f), pid, path,
							 NULL, &mo);
	}
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .bpf_cookie = b->row);
	return bpf_program__attach_uprobe_opts(prog_of(bs, f), pid, path,
					       b->fn_off[f], &uo);
}

/* Attach what the window wants and is missing: ATTACH_TRACED, else
 * ATTACH_REFUSED when a probe could not be attached (said), ATTACH_FATAL
 * when that is for want of privilege. */
static enum attach_result sync_links(struct binaries *bs, struct binary_slot *b, enum window win)
{
	char path[BINARY_FD_PATH_MAX];

	binary_fd_path(b->fd, path);
	for (int f = 0; f < NR_PROBE_FNS; f++) {
		if (!wanted(bs, f, win) || b->links[f] || !b->fn_off[f])
			continue;
		b->links[f] = attach_one(bs, b, f, path);
		if (!b->links[f]) {
			int e = errno;

			fprintf(stderr, "osdhist: cannot attach a uprobe to %s in %s "
				"(pid %d): %s%s\n", ceph_fn_pretty[probe_fn[f]], ESC(b->where),
				b->pid, strerror(e), e == EPERM || e == EACCES ?
				"; run as root or with CAP_PERFMON and CAP_SYS_ADMIN" : "");
			for (int g = 0; g < NR_PROBE_FNS; g++) {
				bpf_link__destroy(b->links[g]);
				b->links[g] = NULL;
			}
			return e == EPERM || e == EACCES ? ATTACH_FATAL : ATTACH_REFUSED;
		}
	}
	return ATTACH_TRACED;
}

static void settle(double on)
{
	double s = fmin(on / 4, SETTLE_S);
	struct timespec ts = { 0, (long)(s * 1e9) };

	nanosleep(&ts, NULL);
}

int binaries_set_window(struct binaries *bs, enum window win,
			struct window_span *span)
{
	__u64 now = realtime_ns();
	int err = 0;

	if (win == WIN_DRAIN) {
		/* Ops received from now on are not the window's; the probes
		 * stay until its ops have ended. */
		span->open_rt = 0;
		span->close_rt = now;
		for (int i = 0; i < bs->n; i++) {
			struct binary_row *r = &bs->bpf->rows[bs->slot[i].row];

			__atomic_store_n(&r->close_rt, now, __ATOMIC_SEQ_CST);
			if (r->open_rt != ~0ULL && r->open_rt > span->open_rt)
				span->open_rt = r->open_rt;
		}
		return 0;
	}
	detach_unwanted(bs, win, false);
	if (win == WIN_CLOSED)
		return 0;
	for (int i = 0; i < bs->n; i++) {
		if (sync_links(bs, &bs->slot[i], win) == ATTACH_FATAL)
			err = -EPERM;
	}
	/* Let the OSD get past the probes' installation before its ops
	 * count: measured, ops starting in the first tens of ms after the
	 * attach had a p99 one or two buckets above full tracing's. */
	settle(bs->opt->sample_on);
	now = realtime_ns();
	for (int i = 0; i < bs->n; i++) {
		struct binary_row *r = &bs->bpf->rows[bs->slot[i].row];

		r->prev_open_rt = r->open_rt;
		r->prev_close_rt = r->close_rt;
		open_row(bs, bs->slot[i].row, now);
	}
	return err;
}

/* The remembered refusal of p's binary, NULL if none: the same inode in
 * the same version (a file rewritten in place is inspected again). */
static struct refused_bin *find_refused(struct binaries *bs, const struct osd_proc *p)
{
	for (int i = 0; i < bs->nrefused; i++) {
		struct refused_bin *r = &bs->refused[i];

		if (r->dev == p->dev && r->ino == p->ino && r->size == p->size &&
		    r->ctime.tv_sec == p->ctime.tv_sec && r->ctime.tv_nsec == p->ctime.tv_nsec)
			return r;
	}
	return NULL;
}

/* Remember that p's binary is refused: in a free entry, else in place of
 * the one seen least recently, unless all were seen in this scan. */
static void remember_refused(struct binaries *bs, const struct osd_proc *p)
{
	struct refused_bin *r = NULL;

	if (bs->nrefused < REFUSED_KEEP) {
		r = &bs->refused[bs->nrefused++];
	} else {
		for (int i = 0; i < REFUSED_KEEP; i++)
			if (bs->refused[i].seen < bs->scan &&
			    (!r || bs->refused[i].seen < r->seen))
				r = &bs->refused[i];
		if (!r)
			return;
	}
	*r = (struct refused_bin){ p->dev, p->ino, p->size, p->ctime, bs->scan };
}

static struct pending_bin *find_pending(struct binaries *bs, dev_t dev, ino_t ino)
{
	for (int i = 0; i < PENDING_MAX; i++)
		if (bs->pending[i].job.pid && bs->pending[i].dev == dev &&
		    bs->pending[i].ino == ino)
			return &bs->pending[i];
	return NULL;
}

/* The binary of p opened and inspected in a job (readers.h), never here:
 * a FUSE mount could stall the open or any read for ever.  The scan waits
 * for it until bs->wait_end (inspecting ceph-osd takes ~50 ms), then goes
 * on; the next scans ask again.  ATTACH_TRACED once *a and *fd hold the
 * answer, ATTACH_RETRY while it runs, ATTACH_REFUSED if it stalled. */
static enum attach_result fetch(struct binaries *bs, const struct binary_slot *b,
				const struct osd_proc *p, struct binary_ans *a, int *fd)
{
	struct binary_req req = { p->exe, b->where };
	struct pending_bin *q = find_pending(bs, p->dev, p->ino);
	int fds[JOB_FDS], nfds, err;
	ssize_t n;

	*fd = -1;
	if (!q) {
		for (int i = 0; !q && i < PENDING_MAX; i++)	/* a free one */
			if (!bs->pending[i].job.pid)
				q = &bs->pending[i];
		if (!q)
			return ATTACH_RETRY;	/* PENDING_MAX under way: next scan */
		err = job_start(&q->job, read_binary, &req, READ_BINARY_S);
		if (err) {
			fprintf(stderr, "osdhist: cannot inspect the binary of pid %d now: "
				"%s\n", p->pid, err == -EBUSY ? "too many readers stalled" :
				strerror(-err));
			return ATTACH_RETRY;
		}
		q->dev = p->dev;
		q->ino = p->ino;
	}
	q->scan = bs->scan;
	n = job_wait(&q->job, bs->wait_end, a, sizeof(*a), fds, &nfds);
	if (n == -EINPROGRESS)
		return ATTACH_RETRY;
	if (n == -ETIMEDOUT) {
		fprintf(stderr, "osdhist: cannot trace pid %d: its binary %s did not "
			"answer within %.0f s (a stalled mount in its root?); not "
			"inspected again\n", p->pid, ESC(b->where), READ_BINARY_S);
		return ATTACH_REFUSED;
	}
	if (n != (ssize_t)sizeof(*a)) {
		for (int i = 0; i < nfds; i++)
			close(fds[i]);
		fprintf(stderr, "osdhist: cannot inspect the binary of pid %d: %s\n",
			p->pid, strerror(n < 0 ? (int)-n : EIO));
		return ATTACH_RETRY;
	}
	*fd = nfds ? fds[0] : -1;
	for (int i = 1; i < nfds; i++)
		close(fds[i]);
	return ATTACH_TRACED;
}

/* Inspect and attach the binary of b (filled with p's identity).  Unless
 * ATTACH_TRACED, the caller lets go of what b took. */
static enum attach_result attach_new(struct binaries *bs, struct binary_slot *b,
				     const struct osd_proc *p, enum window win)
{
	static struct binary_ans a;
	struct osd_binary ob;
	char why[300];
	pid_t pid = p->pid;
	bool optypes, calls, slow;
	enum attach_result r;

	if (p->unsupported) {
		fprintf(stderr, "osdhist: cannot trace pid %d: %s is %s\n", pid,
			ESC(b->where), p->unsupported);
		return ATTACH_REFUSED;
	}
	r = fetch(bs, b, p, &a, &b->fd);
	if (r != ATTACH_TRACED)
		return r;
	/* A process that is already gone (a short-lived ceph-osd --mkfs)
	 * says nothing about the binary.  No fd: the open failed (whatever
	 * a.rc says), not the binary. */
	if (b->fd < 0 && (a.rc == -ENOENT || a.rc == -ESRCH))
		return ATTACH_RETRY;
	if (b->fd < 0) {
		fprintf(stderr, "osdhist: cannot open the binary of pid %d: %s\n",
			pid, ESC(a.err));
		return ATTACH_RETRY;
	}
	if (a.rc < 0) {
		fprintf(stderr, "osdhist: cannot trace pid %d: %s\n", pid, ESC(a.err));
		return ATTACH_REFUSED;
	}
	ob = a.ob;	/* the test build's offsets go into a copy */
	memcpy(b->build_id, ob.build_id, sizeof(b->build_id));
	for (int f = 0; f < NR_FEATS; f++) {
		bool asked = (f == FEAT_POOL && bs->opt->pool) ||
			     (f == FEAT_PHASES && bs->opt->phases);

		if (asked && binary_lacks(&ob, f, why, sizeof(why))) {
			fprintf(stderr, "osdhist: cannot trace pid %d with %s: its "
				"ceph-osd (build-id %s) lacks %s; run without it\n",
				pid, osd_feature_name[f], ESC(ob.build_id), ESC(why));
			return ATTACH_REFUSED;
		}
	}
	testhook_offsets(&ob.offs);	/* test build only: OSDHIST_TEST_OFFSETS */
	if (!windows_fit(&ob.offs)) {
		fprintf(stderr, "osdhist: cannot trace pid %d: in its ceph-osd (build-id "
			"%s) the OpRequest or Message fields osdhist reads span more "
			"than %d bytes; this layout is not supported\n", pid,
			ESC(ob.build_id), READ_WINDOW_MAX);
		return ATTACH_REFUSED;
	}
	optypes = !bs->opt->no_op_types;
	if (optypes && binary_lacks(&ob, FEAT_OPTYPES, why, sizeof(why))) {
		fprintf(stderr, "osdhist: op types are not counted for pid %d: its "
			"ceph-osd (build-id %s) lacks %s; its ops are counted by "
			"class only\n", pid, ESC(ob.build_id), ESC(why));
		optypes = false;
	}
	calls = optypes;
	if (calls && binary_lacks(&ob, FEAT_CALLS, why, sizeof(why))) {
		fprintf(stderr, "osdhist: call ops of pid %d are counted as \"call\", "
			"not by class.method: its ceph-osd (build-id %s) lacks %s\n",
			pid, ESC(ob.build_id), ESC(why));
		calls = false;
	}
	slow = bs->opt->slowest > 0;
	if (slow && binary_lacks(&ob, FEAT_SLOWOPS, why, sizeof(why))) {
		fprintf(stderr, "osdhist: the slowest ops of pid %d are not named: "
			"its ceph-osd (build-id %s) lacks %s\n", pid,
			ESC(ob.build_id), ESC(why));
		slow = false;
	}
	b->row = take_row(bs, &ob.offs, optypes, calls, slow);
	if (b->row < 0)		/* cannot happen: as many rows as slots */
		return ATTACH_REFUSED;

	memcpy(b->fn_off, ob.fn_off, sizeof(b->fn_off));
	b->pid = pid;
	r = sync_links(bs, b, win);
	if (r != ATTACH_TRACED)
		return r;
	if (win == WIN_OPEN)
		open_row(bs, b->row, realtime_ns());
	fprintf(stderr, "osdhist: attached to ceph-osd %s (build-id %s, inode %lu) "
		"seen in pid %d%s\n", ESC(b->where), ESC(b->build_id), (unsigned long)p->ino, pid,
		bs->opt->sample_on > 0 ? " (sampled: probes follow the windows)" : "");
	return ATTACH_TRACED;
}

enum attach_result binaries_attach(struct binaries *bs, const struct osd_proc *p,
				   enum window win)
{
	struct binary_slot *b = find_slot(bs, p->dev, p->ino);
	struct refused_bin *known;
	enum attach_result r;

	if (b) {
		b->nprocs++;
		return ATTACH_TRACED;
	}
	known = find_refused(bs, p);
	if (known) {		/* said when it was refused */
		known->seen = bs->scan;
		return ATTACH_REFUSED;
	}
	if (bs->n == MAX_BINARIES) {
		fprintf(stderr, "osdhist: more than %d distinct traced ceph-osd "
			"binaries; pid %d is not traced\n", MAX_BINARIES, p->pid);
		return ATTACH_RETRY;
	}
	b = &bs->slot[bs->n];
	memset(b, 0, sizeof(*b));
	b->dev = p->dev;
	b->ino = p->ino;
	b->nprocs = 1;
	b->fd = -1;
	b->row = -1;
	procs_exe_where(p, b->where, sizeof(b->where));
	r = attach_new(bs, b, p, win);
	if (r == ATTACH_TRACED) {
		bs->n++;
		return r;
	}
	/* not traced: the slot stays free (sync_links let go of the links) */
	if (b->row >= 0)
		bs->rows_used &= ~(1u << b->row);
	if (b->fd >= 0)
		close(b->fd);
	if (r == ATTACH_REFUSED)
		remember_refused(bs, p);
	return r;
}

/* The link count the kernel has cached: a FUSE binary that stopped
 * answering would hold a plain fstat, and the rescan with it. */
static bool replaced(const struct binary_slot *b)
{
	struct statx st;

	return b->fd < 0 || statx(b->fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC,
				  STATX_NLINK, &st) || st.stx_nlink == 0;
}

/* Let go of binaries no process runs any more: at once when the file was
 * deleted or replaced (an upgrade), after IDLE_SCANS_KEEP scans otherwise,
 * so an OSD that restarts finds its probes already there. */
void binaries_release_unused(struct binaries *bs)
{
	/* an inspection no process asked for in this scan: its processes
	 * are gone */
	for (int i = 0; i < PENDING_MAX; i++)
		if (bs->pending[i].job.pid && bs->pending[i].scan != bs->scan)
			job_cancel(&bs->pending[i].job);
	for (int i = 0; i < bs->n; i++) {
		struct binary_slot *b = &bs->slot[i];

		if (b->nprocs) {
			b->idle_scans = 0;
			continue;
		}
		if (!replaced(b) && ++b->idle_scans < IDLE_SCANS_KEEP)
			continue;
		fprintf(stderr, "osdhist: released ceph-osd %s (build-id %s, "
			"inode %lu): no process runs it any more\n",
			ESC(b->where), ESC(b->build_id), (unsigned long)b->ino);
		destroy_links(b->links, NR_PROBE_FNS);
		if (b->row >= 0)
			bs->rows_used &= ~(1u << b->row);
		if (b->fd >= 0)
			close(b->fd);
		bs->slot[i--] = bs->slot[--bs->n];
	}
}

void binaries_begin_scan(struct binaries *bs)
{
	bs->scan++;
	bs->wait_end = mono_now() + SCAN_WAIT_S;
	for (int i = 0; i < bs->n; i++)
		bs->slot[i].nprocs = 0;
}

int binaries_traced(const struct binaries *bs)
{
	return bs->n;
}

void binaries_init(struct binaries *bs, const struct bpf_handles *bpf,
		   const struct trace_config *opt, bool multi)
{
	memset(bs, 0, sizeof(*bs));
	bs->bpf = bpf;
	bs->opt = opt;
	bs->multi = multi;
}

void binaries_close(struct binaries *bs)
{
	binaries_detach_all(bs);
	for (int i = 0; i < PENDING_MAX; i++)
		job_cancel(&bs->pending[i].job);
	for (int i = 0; i < bs->n; i++)
		if (bs->slot[i].fd >= 0)
			close(bs->slot[i].fd);
	memset(bs, 0, sizeof(*bs));
}

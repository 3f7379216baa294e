// SPDX-License-Identifier: GPL-2.0
/*
 * osdhist: latency histograms of Ceph OSD ops, aggregated in the kernel.
 * Parse args, load, find the OSDs, attach, loop { wait; rescan; print }.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>
#include <bpf/libbpf.h>

#include "cli.h"
#include "discover.h"
#include "util/job.h"
#include "list.h"
#include "output/export.h"
#include "output/render.h"
#include "output/top.h"
#include "kfeatures.h"
#include "ceph/procs.h"
#include "tracer.h"
#include "verify.h"

/* How often /proc is rescanned for new OSDs and binaries, at most. */
#define RESCAN_SEC 1.0

static volatile sig_atomic_t stop, print_now;
static bool verbose;
static struct verifier *verifier;	/* NULL with --no-verify */

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		print_now = 1;
	else
		stop = 1;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG || !verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static sigset_t *our_signals(sigset_t *s)
{
	sigemptyset(s);
	sigaddset(s, SIGINT);
	sigaddset(s, SIGTERM);
	sigaddset(s, SIGUSR1);
	return s;
}

/*
 * Waits until t, or until one of the verifier's sockets is ready, or a
 * signal.  The signals are blocked from the check of the flags until
 * ppoll() lets them in atomically: one that comes in between cuts the
 * wait short instead of being seen only at the next wake-up.
 */
static void wait_until(double t, struct pollfd *p, int n)
{
	double d = t - mono_now();
	struct timespec ts;
	sigset_t sigs, orig;

	if (d < 0)
		d = 0;
	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - ts.tv_sec) * 1e9);
	sigprocmask(SIG_BLOCK, our_signals(&sigs), &orig);
	if (!stop && !print_now)
		ppoll(p, n, &ts, &orig);	/* EINTR: fine */
	sigprocmask(SIG_SETMASK, &orig, NULL);
}

/* The self-check reads the maps between its two readings of Ceph's
 * counters without advancing the snapshots. */
static int read_maps(void *t, struct report *r)
{
	return tracer_snapshot(t, r, false);
}

/* After a rescan: the processes the self-check may ask. */
static void verify_targets(const struct tracer *t)
{
	static struct verify_target tg[MAX_PROCS];

	if (verifier)
		verify_set_targets(verifier, tg, tracer_verify_targets(t, tg, MAX_PROCS));
}

/* What the core and the outputs need of the options: nothing below main
 * knows struct options. */
static struct trace_config trace_config(const struct options *o)
{
	return (struct trace_config){
		.pid = o->pid,
		.osd = o->osd,
		.pool = o->pool,
		.phases = o->phases,
		.no_subops = o->no_subops,
		.no_op_types = o->no_op_types,
		.slowest = o->slowest,
		.perf_uprobes = o->perf_uprobes,
		.sample_on = o->sample_on,
		.sample_period = o->sample_period,
		.drain_timeout = o->drain_timeout,
		.verbose = o->verbose,
	};
}

static struct export_config export_config(const struct options *o)
{
	return (struct export_config){
		.prometheus = o->prometheus,
		.prom_host = o->prom_host,
		.prom_port = o->prom_port,
		.textfile = o->textfile,
		.buckets = &o->buckets,
	};
}

/*
 * The table once more than a few OSDs are traced and a person reads: for
 * 24 OSDs the text output is thousands of lines an interval.  Only when
 * stdout is a terminal, so that what parses the text (scripts, logs, the
 * tests) never sees the format change with the number of OSDs; never for
 * one OSD (--osd, -p), whose histograms fit a screen.
 */
static bool table_now(const struct options *o, const struct report *r)
{
	static int tty = -1;

	if (o->table)
		return true;
	if (o->text || o->osd >= 0 || o->pid)
		return false;
	if (tty < 0)
		tty = isatty(STDOUT_FILENO);
	return tty && r->health.osds - r->health.untraced > TABLE_AUTO_OSDS;
}

static void print_snapshot(struct tracer *t, const struct options *o,
			   const struct export_config *ec, double interval)
{
	static double traced_total;	/* seconds ops were followed, all along */
	struct report r = { 0 };
	void *kept = NULL;

	if (tracer_snapshot(t, &r, true)) {
		fprintf(stderr, "osdhist: out of memory reading the maps\n");
		return;
	}
	verify_report(verifier, &r);	/* the last judgements: never waited for */
	r.interval = interval;
	if (r.traced < 0)
		r.traced = interval;
	traced_total += r.traced;
	r.health.traced_total = traced_total;
	export_health(ec, &r.health);
	if (o->osd >= 0 && !(kept = report_keep_osd(&r, o->osd))) {
		fprintf(stderr, "osdhist: out of memory keeping osd.%d\n", o->osd);
		return;
	}
	if (o->quiet)
		;
	else if (o->top)
		top_frame(&r);
	else if (o->json)
		render_json(stdout, &r);
	else if (o->heatmap >= 0)
		render_heatmap(stdout, &r, &(struct heatmap_opts){ .osd = o->osd,
			.cls = o->heatmap, .width = TABLE_WIDTH, .height = HEATMAP_HEIGHT });
	else if (table_now(o, &r))
		render_table(stdout, &r, &(struct table_opts){
			.sort = o->sort, .width = TABLE_WIDTH, .timestamp = o->timestamp });
	else
		render_text(stdout, &r, o->timestamp, o->millis);
	export_snapshot(ec, &r);	/* --prometheus, --textfile */
	free(kept);
}

int main(int argc, char **argv)
{
	struct options o;
	struct trace_config tc;
	struct export_config ec;
	struct kfeatures kf;
	struct tracer t;
	struct osd_proc target;	/* -p: checked before anything loads */
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t sigs;
	static struct pollfd pfd[MAX_PROCS + 1];	/* + stdin with --top */
	double last, next_print, next_scan, next_sample, next_verify, wake;
	long printed = 0;
	int err = 0, traced;
	bool waiting = false;

	if (cli_parse(argc, argv, &o) < 0)
		return 2;	/* bad usage, said */
	if (o.exit_now)		/* --help, --usage, --version */
		return 0;
	if (o.inspect)
		return list_inspect(o.inspect, o.verbose, o.perf_uprobes) < 0 ? 1 : 0;
	if (o.list)
		return list_osds(o.verbose, o.perf_uprobes) < 0 ? 1 : 0;
	if (o.top && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "osdhist: --top needs a terminal on stdin and stdout; "
			"into a pipe or a file, use --table\n");
		return 2;
	}
	tc = trace_config(&o);
	ec = export_config(&o);
	verbose = o.verbose;
	libbpf_set_print(libbpf_print);
	if (o.pid && discover_pid(PROC_ROOT, o.pid, false, &target))
		return 1;
	if (kfeatures_require(&kf) < 0)	/* asks the kernel, not uname */
		return 1;
	if (export_start(&ec) < 0)	/* bind the port before loading anything */
		return 1;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);	/* print a snapshot now */
	/* a mask inherited from the parent would hide them */
	sigprocmask(SIG_UNBLOCK, our_signals(&sigs), NULL);
	if (tracer_open(&t, &tc, &kf) < 0) {
		tracer_close(&t);
		export_stop();
		return 1;
	}

	/* after the tracer's messages, which the screen would hide */
	if (o.top && top_start(o.sort, o.millis) < 0) {
		tracer_close(&t);
		export_stop();
		return 1;
	}
	verifier = o.no_verify ? NULL : verify_new(&tc, PROC_ROOT);
	last = mono_now();
	next_print = last + o.interval;
	next_scan = last;
	tracer_start_sampling(&t, last);	/* the first window opens now */
	next_sample = last;
	next_verify = last;
	while (!stop) {
		double now;
		int npfd;

		if (o.top && top_input()) {	/* q */
			stop = 1;
			break;
		}
		now = mono_now();

		if (now >= next_scan) {
			traced = tracer_discover(&t);
			if (traced < 0) {
				err = 1;
				break;
			}
			if (o.pid && !procs_alive(PROC_ROOT, o.pid)) {
				fprintf(stderr, "osdhist: pid %d has exited\n", o.pid);
				stop = 1;
				break;
			}
			if (o.pid && !traced) {	/* said why in binaries_attach() */
				err = 1;
				break;
			}
			if (!traced && !waiting)
				fprintf(stderr, "osdhist: no traceable ceph-osd running; "
					"waiting for one to start\n");
			else if (traced && waiting)
				fprintf(stderr, "osdhist: tracing %d ceph-osd process%s\n",
					traced, traced == 1 ? "" : "es");
			waiting = !traced;
			verify_targets(&t);
			next_scan = now + (o.interval < RESCAN_SEC ? o.interval : RESCAN_SEC);
		}
		if (print_now) {
			print_now = 0;
			print_snapshot(&t, &o, &ec, now - last);
			last = now;
		}
		if (now >= next_print) {
			print_snapshot(&t, &o, &ec, now - last);
			last = now;
			next_print += o.interval;
			if (o.count && ++printed >= o.count)
				break;
		}
		if (now >= next_sample)
			next_sample = tracer_sample_step(&t, mono_now());
		job_reap();
		if (verifier)	/* its own clock, whatever the interval; never waits */
			next_verify = verify_run(verifier, read_maps, &t);
		wake = next_scan < next_print ? next_scan : next_print;
		if (verifier && next_verify < wake)
			wake = next_verify;
		npfd = verify_pollfds(verifier, pfd, MAX_PROCS);
		if (o.top)	/* a key cuts the wait short */
			pfd[npfd++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		wait_until(next_sample < wake ? next_sample : wake, pfd, npfd);
		/* the terminal gone: every wait would end at once, for ever */
		if (o.top && pfd[npfd - 1].revents & (POLLHUP | POLLERR | POLLNVAL))
			stop = 1;
	}
	if (stop && !err)	/* SIGINT/SIGTERM, -p gone: a final snapshot */
		print_snapshot(&t, &o, &ec, mono_now() - last);
	top_end();		/* the terminal back before anything more is said */
	tracer_close(&t);
	verify_free(verifier);
	export_stop();
	job_kill_all();		/* readers still stuck on a stalled mount */
	return err;
}

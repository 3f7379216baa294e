// SPDX-License-Identifier: GPL-2.0
/* The composer: loading and unloading the BPF programs, and the tracer's
 * jobs, each made of its components, which are lent the parts they work on
 * (a rescan, a snapshot, a sampling step). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <linux/types.h>
#include "osdhist.h"
#include "osdhist.skel.h"
#include "util/testhooks.h"
#include "ceph/procs.h"
#include "discover.h"
#include "tracer.h"

/* -v: the variant loaded, and what the verifier walked for each program
 * (verified_insns, Linux 5.16; "?" where the kernel does not say): the
 * figure that must stay far below its limit of 1M, -P and --phases too. */
static void say_loaded(const struct tracer *t)
{
	struct bpf_program *p;

	fprintf(stderr, "osdhist: loaded bpf/ with clock %s, op scan %s, uprobes %s; "
		"instructions verified:", t->variant.clock, t->variant.scan,
		t->variant.uprobes);
	bpf_object__for_each_program(p, t->skel->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		if (!bpf_program__autoload(p))
			continue;
		memset(&info, 0, sizeof(info));
		if (bpf_prog_get_info_by_fd(bpf_program__fd(p), &info, &len) ||
		    !info.verified_insns)
			fprintf(stderr, " %s ?", bpf_program__name(p));
		else
			fprintf(stderr, " %s %u", bpf_program__name(p), info.verified_insns);
	}
	fprintf(stderr, "\n");
}

static struct bpf_mapref mapref(const struct bpf_map *m)
{
	return (struct bpf_mapref){ bpf_map__fd(m), bpf_map__max_entries(m) };
}

/* What the other files use of the skeleton, which only this file knows. */
static void lend_handles(struct tracer *t)
{
	struct osdhist_bpf *s = t->skel;
	struct bpf_handles *h = &t->bpf;

	h->hists = mapref(s->maps.hists);
	h->phase_hists = mapref(s->maps.phase_hists);
	h->opcounts = mapref(s->maps.opcounts);
	h->calls = mapref(s->maps.calls);
	h->slowops = mapref(s->maps.slowops);
	h->health = mapref(s->maps.health);
	h->inflight = mapref(s->maps.inflight);
	h->progs.op_done = s->progs.op_done;
	h->progs.op_unregistered = s->progs.op_unregistered;
	h->progs.subop_done = s->progs.subop_done;
	h->progs.op_enqueue = s->progs.op_enqueue;
	h->progs.op_submit = s->progs.op_submit;
	h->rows = s->bss->rows;
	h->marks = s->bss->marks;
	h->window_ends = &s->bss->window_ends;
	h->tai_offset_ns = &s->bss->tai_offset_ns;
	h->rt_mono_offset_ns = &s->bss->rt_mono_offset_ns;
	h->slow_gen = &s->bss->slow_gen;
	h->start_probe = s->rodata->start_probe;
}

/* The per-CPU front rows, sized for the possible CPUs before the load
 * (maps/osdhist.h: FRONT_BYTES of copies each). */
static void size_fronts(struct tracer *t)
{
	struct osdhist_bpf *s = t->skel;
	int ncpus = libbpf_num_possible_cpus();
	__u32 h, o;

	t->ncpus = ncpus > 0 ? ncpus : 1;
	h = testhook_front_rows(front_rows_for(FRONT_BYTES, sizeof(struct front_pair),
					       t->opt->phases ? 2 : 1, t->ncpus,
					       FRONT_ROWS_MAX));
	o = testhook_front_rows(front_rows_for(OPC_FRONT_BYTES, sizeof(struct front_opc),
					       1, t->ncpus, OPC_ROWS_MAX));
	bpf_map__set_max_entries(s->maps.front, h);
	bpf_map__set_max_entries(s->maps.phase_front, t->opt->phases ? h : 1);
	bpf_map__set_max_entries(s->maps.opc_front, o);
}

static int init_fronts(struct tracer *t)
{
	struct osdhist_bpf *s = t->skel;
	const struct bpf_map *ph = t->opt->phases ? s->maps.phase_front : NULL;
	volatile __u64 *table = (volatile __u64 *)s->bss->front_table;
	int err;

	err = front_init(&t->hfront, table, front_hist_word,
			 bpf_map__fd(s->maps.front), ph ? bpf_map__fd(ph) : -1,
			 sizeof(struct hist_key), 2, 2 * NR_BUCKETS,
			 bpf_map__max_entries(s->maps.front), t->ncpus);
	if (!err)
		err = front_init(&t->ofront, table, front_opc_word,
				 bpf_map__fd(s->maps.opc_front), -1, sizeof(__u32),
				 0, 2 * OPCOUNT_SLOTS,
				 bpf_map__max_entries(s->maps.opc_front), t->ncpus);
	if (err < 0)
		fprintf(stderr, "osdhist: out of memory\n");
	return err;
}

/*
 * bpf/procwatch.bpf.h: the exec, fork and exit of a process named like an
 * OSD bump a counter, and a rescan walks /proc only when it moved
 * (discover.c).  Where they cannot be attached (raw tracepoints refused),
 * every rescan walks /proc, as it always did: slower, never blind.
 */
static void watch_procs(struct tracer *t)
{
	struct bpf_program *prog[NR_WATCH] = {
		t->skel->progs.proc_exec, t->skel->progs.proc_fork,
		t->skel->progs.proc_exit,
	};

	for (int i = 0; i < NR_WATCH; i++) {
		t->watch[i] = testhook_no_proc_events() ? NULL
							: bpf_program__attach(prog[i]);
		if (!t->watch[i]) {
			if (t->opt->verbose)
				fprintf(stderr, "osdhist: no process events (%s): "
					"every rescan walks /proc\n",
					bpf_program__name(prog[i]));
			while (i-- > 0) {
				bpf_link__destroy(t->watch[i]);
				t->watch[i] = NULL;
			}
			return;
		}
	}
	t->bpf.proc_changes = &t->skel->bss->proc_changes;
	t->watch_seen.max_s = testhook_proc_walk_s(PROC_WALK_MAX_S);
}

int tracer_open(struct tracer *t, const struct trace_config *opt,
		const struct kfeatures *kf)
{
	bool multi;
	int err;

	memset(t, 0, sizeof(*t));
	t->opt = opt;
	/* The variant of bpf/ this kernel can run (kfeatures.c asked it):
	 * the rodata flags below let the verifier drop the other branch, so
	 * a helper the kernel lacks is never in the loaded program. */
	t->variant = kfeatures_variant(kf, opt->perf_uprobes);
	t->proc_root = PROC_ROOT;
	proc_table_init(&t->procs, t->proc_root, opt->verbose);
	err = snapshots_init(&t->snap);
	if (err < 0)
		return err;

	t->skel = osdhist_bpf__open();
	if (!t->skel) {
		err = errno > 0 ? -errno : -ENOMEM;
		fprintf(stderr, "osdhist: cannot open the BPF object: %s\n",
			strerror(-err));
		return err;
	}
	t->skel->rodata->split_pool = opt->pool;
	t->skel->rodata->trace_subops = !opt->no_subops;
	t->skel->rodata->phases = opt->phases;
	t->skel->rodata->op_types = !opt->no_op_types;
	t->skel->rodata->start_probe = opt->pool || opt->phases;
	t->skel->rodata->mark_ways = testhook_mark_ways(MARK_WAYS);
	t->skel->rodata->have_tai = kf->have[KF_TAI];
	t->skel->rodata->have_loop = kf->have[KF_LOOP];
	t->skel->rodata->slow_k = opt->slowest;
	size_fronts(t);
	multi = !strcmp(t->variant.uprobes, "multi");
	if (multi) {
		struct bpf_program *p;

		bpf_object__for_each_program(p, t->skel->obj)
			if (bpf_program__type(p) == BPF_PROG_TYPE_KPROBE)
				bpf_program__set_expected_attach_type(p, BPF_TRACE_UPROBE_MULTI);
	}

	err = osdhist_bpf__load(t->skel);
	if (err) {
		/* EACCES is also the verifier's refusal: only EPERM is the
		 * caller's lack of rights */
		if (err == -EPERM)
			fprintf(stderr, "osdhist: not allowed to load BPF programs (%s); "
				"run as root, or with CAP_BPF, CAP_PERFMON and "
				"CAP_SYS_ADMIN\n", strerror(-err));
		else
			fprintf(stderr, "osdhist: the kernel refused the BPF programs "
				"(%s); osdhist needs a kernel with BPF and uprobes "
				"(run with -v for libbpf's log)\n", strerror(-err));
		return err < 0 ? err : -EINVAL;
	}
	if (opt->verbose)
		say_loaded(t);
	err = init_fronts(t);
	if (err < 0)
		return err;
	lend_handles(t);
	watch_procs(t);
	binaries_init(&t->bins, &t->bpf, opt, multi);
	return 0;
}

void tracer_close(struct tracer *t)
{
	for (int i = 0; i < NR_WATCH; i++)
		bpf_link__destroy(t->watch[i]);
	binaries_close(&t->bins);
	front_free(&t->hfront);
	front_free(&t->ofront);
	osdhist_bpf__destroy(t->skel);
	snapshots_free(&t->snap);
	proc_table_close(&t->procs);
	memset(t, 0, sizeof(*t));
}

int tracer_discover(struct tracer *t)
{
	const struct discover_parts p = {
		.bpf = &t->bpf, .bins = &t->bins, .procs = &t->procs,
		.proc_root = t->proc_root, .pid = t->opt->pid,
		.win = sampler_window(&t->smp), .watch = &t->watch_seen,
	};

	return discover_scan(&p);
}

int tracer_verify_targets(const struct tracer *t, struct verify_target *out, int max)
{
	return proc_table_verify_targets(&t->procs, out, max);
}

void tracer_start_sampling(struct tracer *t, double now)
{
	sampler_start(&t->smp, now);
}

int tracer_snapshot(struct tracer *t, struct report *r, bool advance)
{
	const struct snap_parts p = {
		.opt = t->opt, .bpf = &t->bpf, .procs = &t->procs, .snap = &t->snap,
		.hfront = &t->hfront, .ofront = &t->ofront, .inf = &t->inf,
	};
	struct health_report *h = &r->health;
	struct snap_pass pass;
	int err;

	err = snapshot_read(&p, &pass, h, advance);
	if (err)
		return err;
	/* between the halves: see snapshot.h */
	h->inflight = inflight_scan(&t->bpf, t->proc_root, &t->inf, &h->inflight_max);
	sampler_health(&t->smp, h);
	h->binaries = binaries_traced(&t->bins);
	h->variant = t->variant;
	r->sampled = t->opt->sample_on > 0;
	r->traced = -1;		/* full tracing: the caller's interval */
	if (r->sampled) {
		r->traced = sampler_traced(&t->smp, advance);
		r->windows = sampler_spans(&t->smp, advance, &r->nwindows);
	}
	snapshot_report(&p, &pass, r, advance);
	return 0;
}

double tracer_sample_step(struct tracer *t, double now)
{
	const struct sample_parts p = {
		.opt = t->opt, .bins = &t->bins, .bpf = &t->bpf, .inf = &t->inf,
	};

	return sampler_step(&t->smp, &p, now);
}

// SPDX-License-Identifier: GPL-2.0
/* Loading and unloading the BPF programs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>

#include <linux/types.h>
#include "osdhist.h"
#include "osdhist.skel.h"
#include "testhooks.h"
#include "tracer.h"

/* The running kernel's release, as uname -r says it (the test build may
 * replace it: OSDHIST_TEST_KERNEL). */
static const char *kernel_release(struct utsname *u)
{
	if (uname(u))
		return "unknown";
	return testhook_kernel_release(u->release);
}

/* Release (e.g. "6.1.0-13-amd64") is at least major.minor. */
static bool kernel_at_least(const char *release, int major, int minor)
{
	int ma = 0, mi = 0;

	if (sscanf(release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

int tracer_open(struct tracer *t, const struct options *opt)
{
	struct utsname u;
	const char *release = kernel_release(&u);
	bool multi;
	int err;

	memset(t, 0, sizeof(*t));
	/* bpf/ calls bpf_ktime_get_tai_ns (Linux 6.1): on an older kernel the
	 * verifier refuses every program, and its log helps no operator.  Said
	 * before anything is loaded, so -v adds no libbpf output to it. */
	if (!kernel_at_least(release, 6, 1)) {
		fprintf(stderr, "osdhist: this kernel (Linux %s) is too old: osdhist "
			"needs Linux 6.1 or later (bpf_ktime_get_tai_ns)\n", release);
		return -1;
	}
	t->opt = opt;
	t->proc_root = "/proc";
	proc_table_init(&t->procs, t->proc_root, opt->verbose);
	t->ncpus = libbpf_num_possible_cpus();
	if (t->ncpus <= 0) {
		fprintf(stderr, "osdhist: cannot count possible CPUs: %s\n",
			strerror(-t->ncpus));
		return -1;
	}

	t->skel = osdhist_bpf__open();
	if (!t->skel) {
		fprintf(stderr, "osdhist: cannot open the BPF object: %s\n",
			strerror(errno));
		return -1;
	}
	t->skel->rodata->split_pool = opt->pool;
	t->skel->rodata->trace_subops = !opt->no_subops;
	t->skel->rodata->phases = opt->phases;
	t->skel->rodata->op_types = !opt->no_op_types;
	t->skel->rodata->start_probe = opt->pool || opt->phases;
	t->skel->rodata->mark_ways = testhook_mark_ways(MARK_WAYS);
	multi = !opt->perf_uprobes && kernel_at_least(release, 6, 6);
	if (multi) {
		struct bpf_program *p;

		bpf_object__for_each_program(p, t->skel->obj)
			bpf_program__set_expected_attach_type(p, BPF_TRACE_UPROBE_MULTI);
	}

	err = osdhist_bpf__load(t->skel);
	if (err) {
		if (err == -EPERM || err == -EACCES)
			fprintf(stderr, "osdhist: not allowed to load BPF programs (%s); "
				"run as root, or with CAP_BPF, CAP_PERFMON and "
				"CAP_SYS_ADMIN\n", strerror(-err));
		else
			fprintf(stderr, "osdhist: the kernel refused the BPF programs "
				"(%s); osdhist needs a kernel with BPF and uprobes "
				"(run with -v for libbpf's log)\n", strerror(-err));
		return -1;
	}
	binaries_init(&t->bins, t->skel, opt, multi);
	return 0;
}

void tracer_close(struct tracer *t)
{
	binaries_close(&t->bins);
	osdhist_bpf__destroy(t->skel);
	free(t->series);
	free(t->deltas);
	free(t->opc);
	free(t->opd);
	memset(t, 0, sizeof(*t));
}

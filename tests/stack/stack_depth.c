// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's stack depth of each BPF program, in each variant the
 * loader can load (the options and kernel fallbacks it sets in .rodata):
 * the kernel's own figure, from its log at BPF_LOG_STATS ("stack depth
 * A+B+C", one number per function).  The verifier refuses a call chain
 * whose frames add up to more than 512 bytes (MAX_BPF_STACK); the sum of
 * all the functions, counted here, is at least the deepest chain's, so the
 * headroom printed is never more than the verifier's.  Prints one
 * line per variant and program; exits 1 if any has less than MIN_HEADROOM
 * bytes left (argv[1], 64 by default).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include "osdhist.h"
#include "osdhist.skel.h"

#define BPF_STACK	512
#define LOG_BYTES	(1 << 20)

struct variant {
	const char *name;
	bool pool, phases, op_types, slow, tai, loop;
};

static const struct variant variants[] = {
	{ "default", false, false, true, false, true, true },
	{ "no-op-types", false, false, false, false, true, true },
	{ "slowest", false, false, true, true, true, true },
	{ "-P --phases --slowest", true, true, true, true, true, true },
	{ "-P --phases --slowest, no tai, no bpf_loop", true, true, true, true, false, false },
};

static int quiet(enum libbpf_print_level l, const char *f, va_list a)
{
	(void)l, (void)f, (void)a;
	return 0;
}

/* The sum of the frames of the log's last "stack depth" line, and the
 * frames as the kernel wrote them; -1: none. */
static int depth_of(const char *log, char *frames, size_t size)
{
	const char *p = NULL, *q = log;
	int sum = 0;

	while ((q = strstr(q, "stack depth ")))
		p = q++;
	if (!p)
		return -1;
	p += strlen("stack depth ");
	snprintf(frames, size, "%.*s", (int)strspn(p, "0123456789+"), p);
	for (;;) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		sum += v;
		if (*end != '+')
			break;
		p = end + 1;
	}
	return sum;
}

static int run(const struct variant *v, int min_headroom)
{
	static char logs[8][LOG_BYTES];
	struct osdhist_bpf *s = osdhist_bpf__open();
	struct bpf_program *p;
	int i = 0, bad = 0;

	if (!s) {
		fprintf(stderr, "stack_depth: cannot open the BPF object\n");
		return 2;
	}
	s->rodata->split_pool = v->pool;
	s->rodata->phases = v->phases;
	s->rodata->start_probe = v->pool || v->phases;
	s->rodata->op_types = v->op_types;
	s->rodata->slow_k = v->slow ? SLOW_K_DEFAULT : 0;
	s->rodata->have_tai = v->tai;
	s->rodata->have_loop = v->loop;
	bpf_object__for_each_program(p, s->obj) {
		if (i >= 8)
			break;
		logs[i][0] = 0;
		bpf_program__set_log_buf(p, logs[i], LOG_BYTES);
		bpf_program__set_log_level(p, 4);
		i++;
	}
	if (osdhist_bpf__load(s)) {
		fprintf(stderr, "stack_depth: variant '%s' does not load\n", v->name);
		osdhist_bpf__destroy(s);
		return 2;
	}
	i = 0;
	bpf_object__for_each_program(p, s->obj) {
		char frames[64] = "?";
		int d = depth_of(logs[i++], frames, sizeof(frames));

		printf("%-44s %-16s %4d bytes (%s), %4d left\n", v->name,
		       bpf_program__name(p), d, frames, BPF_STACK - d);
		if (d < 0 || BPF_STACK - d < min_headroom)
			bad = 1;
	}
	osdhist_bpf__destroy(s);
	return bad;
}

int main(int argc, char **argv)
{
	int min_headroom = argc > 1 ? atoi(argv[1]) : 64, rc = 0;

	libbpf_set_print(quiet);
	for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		int r = run(&variants[i], min_headroom);

		if (r > rc)
			rc = r;
	}
	if (rc == 1)
		fprintf(stderr, "stack_depth: a program has less than %d bytes of the verifier's %d left\n",
			min_headroom, BPF_STACK);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * bench/stages: runs bench/stages.bpf.c's loop once per stage and round,
 * stages alternated, and prints the median ns per op of each stage less
 * the empty loop's, with the op's key in a front row (the loader's choice
 * for a hot key) and in the tail.  Usage: stages [ROUNDS]
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "osdhist.h"
#include "stages.skel.h"

enum { ST_EMPTY, ST_CLOCK, ST_SCRATCH, ST_SLOT, ST_HIST, ST_LOOKUP, ST_BOTH,
       ST_MONO, ST_PID, ST_ATOMIC4, ST_PLAIN4, ST_BUCKET2, ST_READ8, ST_READ152,
       ST_READ2, NR_ST };
static const char *names[NR_ST] = { "empty loop (itself)", "clock (now_rt)", "scratch slot",
	"front slot lookup", "hist (record_op)", "lookup (op-code counters)",
	"hist + lookup", "bpf_ktime_get_ns", "pid (tgid())", "4 atomic adds (shared line)",
	"4 plain adds", "2 buckets", "user read, 8 bytes",
	"scratch + user read, 152 B", "scratch + 2 reads, 152+168 B" };
#define ITERS	(1 << 20)
#define MAX_ROUNDS 64

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ns per loop turn of one run of the program */
static double run(struct stages_bpf *s, int st)
{
	LIBBPF_OPTS(bpf_test_run_opts, o);
	int fd = bpf_program__fd(s->progs.stages);
	struct timespec a, b;

	s->bss->stage = st;
	clock_gettime(CLOCK_REALTIME, &a);
	s->bss->stage_rt = a.tv_sec * 1000000000ull + a.tv_nsec;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (bpf_prog_test_run_opts(fd, &o)) {
		perror("stages: BPF_PROG_TEST_RUN");
		exit(1);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	/* raw_tp test runs report no duration: the syscall's, over a
	 * million turns */
	return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / ITERS;
}

/* The op's key and its process's op codes in the front table (row 0 of
 * each front), or out of it: as the loader writes them. */
static void slots(struct stages_bpf *s, int on)
{
	struct hist_key k = { .tgid = getpid(), .cls = CLASS_WRITE, .optype = 3, .pool = -1 };
	__u64 words[2] = { osdhist_front_key(k.tgid, k.cls, k.optype, k.pool),
			   osdhist_front_key(k.tgid, FRONT_CLS_OPC, 0, -1) };

	memset(s->bss->front_table, 0, sizeof(s->bss->front_table));
	for (int i = 0; on && i < 2; i++)
		for (int w = 0; w < FRONT_WAYS; w++) {
			__u64 *way = &s->bss->front_table[osdhist_front_set(words[i])].way[w];

			if (!*way) {
				*way = words[i];	/* row 0 */
				break;
			}
		}
}

/* what the user memory read stages read: two pages the process has
 * written (a hot page, as the OSD's objects mostly are) */
static char ubuf[3 * 4096] __attribute__((aligned(4096)));

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 15;
	FILE *json = NULL;
	static double t[2][NR_ST][MAX_ROUNDS];
	struct stages_bpf *s;
	cpu_set_t cpu;

	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "stages: ROUNDS is 1 to %d\n", MAX_ROUNDS);
		return 2;
	}
	if (argc > 2 && !(json = fopen(argv[2], "w"))) {
		fprintf(stderr, "stages: cannot write %s: %m\n", argv[2]);
		return 1;
	}
	CPU_ZERO(&cpu);
	CPU_SET(0, &cpu);
	sched_setaffinity(0, sizeof(cpu), &cpu);	/* one CPU's rows */
	s = stages_bpf__open_and_load();
	if (!s) {
		fprintf(stderr, "stages: cannot load bench/stages.bpf.c (run as root)\n");
		return 1;
	}
	s->bss->stage_optype = 3;
	s->bss->stage_ubuf = (unsigned long)ubuf;
	memset(ubuf, 1, sizeof(ubuf));
	for (int r = 0; r < rounds; r++)
		for (int front = 1; front >= 0; front--) {
			slots(s, front);
			for (int st = 0; st < NR_ST; st++)
				t[front][st][r] = run(s, st);
		}
	printf("%-28s %12s %12s\n", "stage (ns per op, median)", "front row", "tail");
	for (int front = 0; front < 2; front++)
		for (int st = 0; st < NR_ST; st++)
			qsort(t[front][st], rounds, sizeof(double), cmp);
	if (json)
		fprintf(json, "{\"rounds\": %d, \"iters\": %d, \"unit\": \"ns per op, median, less the empty loop\", \"stages\": [", rounds, ITERS);
	for (int st = 0; st < NR_ST; st++) {
		double base[2] = { st ? t[0][0][rounds / 2] : 0, st ? t[1][0][rounds / 2] : 0 };
		double f = t[1][st][rounds / 2] - base[1], tl = t[0][st][rounds / 2] - base[0];

		printf("%-28s %12.1f %12.1f\n", names[st], f, tl);
		if (json)
			fprintf(json, "%s{\"stage\": \"%s\", \"front\": %.1f, \"tail\": %.1f}",
				st ? ", " : "", names[st], f, tl);
	}
	if (json) {
		fprintf(json, "]}\n");
		fclose(json);
		printf("(%s)\n", argv[2]);
	}
	stages_bpf__destroy(s);
	return 0;
}

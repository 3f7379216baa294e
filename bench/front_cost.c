// SPDX-License-Identifier: GPL-2.0
/*
 * bench/front_cost.c: what reading the per-CPU front rows costs the loader
 * at each snapshot on a host of many CPUs, from two measurements here:
 *   - the kernel's copy: a lookup of a per-CPU row copies the value of
 *     every possible CPU; timed here for two value sizes (a row's, and 16
 *     times that, as many bytes as 16 times the CPUs copy), it gives a cost
 *     per lookup and one per byte copied;
 *   - the loader's sum (loader/front.c front_fold, its own code), timed
 *     on rows of as many CPUs as the host modelled has.
 * The model: rows x (per lookup + per byte x row bytes x CPUs) + the sums.
 * Prints one JSON object.
 *   front_cost [CPUS [HIST_ROWS OPC_ROWS PHASES]]   the host to model
 *   (default: the large host of bench/mapmodel.py, 128 CPUs, -P --phases,
 *   with the rows the loader gives it)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include "osdhist.h"
#include "front.h"

#define ROWS	64	/* rows read per timing */
#define REPS	40

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* ns per lookup of a per-CPU row of size bytes (all CPUs copied). */
static double lookup_ns(size_t size, int ncpus)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "front_cost", 4, size, ROWS, NULL);
	char *v = calloc(ncpus, size);
	double t0;

	if (fd < 0 || !v)
		return -1;
	t0 = now();
	for (int k = 0; k < REPS; k++)
		for (__u32 r = 0; r < ROWS; r++)
			if (bpf_map_lookup_elem(fd, &r, v))
				return -1;
	t0 = (now() - t0) * 1e9 / (REPS * ROWS);
	free(v);
	return t0;
}

/* ns per front_fold of a row of n64 u64 and n32 u32 words over cpus. */
static double fold_ns(__u32 n64, __u32 n32, int cpus)
{
	static __u64 out[2 * OPCOUNT_SLOTS + 2 * NR_BUCKETS + 2];
	struct front f;
	char *v;
	double t0;

	if (front_init(&f, NULL, front_opc_word, -1, -1, 4, n64, n32, ROWS, cpus))
		return -1;
	v = malloc((size_t)cpus * f.value_size);
	if (!v)
		return -1;
	for (size_t i = 0; i < (size_t)cpus * f.value_size; i++)
		v[i] = (char)(i * 7);
	t0 = now();
	for (int k = 0; k < REPS; k++)
		for (__u32 r = 0; r < ROWS; r++)
			front_fold(&f, 0, r, v, out);
	t0 = (now() - t0) * 1e9 / (REPS * ROWS);
	free(v);
	front_free(&f);
	return t0;
}

int main(int argc, char **argv)
{
	int ncpus = libbpf_num_possible_cpus();
	int cpus = argc > 1 ? atoi(argv[1]) : 128;
	int phases = argc > 4 ? atoi(argv[4]) : 1;
	__u32 rows = argc > 2 ? (__u32)atoi(argv[2]) :
		front_rows_for(FRONT_BYTES, sizeof(struct front_pair), phases ? 2 : 1, cpus,
			       FRONT_ROWS_MAX);
	__u32 opc_rows = argc > 3 ? (__u32)atoi(argv[3]) :
		front_rows_for(OPC_FRONT_BYTES, sizeof(struct front_opc), 1, cpus, OPC_ROWS_MAX);
	size_t small = sizeof(struct front_pair), big = 16 * small;
	double l1 = lookup_ns(small, ncpus), l2 = lookup_ns(big, ncpus);
	double fh = fold_ns(2, 2 * NR_BUCKETS, cpus), fo = fold_ns(0, 2 * OPCOUNT_SLOTS, cpus);
	double per_byte, per_lookup, nh, ms;

	if (ncpus < 1 || cpus < 1 || l1 < 0 || l2 < 0 || fh < 0 || fo < 0) {
		fprintf(stderr, "front_cost: cannot create or read the maps (root, BPF)\n");
		return 1;
	}
	per_byte = (l2 - l1) / ((double)(big - small) * ncpus);
	per_lookup = l1 - per_byte * small * ncpus;
	nh = (double)rows * (phases ? 2 : 1);
	ms = (nh * (per_lookup + per_byte * sizeof(struct front_pair) * cpus + fh) +
	      opc_rows * (per_lookup + per_byte * sizeof(struct front_opc) * cpus + fo)) / 1e6;
	printf("{\"ncpus_here\":%d,\"lookup_ns\":%.0f,\"copy_ns_per_kib\":%.1f,"
	       "\"fold_ns_hist_row\":%.0f,\"fold_ns_opc_row\":%.0f,\"model\":{\"cpus\":%d,"
	       "\"phases\":%s,\"hist_rows\":%u,\"opc_rows\":%u,\"bytes\":%.0f,"
	       "\"ms_per_snapshot\":%.3f,\"cpu_pct_at_1s\":%.3f}}\n", ncpus, per_lookup,
	       per_byte * 1024, fh, fo, cpus, phases ? "true" : "false", rows, opc_rows,
	       (nh * sizeof(struct front_pair) + opc_rows * sizeof(struct front_opc)) * cpus,
	       ms, ms / 10);
	return 0;
}

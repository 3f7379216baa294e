// SPDX-License-Identifier: GPL-2.0
/*
 * bench/mapsizes.c: prints, as one JSON object, the sizes and map
 * constants of maps/osdhist.h, so that bench/report.py models osdhist's map
 * memory on a big host from the same definitions the BPF programs use.
 */
#include <stdio.h>
#include <linux/types.h>
#include "osdhist.h"

/* bpf/osdhist.bpf.c's struct scratch (the value of map scratch), which
 * maps/osdhist.h only sizes: SCRATCH_SLOTS slots, each a busy word, a
 * window buffer (READ_WINDOW_MAX), a buffer, a call's arguments (struct call_args: a u64 and nine u32, 48
 * bytes aligned), its struct call_key, a buffer::ptr (16 bytes), the
 * slowest ops' nops (u32, padded), candidate (a u64, a u32, four u8) and
 * hobject_t bytes (HOBJ_WINDOW + 16).  bench/report.py checks it against
 * the loaded map's value size. */
#define SCRATCH_VALUE	(SCRATCH_SLOTS * (8 + READ_WINDOW_MAX + SCRATCH_BYTES + 48 + sizeof(struct call_key) + \
				      16 + 8 + 16 + HOBJ_WINDOW + 16))
/* bpf/'s map zero: the largest of struct hist_pair, op_counts, slow_sets */
#define MAX2(a, b)	((a) > (b) ? (a) : (b))
#define ZERO_VALUE	MAX2(MAX2(sizeof(struct hist_pair), sizeof(struct op_counts)), \
			     sizeof(struct slow_sets))

int main(void)
{
	printf("{\"op_key\":%zu,\"op_state\":%zu,\"hist_key\":%zu,\"hist\":%zu,"
	       "\"hist_pair\":%zu,\"op_counts\":%zu,\"scratch\":%zu,"
	       "\"zero_value\":%zu,\"call_key\":%zu,\"calls_entries\":%d,\"calls_max\":%d,"
	       "\"binary_row\":%zu,\"max_binaries\":%d,"
	       "\"nr_buckets\":%d,\"nr_health\":%d,\"nr_classes\":%d,"
	       "\"nr_opcodes\":%d,\"inflight_entries\":%d,"
	       "\"hists_entries\":%d,\"phase_hists_entries\":%d,"
	       "\"opcount_entries\":%d,\"slow_sets\":%zu,\"slow_filter\":%zu,"
	       "\"slowops_entries\":%d,\"front_rows_max\":%d,\"opc_rows_max\":%d,"
	       "\"front_bytes\":%u,\"opc_front_bytes\":%u,\"front_pair\":%zu,"
	       "\"front_opc\":%zu}\n",
	       sizeof(struct op_key), sizeof(struct op_state),
	       sizeof(struct hist_key), sizeof(struct hist),
	       sizeof(struct hist_pair), sizeof(struct op_counts), SCRATCH_VALUE,
	       ZERO_VALUE, sizeof(struct call_key), CALLS_ENTRIES, CALLS_MAX,
	       sizeof(struct binary_row), MAX_BINARIES,
	       NR_BUCKETS, NR_HEALTH, NR_CLASSES, NR_OPCODES, INFLIGHT_ENTRIES,
	       HISTS_ENTRIES, PHASE_HISTS_ENTRIES, OPCOUNT_ENTRIES,
	       sizeof(struct slow_sets), sizeof(struct slow_filter), SLOWOPS_ENTRIES,
	       FRONT_ROWS_MAX, OPC_ROWS_MAX, FRONT_BYTES, OPC_FRONT_BYTES,
	       sizeof(struct front_pair), sizeof(struct front_opc));
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * bench/mapsizes.c: prints, as one JSON object, the sizes and map
 * constants of maps/osdhist.h, so that bench/report.py models osdhist's map
 * memory on a big host from the same definitions the BPF programs use.
 */
#include <stdio.h>
#include <linux/types.h>
#include "osdhist.h"

int main(void)
{
	printf("{\"op_key\":%zu,\"op_state\":%zu,\"hist_key\":%zu,\"hist\":%zu,"
	       "\"nr_buckets\":%d,\"nr_health\":%d,\"inflight_entries\":%d,"
	       "\"hists_entries_max\":%d,\"hists_entries_min\":%d,"
	       "\"hist_mem_budget\":%lu}\n",
	       sizeof(struct op_key), sizeof(struct op_state),
	       sizeof(struct hist_key), sizeof(struct hist), NR_BUCKETS,
	       NR_HEALTH, INFLIGHT_ENTRIES, HISTS_ENTRIES_MAX,
	       HISTS_ENTRIES_MIN, (unsigned long)HIST_MEM_BUDGET);
	return 0;
}

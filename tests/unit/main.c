// SPDX-License-Identifier: GPL-2.0
/* Unit tests: no root, no cluster.  One binary, one cmocka group per file. */
#include "unit.h"

int main(void)
{
	int failed = 0;

	/* first: the names other tests register change its output */
	failed += run_golden_tests();
	failed += run_bucket_tests();
	failed += run_stats_tests();
	failed += run_cli_tests();
	failed += run_procs_tests();
	failed += run_proctable_tests();
	failed += run_render_tests();
	failed += run_binary_tests();
	failed += run_derive_tests();
	failed += run_symtrace_arm64_tests();
	failed += run_derive_arm64_tests();
	failed += run_prom_tests();
	failed += run_http_guard_tests();
	failed += run_verify_tests();
	failed += run_asok_tests();
	failed += run_optypes_tests();
	failed += run_inflight_tests();
	failed += run_report_tests();
	failed += run_deadkeys_tests();
	failed += run_front_tests();
	failed += run_calls_tests();
	failed += run_slowops_tests();
	failed += run_job_tests();
	failed += run_claims_tests();
	failed += run_table_tests();
	failed += run_top_view_tests();
	failed += run_heatmap_tests();
	return failed ? 1 : 0;
}

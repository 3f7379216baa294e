/* SPDX-License-Identifier: GPL-2.0 */
/* cmocka needs these before its header. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

int run_golden_tests(void);
int run_bucket_tests(void);
int run_stats_tests(void);
int run_cli_tests(void);
int run_procs_tests(void);
int run_proctable_tests(void);
int run_render_tests(void);
int run_binary_tests(void);
int run_derive_tests(void);
int run_symtrace_arm64_tests(void);
int run_derive_arm64_tests(void);
int run_prom_tests(void);
int run_http_guard_tests(void);
int run_verify_tests(void);
int run_asok_tests(void);
int run_optypes_tests(void);
int run_inflight_tests(void);
int run_report_tests(void);
int run_deadkeys_tests(void);
int run_front_tests(void);
int run_calls_tests(void);
int run_slowops_tests(void);
int run_job_tests(void);
int run_claims_tests(void);
int run_table_tests(void);
int run_top_view_tests(void);
int run_heatmap_tests(void);

struct report;
/* r as render_text ('t'; 'T': with -T and -m), render_json ('j'),
 * render_table ('b': by OSD, 120 columns) or render_prom (any other,
 * default buckets) prints it; the caller frees it. */
char *unit_render(int kind, const struct report *r);

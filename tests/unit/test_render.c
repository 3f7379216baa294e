// SPDX-License-Identifier: GPL-2.0
/* Renderers: the text layout and the JSON schema promised in docs/reference.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "report.h"
#include "sampler.h"
#include "stats.h"

static struct series_delta s[2];

static void make(struct report *r)
{
	memset(r, 0, sizeof(*r));
	memset(s, 0, sizeof(s));
	s[0].osd = 0; s[0].pool = -1; s[0].cls = CLASS_WRITE;
	s[0].optype = OPTYPE_ALL; s[0].phase = PHASE_TOTAL;
	s[0].h.count = 4;
	s[0].h.sum_ns = 4000000;
	s[0].h.buckets[osdhist_bucket(1000000)] = 4;
	s[1].osd = 1; s[1].pool = 2; s[1].cls = CLASS_ERROR;
	s[1].optype = OPTYPE_ALL; s[1].phase = PHASE_TOTAL;
	r->time = 1700000000.25;
	r->interval = 2;
	r->traced = 2;
	r->s = s;
	r->n = 2;
	r->health.bpf[H_DONE] = 10;
	r->health.bpf[H_REMOVED] = 9;
	r->health.inflight = 1;
	r->health.inflight_max = 16384;
}

static char *render(void (*fn)(FILE *, const struct report *), const struct report *r)
{
	static char *buf;	/* static: open_memstream keeps its address */
	static size_t len;
	FILE *f;

	buf = NULL;
	f = open_memstream(&buf, &len);

	fn(f, r);
	fclose(f);
	return buf;
}

static void text_plain(FILE *f, const struct report *r)
{
	render_text(f, r, false, false);
}

static void text_shows_series_and_health(void **state)
{
	struct report r;
	char *out;
	(void)state;

	make(&r);
	out = render(text_plain, &r);
	assert_non_null(strstr(out, "osd.0 write total: 4 ops, 2.0/s, mean 1000.000"));
	assert_non_null(strstr(out, "usecs"));
	assert_non_null(strstr(out, "|****************************************|"));
	assert_null(strstr(out, "osd.1"));	/* no op in the interval */
	assert_non_null(strstr(out, "health: "));
	assert_non_null(strstr(out, "no op lost"));
	free(out);

	r.health.bpf[H_INSERT_FAIL] = 3;
	r.health.reaped = 2;
	out = render(text_plain, &r);
	assert_non_null(strstr(out, "!! health:"));
	assert_non_null(strstr(out, "OPS NOT FOLLOWED: insert_failed=3 reaped_dead_proc=2"));
	free(out);
}

static void json_schema(void **state)
{
	struct report r;
	char *out, *line2;
	(void)state;

	make(&r);
	s[1].h.count = 1;
	s[1].h.sum_ns = 300;
	s[1].h.buckets[osdhist_bucket(300)] = 1;
	out = render(render_json, &r);
	line2 = strchr(out, '\n') + 1;
	const char *first = "{\"type\":\"hist\",\"time\":1700000000.250,\"osd\":0,"
		"\"class\":\"write\",\"phase\":\"total\",\"count\":4,"
		"\"sum_ns\":4000000,\"p50_ns\":";
	const char *second = "{\"type\":\"hist\",\"time\":1700000000.250,"
		"\"osd\":1,\"pool\":2,\"class\":\"error\"";

	assert_true(!strncmp(out, first, strlen(first)));
	assert_non_null(strstr(out, "\"buckets\":[[1048576,4]]}\n"));
	assert_true(!strncmp(line2, second, strlen(second)));
	assert_non_null(strstr(out, "{\"type\":\"health\",\"time\":1700000000.250,"
			    "\"interval_s\":2.000,\"traced_s\":2.000,\"sampled\":false,"
			    "\"window_moves\":0,\"window_move_s\":0.000000,"
			    "\"windows_unlisted\":0,\"done\":10,\"error_ends\":0"));
	assert_null(strstr(out, "\"type\":\"window\""));	/* none closed */
	assert_non_null(strstr(out, "\"interval_s\":2.000,\"traced_s\":2.000,"
			    "\"ops_per_s\":2.000,\"est_ops_per_s\":2.000,\"buckets\""));
	assert_non_null(strstr(out, "\"inflight\":1,\"inflight_max\":16384"));
	assert_non_null(strstr(out, "\"losses\":0}\n"));
	free(out);
}

/* --sample: each window closed in the interval, in Ceph's clock (ns), before
 * the health line. */
static void json_windows(void **state)
{
	const struct window_span w[2] = {
		{ 1700000000000000001ULL, 1700000001000000002ULL },
		{ 1700000002000000003ULL, 1700000003000000004ULL },
	};
	struct report r;
	char *out, *win;
	(void)state;

	make(&r);
	r.sampled = true;
	r.windows = w;
	r.nwindows = 2;
	out = render(render_json, &r);
	win = strstr(out, "{\"type\":\"window\",\"time\":1700000000.250,"
		     "\"open_ns\":1700000000000000001,\"close_ns\":1700000001000000002}\n"
		     "{\"type\":\"window\",\"time\":1700000000.250,"
		     "\"open_ns\":1700000002000000003,\"close_ns\":1700000003000000004}\n");
	assert_non_null(win);
	assert_true(win < strstr(out, "\"type\":\"health\""));
	free(out);
}

int run_render_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_shows_series_and_health),
		cmocka_unit_test(json_schema),
		cmocka_unit_test(json_windows),
	};
	return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}

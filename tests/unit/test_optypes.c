// SPDX-License-Identifier: GPL-2.0
/* The op-code table and the op-type rule of maps/osdhist_ops.h, and how the
 * renderers show op types and op codes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "output/prom.h"
#include "report/names.h"
#include "report/report.h"
#include "output/render.h"

static unsigned char opi(unsigned code)
{
	return osdhist_opi(code);
}

static void codes_and_names(void **state)
{
	(void)state;
	assert_string_equal(op_name(opi(0x1201)), "read");
	assert_string_equal(op_name(opi(0x1202)), "stat");
	assert_string_equal(op_name(opi(0x2202)), "writefull");
	assert_string_equal(op_name(opi(0x1212)), "omap-get-vals");
	assert_string_equal(op_name(opi(0x2215)), "omap-set-vals");
	assert_string_equal(op_name(opi(0x1401)), "call");
	assert_string_equal(op_name(opi(0x2223)), "set-alloc-hint");
	/* the same low bits in other modes are other ops */
	assert_string_equal(op_name(opi(0x121f)), "checksum");
	assert_string_equal(op_name(opi(0x821f)), "cache-flush");
	assert_int_equal(opi(0x4001), OPI_UNKNOWN);	/* a sub-op code: not a client op */
	assert_int_equal(opi(0), OPI_UNKNOWN);
	assert_string_equal(op_name(OPI_NONE), "none");
	assert_string_equal(op_name(OPTYPE_ALL), "all");
	/* every listed code has its own index and a distinct name */
	for (unsigned a = 2; a < NR_OPCODES; a++)
		for (unsigned b = a + 1; b < NR_OPCODES; b++)
			assert_string_not_equal(op_name(a), op_name(b));
}

static void type_skips_guards(void **state)
{
	unsigned char rbd_write[] = { opi(0x2223), opi(0x2201) };
	unsigned char guarded[] = { opi(0x1208), opi(0x1303), opi(0x2202) };
	unsigned char guards[] = { opi(0x1219), opi(0x1208) };
	unsigned char rgw_put[] = { opi(0x220d), opi(0x2301), opi(0x2202) };
	unsigned char many[20];

	(void)state;
	assert_int_equal(osdhist_op_type(rbd_write, 2), opi(0x2201));
	assert_int_equal(osdhist_op_type(guarded, 3), opi(0x2202));
	assert_int_equal(osdhist_op_type(guards, 2), opi(0x1219));	/* guards only: the first */
	assert_int_equal(osdhist_op_type(rgw_put, 3), opi(0x220d));	/* create is an op */
	assert_int_equal(osdhist_op_type(rbd_write, 0), OPI_NONE);
	/* only the first OSDHIST_OPS_MAX ops are looked at, as in bpf/ */
	memset(many, opi(0x1208), sizeof(many));
	many[OSDHIST_OPS_MAX] = opi(0x1201);
	assert_int_equal(osdhist_op_type(many, sizeof(many)), opi(0x1208));
}

static struct series_delta s[3];
static struct opcode_delta oc[2];

static void make(struct report *r)
{
	memset(r, 0, sizeof(*r));
	memset(s, 0, sizeof(s));
	memset(oc, 0, sizeof(oc));
	/* osd.3: 4 stats of which 1 failed, all classes of one op type */
	s[0].osd = 3; s[0].pool = -1; s[0].cls = CLASS_READ;
	s[0].optype = opi(0x1202); s[0].phase = PHASE_TOTAL;
	s[0].h.count = s[0].cum.count = 3;
	s[0].h.sum_ns = s[0].cum.sum_ns = 300000;
	s[0].h.buckets[osdhist_bucket(100000)] = s[0].cum.buckets[osdhist_bucket(100000)] = 3;
	s[1] = s[0];
	s[1].cls = CLASS_ERROR;
	s[1].h.count = s[1].cum.count = 1;
	s[1].h.sum_ns = s[1].cum.sum_ns = 100000;
	s[1].h.buckets[osdhist_bucket(100000)] = s[1].cum.buckets[osdhist_bucket(100000)] = 1;
	s[2] = s[0];
	s[2].optype = OPTYPE_ALL;
	oc[0] = (struct opcode_delta){ .osd = 3, .opi = opi(0x1202), .ops = 4,
				       .failed = 1, .ops_cum = 4, .failed_cum = 1 };
	oc[1] = (struct opcode_delta){ .osd = 3, .opi = opi(0x1208), .ops = 2,
				       .ops_cum = 2 };
	r->time = 1700000000.25;
	r->interval = 2;
	r->traced = 2;
	r->s = s;
	r->n = 3;
	r->opc = oc;
	r->nopc = 2;
	r->health.inflight_max = 16384;
}

/* What renderer 't' (text), 'j' (JSON) or 'p' (Prometheus) writes for r. */
static char *render(char kind, const struct report *r)
{
	struct prom_buckets b;
	char *buf = NULL;
	size_t len;
	FILE *f;

	prom_default_buckets(&b);
	f = open_memstream(&buf, &len);
	if (kind == 't')
		render_text(f, r, false, false);
	else if (kind == 'j')
		render_json(f, r);
	else
		render_prom(f, r, &b, "test");
	fclose(f);
	return buf;
}

static void text_table(void **state)
{
	struct report r;
	char *out;

	(void)state;
	make(&r);
	out = render('t', &r);
	assert_non_null(strstr(out, "osd.3 read total: 3 ops"));
	assert_null(strstr(out, "osd.3 error total"));	/* op-type series are not classes */
	assert_non_null(strstr(out, "osd.3 op types:\n"));
	assert_non_null(strstr(out, " stat                            4        1        2.0    100.000"));
	assert_non_null(strstr(out, "op codes: stat 4 (1 failed), assert-version 2\n"));
	free(out);
}

static void json_lines(void **state)
{
	struct report r;
	char *buf;

	(void)state;
	make(&r);
	buf = render('j', &r);
	assert_non_null(strstr(buf, "{\"type\":\"optype\",\"time\":1700000000.250,\"osd\":3,\"fsid\":\"\","
			       "\"op\":\"stat\",\"class\":\"error\",\"phase\":\"total\",\"count\":1,"));
	assert_non_null(strstr(buf, "{\"type\":\"opcode\",\"time\":1700000000.250,\"osd\":3,\"fsid\":\"\","
			       "\"op\":\"stat\",\"ops\":4,\"failed\":1,\"ops_total\":4,"
			       "\"failed_total\":1}\n"));
	assert_non_null(strstr(buf, "{\"type\":\"hist\",\"time\":1700000000.250,\"osd\":3,\"fsid\":\"\","
			       "\"class\":\"read\""));
	free(buf);
}

static void prom_families(void **state)
{
	struct report r;
	char *buf;

	(void)state;
	make(&r);
	buf = render('p', &r);
	assert_non_null(strstr(buf, "# TYPE osdhist_op_type_latency_seconds histogram\n"));
	assert_non_null(strstr(buf, "osdhist_op_type_latency_seconds_count{ceph_daemon=\"osd.3\","
			       "class=\"error\",op=\"stat\"} 1\n"));
	assert_non_null(strstr(buf, "osdhist_op_latency_seconds_count{ceph_daemon=\"osd.3\","
			       "class=\"read\",phase=\"total\"} 3\n"));
	assert_null(strstr(buf, "osdhist_op_latency_seconds_count{ceph_daemon=\"osd.3\","
			    "class=\"error\""));
	assert_non_null(strstr(buf, "osdhist_op_code_ops_total{ceph_daemon=\"osd.3\","
			       "op=\"stat\"} 4\n"));
	assert_non_null(strstr(buf, "osdhist_op_code_failed_total{ceph_daemon=\"osd.3\","
			       "op=\"assert-version\"} 0\n"));
	free(buf);
}

int run_optypes_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(codes_and_names),
		cmocka_unit_test(type_skips_guards),
		cmocka_unit_test(text_table),
		cmocka_unit_test(json_lines),
		cmocka_unit_test(prom_families),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

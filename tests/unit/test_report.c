// SPDX-License-Identifier: GPL-2.0
/* The report model: --osd's view of a report (report_keep_osd). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "report/report.h"
#include "report/verify_report.h"

/* Two OSDs, each with a class series, an op-type series, an op code and a
 * verify line, interleaved as the tracer's arrays never are (the filter
 * must not rely on order). */
static struct series_delta s[4];
static struct opcode_delta opc[4];
static struct verify_report v[4];

static void make(struct report *r)
{
	memset(r, 0, sizeof(*r));
	memset(s, 0, sizeof(s));
	memset(opc, 0, sizeof(opc));
	memset(v, 0, sizeof(v));
	for (int i = 0; i < 4; i++) {
		s[i].osd = i % 2 ? 7 : 3;
		s[i].pool = -1;
		s[i].cls = CLASS_WRITE;
		s[i].optype = i < 2 ? OPTYPE_ALL : OPI_NONE + 1;
		s[i].phase = PHASE_TOTAL;
		s[i].h.count = s[i].cum.count = 10 + i;
		s[i].h.buckets[osdhist_bucket(1000000)] = 10 + i;
		s[i].cum.buckets[osdhist_bucket(1000000)] = 10 + i;
		opc[i].osd = i % 2 ? 7 : 3;
		opc[i].opi = OPI_NONE + 1 + i / 2;
		opc[i].ops = opc[i].ops_cum = 20 + i;
		v[i].osd = i % 2 ? 7 : 3;
		v[i].pid = 100 + i;
		v[i].state = VERIFY_VERIFIED;
	}
	r->time = 1700000000;
	r->interval = r->traced = 1;
	r->s = s, r->n = 4;
	r->opc = opc, r->nopc = 4;
	r->verify = v, r->nverify = 4;
}

static void keep_osd_keeps_every_list(void **state)
{
	struct report r;
	void *kept;
	(void)state;

	make(&r);
	kept = report_keep_osd(&r, 7);
	assert_non_null(kept);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.nopc, 2);
	assert_int_equal(r.nverify, 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(r.s[i].osd, 7);
		assert_int_equal(r.opc[i].osd, 7);
		assert_int_equal(r.verify[i].osd, 7);
	}
	/* in their order, copied whole */
	assert_int_equal(r.s[0].optype, OPTYPE_ALL);
	assert_int_equal(r.s[1].optype, OPI_NONE + 1);
	assert_int_equal(r.s[1].h.count, 13);
	assert_int_equal(r.opc[1].ops, 23);
	assert_int_equal(r.verify[1].pid, 103);
	/* the tracer's arrays are the next snapshot's: never written */
	assert_int_equal(s[0].osd, 3);
	assert_int_equal(opc[0].osd, 3);
	assert_int_equal(v[0].osd, 3);
	free(kept);

	make(&r);
	kept = report_keep_osd(&r, 5);	/* an OSD with nothing: empty lists */
	assert_non_null(kept);
	assert_int_equal(r.n + r.nopc + r.nverify, 0);
	assert_non_null(r.verify);	/* checked, none of osd.5: not "off" */
	free(kept);

	make(&r);	/* --top's copy: every OSD's, in order, the arrays apart */
	kept = report_keep_osd(&r, REPORT_EVERY_OSD);
	assert_non_null(kept);
	assert_int_equal(r.n, 4);
	assert_int_equal(r.nopc, 4);
	assert_int_equal(r.nverify, 4);
	assert_ptr_not_equal(r.s, s);
	for (int i = 0; i < 4; i++) {
		assert_memory_equal(&r.s[i], &s[i], sizeof(s[i]));
		assert_memory_equal(&r.opc[i], &opc[i], sizeof(opc[i]));
		assert_memory_equal(&r.verify[i], &v[i], sizeof(v[i]));
	}
	free(kept);

	make(&r);
	r.verify = NULL, r.nverify = 0;	/* --no-verify: still off after --osd */
	kept = report_keep_osd(&r, 7);
	assert_non_null(kept);
	assert_null(r.verify);
	free(kept);
}

/* What each output prints of the kept report names osd.7 only: its class
 * and op-type series, op codes and verify lines are all there. */
static void keep_osd_outputs_name_one_osd(void **state)
{
	struct report r;
	void *kept;
	char *out;
	(void)state;

	make(&r);
	kept = report_keep_osd(&r, 7);
	assert_non_null(kept);

	out = unit_render('j', &r);
	assert_non_null(strstr(out, "{\"type\":\"hist\",\"time\":1700000000.000,\"osd\":7,"));
	assert_non_null(strstr(out, "{\"type\":\"optype\",\"time\":1700000000.000,\"osd\":7,"));
	assert_non_null(strstr(out, "{\"type\":\"opcode\",\"time\":1700000000.000,\"osd\":7,"));
	assert_non_null(strstr(out, "{\"type\":\"verify\",\"time\":1700000000.000,\"osd\":7,"));
	assert_null(strstr(out, "\"osd\":3"));
	free(out);

	out = unit_render('t', &r);
	assert_non_null(strstr(out, "osd.7 "));
	assert_null(strstr(out, "osd.3"));
	free(out);

	out = unit_render('b', &r);
	assert_non_null(strstr(out, "\nosd.7 "));
	assert_null(strstr(out, "osd.3"));
	free(out);

	out = unit_render('p', &r);
	assert_non_null(strstr(out, "osdhist_op_code_ops_total{ceph_daemon=\"osd.7\""));
	assert_non_null(strstr(out, "osdhist_verify_state{ceph_daemon=\"osd.7\""));
	assert_null(strstr(out, "osd.3\""));
	free(out);
	free(kept);
}

int run_report_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keep_osd_keeps_every_list),
		cmocka_unit_test(keep_osd_outputs_name_one_osd),
	};
	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* The oracle's comparison rule and its state across checks (verify.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "output/prom.h"
#include "report/report.h"
#include "output/render.h"
#include "verify.h"

static bool judge(__u64 bc1, __u64 bo, __u64 bc2, __u64 c1, __u64 o, __u64 c2,
		  struct verify_judgement *j)
{
	struct verify_reading base = { bc1, bo, bc2 }, now = { c1, o, c2 };

	return verify_judge(&base, &now, VERIFY_SLACK, j);
}

/* Exact agreement, and ops that ended between the two Ceph reads. */
static void rule_inside(void **state)
{
	struct verify_judgement j;

	(void)state;
	assert_true(judge(100, 50, 100, 1100, 1050, 1100, &j));
	assert_int_equal(j.ours, 1000);
	assert_int_equal(j.ceph_lo, 1000);
	assert_int_equal(j.ceph_hi, 1000);
	assert_int_equal(j.excess, 0);
	/* 30 ops ended while osdhist read its maps: ours may be anywhere
	 * in Ceph's range */
	assert_true(judge(100, 50, 130, 1100, 1050, 1130, &j));
	assert_int_equal(j.ceph_lo, 970);
	assert_int_equal(j.ceph_hi, 1030);
	/* within the slack on either side */
	assert_true(judge(0, 0, 0, 1000, 1000 + VERIFY_SLACK, 1000, &j));
	assert_true(judge(0, 0, 0, 1000, 1000 - VERIFY_SLACK, 1000, &j));
	/* right after the baseline Ceph's lower bound can be negative */
	assert_true(judge(0, 0, 40, 10, 20, 50, &j));
	assert_true(j.ceph_lo < 0);
}

static void rule_outside(void **state)
{
	struct verify_judgement j;

	(void)state;
	/* one op more than Ceph could have counted, beyond the slack */
	assert_false(judge(0, 0, 0, 1000, 1000 + VERIFY_SLACK + 1, 1000, &j));
	assert_int_equal(j.excess, 1);
	/* osdhist missing ops: negative excess */
	assert_false(judge(0, 0, 0, 1000, 900, 1000, &j));
	assert_int_equal(j.excess, 900 - (1000 - VERIFY_SLACK));
	/* reads counted as writes: read short, write over */
	assert_false(judge(0, 0, 0, 5000, 0, 5000, &j));
	assert_false(judge(0, 0, 0, 5000, 10000, 5000, &j));
	assert_int_equal(j.excess, 10000 - 5000 - VERIFY_SLACK);
}

/* A correct tracer's difference stays bounded however long it runs; a
 * wrong one's grows with the ops and is caught. */
static void rule_bounded_vs_growing(void **state)
{
	struct verify_judgement j;
	__u64 ceph = 0, ours = 0, wrong = 0;

	(void)state;
	for (int k = 0; k < 1000; k++) {
		ceph += 997;
		ours += 997;
		wrong += 990;	/* 0.7 % of ops lost */
		/* 12 ops in flight at every read: Ceph counted them at c2 */
		assert_true(judge(0, 0, 12, ceph, ours, ceph + 12, &j));
		if (k >= 4)	/* 7 * 5 = 35 ops short: past 12 + slack */
			assert_false(judge(0, 0, 12, ceph, wrong, ceph + 12, &j));
	}
}

static void step_persistence(void **state)
{
	struct verify_class_report c;

	(void)state;
	memset(&c, 0, sizeof(c));
	/* one check outside is not a mismatch yet; a second in a row is */
	assert_false(verify_step(&c, false));
	assert_false(verify_step(&c, true));
	assert_false(verify_step(&c, false));
	assert_true(verify_step(&c, false));
	assert_true(verify_step(&c, false));
	/* cleared only by VERIFY_PERSIST checks inside in a row */
	assert_true(verify_step(&c, true));
	assert_true(verify_step(&c, false));
	assert_true(verify_step(&c, true));
	assert_false(verify_step(&c, true));
}

/* After failures in a row: VERIFY_BACKOFF_S, doubling, capped; a fake
 * that always fails is asked ever more rarely, never more than every
 * VERIFY_BACKOFF_MAX_S apart. */
static void backoff(void **state)
{
	(void)state;
	assert_true(verify_backoff(1) == VERIFY_BACKOFF_S);
	assert_true(verify_backoff(2) == 2 * VERIFY_BACKOFF_S);
	assert_true(verify_backoff(3) == 4 * VERIFY_BACKOFF_S);
	for (int n = 2; n < 100; n++)
		assert_true(verify_backoff(n) >= verify_backoff(n - 1));
	assert_true(verify_backoff(99) == VERIFY_BACKOFF_MAX_S);
	assert_true(verify_backoff(1 << 30) == VERIFY_BACKOFF_MAX_S);
}

static void names(void **state)
{
	(void)state;
	assert_string_equal(verify_counter[VC_READ], "op_r");
	assert_string_equal(verify_counter[VC_WRITE], "op_w");
	assert_string_equal(verify_counter[VC_RW], "op_rw");
	assert_string_equal(verify_counter[VC_SUBOP], "subop_w");
	assert_string_equal(verify_state_name[VERIFY_MISMATCH], "mismatch");
}

/* osd.3 mismatched in class read, osd.4 unverified with a reason quoting a
 * broken answer (quotes, a control byte). */
static char *render(void (*fn)(FILE *, const struct report *))
{
	static struct verify_report v[2];
	struct report r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(&r, 0, sizeof(r));
	memset(v, 0, sizeof(v));
	v[0].osd = 3;
	v[0].state = VERIFY_MISMATCH;
	for (int k = 0; k < NR_VC; k++)
		v[0].cls[k].compared = true;
	v[0].cls[VC_READ].mismatch = true;
	v[0].cls[VC_READ].j = (struct verify_judgement){ 0, 7000, 7010, -6984 };
	v[1].osd = 4;
	v[1].state = VERIFY_UNVERIFIED;
	snprintf(v[1].reason, sizeof(v[1].reason), "garbage: answer is not JSON: \"x\\\x01");
	r.verify = v;
	r.nverify = 2;
	fn(f, &r);
	fclose(f);
	return buf;
}

static void prom_text(FILE *f, const struct report *r)
{
	struct prom_buckets b;

	prom_default_buckets(&b);
	render_prom(f, r, &b, "t");
}

static void json_text(FILE *f, const struct report *r) { render_json(f, r); }
static void plain_text(FILE *f, const struct report *r) { render_text(f, r, false, false); }

static void renderers(void **state)
{
	char *p = render(prom_text), *j = render(json_text), *t = render(plain_text);

	(void)state;
	assert_non_null(strstr(p, "osdhist_verify_mismatch{ceph_daemon=\"osd.3\",class=\"read\"} 1\n"));
	assert_non_null(strstr(p, "osdhist_verify_mismatch{ceph_daemon=\"osd.3\",class=\"write\"} 0\n"));
	assert_non_null(strstr(p, "osdhist_verify_state{ceph_daemon=\"osd.3\",state=\"mismatch\"} 1\n"));
	assert_non_null(strstr(p, "osdhist_verify_state{ceph_daemon=\"osd.4\",state=\"unverified\"} 1\n"));
	assert_non_null(strstr(p, "osdhist_verify_excess_ops{ceph_daemon=\"osd.3\",class=\"read\"} -6984\n"));
	/* osd.4 compared nothing: no class gauges */
	assert_null(strstr(p, "osdhist_verify_mismatch{ceph_daemon=\"osd.4\""));
	assert_non_null(strstr(j, "\"osd\":3,\"fsid\":\"\",\"pid\":0,\"state\":\"mismatch\""));
	assert_non_null(strstr(j, "\"read\":{\"osdhist\":0,\"counter\":\"op_r\",\"ceph_min\":7000,"
			       "\"ceph_max\":7010,\"excess\":-6984,\"mismatch\":true}"));
	assert_non_null(strstr(j, "\"reason\":\"garbage: answer is not JSON: \\\"x\\\\\\u0001\""));
	assert_non_null(strstr(t, "!! VERIFY MISMATCH osd.3 class read: osdhist counted 0 ops, "
			       "Ceph's op_r 7000..7010"));
	assert_non_null(strstr(t, "may be wrong for this build"));
	assert_non_null(strstr(t, "verify: osd.4 unverified (garbage: "));
	free(p);
	free(j);
	free(t);
}

int run_verify_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_inside),
		cmocka_unit_test(rule_outside),
		cmocka_unit_test(rule_bounded_vs_growing),
		cmocka_unit_test(step_persistence),
		cmocka_unit_test(backoff),
		cmocka_unit_test(names),
		cmocka_unit_test(renderers),
	};
	return cmocka_run_group_tests_name("verify", tests, NULL, NULL);
}

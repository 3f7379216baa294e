// SPDX-License-Identifier: GPL-2.0
/* The oracle's comparison rule and its state across checks (verify.h). */
#include <stdbool.h>
#include <string.h>
#include "unit.h"
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

static void names(void **state)
{
	(void)state;
	assert_string_equal(verify_counter[VC_READ], "op_r");
	assert_string_equal(verify_counter[VC_WRITE], "op_w");
	assert_string_equal(verify_counter[VC_RW], "op_rw");
	assert_string_equal(verify_counter[VC_SUBOP], "subop_w");
	assert_string_equal(verify_state_name[VERIFY_MISMATCH], "mismatch");
}

int run_verify_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_inside),
		cmocka_unit_test(rule_outside),
		cmocka_unit_test(rule_bounded_vs_growing),
		cmocka_unit_test(step_persistence),
		cmocka_unit_test(names),
	};
	return cmocka_run_group_tests_name("verify", tests, NULL, NULL);
}

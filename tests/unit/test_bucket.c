// SPDX-License-Identifier: GPL-2.0
/* Bucket math of maps/osdhist.h: the same code runs in BPF. */
#include <linux/types.h>
#include "unit.h"
#include "osdhist.h"

static void log2_matches_builtin(void **state)
{
	(void)state;
	for (int k = 0; k < 64; k++) {
		__u64 v = 1ULL << k;

		assert_int_equal(osdhist_log2(v), k);
		assert_int_equal(osdhist_log2(v | (v - 1)), k);
		if (k)
			assert_int_equal(osdhist_log2(v + 1), k);
	}
}

/* Every value falls in the bucket whose bounds contain it, buckets are
 * contiguous and increasing, and none is wider than 12.5 % of its lower
 * bound (except the under- and overflow buckets). */
static void buckets_cover_and_are_narrow(void **state)
{
	(void)state;
	assert_int_equal(osdhist_bucket_lower(0), 0);
	for (__u32 i = 0; i + 1 < NR_BUCKETS; i++) {
		__u64 lo = osdhist_bucket_lower(i), hi = osdhist_bucket_upper(i);

		assert_true(hi > lo);
		assert_int_equal(osdhist_bucket_lower(i + 1), hi);
		assert_int_equal(osdhist_bucket(lo), i);
		assert_int_equal(osdhist_bucket(hi - 1), i);
		if (i > 0)
			assert_true((hi - lo) * 8 <= lo);
	}
	assert_int_equal(osdhist_bucket(~0ULL), NR_BUCKETS - 1);
	assert_int_equal(osdhist_bucket(1ULL << HIST_MAX_SHIFT), NR_BUCKETS - 1);
	assert_int_equal(osdhist_bucket(0), 0);
	assert_int_equal(osdhist_bucket((1ULL << HIST_MIN_SHIFT) - 1), 0);
}

static void known_values(void **state)
{
	(void)state;
	/* 1 ms = 1000000 ns: 2^19 = 524288, sub-bucket (1000000 >> 16) & 7 = 7 */
	__u32 b = osdhist_bucket(1000000);

	assert_int_equal(b, 1 + (19 - HIST_MIN_SHIFT) * 8 + 7);
	assert_true(osdhist_bucket_lower(b) <= 1000000);
	assert_true(osdhist_bucket_upper(b) > 1000000);
	assert_int_equal(osdhist_bucket_lower(b), 524288 + 7 * 65536);
}

int run_bucket_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(log2_matches_builtin),
		cmocka_unit_test(buckets_cover_and_are_narrow),
		cmocka_unit_test(known_values),
	};
	return cmocka_run_group_tests_name("buckets", tests, NULL, NULL);
}

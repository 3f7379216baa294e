// SPDX-License-Identifier: GPL-2.0
/* Quantiles and deltas of cumulative histograms. */
#include <string.h>
#include "unit.h"
#include "report/stats.h"

static void fill(struct hist *h, __u64 ns, __u64 n)
{
	h->count += n;
	h->sum_ns += ns * n;
	h->buckets[osdhist_bucket(ns)] += n;
}

static void quantiles_within_a_bucket(void **state)
{
	static struct hist h;
	(void)state;

	memset(&h, 0, sizeof(h));
	/* 1..1000 us, one op each */
	for (__u64 us = 1; us <= 1000; us++)
		fill(&h, us * 1000, 1);
	const double qs[] = { 0.5, 0.9, 0.99, 0.999 };
	for (int i = 0; i < 4; i++) {
		double want = qs[i] * 1000 * 1000, got = hist_quantile(&h, qs[i]);

		assert_true(got >= want * 0.875 && got <= want * 1.125);
	}
	assert_true(hist_max(&h) >= 1000000);
	assert_true(hist_max(&h) <= 1125000);
}

static void empty_is_zero(void **state)
{
	static struct hist h;
	(void)state;

	memset(&h, 0, sizeof(h));
	assert_true(hist_quantile(&h, 0.5) == 0);
	assert_int_equal(hist_max(&h), 0);
}

static void delta_of_cumulative(void **state)
{
	static struct hist a, b, d;
	(void)state;

	memset(&a, 0, sizeof(a));
	fill(&a, 5000, 10);
	b = a;
	fill(&b, 2000000, 3);
	hist_sub(&d, &b, &a);
	assert_int_equal(d.count, 3);
	assert_int_equal(d.sum_ns, 6000000);
	assert_int_equal(d.buckets[osdhist_bucket(5000)], 0);
	assert_int_equal(d.buckets[osdhist_bucket(2000000)], 3);
	hist_add(&d, &a);
	assert_memory_equal(&d, &b, sizeof(d));
}

int run_stats_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quantiles_within_a_bucket),
		cmocka_unit_test(empty_is_zero),
		cmocka_unit_test(delta_of_cumulative),
	};
	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}

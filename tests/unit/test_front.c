// SPDX-License-Identifier: GPL-2.0
/* The front rows' sums (front.h): u64 words added over the CPUs, u32
 * counters added mod 2^32 and accumulated from read to read, so a counter
 * that wraps on a CPU, or whose sum wraps, is still counted exactly; a
 * retired row starts again from zero; rows go to the busiest candidates. */
#include <stdbool.h>
#include <string.h>
#include <linux/types.h>
#include "unit.h"
#include "front.h"

#define NCPUS	3

struct val { __u64 sum; __u32 c[2]; };	/* n64 1, n32 2: 16 bytes */

static void fold(struct front *f, __u32 row, const struct val v[NCPUS], __u64 out[3])
{
	front_fold(f, 0, row, v, out);
}

static void u32_counters_wrap_exactly(void **state)
{
	struct front f;
	struct val v[NCPUS];
	__u64 out[3];

	(void)state;
	assert_int_equal(front_init(&f, -1, -1, -1, 4, 1, 2, 4, NCPUS), 0);
	assert_int_equal(f.value_size, sizeof(struct val));
	memset(v, 0, sizeof(v));
	v[0].sum = 5; v[1].sum = 7; v[2].sum = 1ull << 40;
	v[0].c[0] = 0xfffffff0u; v[2].c[1] = 3;
	fold(&f, 1, v, out);
	assert_true(out[0] == 12 + (1ull << 40));
	assert_true(out[1] == 0xfffffff0ull);
	assert_true(out[2] == 3);
	/* 0x20 more on CPU 1: the sum over the CPUs wraps */
	v[1].c[0] = 0x20;
	fold(&f, 1, v, out);
	assert_true(out[1] == 0x100000010ull);
	/* 0x20 more on CPU 0: its own counter wraps; 1 more on CPU 2 */
	v[0].c[0] += 0x20;
	v[2].c[1] += 1;
	fold(&f, 1, v, out);
	assert_true(out[1] == 0x100000030ull);
	assert_true(out[2] == 4);
	/* another row keeps its own counts */
	memset(v, 0, sizeof(v));
	v[1].c[1] = 9;
	fold(&f, 2, v, out);
	assert_true(out[1] == 0 && out[2] == 9);
	front_free(&f);
}

static void busiest_candidates_get_the_rows(void **state)
{
	struct front f;

	(void)state;
	assert_int_equal(front_init(&f, -1, -1, -1, 4, 1, 2, 2, NCPUS), 0);
	for (__u32 k = 1; k <= 5; k++)
		assert_int_equal(front_candidate(&f, &k, k == 3 ? 100 : k), 0);
	assert_int_equal(f.ncand, 5);
	/* no slots map (-1): every insert fails, no row is taken */
	assert_int_equal(front_promote(&f), 0);
	assert_int_equal(f.in_use, 0);
	assert_int_equal(f.ncand, 0);
	front_free(&f);
}

static void rows_fit_the_budget(void **state)
{
	(void)state;
	/* 8 MiB of 1888-byte rows in two maps on 128 CPUs: 17 rows */
	assert_int_equal(front_rows_for(8u << 20, 1888, 2, 128, 256), 17);
	assert_int_equal(front_rows_for(8u << 20, 1888, 1, 128, 256), 34);
	assert_int_equal(front_rows_for(8u << 20, 1888, 1, 2, 256), 256);
	assert_int_equal(front_rows_for(1, 1888, 1, 2, 256), 1);
}

int run_front_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(u32_counters_wrap_exactly),
		cmocka_unit_test(busiest_candidates_get_the_rows),
		cmocka_unit_test(rows_fit_the_budget),
	};
	return cmocka_run_group_tests_name("front", tests, NULL, NULL);
}

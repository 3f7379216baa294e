// SPDX-License-Identifier: GPL-2.0
/* The front rows' sums (front.h): u64 words added over the CPUs, u32
 * counters added mod 2^32 and accumulated from read to read, so a counter
 * that wraps on a CPU, or whose sum wraps, is still counted exactly; a
 * retired row starts again from zero; rows go to the busiest candidates. */
#include <stdbool.h>
#include <string.h>
#include <linux/types.h>
#include "unit.h"
#include "osdhist.h"
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
	assert_int_equal(front_init(&f, NULL, front_opc_word, -1, -1, 4, 1, 2, 4, NCPUS), 0);
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

/* the table's way holding key k's word, or -1 */
static long way_of_key(const __u64 *table, __u32 k)
{
	__u64 w = front_opc_word(&k);

	for (long i = 0; i < FRONT_SETS * FRONT_WAYS; i++)
		if (table[i] && (table[i] & ~FRONT_ROW_MASK) == w)
			return i;
	return -1;
}

static void busiest_candidates_get_the_rows(void **state)
{
	static __u64 table[FRONT_SETS * FRONT_WAYS];
	struct front f;
	long w;

	(void)state;
	memset(table, 0, sizeof(table));
	/* no row maps (-1): nothing to zero */
	assert_int_equal(front_init(&f, table, front_opc_word, -1, -1, 4, 1, 2, 2, NCPUS), 0);
	for (__u32 k = 1; k <= 5; k++)
		assert_int_equal(front_candidate(&f, &k, k == 3 ? 100 : k), 0);
	assert_int_equal(f.ncand, 5);
	/* two rows: keys 3 (100 ops) and 5 */
	assert_int_equal(front_promote(&f), 2);
	assert_int_equal(f.in_use, 2);
	assert_int_equal(f.ncand, 0);
	w = way_of_key(table, 3);
	assert_true(w >= 0 && (table[w] & FRONT_ROW_MASK) == 0);
	assert_int_equal(*(const __u32 *)front_key(&f, 0), 3);
	w = way_of_key(table, 5);
	assert_true(w >= 0 && (table[w] & FRONT_ROW_MASK) == 1);
	assert_int_equal(*(const __u32 *)front_key(&f, 1), 5);
	assert_int_equal(way_of_key(table, 4), -1);
	/* a key that has a row is not given another */
	for (__u32 k = 3; k <= 4; k++)
		assert_int_equal(front_candidate(&f, &k, 50), 0);
	assert_int_equal(front_promote(&f), 0);
	/* retired: out of the table, free, given to the next candidate */
	front_retire(&f, 0);
	assert_int_equal(way_of_key(table, 3), -1);
	assert_null(front_key(&f, 0));
	assert_int_equal(f.in_use, 1);
	assert_int_equal(front_promote(&f), 0);	/* no candidates */
	for (__u32 k = 4; k <= 4; k++)
		assert_int_equal(front_candidate(&f, &k, 1), 0);
	assert_int_equal(front_promote(&f), 1);
	w = way_of_key(table, 4);
	assert_true(w >= 0 && (table[w] & FRONT_ROW_MASK) == 0);
	front_free(&f);
}

/* A set full of other keys: the key stays in the tail. */
static void a_full_set_leaves_the_key_in_the_tail(void **state)
{
	static __u64 table[FRONT_SETS * FRONT_WAYS];
	__u32 keys[FRONT_WAYS + 1], n = 0, want;
	struct front f;

	(void)state;
	memset(table, 0, sizeof(table));
	want = osdhist_front_set(front_opc_word(&(__u32){ 1 }));
	for (__u32 k = 1; n < FRONT_WAYS + 1; k++)
		if (osdhist_front_set(front_opc_word(&k)) == want)
			keys[n++] = k;
	assert_int_equal(front_init(&f, table, front_opc_word, -1, -1, 4, 1, 2, 16, NCPUS), 0);
	for (__u32 i = 0; i < n; i++)
		assert_int_equal(front_candidate(&f, &keys[i], 100 - i), 0);
	assert_int_equal(front_promote(&f), FRONT_WAYS);
	assert_int_equal(way_of_key(table, keys[FRONT_WAYS]), -1);
	for (__u32 i = 0; i < FRONT_WAYS; i++)
		assert_true(way_of_key(table, keys[i]) >= 0);
	front_free(&f);
}

/* The words bpf/ and the loader agree on: a key fits or has no row. */
static void keys_that_fit_a_word(void **state)
{
	struct hist_key k = { .tgid = 4194303, .cls = CLASS_SUBOP, .optype = OPTYPE_ALL,
			      .pool = FRONT_POOL_LIMIT - 1 };
	__u64 w = front_hist_word(&k);

	(void)state;
	assert_true(w && !(w & FRONT_ROW_MASK));
	k.pool = -1;
	assert_true(front_hist_word(&k) && front_hist_word(&k) != w);
	k.pool = FRONT_POOL_LIMIT;
	assert_true(front_hist_word(&k) == 0);
	k.pool = 0;
	k.tgid = 1u << 22;
	assert_true(front_hist_word(&k) == 0);
	k.tgid = 0;
	assert_true(front_hist_word(&k) == 0);
	/* a process's op codes and its histograms differ */
	k.tgid = 77;
	k.cls = 0;
	k.optype = 0;
	k.pool = -1;
	assert_true(front_opc_word(&k.tgid) != front_hist_word(&k));
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
		cmocka_unit_test(a_full_set_leaves_the_key_in_the_tail),
		cmocka_unit_test(keys_that_fit_a_word),
		cmocka_unit_test(rows_fit_the_budget),
	};
	return cmocka_run_group_tests_name("front", tests, NULL, NULL);
}

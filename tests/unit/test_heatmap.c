// SPDX-License-Identifier: GPL-2.0
/*
 * The heatmap's model (output/heatmap.h) on constructed intervals: every
 * cell's ops, the rows' grouping and alignment, the ring's wrap, the
 * shades; and the text (render.h heatmap_print) line by line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "output/heatmap.h"
#include "output/render.h"

/* A histogram of n ops at each of the latencies given (ns). */
static struct hist at(__u64 n, int k, const __u64 *ns)
{
	struct hist h = { 0 };

	for (int i = 0; i < k; i++)
		h.buckets[osdhist_bucket(ns[i])] += n;
	return h;
}

static void one_bucket_rows(void **state)
{
	struct heatmap m = { 0 };
	struct heatmap_grid g;
	struct hist a = at(3, 1, (__u64[]){ 1000 }), b = at(5, 1, (__u64[]){ 1100 });
	(void)state;

	/* 1000 ns and 1100 ns: buckets 15 and 16 (512 + 7*64 .. and 1024 ..) */
	assert_int_equal(osdhist_bucket(1000), 16);
	assert_int_equal(osdhist_bucket(1100), 17);
	heatmap_next(&m, 100, 1);
	assert_int_equal(heatmap_set(&m, 7, CLASS_WRITE, &a), 0);
	heatmap_next(&m, 101, 1);	/* write: no op in this one */
	heatmap_next(&m, 102, 1);
	assert_int_equal(heatmap_set(&m, 7, CLASS_WRITE, &b), 0);
	assert_int_equal(heatmap_set(&m, 7, CLASS_READ, &a), 0);

	assert_int_equal(heatmap_grid(&m, 7, CLASS_WRITE, 10, 10, &g), 0);
	assert_int_equal(g.ncols, 3);
	assert_int_equal(g.first, 1);
	assert_int_equal(g.group, 1);
	assert_int_equal(g.nrows, 2);
	assert_int_equal(g.lo, 16);
	assert_int_equal(heatmap_row_first(&g, 0), 16);
	assert_int_equal(heatmap_row_first(&g, 1), 17);
	assert_int_equal(heatmap_row_first(&g, 2), NR_BUCKETS);
	assert_int_equal(g.max, 5);
	/* row 0 (16): 3, 0, 0; row 1 (17): 0, 0, 5 */
	__u64 want[] = { 3, 0, 0, 0, 0, 5 };
	assert_memory_equal(g.cell, want, sizeof(want));
	free(g.cell);

	/* width 2: the last two intervals only */
	assert_int_equal(heatmap_grid(&m, 7, CLASS_WRITE, 2, 10, &g), 0);
	assert_int_equal(g.ncols, 2);
	assert_int_equal(g.first, 2);
	assert_int_equal(g.nrows, 1);
	assert_int_equal(g.lo, 17);
	assert_int_equal(g.cell[0], 0);
	assert_int_equal(g.cell[1], 5);
	free(g.cell);

	/* an OSD or class never seen: no rows */
	assert_int_equal(heatmap_grid(&m, 8, CLASS_WRITE, 10, 10, &g), 0);
	assert_int_equal(g.nrows, 0);
	assert_int_equal(g.ncols, 3);
	assert_int_equal(heatmap_grid(&m, 7, CLASS_WRITE, 0, 10, &g), -EINVAL);
	heatmap_free(&m);
}

static void grouped_to_fit(void **state)
{
	struct heatmap m = { 0 };
	struct heatmap_grid g;
	/* 4 KiB-like ops at 300 us and 4 MiB-like ones at 20 ms and 30 ms */
	struct hist small = at(100, 1, (__u64[]){ 300000 });
	struct hist big = at(2, 2, (__u64[]){ 20000000, 30000000 });
	(void)state;

	heatmap_next(&m, 1, 1);
	heatmap_set(&m, 1, CLASS_WRITE, &small);
	heatmap_next(&m, 2, 1);
	heatmap_set(&m, 1, CLASS_WRITE, &big);
	heatmap_next(&m, 3, 1);
	heatmap_set(&m, 1, CLASS_WRITE, &small);
	/* buckets: 300 us = 2^18 * 1.14: 1 + 10*8 + 1 = 82; 20 ms = 2^24 *
	 * 1.19: 1 + 16*8 + 1 = 130; 30 ms = 2^24 * 1.79: 1 + 16*8 + 6 = 135 */
	assert_int_equal(osdhist_bucket(300000), 82);
	assert_int_equal(osdhist_bucket(20000000), 130);
	assert_int_equal(osdhist_bucket(30000000), 135);
	/* 82 .. 135 is 54 buckets: in 10 rows, groups of 8 (one power of
	 * two a row): places 89 .. 142, rows 11 .. 17, 7 rows */
	assert_int_equal(heatmap_grid(&m, 1, CLASS_WRITE, 80, 10, &g), 0);
	assert_int_equal(g.group, 8);
	assert_int_equal(g.nrows, 7);
	assert_int_equal(heatmap_row_first(&g, 0), 81);	/* 2^18 ns = 262 us */
	assert_int_equal(osdhist_bucket_lower(81), 1u << 18);
	assert_int_equal(heatmap_row_first(&g, 6), 129);	/* 2^24 ns */
	assert_int_equal(g.max, 100);
	for (int r = 0; r < g.nrows; r++)
		for (int x = 0; x < 3; x++) {
			__u64 want = r == 0 && x != 1 ? 100 : r == 6 && x == 1 ? 4 : 0;

			assert_int_equal(g.cell[r * 3 + x], want);
		}
	free(g.cell);
	/* 54 buckets in 60 rows: one bucket a row */
	assert_int_equal(heatmap_grid(&m, 1, CLASS_WRITE, 80, 60, &g), 0);
	assert_int_equal(g.group, 1);
	assert_int_equal(g.nrows, 54);
	assert_int_equal(g.cell[0 * 3 + 0], 100);
	assert_int_equal(g.cell[(130 - 82) * 3 + 1], 2);
	assert_int_equal(g.cell[(135 - 82) * 3 + 1], 2);
	free(g.cell);
	/* one row: every bucket in it, sums per column */
	assert_int_equal(heatmap_grid(&m, 1, CLASS_WRITE, 80, 1, &g), 0);
	assert_int_equal(g.nrows, 1);
	assert_int_equal(g.cell[0], 100);
	assert_int_equal(g.cell[1], 4);
	assert_int_equal(g.cell[2], 100);
	free(g.cell);
	heatmap_free(&m);
}

static void ring_wraps(void **state)
{
	struct heatmap m = { 0 };
	struct heatmap_grid g;
	(void)state;

	/* interval i holds i ops at 1 us, for 2 rings and a half */
	for (int i = 1; i <= 2 * HEATMAP_COLS + HEATMAP_COLS / 2; i++) {
		struct hist h = at(i, 1, (__u64[]){ 1000 });

		heatmap_next(&m, i, 1);
		if (i % 3)	/* every third: no op */
			assert_int_equal(heatmap_set(&m, 2, CLASS_READ, &h), 0);
	}
	assert_int_equal(heatmap_grid(&m, 2, CLASS_READ, 1000, 5, &g), 0);
	assert_int_equal(g.ncols, HEATMAP_COLS);
	assert_int_equal(g.first, m.ncols - HEATMAP_COLS + 1);
	assert_int_equal(g.nrows, 1);
	for (int x = 0; x < g.ncols; x++) {
		__u64 i = g.first + x;

		assert_int_equal(g.cell[x], i % 3 ? i : 0);
	}
	assert_int_equal(g.max, m.ncols % 3 ? m.ncols : m.ncols - 1);
	free(g.cell);
	heatmap_free(&m);
}

static void shades(void **state)
{
	(void)state;
	assert_int_equal(heatmap_shade(0, 100), ' ');
	assert_int_equal(heatmap_shade(1, 100), '.');	/* any op shows */
	assert_int_equal(heatmap_shade(12, 100), '.');
	assert_int_equal(heatmap_shade(13, 100), ':');	/* 1 + 104/100 */
	assert_int_equal(heatmap_shade(50, 100), '+');	/* 1 + 4 */
	assert_int_equal(heatmap_shade(87, 100), '#');	/* 1 + 6 (696/100) */
	assert_int_equal(heatmap_shade(99, 100), '%');	/* 1 + 7 */
	assert_int_equal(heatmap_shade(100, 100), '@');
	assert_int_equal(heatmap_shade(~0ULL, ~0ULL), '@');	/* no overflow */
	assert_int_equal(heatmap_shade(5, 0), ' ');
}

static void printed(void **state)
{
	struct heatmap m = { 0 };
	struct hist small = at(8, 1, (__u64[]){ 300000 });
	struct hist big = at(1, 1, (__u64[]){ 10000000 });	/* 1/8 of 8: ':' */
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);
	(void)state;

	setenv("TZ", "UTC", 1);
	heatmap_next(&m, 1700000000.5, 1);
	heatmap_set(&m, 3, CLASS_WRITE, &small);
	heatmap_next(&m, 1700000001.5, 1);
	heatmap_set(&m, 3, CLASS_WRITE, &big);
	heatmap_print(f, &m, 3, CLASS_WRITE, "osd.3", 40, 4);
	fclose(f);
	assert_string_equal(out,
		"osd.3 write: latency heatmap, 2 intervals to 2023-11-14 22:13:21.500 (1.00 s the last)\n"
		"  8.39ms | :|\n"	/* 2^23 ns: rows of two powers of two */
		"  2.10ms |  |\n"
		"   524us |  |\n"
		"   131us |@ |\n"	/* 2^17 ns */
		"         +--+\n"
		"          22:13:19 .. 22:13:21\n"
		"shade \" .:-=+*#%@\" by ops in a cell, '@' the fullest: 8 ops; a row is 16 buckets\n");
	free(out);
	heatmap_free(&m);
}

/* Wide enough: the axis puts the first start under the first column and
 * the last end under the last; an interval without ops is a blank column;
 * a class without any op says so. */
static void printed_axis(void **state)
{
	struct heatmap m = { 0 };
	struct hist h = at(1, 1, (__u64[]){ 1000 });
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);
	(void)state;

	setenv("TZ", "UTC", 1);
	for (int i = 0; i < 20; i++) {
		heatmap_next(&m, 1700000000 + i, 1);
		if (i != 3)
			heatmap_set(&m, 3, CLASS_READ, &h);
	}
	heatmap_print(f, &m, 3, CLASS_READ, "osd.3", 11 + 20, 24);
	heatmap_print(f, &m, 3, CLASS_WRITE, "osd.3", 11 + 20, 24);
	fclose(f);
	assert_string_equal(out,
		"osd.3 read: latency heatmap, 20 intervals to 2023-11-14 22:13:39.000 (1.00 s the last)\n"
		"   960ns |@@@ @@@@@@@@@@@@@@@@|\n"	/* 1000 ns: 512 + 7 * 64 */
		"         +--------------------+\n"
		"          22:13:19    22:13:39\n"
		"shade \" .:-=+*#%@\" by ops in a cell, '@' the fullest: 1 ops; a row is 1 bucket\n"
		"osd.3 write: latency heatmap, 20 intervals to 2023-11-14 22:13:39.000 (1.00 s the last)\n"
		"no write op of osd.3 in these intervals\n");
	free(out);
	heatmap_free(&m);
}

int run_heatmap_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_bucket_rows),
		cmocka_unit_test(grouped_to_fit),
		cmocka_unit_test(ring_wraps),
		cmocka_unit_test(shades),
		cmocka_unit_test(printed),
		cmocka_unit_test(printed_axis),
	};

	return cmocka_run_group_tests_name("heatmap", tests, NULL, NULL);
}

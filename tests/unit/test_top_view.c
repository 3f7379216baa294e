// SPDX-License-Identifier: GPL-2.0
/*
 * --top's keys (output/top_view.h) without a terminal: s cycles the four
 * sorts and comes back, p goes to p99 from any, the selection never
 * leaves the rows, Enter drills in only where there is a row, the text
 * scrolls within its lines, Esc comes back, q quits.
 */
#include "unit.h"
#include "output/top_view.h"

static void sort_keys(void **state)
{
	struct top_view v = { .sort = TABLE_BY_OSD, .nrows = 3, .page = 2 };
	enum table_sort seen[NR_TABLE_SORTS + 1];
	(void)state;

	for (int i = 0; i <= NR_TABLE_SORTS; i++) {
		seen[i] = v.sort;
		assert_true(top_view_key(&v, TOP_SORT_NEXT));
	}
	assert_int_equal(seen[0], TABLE_BY_OSD);
	assert_int_equal(seen[1], TABLE_BY_P99);
	assert_int_equal(seen[2], TABLE_BY_OPS);
	assert_int_equal(seen[3], TABLE_BY_FAILED);
	assert_int_equal(seen[4], TABLE_BY_OSD);	/* round again */
	for (int s = 0; s < NR_TABLE_SORTS; s++) {
		v.sort = s;
		assert_int_equal(top_view_key(&v, TOP_SORT_P99), s != TABLE_BY_P99);
		assert_int_equal(v.sort, TABLE_BY_P99);
	}
}

static void selection_bounds(void **state)
{
	struct top_view v = { .nrows = 3, .page = 2 };
	(void)state;

	assert_false(top_view_key(&v, TOP_UP));		/* at the top already */
	assert_int_equal(v.sel, 0);
	assert_true(top_view_key(&v, TOP_DOWN));
	assert_true(top_view_key(&v, TOP_DOWN));
	assert_int_equal(v.sel, 2);
	assert_false(top_view_key(&v, TOP_DOWN));	/* the last row */
	assert_int_equal(v.sel, 2);
	assert_true(top_view_key(&v, TOP_PAGE_UP));
	assert_int_equal(v.sel, 0);
	assert_true(top_view_key(&v, TOP_PAGE_DOWN));
	assert_int_equal(v.sel, 2);
	/* a snapshot with fewer rows: the selection within them */
	v.nrows = 1;
	top_view_clamp(&v);
	assert_int_equal(v.sel, 0);
	v.nrows = 0;
	top_view_clamp(&v);
	assert_int_equal(v.sel, 0);
	assert_false(top_view_key(&v, TOP_ENTER));	/* no row: no drill */
	assert_false(v.drill);
}

static void drill_and_back(void **state)
{
	struct top_view v = { .nrows = 2, .sel = 1, .page = 10 };
	(void)state;

	assert_true(top_view_key(&v, TOP_ENTER));
	assert_true(v.drill);
	assert_int_equal(v.sel, 1);		/* kept for the way back */
	v.nlines = 25;
	assert_true(top_view_key(&v, TOP_DOWN));	/* scrolls the text, not the rows */
	assert_int_equal(v.scroll, 1);
	assert_int_equal(v.sel, 1);
	assert_true(top_view_key(&v, TOP_PAGE_DOWN));
	assert_true(top_view_key(&v, TOP_PAGE_DOWN));
	assert_int_equal(v.scroll, 15);		/* the last page full, no further */
	assert_false(top_view_key(&v, TOP_DOWN));
	assert_false(top_view_key(&v, TOP_ENTER));	/* in already */
	assert_true(top_view_key(&v, TOP_BACK));
	assert_false(v.drill);
	assert_int_equal(v.sel, 1);
	assert_false(top_view_key(&v, TOP_BACK));	/* out already */
	assert_false(v.quit);
	assert_true(top_view_key(&v, TOP_QUIT));
	assert_true(v.quit);
}

/* h: the selected row's heatmap, of the class top.c set; c cycles the
 * six classes; up/down move nothing there; Enter does not drill from it;
 * Esc comes back to the same row. */
static void heatmap_and_back(void **state)
{
	struct top_view v = { .nrows = 3, .sel = 2, .page = 5 };
	(void)state;

	v.cls = CLASS_SUBOP;
	assert_true(top_view_key(&v, TOP_HEAT));
	assert_true(v.heat);
	assert_false(top_view_key(&v, TOP_HEAT));	/* in already */
	assert_true(top_view_key(&v, TOP_CLASS_NEXT));
	assert_int_equal(v.cls, (CLASS_SUBOP + 1) % NR_CLASSES);
	for (int i = 0; i < NR_CLASSES - 1; i++)
		assert_true(top_view_key(&v, TOP_CLASS_NEXT));
	assert_int_equal(v.cls, CLASS_SUBOP);		/* round again */
	assert_false(top_view_key(&v, TOP_UP));
	assert_false(top_view_key(&v, TOP_PAGE_DOWN));
	assert_int_equal(v.sel, 2);
	assert_false(top_view_key(&v, TOP_ENTER));
	assert_false(v.drill);
	assert_true(top_view_key(&v, TOP_BACK));
	assert_false(v.heat);
	assert_int_equal(v.sel, 2);
	assert_false(top_view_key(&v, TOP_CLASS_NEXT));	/* the table: no class */
	/* from a drill, or without rows: no heatmap */
	assert_true(top_view_key(&v, TOP_ENTER));
	assert_false(top_view_key(&v, TOP_HEAT));
	assert_false(v.heat);
	v = (struct top_view){ .page = 1 };
	assert_false(top_view_key(&v, TOP_HEAT));
}

int run_top_view_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sort_keys),
		cmocka_unit_test(selection_bounds),
		cmocka_unit_test(drill_and_back),
		cmocka_unit_test(heatmap_and_back),
	};

	return cmocka_run_group_tests_name("top_view", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* The done-mark table as the loader reads it: fill, reaping of the marks of
 * processes that are gone (absent, or zombies) against a fixture /proc, and
 * the drop of a sampling window. */
#include <string.h>
#include "unit.h"
#include "fixture.h"
#include "inflight.h"

static char root[FX_ROOT_MAX];
static struct mark_set sets[MARK_SETS];

static int setup(void **state)
{
	(void)state;
	fx_mkroot(root, "inflight");
	fx_stat(root, 100, "ceph-osd", 'S');
	fx_stat(root, 101, "ceph-osd", 'R');
	fx_stat(root, 200, "ceph-osd", 'Z');
	/* 300: no /proc entry at all */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fx_remove(root, NULL);
}

static void put(int set, int way, __u64 op, __u32 tgid)
{
	sets[set].way[way].tag = osdhist_mark_tag(tgid, op);
	sets[set].way[way].tgid = tgid;
}

static void scan_reaps_gone_processes_only(void **state)
{
	__u64 reaped = 0;

	(void)state;
	memset(sets, 0, sizeof(sets));
	put(0, 0, 0x7f0000001000, 100);
	put(0, 3, 0x7f0000002000, 101);
	put(7, 1, 0x7f0000003000, 200);		/* zombie */
	put(MARK_SETS - 1, 2, 0x7f0000004000, 300);	/* gone */
	put(9, 0, 0x7f0000005000, 300);
	/* being made (tag taken, tgid not yet written): never removed */
	sets[12].way[1].tag = osdhist_mark_tag(101, 0x7f0000006000);
	assert_int_equal(marks_scan(sets, root, &reaped), 3);
	assert_int_equal(reaped, 3);
	assert_int_not_equal(sets[0].way[0].tag, 0);
	assert_int_not_equal(sets[0].way[3].tag, 0);
	assert_int_equal(sets[7].way[1].tag, 0);
	assert_int_equal(sets[7].way[1].tgid, 0);
	assert_int_equal(sets[MARK_SETS - 1].way[2].tag, 0);
	assert_int_equal(sets[9].way[0].tag, 0);
	assert_int_not_equal(sets[12].way[1].tag, 0);
	/* a second scan finds the same live marks and reaps nothing more */
	assert_int_equal(marks_scan(sets, root, &reaped), 3);
	assert_int_equal(reaped, 3);
}

static void drop_empties_the_table(void **state)
{
	__u64 reaped = 0;

	(void)state;
	memset(sets, 0, sizeof(sets));
	put(1, 0, 0x7f0000001000, 100);
	put(2, 1, 0x7f0000002000, 101);
	put(3, 2, 0x7f0000003000, 300);
	assert_int_equal(marks_drop(sets), 3);
	assert_int_equal(marks_scan(sets, root, &reaped), 0);
	assert_int_equal(reaped, 0);
	for (int s = 0; s < MARK_SETS; s++)
		for (int w = 0; w < MARK_WAYS; w++)
			assert_true(!sets[s].way[w].tag && !sets[s].way[w].tgid);
}

int run_inflight_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scan_reaps_gone_processes_only),
		cmocka_unit_test(drop_empties_the_table),
	};

	return cmocka_run_group_tests_name("inflight", tests, setup, teardown);
}

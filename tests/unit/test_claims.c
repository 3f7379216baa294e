// SPDX-License-Identifier: GPL-2.0
/* One scan's OSD claims (claims.c): by cluster and id, an unknown cluster
 * against every known one, the duplicates listed lowest first. */
#include "unit.h"
#include "claims.h"
#include "report/clusters.h"

#define A "0a0a0a0a-0000-4000-8000-00000000000a"
#define B "0b0b0b0b-0000-4000-8000-00000000000b"

static int holder(int key, void *arg)
{
	(void)arg;
	return 1000 + osd_id_of(key);
}

/* Two clusters' osd.0 are two OSDs; a third claimant of A's is A's
 * duplicate, and one whose cluster is unknown counts against A's too. */
static void clusters_are_apart(void **state)
{
	struct dup_ids d;
	int a, b;

	(void)state;
	clusters_reset();
	a = osd_key(cluster_index(A), 0);
	b = osd_key(cluster_index(B), 0);
	claims_reset();
	assert_int_equal(claims_add(a), 1);
	assert_int_equal(claims_add(b), 1);
	claims_dups(&d, holder, NULL);
	assert_int_equal(d.n, 0);

	assert_int_equal(claims_add(a), 2);
	claims_dups(&d, holder, NULL);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.id[0].osd, a);
	assert_int_equal(d.id[0].procs, 2);
	assert_int_equal(d.id[0].pid, 1000);

	claims_add(osd_key(0, 0));	/* its cluster unknown */
	claims_dups(&d, holder, NULL);
	assert_int_equal(d.n, 2);	/* A's osd.0 (3) and B's (2) */
	assert_int_equal(claims_of(a), 3);
	assert_int_equal(claims_of(b), 2);

	claims_reset();
	claims_add(osd_key(0, 7));
	claims_add(osd_key(0, 7));
	claims_dups(&d, holder, NULL);
	assert_int_equal(d.n, 1);	/* no known cluster: by id alone */
	assert_int_equal(d.id[0].osd, 7);
	clusters_reset();
}

/* More duplicates than listed: all counted, the lowest listed in order,
 * whatever order they came in; the table grows past its first size. */
static void lowest_listed(void **state)
{
	struct dup_ids d;

	(void)state;
	claims_reset();
	for (int id = 600; id >= 0; id--) {
		claims_add(id);
		if (id % 50 == 0)
			claims_add(id);
	}
	claims_dups(&d, holder, NULL);
	assert_int_equal(d.n, 13);	/* 0, 50, ..., 600 */
	for (int i = 0; i < DUP_IDS_LISTED; i++)
		assert_int_equal(d.id[i].osd, 50 * i);
	assert_int_equal(claims_of(123), 1);
	assert_int_equal(claims_of(601), 0);
}

/* Text names an OSD's cluster only once two are traced. */
static void names_with_clusters(void **state)
{
	char name[OSD_LABEL_MAX];
	int a;

	(void)state;
	clusters_reset();
	a = osd_key(cluster_index(A), 3);
	osd_label(name, a);
	assert_string_equal(name, "osd.3");
	cluster_index(B);
	osd_label(name, a);
	assert_string_equal(name, "osd.3@0a0a0a0a");
	osd_label(name, osd_key(0, 3));
	assert_string_equal(name, "osd.3");
	osd_label(name, OSD_DUPLICATE);
	assert_string_equal(name, "osd.dup");
	assert_int_equal(osd_id_of(a), 3);
	assert_string_equal(cluster_fsid(osd_cluster_of(a)), A);
	clusters_reset();
}

int run_claims_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_with_clusters),
		cmocka_unit_test(clusters_are_apart),
		cmocka_unit_test(lowest_listed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* The list of dead keys a map walk deletes after it (deadkeys.h): it grows
 * past any fixed size, keeps every key, and refuses past its room, so the
 * caller can leave that key for the next walk instead of folding it in now
 * and deleting it never (issue 24: counted twice past a 4096-key buffer). */
#include <stdbool.h>
#include <string.h>
#include "unit.h"
#include "util/deadkeys.h"

struct key {
	unsigned int tgid;
	unsigned long long op;
};

static void grows_past_any_fixed_size(void **state)
{
	struct dead_keys d;
	int n = 10000;	/* more than the 4096 of the old buffers */

	(void)state;
	dead_keys_init(&d, sizeof(struct key), n);
	for (int i = 0; i < n; i++) {
		struct key k = { .tgid = i, .op = 0x7f0000000000ull + i };

		assert_true(dead_keys_room(&d));
		dead_keys_add(&d, &k);
	}
	assert_int_equal(d.n, n);
	for (int i = 0; i < n; i++) {
		const struct key *k = dead_keys_at(&d, i);

		assert_int_equal(k->tgid, i);
		assert_true(k->op == 0x7f0000000000ull + i);
	}
	assert_false(dead_keys_room(&d));	/* the map holds no more */
	dead_keys_free(&d);
	assert_null(d.key);
	assert_int_equal(d.n, 0);
}

static void refuses_past_its_room(void **state)
{
	struct dead_keys d;
	unsigned int k = 7;

	(void)state;
	dead_keys_init(&d, sizeof(k), 1);	/* OSDHIST_TEST_DEAD_KEYS=1 */
	assert_true(dead_keys_room(&d));
	dead_keys_add(&d, &k);
	assert_false(dead_keys_room(&d));
	assert_false(dead_keys_room(&d));
	assert_int_equal(d.n, 1);
	assert_int_equal(*(const unsigned int *)dead_keys_at(&d, 0), 7);
	dead_keys_free(&d);

	dead_keys_init(&d, sizeof(k), 0);
	assert_false(dead_keys_room(&d));
	dead_keys_free(&d);
}

int run_deadkeys_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grows_past_any_fixed_size),
		cmocka_unit_test(refuses_past_its_room),
	};
	return cmocka_run_group_tests_name("deadkeys", tests, NULL, NULL);
}

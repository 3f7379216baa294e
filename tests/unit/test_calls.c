// SPDX-License-Identifier: GPL-2.0
/* Call ops by class.method (loader/report/calls.c): the name a key prints as, and
 * the op ids of each process's numbers. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "report/calls.h"
#include "report/names.h"
#include "report/report.h"

static struct call_key key(__u32 tgid, const char *cls, const char *meth)
{
	struct call_key k = { .tgid = tgid };
	size_t cl = strlen(cls), ml = strlen(meth);

	k.class_len = cl;
	k.method_len = ml;
	memcpy(k.name, cls, cl < CALL_NAME_BYTES ? cl : CALL_NAME_BYTES);
	if (cl < CALL_NAME_BYTES)
		memcpy(k.name + cl, meth, cl + ml < CALL_NAME_BYTES ? ml : CALL_NAME_BYTES - cl);
	return k;
}

static void text_is_cephs_or_escaped(void **state)
{
	char t[CALL_TEXT_MAX];
	struct call_key k = key(1, "rgw", "guard_bucket_resharding");

	(void)state;
	call_text(&k, t);
	assert_string_equal(t, "call rgw.guard_bucket_resharding");
	/* what a hostile client may send: controls, space, quote, %, \, 8 bit */
	k = key(1, "a b\n", "\"%\\\x7f\xff");
	call_text(&k, t);
	assert_string_equal(t, "call a%20b%0A.%22%25%5C%7F%FF");
	/* bpf/ keeps CALL_NAME_BYTES: the rest is said, never made up */
	k = key(1, "c", "0123456789012345678901234567890123456789012345678901234567");
	call_text(&k, t);
	assert_string_equal(t, "call c.01234567890123456789012345678901234567890123456 (+11 bytes)");
	k = key(1, "0123456789012345678901234567890123456789012345678901", "m");
	call_text(&k, t);
	assert_string_equal(t, "call 012345678901234567890123456789012345678901234567. (+5 bytes)");
	/* the longest one fits */
	memset(k.name, 0xff, sizeof(k.name));
	k.class_len = k.method_len = 255;
	call_text(&k, t);
	assert_true(strlen(t) < CALL_TEXT_MAX);
}

static void numbers_of_each_process(void **state)
{
	struct call_xlate x = { 0 };
	struct call_key lock = key(100, "lock", "lock"), unlock = key(100, "lock", "unlock");
	struct call_key again = key(200, "lock", "unlock");
	__u8 a, b;

	(void)state;
	assert_int_equal(call_xlate_put(&x, &lock, 0), 0);
	assert_int_equal(call_xlate_put(&x, &unlock, 1), 0);
	/* a restarted OSD numbers its names anew: the same name, one op id */
	assert_int_equal(call_xlate_put(&x, &again, 0), 0);
	a = call_xlate(&x, 100, OPI_CALL_FIRST + 1);
	b = call_xlate(&x, 200, OPI_CALL_FIRST);
	assert_int_equal(a, b);
	assert_true(a >= OPX_CALL_FIRST && a < NR_OPX);
	assert_string_equal(op_name(a), "call lock.unlock");
	assert_string_equal(op_name(call_xlate(&x, 100, OPI_CALL_FIRST)), "call lock.lock");
	/* op codes and the rest pass through */
	assert_int_equal(call_xlate(&x, 100, OPI_0x1401), OPI_0x1401);
	assert_int_equal(call_xlate(&x, 100, OPI_0x1201), OPI_0x1201);
	assert_int_equal(call_xlate(&x, 100, OPTYPE_ALL), OPTYPE_ALL);
	assert_string_equal(op_name(call_xlate(&x, 100, OPI_CALL_OTHER)), "call other");
	/* a number no key names: 0, call other once snapshot.c says it is gone */
	assert_int_equal(call_xlate(&x, 100, OPI_CALL_FIRST + 5), 0);
	assert_int_equal(call_xlate(&x, 300, OPI_CALL_FIRST), 0);
	call_xlate_gone(&x, 100, OPI_CALL_FIRST + 5);
	assert_string_equal(op_name(call_xlate(&x, 100, OPI_CALL_FIRST + 5)), "call other");
	assert_string_equal(op_name(call_xlate(&x, 100, OPI_CALL_FIRST + 1)), "call lock.unlock");
	/* numbers bpf/ never writes */
	assert_int_equal(call_xlate_put(&x, &lock, CALLS_MAX), 0);
	assert_int_equal(call_xlate(&x, 100, OPI_CALL_OTHER + 1), OPI_UNKNOWN);
	call_xlate_free(&x);
}

static void names_are_bounded(void **state)
{
	struct call_xlate x = { 0 };
	char m[16];
	int named = 0, other = 0;

	(void)state;
	/* more distinct names than op ids: the rest are call other */
	for (int i = 0; i < OPX_NAMES_MAX + 10; i++) {
		struct call_key k;

		snprintf(m, sizeof(m), "bound%d", i);
		k = key(1000 + i / CALLS_MAX, "many", m);
		assert_int_equal(call_xlate_put(&x, &k, i % CALLS_MAX), 0);
		if (call_xlate(&x, k.tgid, OPI_CALL_FIRST + i % CALLS_MAX) == OPX_CALL_OTHER)
			other++;
		else
			named++;
	}
	/* names the earlier tests made count against the same table */
	assert_true(named <= OPX_NAMES_MAX && named >= OPX_NAMES_MAX - 8);
	assert_int_equal(named + other, OPX_NAMES_MAX + 10);
	call_xlate_free(&x);
}

/* Two names of one OSD and class, and a plain call (names unread): text
 * and JSON show each, Prometheus one op="call" histogram of all three and
 * an op-code counter each. */
static void outputs_name_them(void **state)
{
	static struct series_delta s[4];
	static struct opcode_delta oc[2];
	struct call_xlate x = { 0 };
	struct call_key get = key(1, "rbd", "get_size"), snap = key(1, "rbd", "get_snapcontext");
	struct report r = { .time = 1700000000, .interval = 1, .traced = 1 };
	__u8 a, b;
	char *t;

	(void)state;
	call_xlate_put(&x, &get, 0);
	call_xlate_put(&x, &snap, 1);
	a = call_xlate(&x, 1, OPI_CALL_FIRST);
	b = call_xlate(&x, 1, OPI_CALL_FIRST + 1);
	for (int i = 0; i < 4; i++) {
		s[i].osd = 7;
		s[i].pool = -1;
		s[i].cls = CLASS_READ;
		s[i].phase = PHASE_TOTAL;
		s[i].h.count = s[i].cum.count = i + 1;
		s[i].h.sum_ns = s[i].cum.sum_ns = (i + 1) * 100000ULL;
		s[i].h.buckets[osdhist_bucket(100000)] = i + 1;
		s[i].cum.buckets[osdhist_bucket(100000)] = i + 1;
	}
	s[0].optype = OPI_0x1401;
	s[1].optype = a;
	s[2].optype = b;
	s[3].optype = OPTYPE_ALL;
	s[3].h.count = s[3].cum.count = 6;
	s[3].cum.buckets[osdhist_bucket(100000)] = 6;
	oc[0] = (struct opcode_delta){ .osd = 7, .opi = a, .ops = 2, .ops_cum = 2 };
	oc[1] = (struct opcode_delta){ .osd = 7, .opi = b, .ops = 3, .failed = 1,
				       .ops_cum = 3, .failed_cum = 1 };
	r.s = s;
	r.n = 4;
	r.opc = oc;
	r.nopc = 2;
	t = unit_render('t', &r);
	assert_non_null(strstr(t, " call rbd.get_snapcontext "));
	assert_non_null(strstr(t, "op codes: call rbd.get_size 2, call rbd.get_snapcontext 3 (1 failed)"));
	free(t);
	t = unit_render('j', &r);
	assert_non_null(strstr(t, "\"op\":\"call rbd.get_size\""));
	free(t);
	t = unit_render('p', &r);
	assert_non_null(strstr(t, "osdhist_op_type_latency_seconds_count{ceph_daemon=\"osd.7\","
			       "class=\"read\",op=\"call\"} 6\n"));
	assert_null(strstr(t, "latency_seconds_count{ceph_daemon=\"osd.7\",class=\"read\",op=\"call rbd"));
	assert_non_null(strstr(t, "osdhist_op_code_failed_total{ceph_daemon=\"osd.7\","
			       "op=\"call rbd.get_snapcontext\"} 1\n"));
	free(t);
	call_xlate_free(&x);
}

int run_calls_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_is_cephs_or_escaped),
		cmocka_unit_test(numbers_of_each_process),
		cmocka_unit_test(outputs_name_them),
		cmocka_unit_test(names_are_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

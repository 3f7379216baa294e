// SPDX-License-Identifier: GPL-2.0
/* The slowest ops (loader/report/slowops.c): merged per OSD, and named as Ceph
 * prints them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "report/report.h"
#include "report/slowops.h"

static struct slowop op(__u64 total, const char *name)
{
	/* replicated; the head of pool 2, hash as hobject_t prints it */
	struct slowop o = { .total_ns = total, .shard = -1, .obj_pool = 2,
			    .revhash = 0x4a6b2c3d, .snap = (__u64)-2 };
	size_t n = strlen(name);

	o.name_len = n;
	memcpy(o.name, name, n < SLOW_NAME_BYTES ? n : SLOW_NAME_BYTES);
	return o;
}

static void merged_per_osd_slowest_first(void **state)
{
	struct slow_list l = { 0 };
	/* two processes of osd.3 (a restart), one of osd.1 */
	__u64 a[] = { 50, 10, 70, 30 }, b[] = { 60, 20, 40 }, c[] = { 5, 6 };

	(void)state;
	for (int i = 0; i < 4; i++) {
		struct slowop o = op(a[i], "a");

		assert_int_equal(slow_list_add(&l, 3, &o), 0);
	}
	for (int i = 0; i < 3; i++) {
		struct slowop o = op(b[i], "b");

		assert_int_equal(slow_list_add(&l, 3, &o), 0);
	}
	for (int i = 0; i < 2; i++) {
		struct slowop o = op(c[i], "c");

		assert_int_equal(slow_list_add(&l, 1, &o), 0);
	}
	slow_list_finish(&l, 4);
	assert_int_equal(l.n, 6);
	assert_int_equal(l.e[0].osd, 1);
	assert_int_equal(l.e[0].op.total_ns, 6);
	assert_int_equal(l.e[1].op.total_ns, 5);
	for (int i = 2; i < 6; i++)
		assert_int_equal(l.e[i].osd, 3);
	assert_int_equal(l.e[2].op.total_ns, 70);
	assert_int_equal(l.e[3].op.total_ns, 60);
	assert_int_equal(l.e[4].op.total_ns, 50);
	assert_int_equal(l.e[5].op.total_ns, 40);
	slow_list_finish(&l, 0);
	assert_int_equal(l.n, 0);
	slow_list_free(&l);
}

static void object_as_ceph_prints_it(void **state)
{
	char t[SLOW_OBJECT_MAX];
	struct slowop o = op(1, "rbd_data.1234.0000000000000001");

	(void)state;
	slow_object_text(&o, t);
	assert_string_equal(t, "2:4a6b2c3d:::rbd_data.1234.0000000000000001:head");
	slow_name_text(&o, t);
	assert_string_equal(t, "rbd_data.1234.0000000000000001");
	/* snapid_t: snapdir, else hex; a hash with leading zeros */
	o.snap = (__u64)-1;
	o.revhash = 0xbeef;
	slow_object_text(&o, t);
	assert_string_equal(t, "2:0000beef:::rbd_data.1234.0000000000000001:snapdir");
	o.snap = 0x1c;
	slow_object_text(&o, t);
	assert_string_equal(t, "2:0000beef:::rbd_data.1234.0000000000000001:1c");
	/* append_escaped: %, /, :, controls and 8 bit; " and \ stay
	 * (JSON escapes them in its turn) */
	o = op(1, "a/b:c%d\n\x1b[31m\"\\\x7f\xff ok");
	slow_object_text(&o, t);
	assert_string_equal(t, "2:4a6b2c3d:::a%2fb%3ac%25d%0a%1b[31m\"\\%7f%ff ok:head");
	/* namespace and key, escaped alike, before the name */
	o = op(1, "obj");
	memcpy(o.ns, "users:uid", 9);
	o.ns_len = 9;
	memcpy(o.key, "k/1", 3);
	o.key_len = 3;
	slow_object_text(&o, t);
	assert_string_equal(t, "2:4a6b2c3d:users%3auid:k%2f1:obj:head");
	/* longer than bpf/ keeps: cut, and says by how many bytes in all */
	o = op(1, "0123456789012345678901234567890123456789012345678901234567890123456789");
	slow_object_text(&o, t);
	assert_string_equal(t, "2:4a6b2c3d:::0123456789012345678901234567890123456789012345678901234567890123"
			       ":head (+6 bytes)");
	slow_name_text(&o, t);
	assert_string_equal(t, "0123456789012345678901234567890123456789012345678901234567890123"
			       " (+6 bytes)");
	memset(o.key, 'k', SLOW_LOC_BYTES);
	o.key_len = SLOW_LOC_BYTES + 10;
	slow_object_text(&o, t);
	assert_non_null(strstr(t, ":kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk:0123"));
	assert_non_null(strstr(t, ":head (+16 bytes)"));
	o.name_len = 0;
	slow_object_text(&o, t);
	assert_string_equal(t, "(undecoded)");
	slow_name_text(&o, t);
	assert_string_equal(t, "(undecoded)");
	/* the worst case fits: every kept byte escaped, huge lengths */
	memset(o.name, 0xff, SLOW_NAME_BYTES);
	memset(o.ns, 0xff, SLOW_LOC_BYTES);
	memset(o.key, 0xff, SLOW_LOC_BYTES);
	o.name_len = o.ns_len = o.key_len = 0xffffffff;
	o.obj_pool = INT64_MIN;
	o.snap = 0x7fffffffffffffffULL;
	slow_object_text(&o, t);
	assert_true(strlen(t) < SLOW_OBJECT_MAX);
	slow_name_text(&o, t);
	assert_true(strlen(t) < SLOW_OBJECT_MAX);
}

static void client_and_ops(void **state)
{
	char t[SLOW_REQID_MAX], ops[SLOW_OPS_MAX];
	struct slowop o = op(1, "x");

	(void)state;
	o.client[0] = 0x4200 | 8;	/* padding after the type byte */
	o.client[1] = 4123;
	o.client[2] = 17;
	o.client[3] = 0xdead00000000ULL | 2;
	slow_reqid_text(&o, t);
	assert_string_equal(t, "client.4123.2:17");
	o.client[0] = 4;
	o.client[1] = -1;
	slow_reqid_text(&o, t);
	assert_string_equal(t, "osd.-1.2:17");

	o.nops = 2;
	o.op[0] = osdhist_opi(0x2223);
	o.op[1] = osdhist_opi(0x2201);
	slow_ops_text(&o, ops);
	assert_string_equal(ops, "set-alloc-hint,write");
	o.nops = 6;	/* four kept */
	o.op[2] = o.op[3] = osdhist_opi(0x1201);
	slow_ops_text(&o, ops);
	assert_string_equal(ops, "set-alloc-hint,write,read,read,+2");
	o.nops = 0;
	slow_ops_text(&o, ops);
	assert_string_equal(ops, "-");
}

/* Text and JSON name each slot; Prometheus has one gauge per OSD and
 * class, the slowest, and no object. */
static void outputs_show_them(void **state)
{
	struct slow_entry e[3] = {
		{ .osd = 4, .op = op(30000000, "big.1") },
		{ .osd = 4, .op = op(20000000, "q\"b\\s\n") },
		{ .osd = 4, .op = op(10000000, "small.1") },
	};
	struct report r = { .time = 1700000000, .interval = 1, .traced = 1,
			    .slow = e, .nslow = 3, .slow_k = 10 };
	char *t;

	(void)state;
	for (int i = 0; i < 3; i++) {
		e[i].op.cls = i == 2 ? CLASS_READ : CLASS_WRITE;
		e[i].op.nops = 1;
		e[i].op.optype = e[i].op.op[0] = osdhist_opi(i == 2 ? 0x1201 : 0x2202);
		e[i].op.pool = 2;
		e[i].op.pg_seed = 0x1f;
		e[i].op.client[0] = 8;
		e[i].op.client[1] = 4123;
		e[i].op.client[2] = 17 + i;
	}
	t = unit_render('t', &r);
	assert_non_null(strstr(t, "osd.4 slowest ops:\n"));
	assert_non_null(strstr(t, "30000.0"));
	assert_non_null(strstr(t, " writefull "));
	assert_non_null(strstr(t, " 2.1f "));
	assert_non_null(strstr(t, " client.4123.0:17 "));
	assert_non_null(strstr(t, " 2:4a6b2c3d:::big.1:head\n"));
	/* Ceph's escaping: one line */
	assert_non_null(strstr(t, " 2:4a6b2c3d:::q\"b\\s%0a:head\n"));
	free(t);
	t = unit_render('j', &r);
	assert_non_null(strstr(t, "{\"type\":\"slowop\",\"time\":1700000000.000,\"osd\":4,\"fsid\":\"\","
			       "\"rank\":1,\"total_ns\":30000000,"));
	assert_non_null(strstr(t, "\"rank\":3,"));
	/* JSON escapes what Ceph's spelling leaves */
	assert_non_null(strstr(t, "\"object\":\"2:4a6b2c3d:::q\\\"b\\\\s%0a:head\","
			       "\"name\":\"q\\\"b\\\\s%0a\",\"object_len\":6,\"nspace_len\":0,"
			       "\"key_len\":0,"));
	assert_non_null(strstr(t, "\"pg\":\"2.1f\""));
	assert_non_null(strstr(t, "\"client\":\"client.4123.0:18\",\"tid\":18}"));
	free(t);
	/* an EC PG's shard, as spg_t prints it; none in a replicated pool */
	e[0].op.shard = 2;
	t = unit_render('j', &r);
	assert_non_null(strstr(t, "\"pg\":\"2.1fs2\""));
	assert_non_null(strstr(t, "\"pg\":\"2.1f\""));
	free(t);
	e[0].op.shard = -1;
	t = unit_render('p', &r);
	assert_non_null(strstr(t, "osdhist_slowest_op_seconds{ceph_daemon=\"osd.4\","
			       "class=\"write\"} 0.03\n"));
	assert_non_null(strstr(t, "osdhist_slowest_op_seconds{ceph_daemon=\"osd.4\","
			       "class=\"read\"} 0.01\n"));
	assert_null(strstr(t, "} 0.02\n"));	/* not the slowest write */
	assert_null(strstr(t, "big.1"));
	free(t);
	r.slow_k = 0;	/* --slowest 0: no gauge */
	t = unit_render('p', &r);
	assert_null(strstr(t, "osdhist_slowest_op_seconds"));
	free(t);
}

int run_slowops_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(merged_per_osd_slowest_first),
		cmocka_unit_test(object_as_ceph_prints_it),
		cmocka_unit_test(client_and_ops),
		cmocka_unit_test(outputs_show_them),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

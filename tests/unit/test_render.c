// SPDX-License-Identifier: GPL-2.0
/* Renderers: the text layout and the JSON schema promised in docs/reference.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "util/escape.h"
#include "report/report.h"
#include "output/render.h"
#include "sampler.h"
#include "report/stats.h"
#include "verify.h"

static struct series_delta s[2];

static void make(struct report *r)
{
	memset(r, 0, sizeof(*r));
	memset(s, 0, sizeof(s));
	s[0].osd = 0; s[0].pool = -1; s[0].cls = CLASS_WRITE;
	s[0].optype = OPTYPE_ALL; s[0].phase = PHASE_TOTAL;
	s[0].h.count = 4;
	s[0].h.sum_ns = 4000000;
	s[0].h.buckets[osdhist_bucket(1000000)] = 4;
	s[1].osd = 1; s[1].pool = 2; s[1].cls = CLASS_ERROR;
	s[1].optype = OPTYPE_ALL; s[1].phase = PHASE_TOTAL;
	r->time = 1700000000.25;
	r->interval = 2;
	r->traced = 2;
	r->s = s;
	r->n = 2;
	r->health.bpf[H_DONE] = 10;
	r->health.bpf[H_REMOVED] = 9;
	r->health.inflight = 1;
	r->health.inflight_max = 16384;
}

static char *render(void (*fn)(FILE *, const struct report *), const struct report *r)
{
	static char *buf;	/* static: open_memstream keeps its address */
	static size_t len;
	FILE *f;

	buf = NULL;
	f = open_memstream(&buf, &len);

	fn(f, r);
	fclose(f);
	return buf;
}

static void text_plain(FILE *f, const struct report *r)
{
	render_text(f, r, false, false);
}

static void text_shows_series_and_health(void **state)
{
	struct report r;
	char *out;
	(void)state;

	make(&r);
	out = render(text_plain, &r);
	assert_non_null(strstr(out, "osd.0 write total: 4 ops, 2.0/s, mean 1000.000"));
	assert_non_null(strstr(out, "usecs"));
	assert_non_null(strstr(out, "|****************************************|"));
	assert_null(strstr(out, "osd.1"));	/* no op in the interval */
	assert_non_null(strstr(out, "health: "));
	assert_non_null(strstr(out, "no op lost"));
	free(out);

	r.health.bpf[H_INSERT_FAIL] = 3;
	r.health.reaped = 2;
	out = render(text_plain, &r);
	assert_non_null(strstr(out, "!! health:"));
	assert_non_null(strstr(out, "OPS NOT FOLLOWED: insert_failed=3 reaped_dead_proc=2"));
	free(out);
}

static void json_schema(void **state)
{
	struct report r;
	char *out, *line2;
	(void)state;

	make(&r);
	s[1].h.count = 1;
	s[1].h.sum_ns = 300;
	s[1].h.buckets[osdhist_bucket(300)] = 1;
	out = render(render_json, &r);
	line2 = strchr(out, '\n') + 1;
	const char *first = "{\"type\":\"hist\",\"time\":1700000000.250,\"osd\":0,\"fsid\":\"\","
		"\"class\":\"write\",\"phase\":\"total\",\"count\":4,"
		"\"sum_ns\":4000000,\"p50_ns\":";
	const char *second = "{\"type\":\"hist\",\"time\":1700000000.250,"
		"\"osd\":1,\"fsid\":\"\",\"pool\":2,\"class\":\"error\"";

	assert_true(!strncmp(out, first, strlen(first)));
	assert_non_null(strstr(out, "\"buckets\":[[1048576,4]]}\n"));
	assert_true(!strncmp(line2, second, strlen(second)));
	assert_non_null(strstr(out, "{\"type\":\"health\",\"time\":1700000000.250,"
			    "\"interval_s\":2.000,\"traced_s\":2.000,\"sampled\":false,"
			    "\"window_moves\":0,\"window_move_s\":0.000000,"
			    "\"windows_unlisted\":0,\"done\":10,\"error_ends\":0"));
	assert_null(strstr(out, "\"type\":\"window\""));	/* none closed */
	assert_non_null(strstr(out, "\"interval_s\":2.000,\"traced_s\":2.000,"
			    "\"ops_per_s\":2.000,\"est_ops_per_s\":2.000,\"buckets\""));
	assert_non_null(strstr(out, "\"inflight\":1,\"inflight_max\":16384"));
	assert_non_null(strstr(out, "\"losses\":0}\n"));
	free(out);
}

/* --sample: each window closed in the interval, in Ceph's clock (ns), before
 * the health line. */
static void json_windows(void **state)
{
	const struct window_span w[2] = {
		{ 1700000000000000001ULL, 1700000001000000002ULL },
		{ 1700000002000000003ULL, 1700000003000000004ULL },
	};
	struct report r;
	char *out, *win;
	(void)state;

	make(&r);
	r.sampled = true;
	r.windows = w;
	r.nwindows = 2;
	out = render(render_json, &r);
	win = strstr(out, "{\"type\":\"window\",\"time\":1700000000.250,"
		     "\"open_ns\":1700000000000000001,\"close_ns\":1700000001000000002}\n"
		     "{\"type\":\"window\",\"time\":1700000000.250,"
		     "\"open_ns\":1700000002000000003,\"close_ns\":1700000003000000004}\n");
	assert_non_null(win);
	assert_true(win < strstr(out, "\"type\":\"health\""));
	free(out);
}


/* --- escaping of strings a process controls (loader/util/escape.c) */

/* The directory name that forged a line in --list (issue 23). */
static const char forged[] = "/tmp/x\nosd.7 pid 1 Ceph 16.2.15 build-id 00: traceable\x1b[2J/ceph-osd";

static char *written(void (*esc)(FILE *, const char *), const char *in)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	esc(f, in);
	fclose(f);
	return buf;
}

static void escape_text(void **state)
{
	char all[256], out[ESC_MAX], small[8];
	(void)state;

	assert_string_equal(ESC(forged), "/tmp/x\\nosd.7 pid 1 Ceph 16.2.15 build-id 00: "
			    "traceable\\x1b[2J/ceph-osd");
	assert_string_equal(ESC("a\\b\tc\rd\x7f\xc3\xa9"), "a\\\\b\\tc\\rd\\x7f\\xc3\\xa9");
	assert_string_equal(ESC(NULL), "");
	assert_string_equal(ESC("/usr/bin/ceph-osd"), "/usr/bin/ceph-osd");
	/* every byte value: printable ASCII out, and nothing lost */
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = 0;
	esc_text(all, out, sizeof(out));
	for (const char *p = out; *p; p++)
		assert_true(*p >= 0x20 && *p < 0x7f);
	assert_int_equal(strlen(out), 31 * 4 - 3 * 2 + 95 + 1 + 129 * 4);
	/* cut to the buffer, and said so */
	assert_string_equal(esc_text("abcdefghij", small, sizeof(small)), "abcd...");
	assert_string_equal(esc_text("abcdefg", small, sizeof(small)), "abcdefg");
	assert_string_equal(esc_text("abc\n\n", small, sizeof(small)), "abc\\n\\n");
	assert_string_equal(esc_text("abc\n\n\n", small, sizeof(small)), "abc...");
	assert_string_equal(esc_text("\x01\x02", small, sizeof(small)), "\\x01...");
}

static void escape_json(void **state)
{
	struct { const char *in, *out; } t[] = {
		{ "", "\"\"" },
		{ "a\"b\\c/d", "\"a\\\"b\\\\c/d\"" },
		{ "\n\t\r\x01\x1b\x7f", "\"\\n\\t\\r\\u0001\\u001b\\u007f\"" },
		{ "\xc3\xa9\xe2\x82\xac", "\"\\u00e9\\u20ac\"" },	/* é € */
		{ "\xf0\x9f\x98\x80", "\"\\ud83d\\ude00\"" },		/* U+1F600 */
		{ "\xc2\x9b" "2J", "\"\\u009b2J\"" },		/* C1 CSI, as UTF-8 */
		{ "\xe2\x80\xa8", "\"\\u2028\"" },		/* line separator */
		/* not UTF-8: one U+FFFD per byte */
		{ "a\xc3", "\"a\\ufffd\"" },			/* cut short */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },		/* overlong '/' */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },	/* a surrogate */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" }, /* > U+10FFFF */
		{ "\xff\xfe", "\"\\ufffd\\ufffd\"" },
		{ "\xe2\x82x", "\"\\ufffd\\ufffdx\"" },
	};
	char *out;
	(void)state;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		out = written(esc_json, t[i].in);
		assert_string_equal(out, t[i].out);
		free(out);
	}
	out = written(esc_json, NULL);
	assert_string_equal(out, "\"\"");
	free(out);
}

static void escape_prom(void **state)
{
	char *out;
	(void)state;

	/* the text form, then the format's \\ and \" */
	out = written(esc_prom, "a\"b\\c\nd\xff");
	assert_string_equal(out, "a\\\"b\\\\\\\\c\\\\nd\\\\xff");
	free(out);
	out = written(esc_prom, "16.2.15-1");
	assert_string_equal(out, "16.2.15-1");
	free(out);
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A socket path and a reason holding a newline: one line each, still. */
static void verify_strings_escaped(void **state)
{
	static struct verify_report v;
	struct report r;
	char *out, *plain;
	(void)state;

	make(&r);
	r.n = 0;
	v.osd = 3;
	v.pid = 42;
	v.state = VERIFY_UNVERIFIED;
	snprintf(v.reason, sizeof(v.reason), "no socket: %s", forged);
	snprintf(v.socket, sizeof(v.socket), "%s", forged);
	r.verify = &v;
	r.nverify = 1;
	plain = render(text_plain, &r);
	out = strstr(plain, "verify: osd.3 unverified (no socket: /tmp/x\\nosd.7 pid 1 ");
	assert_non_null(out);
	assert_non_null(strstr(out, "traceable\\x1b[2J/ceph-osd)\n"));
	assert_null(strchr(plain, '\x1b'));
	assert_null(strstr(plain, "\nosd.7"));
	free(plain);
	out = render(render_json, &r);
	assert_int_equal(lines(out), 2);	/* verify, health */
	assert_non_null(strstr(out, "\"socket\":\"/tmp/x\\nosd.7 pid 1 Ceph 16.2.15 "
			    "build-id 00: traceable\\u001b[2J/ceph-osd\""));
	assert_null(strchr(out, '\x1b'));
	free(out);
}

/* The verify line shows what was compared: osdhist's count and the range
 * Ceph's counter can have counted (issue 24: "verified ... write 15598/op_w
 * 15599" read as a contradiction), and a class outside the bound by how
 * much. */
static void verify_line_shows_the_range(void **state)
{
	static struct verify_report v;
	struct report r;
	char *plain;
	(void)state;

	make(&r);
	r.n = 0;
	v.osd = 3;
	v.state = VERIFY_VERIFIED;
	v.checks = 11;
	v.cls[VC_READ] = (struct verify_class_report){
		.compared = true, .j = { .ours = 5422, .ceph_lo = 5422, .ceph_hi = 5422 } };
	v.cls[VC_WRITE] = (struct verify_class_report){
		.compared = true, .j = { .ours = 15598, .ceph_lo = 15598, .ceph_hi = 15599 } };
	r.verify = &v;
	r.nverify = 1;
	plain = render(text_plain, &r);
	assert_non_null(strstr(plain, "verify: osd.3 verified against perf dump, 11 checks, "
			       "bound Ceph's range +-16: read 5422 (op_r 5422) "
			       "write 15598 (op_w 15598..15599)\n"));
	free(plain);

	v.state = VERIFY_MISMATCH;
	v.cls[VC_WRITE].j = (struct verify_judgement){
		.ours = 15000, .ceph_lo = 15598, .ceph_hi = 15599, .excess = -582 };
	plain = render(text_plain, &r);
	assert_non_null(strstr(plain, "!! verify: osd.3 mismatch against perf dump, 11 checks, "
			       "bound Ceph's range +-16: read 5422 (op_r 5422) "
			       "write 15000 (op_w 15598..15599; -582 outside the bound)\n"));
	free(plain);
}

int run_render_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_shows_series_and_health),
		cmocka_unit_test(json_schema),
		cmocka_unit_test(json_windows),
		cmocka_unit_test(escape_text),
		cmocka_unit_test(escape_json),
		cmocka_unit_test(escape_prom),
		cmocka_unit_test(verify_strings_escaped),
		cmocka_unit_test(verify_line_shows_the_range),
	};
	return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}

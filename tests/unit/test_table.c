// SPDX-License-Identifier: GPL-2.0
/*
 * The table (--table): its rows line up under their heads whatever the
 * numbers' widths, no line is wider than 120 columns (or a line says what
 * was cut), the sort orders hold, names are escaped and cut where the
 * table says, and latencies carry their unit.  The golden file of the
 * shared snapshot is test_golden.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "output/render.h"
#include "report/report.h"
#include "report/slowops.h"
#include "report/verify_report.h"

#define MAXS 64

static struct series_delta s[MAXS];
static struct slow_entry slows[8];
static struct verify_report ver[4];
static int ns, nslow;

/* n ops of osd and class in phase, all of ns_each ns (one bucket). */
static void add(int osd, __u8 cls, __u8 phase, __u64 ns_each, __u64 n)
{
	struct series_delta *d = &s[ns++];

	assert_true(ns <= MAXS);
	*d = (struct series_delta){ .osd = osd, .pool = -1, .cls = cls,
				    .optype = OPTYPE_ALL, .phase = phase };
	d->h.count = n;
	d->h.sum_ns = n * ns_each;
	d->h.buckets[osdhist_bucket(ns_each)] = n;
}

static void slow(int osd, __u8 cls, __u64 total_ns, const char *name, __u32 name_len)
{
	struct slowop *o = &slows[nslow].op;

	slows[nslow++].osd = osd;
	memset(o, 0, sizeof(*o));
	o->cls = cls;
	o->total_ns = total_ns;
	o->name_len = name_len;
	memcpy(o->name, name, strlen(name) < SLOW_NAME_BYTES ? strlen(name) : SLOW_NAME_BYTES);
}

static void report(struct report *r)
{
	*r = (struct report){ .time = 1700000000, .interval = 2, .traced = 2,
			      .s = s, .n = ns, .slow = slows, .nslow = nslow,
			      .slow_k = 10, .verify = ver, .nverify = 0 };
	r->health.inflight_max = 32768;
	r->health.hists_max = 16384;
}

static void reset(void)
{
	ns = nslow = 0;
	memset(ver, 0, sizeof(ver));
}

static char *table(const struct report *r, enum table_sort sort, int width)
{
	static char *buf;	/* static: open_memstream keeps its address */
	static size_t len;
	FILE *f;

	buf = NULL;
	f = open_memstream(&buf, &len);
	render_table(f, r, &(struct table_opts){ .sort = sort, .width = width });
	fclose(f);
	return buf;
}

/* The lines of out, each a NUL-ended copy in lines[]; how many. */
static int split(const char *out, char lines[][512], int max)
{
	int n = 0;

	for (const char *p = out; *p && n < max; n++) {
		size_t l = strcspn(p, "\n");

		assert_true(l < 512);
		memcpy(lines[n], p, l);
		lines[n][l] = 0;
		p += l + (p[l] == '\n');
	}
	return n;
}

#define HEAD_COLS 13	/* osd ... slowest; the object after them */

/* Where line's first HEAD_COLS words start and end; the object's start
 * (-1: none).  Words are split at spaces; the object, last, may hold some. */
static void spans(const char *line, int start[HEAD_COLS], int end[HEAD_COLS], int *obj)
{
	int i = 0, c = 0;

	*obj = -1;
	while (line[i] && c <= HEAD_COLS) {
		while (line[i] == ' ')
			i++;
		if (!line[i])
			break;
		if (c == HEAD_COLS) {
			*obj = i;
			break;
		}
		start[c] = i;
		while (line[i] && line[i] != ' ')
			i++;
		end[c++] = i;
	}
	assert_int_equal(c, HEAD_COLS);
}

/* Every row under the column heads: names start where their head does,
 * numbers end where theirs does, the object starts where "object" does;
 * no line of out is wider than width.  Returns the rows, in order, in
 * rows[] (their OSD and class words); how many. */
static int check_table(const char *out, int width, char rows[][2][32], int max)
{
	static char lines[256][512];
	int n = split(out, lines, 256), hs[HEAD_COLS], he[HEAD_COLS], hobj;
	int head = -1, nrows = 0;

	for (int i = 0; i < n; i++) {
		assert_true((int)strlen(lines[i]) <= width);
		if (head < 0 && !strncmp(lines[i], "osd ", 4))
			head = i;
	}
	assert_true(head >= 0);
	spans(lines[head], hs, he, &hobj);
	for (int i = head + 1; i < n && !strncmp(lines[i], "osd.", 4); i++) {
		int rs[HEAD_COLS], re[HEAD_COLS], robj;

		spans(lines[i], rs, re, &robj);
		for (int c = 0; c < HEAD_COLS; c++) {
			if (c < 2)
				assert_int_equal(rs[c], hs[c]);
			else
				assert_int_equal(re[c], he[c]);
		}
		assert_int_equal(robj, hobj);
		assert_true(nrows < max);
		snprintf(rows[nrows][0], 32, "%.*s", re[0] - rs[0], lines[i] + rs[0]);
		snprintf(rows[nrows][1], 32, "%.*s", re[1] - rs[1], lines[i] + rs[1]);
		nrows++;
	}
	return nrows;
}

/* Numbers of every width, a long OSD name, names to cut: the rows line
 * up under their heads and fit 120 columns. */
static void aligned_for_any_width(void **state)
{
	char rows[16][2][32], long_name[SLOW_NAME_BYTES + 1];
	struct report r;
	char *out;
	(void)state;

	reset();
	add(0, CLASS_READ, PHASE_TOTAL, 900, 1);
	add(0, CLASS_READ, PHASE_QUEUE, 100, 1);
	add(7, CLASS_WRITE, PHASE_TOTAL, 1200000, 123456789012ULL);
	add(7, CLASS_WRITE, PHASE_QUEUE, 40000, 123456789012ULL);
	add(123456, CLASS_ERROR, PHASE_TOTAL, 45000, 17);
	add(12, CLASS_SUBOP, PHASE_TOTAL, 3000000000ULL, 3);
	add(OSD_UNKNOWN, CLASS_READ, PHASE_TOTAL, 7000, 2);
	memset(long_name, 'x', SLOW_NAME_BYTES);	/* read whole, too long for the row */
	strcpy(long_name + SLOW_NAME_BYTES - 8, "object55");
	slow(7, CLASS_WRITE, 3100000000ULL, long_name, SLOW_NAME_BYTES);
	slow(123456, CLASS_ERROR, 50000, "short", 5);
	report(&r);
	out = table(&r, TABLE_BY_OSD, TABLE_WIDTH);
	assert_int_equal(check_table(out, TABLE_WIDTH, rows, 16), 5);
	/* the numbers as they are: exact counts, latencies with their unit */
	assert_non_null(strstr(out, " 123456789012 61728394506.0 "));
	assert_non_null(strstr(out, " 900ns "));
	assert_non_null(strstr(out, " 3.00s "));
	assert_non_null(strstr(out, " 45.0us "));
	assert_non_null(strstr(out, " 1.20ms "));
	assert_non_null(strstr(out, "osd.123456 error "));
	/* the slowest op: its latency and object name, whole when it fits */
	assert_non_null(strstr(out, " 3.10s x"));
	assert_non_null(strstr(out, " 50.0us short\n"));
	/* the long name: cut in the middle (12 columns left: 3 + .. + 7),
	 * its end kept, and said */
	assert_non_null(strstr(out, " xxx..bject55\n"));
	assert_non_null(strstr(out, "\ncut: 1 object name, where \"..\" stands"));
	free(out);
}

/* Counts too wide for 120 columns with the object: the column goes, and
 * a line says so; in fewer columns still, a line says the rows are wider. */
static void too_wide_is_said(void **state)
{
	char rows[16][2][32];
	struct report r;
	char *out;
	(void)state;

	reset();
	add(0, CLASS_READ, PHASE_TOTAL, 1000, 1000000000000000ULL);
	slow(0, CLASS_READ, 2000, "obj", 3);
	report(&r);
	out = table(&r, TABLE_BY_OSD, TABLE_WIDTH);
	assert_non_null(strstr(out, "\ncut: the object column, no room for it in 120 columns\n"));
	assert_null(strstr(out, " object\n"));
	assert_null(strstr(out, "note: rows are"));
	assert_int_equal(check_table(out, TABLE_WIDTH, rows, 16), 1);
	free(out);

	out = table(&r, TABLE_BY_OSD, 100);
	assert_non_null(strstr(out, "\nnote: rows are 1"));
	assert_non_null(strstr(out, " columns wide, more than 100: numbers this wide do not fit\n"));
	free(out);
}

/* The rows of r's table sorted by sort: want[i] is row i's OSD and class. */
static void expect_order(const struct report *r, enum table_sort sort, const char *want[6][2])
{
	char rows[16][2][32];
	char *out = table(r, sort, TABLE_WIDTH);

	assert_int_equal(check_table(out, TABLE_WIDTH, rows, 16), 6);
	for (int i = 0; i < 6; i++) {
		assert_string_equal(rows[i][0], want[i][0]);
		assert_string_equal(rows[i][1], want[i][1]);
	}
	free(out);
}

/* Each sort: its order, largest first, ties by OSD then class. */
static void sort_orders(void **state)
{
	const char *by_osd[6][2] = { { "osd.1", "write" }, { "osd.1", "error" },
				     { "osd.2", "read" }, { "osd.3", "read" },
				     { "osd.3", "write" }, { "osd.10", "error" } };
	const char *by_p99[6][2] = { { "osd.3", "write" }, { "osd.1", "write" },
				     { "osd.3", "read" }, { "osd.1", "error" },
				     { "osd.2", "read" }, { "osd.10", "error" } };
	const char *by_ops[6][2] = { { "osd.1", "write" }, { "osd.2", "read" },
				     { "osd.3", "read" }, { "osd.3", "write" },
				     { "osd.10", "error" }, { "osd.1", "error" } };
	/* the error rows by their count; the others by OSD */
	const char *by_failed[6][2] = { { "osd.10", "error" }, { "osd.1", "error" },
					{ "osd.1", "write" }, { "osd.2", "read" },
					{ "osd.3", "read" }, { "osd.3", "write" } };
	struct report r;
	(void)state;

	reset();
	add(3, CLASS_READ, PHASE_TOTAL, 200000, 50);	/* p99 ~200us, ops 50 */
	add(3, CLASS_WRITE, PHASE_TOTAL, 9000000, 10);	/* p99 ~9ms, ops 10 */
	add(1, CLASS_WRITE, PHASE_TOTAL, 2000000, 70);	/* p99 ~2ms, ops 70 */
	add(1, CLASS_ERROR, PHASE_TOTAL, 100000, 4);	/* failed 4 */
	add(10, CLASS_ERROR, PHASE_TOTAL, 50000, 9);	/* failed 9 */
	add(2, CLASS_READ, PHASE_TOTAL, 80000, 50);	/* ops 50: tie with osd.3 */
	report(&r);
	expect_order(&r, TABLE_BY_OSD, by_osd);
	expect_order(&r, TABLE_BY_P99, by_p99);
	expect_order(&r, TABLE_BY_OPS, by_ops);
	expect_order(&r, TABLE_BY_FAILED, by_failed);
}

static void sort_names(void **state)
{
	(void)state;
	assert_int_equal(table_sort_parse("osd"), TABLE_BY_OSD);
	assert_int_equal(table_sort_parse("p99"), TABLE_BY_P99);
	assert_int_equal(table_sort_parse("ops"), TABLE_BY_OPS);
	assert_int_equal(table_sort_parse("ops/s"), TABLE_BY_OPS);
	assert_int_equal(table_sort_parse("failed"), TABLE_BY_FAILED);
	assert_int_equal(table_sort_parse("p50"), -EINVAL);
	assert_int_equal(table_sort_parse(""), -EINVAL);
}

/* A unit reached by rounding goes to the next one: 999.6 ns is 1.00us,
 * 99.96 us is 100us (the mean column: sum / count, exactly). */
static void latency_units(void **state)
{
	struct report r;
	char *out;
	(void)state;

	reset();
	add(0, CLASS_READ, PHASE_TOTAL, 1000, 5);
	s[0].h.sum_ns = 4998;			/* mean 999.6 ns */
	add(1, CLASS_READ, PHASE_TOTAL, 100000, 5);
	s[1].h.sum_ns = 499800;			/* mean 99.96 us */
	add(2, CLASS_READ, PHASE_TOTAL, 10000, 1);
	s[2].h.sum_ns = 9994;			/* mean 9.994 us */
	add(3, CLASS_READ, PHASE_TOTAL, 10000, 1);
	s[3].h.sum_ns = 1999999999999ULL;	/* 2000 s */
	report(&r);
	out = table(&r, TABLE_BY_OSD, TABLE_WIDTH);
	assert_non_null(strstr(out, "osd.0 read    5   2.5 1.00us "));
	assert_non_null(strstr(out, "osd.1 read    5   2.5  100us "));
	assert_non_null(strstr(out, "osd.2 read    1   0.5 9.99us "));
	assert_non_null(strstr(out, "osd.3 read    1   0.5  2000s "));
	free(out);
}

/* out with its wrapped lines joined again (a static copy). */
static const char *unwrap(const char *out)
{
	static char buf[8192];
	char *p = buf;

	for (; *out && p < buf + sizeof(buf) - 1; out++) {
		if (!strncmp(out, "\n        ", 9)) {
			*p++ = ' ';
			out += 8;
		} else {
			*p++ = *out;
		}
	}
	*p = 0;
	return buf;
}

/* Header: the health line wrapped under 120 columns with its facts, the
 * self-check's states grouped by reason, a name a process chose escaped,
 * and "off" without the self-check. */
static void header_and_escaping(void **state)
{
	char rows[16][2][32];
	struct report r;
	char *out;
	(void)state;

	reset();
	add(0, CLASS_WRITE, PHASE_TOTAL, 1000000, 4);
	slow(0, CLASS_WRITE, 2000000, "a\\b\x1b[2Jc", 8);	/* backslash, ESC */
	report(&r);
	r.health.osds = 40;
	r.health.dup.n = 3;
	for (int i = 0; i < 3; i++)
		r.health.dup.id[i] = (struct dup_id){ .osd = 100 + i, .procs = 2, .pid = 9000 + i };
	r.health.bpf[H_INSERT_FAIL] = 5;
	ver[0] = (struct verify_report){ .osd = 0, .state = VERIFY_VERIFIED };
	ver[1] = (struct verify_report){ .osd = 1, .state = VERIFY_UNVERIFIED };
	strcpy(ver[1].reason, "timeout: no answer on \"/x\x1b[2J\" in 2 s");
	ver[2] = (struct verify_report){ .osd = 2, .state = VERIFY_UNVERIFIED };
	strcpy(ver[2].reason, "waiting for the first check");
	ver[3] = (struct verify_report){ .osd = 3, .state = VERIFY_UNVERIFIED };
	strcpy(ver[3].reason, "timeout: again");
	r.nverify = 4;
	out = table(&r, TABLE_BY_OSD, TABLE_WIDTH);
	assert_int_equal(check_table(out, TABLE_WIDTH, rows, 16), 1);
	assert_non_null(strstr(out, "!! health: 40 osd, "));
	assert_non_null(strstr(unwrap(out), "osd.102: 2 processes, series of pid 9002"));
	assert_non_null(strstr(unwrap(out), "OPS NOT FOLLOWED: insert_failed=5"));
	assert_non_null(strstr(out, "\nself-check against perf dump: 1 verified, 3 unverified "
				    "(timeout: osd.1 osd.3; waiting for the first check: osd.2)\n"));
	assert_null(strchr(out, '\x1b'));
	/* Ceph's escaping takes the ESC, ours the backslash */
	assert_non_null(strstr(out, " a\\\\b%1b[2Jc\n"));
	free(out);

	r.verify = NULL;
	out = table(&r, TABLE_BY_OSD, TABLE_WIDTH);
	assert_non_null(strstr(out, "\nself-check: off (--no-verify)\n"));
	free(out);

	r.n = 0;
	out = table(&r, TABLE_BY_OSD, TABLE_WIDTH);
	assert_non_null(strstr(out, "\nno op completed in the last 2.00 s\n"));
	assert_null(strstr(out, "\nosd "));
	free(out);
}

/* A name bpf/ read only the first bytes of ends in "..": cut where bpf/
 * stopped when it fits, cut further when it does not. */
static void partial_name(void **state)
{
	char name[SLOW_NAME_BYTES + 1], want[SLOW_NAME_BYTES + 8];
	struct report r;
	char *out;
	(void)state;

	reset();
	add(0, CLASS_WRITE, PHASE_TOTAL, 1000000, 4);
	memset(name, 'z', SLOW_NAME_BYTES);
	name[SLOW_NAME_BYTES] = 0;
	memcpy(name, "rbd_data.1", 10);
	slow(0, CLASS_WRITE, 2000000, name, 300);	/* 236 bytes not read */
	report(&r);
	out = table(&r, TABLE_BY_OSD, 200);
	snprintf(want, sizeof(want), " %s..\n", name);
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "\ncut: 1 object name,"));
	free(out);

	out = table(&r, TABLE_BY_OSD, TABLE_WIDTH);
	assert_non_null(strstr(out, " rbd_data.1zz"));
	assert_non_null(strstr(out, "zz..\n"));
	assert_null(strstr(out, want));
	free(out);
}

int run_table_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aligned_for_any_width),
		cmocka_unit_test(too_wide_is_said),
		cmocka_unit_test(sort_orders),
		cmocka_unit_test(sort_names),
		cmocka_unit_test(latency_units),
		cmocka_unit_test(header_and_escaping),
		cmocka_unit_test(partial_name),
	};

	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}

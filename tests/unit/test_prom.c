// SPDX-License-Identifier: GPL-2.0
/* Prometheus exposition (loader/output/prom.c), --prom-buckets parsing and the
 * --prometheus address syntax (loader/output/http.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "cli/cli.h"
#include "output/http.h"
#include "output/prom.h"
#include "report/report.h"

static struct series_delta s[3];

static void put(struct hist *h, __u64 ns, __u64 n)
{
	h->count += n;
	h->sum_ns += ns * n;
	h->buckets[osdhist_bucket(ns)] += n;
}

/* osd.0 writes: 3 at 50 us, 2 at 1 ms, 1 at 3 s, 1 at 200 s; its interval
 * delta is empty (the export must not care).  osd.1 pool 7 reads, and
 * ops of an unidentified process. */
static void make(struct report *r)
{
	memset(r, 0, sizeof(*r));
	memset(s, 0, sizeof(s));
	s[0].osd = 0; s[0].pool = -1; s[0].cls = CLASS_WRITE;
	s[0].optype = OPTYPE_ALL; s[0].phase = PHASE_TOTAL;
	put(&s[0].cum, 50000, 3);
	put(&s[0].cum, 1000000, 2);
	put(&s[0].cum, 3000000000ULL, 1);
	put(&s[0].cum, 200000000000ULL, 1);
	s[1].osd = 1; s[1].pool = 7; s[1].cls = CLASS_READ;
	s[1].optype = OPTYPE_ALL; s[1].phase = PHASE_QUEUE;
	put(&s[1].cum, 300, 1);
	s[2].osd = -1; s[2].pool = -1; s[2].cls = CLASS_ERROR;
	s[2].optype = OPTYPE_ALL; s[2].phase = PHASE_TOTAL;
	put(&s[2].cum, 5000, 4);
	r->time = 1700000000.25;
	r->interval = 2;
	r->s = s;
	r->n = 3;
	r->health.bpf[H_DONE] = 10;
	r->health.bpf[H_REMOVED] = 9;
	r->health.bpf[H_INSERT_FAIL] = 2;
	r->health.reaped = 5;
	r->health.inflight = 1;
	r->health.inflight_max = 16384;
	r->health.osds = 2;
	r->health.untraced = 1;
	r->health.binaries = 1;
}

static char *render(const struct report *r, const struct prom_buckets *b)
{
	static char *buf;	/* static: open_memstream keeps its address */
	static size_t len;
	FILE *f;

	buf = NULL;
	f = open_memstream(&buf, &len);

	render_prom(f, r, b, "9.9");
	fclose(f);
	return buf;
}

/* The value of the sample line that starts with `prefix` (exactly one). */
static double sample(const char *out, const char *prefix)
{
	const char *p = out, *hit = NULL;
	size_t n = strlen(prefix);

	while (p && *p) {
		if (!strncmp(p, prefix, n) && p[n] == ' ') {
			assert_null(hit);
			hit = p + n + 1;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	assert_non_null(hit);
	return strtod(hit, NULL);
}

/* Cumulative bucket counts of one series, in output order; returns how
 * many bounds (with +Inf) and checks every le is larger than the last. */
static int buckets_of(const char *out, const char *labels, double *le, double *cnt)
{
	char prefix[256];
	const char *p = out;
	int n = 0;

	snprintf(prefix, sizeof(prefix), "osdhist_op_latency_seconds_bucket{%s,le=\"", labels);
	while ((p = strstr(p, prefix))) {
		char *end;

		p += strlen(prefix);
		le[n] = !strncmp(p, "+Inf", 4) ? 1e300 : strtod(p, &end);
		p = strchr(p, ' ') + 1;
		cnt[n] = strtod(p, NULL);
		if (n)
			assert_true(le[n] > le[n - 1]);
		n++;
	}
	return n;
}

static void histogram_shape(void **state)
{
	struct prom_buckets b;
	struct report r;
	double le[PROM_MAX_BOUNDS + 1], cnt[PROM_MAX_BOUNDS + 1];
	const char *w = "ceph_daemon=\"osd.0\",class=\"write\",phase=\"total\"";
	char *out;
	int n;
	(void)state;

	make(&r);
	prom_default_buckets(&b);
	out = render(&r, &b);
	n = buckets_of(out, w, le, cnt);
	assert_int_equal(n, b.n + 1);
	for (int i = 1; i < n; i++)
		assert_true(cnt[i] >= cnt[i - 1]);		/* cumulative */
	assert_true(le[n - 1] == 1e300);			/* ends with +Inf */
	assert_true(cnt[n - 1] == 7);
	assert_true(sample(out, "osdhist_op_latency_seconds_count{ceph_daemon=\"osd.0\","
			   "class=\"write\",phase=\"total\"}") == 7);	/* == +Inf */
	/* _sum in seconds, exact: 3*50us + 2*1ms + 3 s + 200 s */
	assert_non_null(strstr(out, "osdhist_op_latency_seconds_sum{ceph_daemon=\"osd.0\","
			       "class=\"write\",phase=\"total\"} 203.00215\n"));
	/* bound by bound: 50 us is in the fine bucket [49152, 53248) ns, which
	 * straddles le=0.00005: counted from le=0.0001 on */
	assert_non_null(strstr(out, "class=\"write\",phase=\"total\",le=\"0.000025\"} 0\n"));
	assert_non_null(strstr(out, "class=\"write\",phase=\"total\",le=\"0.00005\"} 0\n"));
	assert_non_null(strstr(out, "class=\"write\",phase=\"total\",le=\"0.0001\"} 3\n"));
	/* 1 ms is in [983040, 1048576), which straddles le=0.001; 3 s is in
	 * [2952790016, 3221225472), which straddles le=2.5 */
	assert_non_null(strstr(out, "class=\"write\",phase=\"total\",le=\"0.001\"} 3\n"));
	assert_non_null(strstr(out, "class=\"write\",phase=\"total\",le=\"0.0025\"} 5\n"));
	assert_non_null(strstr(out, "class=\"write\",phase=\"total\",le=\"2.5\"} 5\n"));
	assert_non_null(strstr(out, "class=\"write\",phase=\"total\",le=\"5\"} 6\n"));
	/* 200 s is past the last fine bound (2^37 ns): only in +Inf */
	assert_non_null(strstr(out, "class=\"write\",phase=\"total\",le=\"10\"} 6\n"));
	assert_non_null(strstr(out, "class=\"write\",phase=\"total\",le=\"+Inf\"} 7\n"));
	free(out);
}

static void labels_and_types(void **state)
{
	struct prom_buckets b;
	struct report r;
	char *out;
	(void)state;

	make(&r);
	prom_default_buckets(&b);
	out = render(&r, &b);
	assert_true(!strncmp(out, "# HELP osdhist_op_latency_seconds ", 34));
	assert_non_null(strstr(out, "\n# TYPE osdhist_op_latency_seconds histogram\n"));
	assert_non_null(strstr(out, "osdhist_op_latency_seconds_count{ceph_daemon=\"osd.1\","
			       "pool_id=\"7\",class=\"read\",phase=\"queue\"} 1\n"));
	assert_non_null(strstr(out, "osdhist_op_latency_seconds_bucket{ceph_daemon=\"osd.1\","
			       "pool_id=\"7\",class=\"read\",phase=\"queue\",le=\"0.000025\"} 1\n"));
	assert_non_null(strstr(out, "osdhist_op_latency_seconds_count{ceph_daemon="
			       "\"osd.unknown\",class=\"error\",phase=\"total\"} 4\n"));
	assert_non_null(strstr(out, "# TYPE osdhist_ops_done_total counter\n"
			       "osdhist_ops_done_total 10\n"));
	assert_non_null(strstr(out, "osdhist_inflight_removed_total 9\n"));
	assert_non_null(strstr(out, "# TYPE osdhist_ops_lost_total counter\n"));
	assert_non_null(strstr(out, "osdhist_ops_lost_total{reason=\"insert_failed\"} 2\n"));
	assert_non_null(strstr(out, "osdhist_ops_lost_total{reason=\"hist_full\"} 0\n"));
	assert_non_null(strstr(out, "osdhist_ops_lost_total{reason=\"reaped_dead_proc\"} 5\n"));
	assert_non_null(strstr(out, "osdhist_ops_lost_total{reason=\"unknown_proc_ops\"} 0\n"));
	assert_non_null(strstr(out, "# TYPE osdhist_inflight_ops gauge\nosdhist_inflight_ops 1\n"));
	assert_non_null(strstr(out, "osdhist_inflight_capacity 16384\n"));
	assert_non_null(strstr(out, "osdhist_traced_processes 2\n"));
	assert_non_null(strstr(out, "# TYPE osdhist_untraced_processes gauge\n"
			       "osdhist_untraced_processes 1\n"));
	assert_non_null(strstr(out, "osdhist_attached_binaries 1\n"));
	assert_non_null(strstr(out, "osdhist_last_snapshot_timestamp_seconds 1700000000.250\n"));
	assert_non_null(strstr(out, "# TYPE osdhist_build_info gauge\n"
			       "osdhist_build_info{version=\"9.9\"} 1\n"));

	/* Every sample's family has exactly one HELP and one TYPE, before it. */
	for (char *line = out, *next; *line; line = next) {
		char name[128], want[160];
		size_t k;

		next = strchr(line, '\n') + 1;
		if (line[0] == '#')
			continue;
		k = strcspn(line, "{ ");
		assert_true(k < sizeof(name));
		memcpy(name, line, k);
		name[k] = 0;
		for (const char *suf = "_bucket\0_sum\0_count\0"; *suf; suf += strlen(suf) + 1)
			if (strstr(name, "osdhist_op_latency_seconds") == name &&
			    k > strlen(suf) && !strcmp(name + k - strlen(suf), suf))
				name[k - strlen(suf)] = 0;
		snprintf(want, sizeof(want), "# TYPE %s ", name);
		assert_non_null(strstr(out, want));
		assert_true(strstr(out, want) < line);
		assert_null(strstr(strstr(out, want) + 1, want));
		snprintf(want, sizeof(want), "# HELP %s ", name);
		assert_non_null(strstr(out, want));
	}
	free(out);
}

/* The fine-to-coarse rule, exhaustively on many values and odd bounds:
 * a coarse count never exceeds the true number of values <= le, and misses
 * only values of the one fine bucket that holds le. */
static void coarse_counts_are_conservative(void **state)
{
	static __u64 vals[5000];
	struct prom_buckets b;
	struct report r;
	double le[PROM_MAX_BOUNDS + 1], cnt[PROM_MAX_BOUNDS + 1];
	char *out, why[128];
	__u64 x = 88172645463325252ULL;
	int n;
	(void)state;

	assert_int_equal(prom_parse_buckets("0.0000003,0.000098303,0.000098304,0.0001,"
					    "0.00012345,0.001,0.0011,1,150", &b,
					    why, sizeof(why)), 0);
	make(&r);
	memset(&s[0].cum, 0, sizeof(s[0].cum));
	for (int i = 0; i < 5000; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;	/* xorshift64 */
		vals[i] = 100 + x % 2000000;			/* 100 ns .. 2 ms */
		if (i % 50 == 0)
			vals[i] = 98303 + i % 3;	/* around a fine bound */
		put(&s[0].cum, vals[i], 1);
	}
	out = render(&r, &b);
	n = buckets_of(out, "ceph_daemon=\"osd.0\",class=\"write\",phase=\"total\"", le, cnt);
	assert_int_equal(n, b.n + 1);
	for (int j = 0; j < b.n; j++) {
		__u64 B = b.le_ns[j], lo = osdhist_bucket_lower(osdhist_bucket(B));
		__u64 at_most = 0, below = 0;

		for (int i = 0; i < 5000; i++) {
			at_most += vals[i] <= B;
			below += vals[i] < lo;
		}
		assert_true(cnt[j] <= at_most);
		assert_true(cnt[j] >= below);
		/* a bound one below a fine bound is exact */
		if (osdhist_bucket(B + 1) != osdhist_bucket(B))
			assert_true(cnt[j] == at_most);
	}
	assert_true(b.le_ns[1] == 98303 && cnt[1] > 0);
	assert_true(cnt[n - 1] == 5000);
	free(out);
}

static void bucket_lists(void **state)
{
	struct prom_buckets b, d;
	char many[1024] = "", why[128];
	const char *bad[] = {
		"", ",", "0.1,", ",0.1", "0.1,,0.2", "abc", "0.1x", "0", "-0.5",
		"nan", "inf", "0.2,0.1", "0.1,0.1", "1e-9,1.4e-9", "1e-10", "86401",
		"0.1 ,0.2",
	};
	(void)state;

	prom_default_buckets(&d);
	assert_int_equal(d.n, 18);
	assert_true(d.le_ns[0] == 25000 && d.le_ns[17] == 10000000000ULL);
	for (int i = 1; i < d.n; i++)
		assert_true(d.le_ns[i] > d.le_ns[i - 1]);

	assert_int_equal(prom_parse_buckets("0.001,0.01,2.5", &b, why, sizeof(why)), 0);
	assert_int_equal(b.n, 3);
	assert_true(b.le_ns[0] == 1000000 && b.le_ns[1] == 10000000 &&
		    b.le_ns[2] == 2500000000ULL);
	assert_int_equal(prom_parse_buckets("1e-4", &b, why, sizeof(why)), 0);
	assert_true(b.n == 1 && b.le_ns[0] == 100000);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b = d;
		why[0] = 0;
		assert_int_equal(prom_parse_buckets(bad[i], &b, why, sizeof(why)), -EINVAL);
		assert_int_equal(b.n, d.n);		/* left untouched */
		assert_true(why[0]);			/* and said why */
	}
	for (int i = 1; i <= 64; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%d",
			 i > 1 ? "," : "", i);
	assert_int_equal(prom_parse_buckets(many, &b, why, sizeof(why)), 0);
	assert_int_equal(b.n, 64);
	strcat(many, ",65");
	assert_int_equal(prom_parse_buckets(many, &b, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "at most 64 bounds");
}

static void listen_syntax(void **state)
{
	char host[64];
	unsigned port;
	const char *bad[] = { "", ":", "x", "9720x", "-1", "65536", "host:",
			      ":9720", "::1:9720", "[::1]", "[::1]9720", "[]:9720",
			      "127.0.0.1:+80", "127.0.0.1: 80" };
	(void)state;

	assert_int_equal(http_parse_listen("9720", host, sizeof(host), &port), 0);
	assert_string_equal(host, "127.0.0.1");
	assert_int_equal(port, 9720);
	assert_int_equal(http_parse_listen("0.0.0.0:80", host, sizeof(host), &port), 0);
	assert_string_equal(host, "0.0.0.0");
	assert_int_equal(port, 80);
	assert_int_equal(http_parse_listen("[::1]:0", host, sizeof(host), &port), 0);
	assert_string_equal(host, "::1");
	assert_int_equal(port, 0);
	assert_int_equal(http_parse_listen("localhost:65535", host, sizeof(host), &port), 0);
	assert_string_equal(host, "localhost");
	assert_int_equal(port, 65535);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(http_parse_listen(bad[i], host, sizeof(host), &port), -EINVAL);
	assert_int_equal(http_parse_listen("a-very-long-host-name-that-does-not-fit-"
					   "in-sixty-four-bytes.example.org:80",
					   host, sizeof(host), &port), -EINVAL);
}

static int parse(struct options *o, int argc, const char **argv)
{
	return cli_parse(argc, (char **)argv, o);
}

static void cli_options(void **state)
{
	const char *all[] = { "osdhist", "--prometheus", "[::1]:9720", "--textfile",
			      "/x/o.prom", "--prom-buckets", "0.001,0.1", "-q", "1" };
	const char *port[] = { "osdhist", "--prometheus", "9720" };
	const char *quiet[] = { "osdhist", "--quiet" };
	const char *badb[] = { "osdhist", "--prom-buckets", "0.1,0.01" };
	const char *badp[] = { "osdhist", "--prometheus", "localhost" };
	struct options o;
	(void)state;

	assert_int_equal(parse(&o, 1, all), 0);		/* defaults */
	assert_null(o.prometheus);
	assert_null(o.textfile);
	assert_false(o.quiet);
	assert_int_equal(o.buckets.n, 18);
	assert_int_equal(parse(&o, 9, all), 0);
	assert_string_equal(o.prom_host, "::1");
	assert_int_equal(o.prom_port, 9720);
	assert_string_equal(o.textfile, "/x/o.prom");
	assert_true(o.quiet);
	assert_int_equal(o.buckets.n, 2);
	assert_int_equal(parse(&o, 3, port), 0);
	assert_string_equal(o.prom_host, "127.0.0.1");
	assert_int_equal(parse(&o, 2, quiet), -EINVAL);	/* nothing to output */
	assert_int_equal(parse(&o, 3, badb), -EINVAL);
	assert_int_equal(parse(&o, 3, badp), -EINVAL);
}

/* A label value with the format's special bytes, and bytes that are not
 * UTF-8: escaped so that the exposition stays one valid sample line. */
static void label_value_escaped(void **state)
{
	struct prom_buckets b;
	struct report r;
	char *buf = NULL;
	size_t len;
	FILE *f;
	(void)state;

	make(&r);
	prom_default_buckets(&b);
	f = open_memstream(&buf, &len);
	render_prom(f, &r, &b, "1\"} 1\nosdhist_forged 1\\\xff");
	fclose(f);
	assert_non_null(strstr(buf, "\nosdhist_build_info{version=\"1\\\"} 1\\\\n"
			       "osdhist_forged 1\\\\\\\\\\\\xff\"} 1\n"));
	assert_null(strstr(buf, "\nosdhist_forged"));
	free(buf);
}

int run_prom_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(histogram_shape),
		cmocka_unit_test(labels_and_types),
		cmocka_unit_test(label_value_escaped),
		cmocka_unit_test(coarse_counts_are_conservative),
		cmocka_unit_test(bucket_lists),
		cmocka_unit_test(listen_syntax),
		cmocka_unit_test(cli_options),
	};
	return cmocka_run_group_tests_name("prom", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* Command-line parsing: defaults, values, and refusals. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "cli/cli.h"
#include "output/render.h"
#include "osdhist.h"

static int parse(struct options *o, int argc, const char **argv)
{
	return cli_parse(argc, (char **)argv, o);
}

static void defaults(void **state)
{
	const char *argv[] = { "osdhist" };
	struct options o;
	(void)state;

	assert_int_equal(parse(&o, 1, argv), 0);
	assert_true(o.interval == 5);
	assert_int_equal(o.count, 0);
	assert_int_equal(o.osd, -1);
	assert_int_equal(o.pid, 0);
	assert_false(o.json);
	assert_int_equal(o.slowest, SLOW_K_DEFAULT);
}

static void everything(void **state)
{
	const char *argv[] = { "osdhist", "-T", "-m", "--json", "-P", "-p", "42",
			       "--osd", "3", "--no-subops", "0.5", "7" };
	struct options o;
	(void)state;

	assert_int_equal(parse(&o, 12, argv), 0);
	assert_true(o.timestamp && o.millis && o.json && o.pool && o.no_subops);
	assert_int_equal(o.pid, 42);
	assert_int_equal(o.osd, 3);
	assert_true(o.interval == 0.5);
	assert_int_equal(o.count, 7);
}

static void refusals(void **state)
{
	const char *bad[][3] = {
		{ "osdhist", "--bogus", NULL },
		{ "osdhist", "0", NULL },
		{ "osdhist", "-1", NULL },
		{ "osdhist", "abc", NULL },
		{ "osdhist", "1x", NULL },
		{ "osdhist", "nan", NULL },
		{ "osdhist", "-p", "0" },
		{ "osdhist", "-p", "x" },
		{ "osdhist", "--osd", "-3" },
		{ "osdhist", "1", "0" },
		{ "osdhist", "-p", NULL },
		{ "osdhist", "--slowest", "65" },
		{ "osdhist", "--slowest", "-1" },
		{ "osdhist", "--slowest", "ten" },
	};
	struct options o;
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int argc = bad[i][2] ? 3 : 2;

		assert_int_equal(parse(&o, argc, bad[i]), -EINVAL);
	}
	const char *three[] = { "osdhist", "1", "2", "3" };
	assert_int_equal(parse(&o, 4, three), -EINVAL);
}

static void help_exits_zero(void **state)
{
	const char *argv[] = { "osdhist", "--version" };
	struct options o;
	(void)state;

	assert_int_equal(parse(&o, 2, argv), 0);
	assert_true(o.exit_now);
}

static void short_json(void **state)
{
	const char *argv[] = { "osdhist", "-jT", "2" };
	struct options o;
	(void)state;

	assert_int_equal(parse(&o, 3, argv), 0);
	assert_true(o.json && o.timestamp);
	assert_true(o.interval == 2);
}

/* --table, --sort (which implies it, but for --top), --text, --top; one
 * output at a time. */
static void table_options(void **state)
{
	const char *table[] = { "osdhist", "--table" };
	const char *sort[] = { "osdhist", "--sort", "p99" };
	const char *text[] = { "osdhist", "--text", "-T" };
	const char *bad[][4] = {
		{ "osdhist", "--sort", "p50", NULL },
		{ "osdhist", "--sort", "", NULL },
		{ "osdhist", "--table", "--json", NULL },
		{ "osdhist", "-j", "--sort", "ops" },
		{ "osdhist", "--table", "--text", NULL },
		{ "osdhist", "-q", "--prometheus=0", "--table" },
		{ "osdhist", "-q", "--textfile=x", "--text" },
		{ "osdhist", "--top", "--json", NULL },
		{ "osdhist", "--table", "--top", NULL },
		{ "osdhist", "--top", "--text", NULL },
		{ "osdhist", "-q", "--prometheus=0", "--top" },
	};
	/* --sort with --top: its first order, not the text table */
	const char *top_sort[][4] = {
		{ "osdhist", "--sort", "p99", "--top" },
		{ "osdhist", "--top", "--sort", "p99" },
	};
	struct options o;
	(void)state;

	assert_int_equal(parse(&o, 2, table), 0);
	assert_true(o.table && !o.text);
	assert_int_equal(o.sort, TABLE_BY_OSD);
	assert_int_equal(parse(&o, 3, sort), 0);
	assert_true(o.table);
	assert_int_equal(o.sort, TABLE_BY_P99);
	assert_int_equal(parse(&o, 3, text), 0);
	assert_true(o.text && !o.table && o.timestamp);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse(&o, bad[i][3] ? 4 : 3, bad[i]), -EINVAL);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(parse(&o, 4, top_sort[i]), 0);
		assert_true(o.top && !o.table);
		assert_int_equal(o.sort, TABLE_BY_P99);
	}
}

/* --heatmap CLASS: a class by its name, with --osd, no other output. */
static void heatmap_option(void **state)
{
	const char *ok[] = { "osdhist", "--osd", "3", "--heatmap", "subop" };
	const char *bad[][5] = {
		{ "osdhist", "--heatmap", "write", NULL, NULL },	/* no --osd */
		{ "osdhist", "--osd", "3", "--heatmap", "writes" },
		{ "osdhist", "--osd", "3", "--heatmap", "" },
		{ "osdhist", "--osd=3", "--heatmap=write", "--top", NULL },
		{ "osdhist", "--osd=3", "--heatmap=write", "-j", NULL },
		{ "osdhist", "--osd=3", "--heatmap=write", "--table", NULL },
		{ "osdhist", "--osd=3", "--heatmap=write", "--text", NULL },
		{ "osdhist", "--osd=3", "--sort=p99", "--heatmap=write", NULL },
	};
	struct options o;
	(void)state;

	assert_int_equal(parse(&o, 1, ok), 0);
	assert_int_equal(o.heatmap, -1);	/* off by default */
	assert_int_equal(parse(&o, 5, ok), 0);
	assert_int_equal(o.heatmap, CLASS_SUBOP);
	assert_int_equal(o.osd, 3);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n = 0;

		while (n < 5 && bad[i][n])
			n++;
		assert_int_equal(parse(&o, n, bad[i]), -EINVAL);
	}
}

/* --help: the three groups in order, each option under its own. */
static void help_grouped(void **state)
{
	const char *argv[] = { "osdhist", "--help" };
	char *out = NULL, *tr, *ou, *pr;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len), *saved = stdout;
	struct options o;
	(void)state;

	assert_non_null(f);
	stdout = f;
	assert_int_equal(parse(&o, 2, argv), 0);
	stdout = saved;
	fclose(f);
	tr = strstr(out, "\n Tracing:");
	ou = strstr(out, "\n Output:");
	pr = strstr(out, "\n Prometheus:");
	assert_true(tr && ou && pr && tr < ou && ou < pr);
	assert_true(strstr(out, "--sample") > tr && strstr(out, "--sample") < ou);
	assert_true(strstr(out, "-j, --json") > ou && strstr(out, "-j, --json") < pr);
	assert_true(strstr(out, "--prom-buckets") > pr);
	free(out);
}

int run_cli_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(everything),
		cmocka_unit_test(refusals),
		cmocka_unit_test(help_exits_zero),
		cmocka_unit_test(short_json),
		cmocka_unit_test(heatmap_option),
		cmocka_unit_test(help_grouped),
		cmocka_unit_test(table_options),
	};
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}

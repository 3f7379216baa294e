// SPDX-License-Identifier: GPL-2.0
/* /proc parsing, on fixture trees made in a temp dir. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "unit.h"
#include "fixture.h"
#include "ceph/procs.h"
#include "discover.h"

static char root[FX_ROOT_MAX];

/* A process whose exe links to bin/EXE (default: bin/COMM). */
static void proc_exe(int pid, const char *comm, const char *exe,
		     const char *cmdline, size_t len, char state)
{
	char rel[64], target[256];

	snprintf(rel, sizeof(rel), "bin/%s", exe);
	fx_put(root, rel, "ELF", 3);	/* a file for exe to point at */
	snprintf(target, sizeof(target), "%s/%s", root, rel);
	fx_proc(root, pid, comm, cmdline, len, state, target);
}

static void proc(int pid, const char *comm, const char *cmdline,
		 size_t len, char state)
{
	proc_exe(pid, comm, comm, cmdline, len, state);
}

static int setup(void **state)
{
	(void)state;
	fx_mkroot(root, "procs");
	proc(100, "ceph-osd", CMD("/usr/bin/ceph-osd\0-f\0--cluster\0ceph\0--id\0" "3"), 'S');
	proc(101, "ceph-osd", CMD("ceph-osd\0-i\0" "12\0-c\0x.conf"), 'S');
	proc(102, "ceph-osd", CMD("ceph-osd\0-n\0osd.7"), 'S');
	proc(103, "bash", CMD("bash\0-c\0ceph-osd -i 4"), 'S');
	proc(104, "ceph-osd", CMD("ceph-osd\0--name=osd.9"), 'Z');
	proc(105, "ceph-osd", CMD("ceph-osd\0--foo"), 'R');
	/* Ceph main's name for the classic OSD, comm cut to 15 characters */
	proc_exe(106, "ceph-osd-classi", "ceph-osd-classic",
		 CMD("/usr/bin/ceph-osd-classic\0-i\0" "21"), 'S');
	/* found by the binary's basename alone (comm and argv[0] say else) */
	proc_exe(107, "osd-wrapper", "ceph-osd-classic", CMD("wrapper\0-i\0" "22"), 'S');
	proc_exe(108, "crimson-osd", "crimson-osd", CMD("crimson-osd\0-i\0" "30"), 'S');
	/* 15 characters that are not a cut OSD name */
	proc_exe(109, "ceph-osd-classx", "other", CMD("other"), 'S');
	proc_exe(110, "ceph-osd-c", "other2", CMD("other2"), 'S');
	/* named by its exec, its arguments not laid out yet (issue 26), and a
	 * zombie OSD (its memory, and so its command line, gone) */
	proc(111, "ceph-osd", "", 0, 'R');
	proc(112, "ceph-osd", "", 0, 'Z');
	mkdir(strcat(strcpy((char[256]){0}, root), "/self"), 0755);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fx_remove(root, NULL);
}

static void osd_id_forms(void **state)
{
	(void)state;
	assert_int_equal(procs_osd_id(CMD("ceph-osd\0--id\0" "5")), 5);
	assert_int_equal(procs_osd_id(CMD("ceph-osd\0--id=6")), 6);
	assert_int_equal(procs_osd_id(CMD("ceph-osd\0-i\0" "7")), 7);
	assert_int_equal(procs_osd_id(CMD("ceph-osd\0-i8")), 8);
	assert_int_equal(procs_osd_id(CMD("ceph-osd\0-n\0osd.9")), 9);
	assert_int_equal(procs_osd_id(CMD("ceph-osd\0--name\0osd.10")), 10);
	assert_int_equal(procs_osd_id(CMD("ceph-osd\0--name=osd.11")), 11);
	assert_int_equal(procs_osd_id(CMD("ceph-osd\0-n\0mon.a")), -1);
	assert_int_equal(procs_osd_id(CMD("ceph-osd\0--id")), -1);
	assert_int_equal(procs_osd_id(CMD("ceph-osd\0--id\0x")), -1);
	assert_int_equal(procs_osd_id(CMD("ceph-osd")), -1);
}

static int by_pid(const void *a, const void *b)
{
	return ((const struct osd_proc *)a)->pid - ((const struct osd_proc *)b)->pid;
}

static bool count_each(const struct osd_proc *p, void *arg)
{
	int *n = arg;

	assert_true(p->pid >= 100 && p->pid <= 108);
	return ++*n < 1000;
}

static bool stop_at_three(const struct osd_proc *p, void *arg)
{
	(void)p;
	return ++*(int *)arg < 3;
}

/* procs_each keeps nothing, so no bound hides a process; procs_scan
 * (--list) fills at most its array. */
static void each_sees_every_osd(void **state)
{
	struct osd_proc p[2];
	int n = 0;
	(void)state;

	assert_int_equal(procs_each(root, count_each, &n), 8);
	assert_int_equal(n, 8);
	n = 0;
	assert_int_equal(procs_each(root, stop_at_three, &n), 3);
	assert_int_equal(procs_scan(root, p, 2), 2);
	assert_int_equal(procs_scan(root, p, 0), 0);
	assert_int_equal(procs_each("/nonexistent", count_each, &n), -ENOENT);
}

static void scan_fixture(void **state)
{
	struct osd_proc p[16];
	int n;
	(void)state;

	n = procs_scan(root, p, 16);
	assert_int_equal(n, 8);	/* not bash, not 109, 110 */
	qsort(p, n, sizeof(p[0]), by_pid);
	assert_int_equal(p[0].pid, 100);
	assert_int_equal(p[0].osd_id, 3);
	assert_int_equal(p[1].osd_id, 12);
	assert_int_equal(p[2].osd_id, 7);
	assert_int_equal(p[3].osd_id, 9);
	assert_int_equal(p[4].osd_id, -1);
	assert_true(p[0].ino == p[1].ino);	/* same binary */
	for (int i = 0; i < 7; i++)
		assert_null(p[i].unsupported);
	assert_int_equal(p[5].pid, 106);
	assert_int_equal(p[5].osd_id, 21);
	assert_int_equal(p[6].pid, 107);
	assert_int_equal(p[6].osd_id, 22);
	assert_int_equal(p[7].pid, 108);
	assert_int_equal(p[7].osd_id, 30);
	assert_non_null(p[7].unsupported);
	assert_non_null(strstr(p[7].unsupported, "crimson-osd"));
	assert_int_equal(procs_inspect(root, 103, &p[0]), -EINVAL);
	assert_int_equal(procs_inspect(root, 999, &p[0]), -ENOENT);
	assert_int_equal(procs_inspect(root, 111, &p[0]), -EAGAIN);
	assert_int_equal(procs_inspect(root, 112, &p[0]), -ENOENT);
}

static void alive_and_zombies(void **state)
{
	(void)state;
	assert_true(procs_alive(root, 100));
	assert_true(procs_alive(root, 105));
	assert_false(procs_alive(root, 104));	/* zombie */
	assert_false(procs_alive(root, 999));
}

/* -p's process: at the start every error ends osdhist (said on stderr);
 * while tracing, one that is gone or caught in an exec does not. */
static void pid_checks(void **state)
{
	struct osd_proc p;
	(void)state;

	assert_int_equal(discover_pid(root, 100, false, &p), 0);
	assert_int_equal(p.osd_id, 3);
	assert_int_equal(discover_pid(root, 100, true, &p), 0);
	assert_int_equal(discover_pid(root, 999, false, &p), -ENOENT);
	assert_int_equal(discover_pid(root, 999, true, &p), -ESRCH);
	assert_int_equal(discover_pid(root, 112, true, &p), -ESRCH);	/* zombie */
	assert_int_equal(discover_pid(root, 103, false, &p), -EINVAL);
	assert_int_equal(discover_pid(root, 103, true, &p), -EINVAL);
	assert_int_equal(discover_pid(root, 111, false, &p), -EAGAIN);
	assert_int_equal(discover_pid(root, 111, true, &p), -EAGAIN);
}

int run_procs_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(osd_id_forms),
		cmocka_unit_test(scan_fixture),
		cmocka_unit_test(each_sees_every_osd),
		cmocka_unit_test(alive_and_zombies),
		cmocka_unit_test(pid_checks),
	};
	return cmocka_run_group_tests_name("procs", tests, setup, teardown);
}

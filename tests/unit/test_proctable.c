// SPDX-License-Identifier: GPL-2.0
/* The proc table on its own, against a fixture /proc: what a rescan marks,
 * what an unknown tgid resolves to, what a snapshot forgets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "unit.h"
#include "procs.h"
#include "proctable.h"
#include "report.h"

static char root[64];

/* A fixture process: comm, NUL-separated cmdline, state letter, exe. */
static void proc(int pid, const char *comm, const char *cmd, size_t len, char state)
{
	char path[256], stat[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/comm", root, pid);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%s\n", comm);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%d/cmdline", root, pid);
	assert_non_null(f = fopen(path, "w"));
	fwrite(cmd, 1, len, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%d/stat", root, pid);
	assert_non_null(f = fopen(path, "w"));
	snprintf(stat, sizeof(stat), "%d (%s) %c 1 2 3", pid, comm, state);
	fputs(stat, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%d/exe", root, pid);
	assert_int_equal(symlink("/bin/true", path), 0);
}

#define CMD(s) s, sizeof(s)

static int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/osdhist-ptable-XXXXXX");
	assert_non_null(mkdtemp(root));
	proc(200, "ceph-osd", CMD("ceph-osd\0--id\0" "3"), 'S');
	proc(201, "ceph-osd", CMD("ceph-osd\0-i\0" "12"), 'S');
	proc(202, "ceph-osd", CMD("ceph-osd\0-n\0osd.7"), 'S');
	proc(203, "bash", CMD("bash\0-c\0ceph-osd -i 4"), 'S');
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void found(struct proc_table *pt, int pid)
{
	struct osd_proc p;

	assert_int_equal(procs_inspect(root, pid, &p), 0);
	proc_table_note(pt, &p);
}

static void rescan_marks_the_missing_dead(void **state)
{
	struct proc_table pt;

	(void)state;
	proc_table_init(&pt, root, false);
	proc_table_begin_scan(&pt);
	found(&pt, 200);
	found(&pt, 201);
	proc_table_end_scan(&pt, 3, 2);
	assert_int_equal(pt.n, 2);
	assert_int_equal(pt.untraced, 1);

	proc_table_begin_scan(&pt);
	found(&pt, 200);
	proc_table_end_scan(&pt, 1, 1);
	assert_int_equal(pt.n, 2);	/* kept until a snapshot retires it */
	assert_false(pt.slot[0].pid == 200 ? pt.slot[0].dead : pt.slot[1].dead);
	assert_true(pt.slot[0].pid == 201 ? pt.slot[0].dead : pt.slot[1].dead);
	assert_int_equal(proc_table_osd_of(&pt, 201), 12);	/* dead, still known */
}

static void unknown_tgid_is_looked_up(void **state)
{
	struct proc_table pt;

	(void)state;
	proc_table_init(&pt, root, false);
	assert_int_equal(proc_table_osd_of(&pt, 202), 7);	/* started since the scan */
	assert_int_equal(pt.n, 1);
	assert_int_equal(proc_table_osd_of(&pt, 203), -2);	/* not a ceph-osd */
	assert_int_equal(proc_table_osd_of(&pt, 299), -2);	/* no such process */
	assert_int_equal(pt.n, 1);
}

static void snapshot_forgets_the_exited(void **state)
{
	struct health_report h = { 0 };
	struct proc_table pt;
	char path[256];
	FILE *f;

	(void)state;
	proc_table_init(&pt, root, false);
	proc_table_begin_scan(&pt);
	found(&pt, 200);
	found(&pt, 201);
	found(&pt, 202);
	proc_table_end_scan(&pt, 4, 3);
	/* 201 becomes a zombie, 202 is gone */
	snprintf(path, sizeof(path), "%s/201/stat", root);
	assert_non_null(f = fopen(path, "w"));
	fputs("201 (ceph-osd) Z 1 2 3", f);
	fclose(f);
	snprintf(path, sizeof(path), "rm -rf '%s/202'", root);
	assert_int_equal(system(path), 0);

	proc_table_note_exited(&pt);	/* the snapshot begins */
	/* 200 exits while the maps are read: its keys may have been read as
	 * live, so it stays for its OSD id until the next snapshot */
	snprintf(path, sizeof(path), "rm -rf '%s/200'", root);
	assert_int_equal(system(path), 0);
	proc_table_forget_exited(&pt);
	proc_table_health(&pt, &h);
	assert_int_equal(h.osds, 1);
	assert_int_equal(h.untraced, 1);
	assert_int_equal(pt.slot[0].pid, 200);
	assert_int_equal(proc_table_osd_of(&pt, 200), 3);
	/* the next snapshot retires its keys, then forgets it */
	proc_table_note_exited(&pt);
	proc_table_forget_exited(&pt);
	proc_table_health(&pt, &h);
	assert_int_equal(h.osds, 0);
}

int run_proctable_tests(void)
{
	const struct CMUnitTest tests[] = {
		/* a fresh fixture each: the last one kills processes */
		cmocka_unit_test_setup_teardown(rescan_marks_the_missing_dead, setup, teardown),
		cmocka_unit_test_setup_teardown(unknown_tgid_is_looked_up, setup, teardown),
		cmocka_unit_test_setup_teardown(snapshot_forgets_the_exited, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* The proc table on its own, against a fixture /proc: what a rescan marks,
 * what an unknown tgid resolves to, what a snapshot forgets. */
#include <stddef.h>
#include "unit.h"
#include "fixture.h"
#include "ceph/procs.h"
#include "proctable.h"
#include "report/report.h"
#include "verify.h"

static char root[FX_ROOT_MAX];

/* A fixture process: comm, NUL-separated cmdline, state letter. */
static void proc(int pid, const char *comm, const char *cmd, size_t len, char state)
{
	fx_proc(root, pid, comm, cmd, len, state, "/bin/true");
}

static int setup(void **state)
{
	(void)state;
	fx_mkroot(root, "ptable");
	proc(200, "ceph-osd", CMD("ceph-osd\0--id\0" "3"), 'S');
	proc(201, "ceph-osd", CMD("ceph-osd\0-i\0" "12"), 'S');
	proc(202, "ceph-osd", CMD("ceph-osd\0-n\0osd.7"), 'S');
	proc(203, "bash", CMD("bash\0-c\0ceph-osd -i 4"), 'S');
	proc(204, "ceph-osd", CMD("ceph-osd\0--id\0" "3"), 'S');
	proc(205, "ceph-osd", CMD("ceph-osd\0--id=3"), 'S');
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fx_remove(root, NULL);
}

/* The scan found pid, its binary traced or not. */
static void found_as(struct proc_table *pt, int pid, bool traced)
{
	struct osd_proc p;

	assert_int_equal(procs_inspect(root, pid, &p), 0);
	assert_int_equal(proc_table_note(pt, &p, traced), traced);
}

static void found(struct proc_table *pt, int pid)
{
	found_as(pt, pid, true);
}

/* A process found whose binary is refused: no fixture needed, it is
 * only counted. */
static void untraced(struct proc_table *pt, int pid, int osd)
{
	struct osd_proc p = { .pid = pid, .osd_id = osd };

	assert_false(proc_table_note(pt, &p, false));
}

static void rescan_marks_the_missing_dead(void **state)
{
	struct proc_table pt;

	(void)state;
	proc_table_init(&pt, root, false);
	proc_table_begin_scan(&pt);
	found(&pt, 200);
	found(&pt, 201);
	untraced(&pt, 900, -1);
	proc_table_end_scan(&pt);
	assert_int_equal(pt.n, 2);
	assert_int_equal(pt.untraced, 1);

	proc_table_begin_scan(&pt);
	found(&pt, 200);
	proc_table_end_scan(&pt);
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
	assert_int_equal(proc_table_osd_of(&pt, 203), OSD_NONE);	/* not a ceph-osd */
	assert_int_equal(proc_table_osd_of(&pt, 299), OSD_NONE);	/* no such process */
	assert_int_equal(pt.n, 1);
}

/* A snapshot that meets the ops of an OSD caught in its exec (comm set,
 * command line still empty) leaves it unknown for now rather than decide
 * it has no id: the OSD id is decided once (issue 26). */
static void exec_under_way_is_not_decided(void **state)
{
	struct proc_table pt;

	(void)state;
	proc_table_init(&pt, root, false);
	proc(206, "ceph-osd", "", 0, 'R');
	assert_int_equal(proc_table_osd_of(&pt, 206), OSD_NONE);
	assert_int_equal(pt.n, 0);
	fx_put(root, "206/cmdline", CMD("ceph-osd\0-i\0" "21"));
	assert_int_equal(proc_table_osd_of(&pt, 206), 21);
	assert_int_equal(pt.n, 1);
}

static void snapshot_forgets_the_exited(void **state)
{
	struct health_report h = { 0 };
	struct proc_table pt;

	(void)state;
	proc_table_init(&pt, root, false);
	proc_table_begin_scan(&pt);
	found(&pt, 200);
	found(&pt, 201);
	found(&pt, 202);
	untraced(&pt, 900, -1);
	proc_table_end_scan(&pt);
	/* 201 becomes a zombie, 202 is gone */
	fx_stat(root, 201, "ceph-osd", 'Z');
	assert_int_equal(fx_remove(root, "202"), 0);

	proc_table_note_exited(&pt);	/* the snapshot begins */
	/* 200 exits while the maps are read: its keys may have been read as
	 * live, so it stays for its OSD id until the next snapshot */
	assert_int_equal(fx_remove(root, "200"), 0);
	proc_table_forget_exited(&pt);
	proc_table_health(&pt, &h);
	assert_int_equal(pt.n, 1);
	assert_int_equal(h.osds, 2);	/* 200, and the untraced one */
	assert_int_equal(h.untraced, 1);
	assert_int_equal(pt.slot[0].pid, 200);
	assert_int_equal(proc_table_osd_of(&pt, 200), 3);
	/* the next snapshot retires its keys, then forgets it */
	proc_table_note_exited(&pt);
	proc_table_forget_exited(&pt);
	proc_table_health(&pt, &h);
	assert_int_equal(pt.n, 0);
	assert_int_equal(h.osds, 1);	/* the untraced one, as of the last scan */
}

/* 300 processes named ceph-osd whose binaries are refused, found before
 * the real one: they are counted, and take none of its slots. */
static void untraced_take_no_slot(void **state)
{
	struct health_report h = { 0 };
	struct proc_table pt;

	(void)state;
	proc_table_init(&pt, root, false);
	proc_table_begin_scan(&pt);
	for (int i = 0; i < MAX_PROCS + 44; i++)
		untraced(&pt, 1000 + i, 500 + i);
	found(&pt, 201);
	proc_table_end_scan(&pt);
	proc_table_health(&pt, &h);
	assert_int_equal(pt.n, 1);
	assert_int_equal(pt.slot[0].pid, 201);
	assert_int_equal(h.untraced, MAX_PROCS + 44);
	assert_int_equal(h.osds, MAX_PROCS + 45);
	assert_int_equal(h.dup.n, 0);
}

/* osd.3 claimed by a traced holder (200), a refused fake and a traced
 * claimant (204): reported; the claimant's ops are held while both run,
 * and count as OSD_DUPLICATE once it has exited with the holder running. */
static void duplicate_ids_are_reported(void **state)
{
	struct health_report h = { 0 };
	struct proc_table pt;

	(void)state;
	proc_table_init(&pt, root, false);
	proc_table_begin_scan(&pt);
	untraced(&pt, 150, 3);		/* a lower pid than the real one */
	found(&pt, 200);
	found(&pt, 201);
	proc_table_end_scan(&pt);
	proc_table_health(&pt, &h);
	assert_int_equal(h.dup.n, 1);
	assert_int_equal(h.dup.id[0].osd, 3);
	assert_int_equal(h.dup.id[0].procs, 2);
	assert_int_equal(h.dup.id[0].pid, 200);
	assert_int_equal(proc_table_osd_of(&pt, 200), 3);

	/* a traced process claiming osd.3 too, before and at the next scan */
	assert_int_equal(proc_table_osd_of(&pt, 204), OSD_HELD);
	proc_table_begin_scan(&pt);
	untraced(&pt, 150, 3);
	found(&pt, 200);
	found(&pt, 201);
	found(&pt, 204);
	untraced(&pt, 151, 12);
	proc_table_end_scan(&pt);
	proc_table_health(&pt, &h);
	assert_int_equal(h.dup.n, 2);
	assert_int_equal(h.dup.id[0].osd, 3);
	assert_int_equal(h.dup.id[0].procs, 3);
	assert_int_equal(h.dup.id[0].pid, 200);
	assert_int_equal(h.dup.id[1].osd, 12);
	assert_int_equal(h.dup.id[1].pid, 201);
	assert_int_equal(proc_table_osd_of(&pt, 204), OSD_HELD);
	assert_int_equal(proc_table_osd_of(&pt, 200), 3);
	assert_int_equal(h.held, 1);
	assert_int_equal(h.held_pid, 204);
	assert_int_equal(h.held_osd, 3);
	assert_int_equal(h.held_holder, 200);

	/* none claims it twice any more: nothing to report; 204 ended while
	 * 200 ran: a duplicate */
	proc_table_begin_scan(&pt);
	found(&pt, 200);
	proc_table_end_scan(&pt);
	proc_table_health(&pt, &h);
	assert_int_equal(h.dup.n, 0);
	assert_int_equal(h.held, 0);
	assert_int_equal(proc_table_osd_of(&pt, 204), OSD_DUPLICATE);
}

/* The holder exits first: the claimant whose ops were held becomes the
 * OSD at the next snapshot, its held ops with it (issue 37). */
static void holder_exit_decides_the_held(void **state)
{
	struct proc_table pt;

	(void)state;
	proc_table_init(&pt, root, false);
	proc_table_begin_scan(&pt);
	found(&pt, 200);
	found(&pt, 204);
	proc_table_end_scan(&pt);
	assert_int_equal(proc_table_osd_of(&pt, 204), OSD_HELD);
	assert_int_equal(fx_remove(root, "200"), 0);
	proc_table_note_exited(&pt);	/* the snapshot begins */
	assert_int_equal(proc_table_osd_of(&pt, 204), 3);
	assert_int_equal(proc_table_osd_of(&pt, 200), 3);	/* its keys still */
}

/* A daemonizing start: 206 parses the arguments and forks 207, the daemon
 * (same binary, same command line), then waits for it to run.  One OSD:
 * no duplicate, no op held, and the self-check asks the daemon. */
static void fork_pair(void)
{
	proc(206, "ceph-osd", CMD("ceph-osd\0-i\0" "9"), 'S');
	proc(207, "ceph-osd", CMD("ceph-osd\0-i\0" "9"), 'S');
	fx_put(root, "207/task/207/stat", CMD("207 (ceph-osd) S 206 1 2 3"));
}

static void daemonizing_start_is_one_osd(void **state)
{
	struct verify_target vt[4];
	struct health_report h = { 0 };
	struct proc_table pt;

	(void)state;
	fork_pair();
	proc_table_init(&pt, root, false);
	proc_table_begin_scan(&pt);
	found(&pt, 206);
	found(&pt, 207);
	proc_table_end_scan(&pt);
	proc_table_health(&pt, &h);
	assert_int_equal(proc_table_osd_of(&pt, 206), 9);
	assert_int_equal(proc_table_osd_of(&pt, 207), 9);
	assert_int_equal(h.dup.n, 0);
	assert_int_equal(h.held, 0);
	assert_int_equal(proc_table_verify_targets(&pt, vt, 4), 1);
	assert_int_equal(vt[0].pid, 207);
	assert_int_equal(vt[0].osd, 9);
}

/* The daemon met first (its ops, before any scan), then its parent. */
static void daemon_before_its_parent(void **state)
{
	struct verify_target vt[4];
	struct proc_table pt;

	(void)state;
	fork_pair();
	proc_table_init(&pt, root, false);
	assert_int_equal(proc_table_osd_of(&pt, 207), 9);
	proc_table_begin_scan(&pt);
	found(&pt, 206);
	found(&pt, 207);
	proc_table_end_scan(&pt);
	assert_int_equal(proc_table_osd_of(&pt, 206), 9);
	assert_int_equal(proc_table_verify_targets(&pt, vt, 4), 1);
	assert_int_equal(vt[0].pid, 207);
}

/* The holder exits and its OSD restarts (205, --id=3) before the scan
 * that would see it gone: the new process takes the id back. */
static void restarted_osd_takes_its_id_back(void **state)
{
	struct proc_table pt;

	(void)state;
	proc_table_init(&pt, root, false);
	proc_table_begin_scan(&pt);
	found(&pt, 200);
	proc_table_end_scan(&pt);
	assert_int_equal(fx_remove(root, "200"), 0);
	assert_int_equal(proc_table_osd_of(&pt, 205), 3);
	assert_int_equal(proc_table_osd_of(&pt, 200), 3);	/* its keys still */
}

int run_proctable_tests(void)
{
	const struct CMUnitTest tests[] = {
		/* a fresh fixture each: the last one kills processes */
		cmocka_unit_test_setup_teardown(rescan_marks_the_missing_dead, setup, teardown),
		cmocka_unit_test_setup_teardown(unknown_tgid_is_looked_up, setup, teardown),
		cmocka_unit_test_setup_teardown(exec_under_way_is_not_decided, setup, teardown),
		cmocka_unit_test_setup_teardown(snapshot_forgets_the_exited, setup, teardown),
		cmocka_unit_test_setup_teardown(untraced_take_no_slot, setup, teardown),
		cmocka_unit_test_setup_teardown(duplicate_ids_are_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(restarted_osd_takes_its_id_back, setup, teardown),
		cmocka_unit_test_setup_teardown(holder_exit_decides_the_held, setup, teardown),
		cmocka_unit_test_setup_teardown(daemonizing_start_is_one_osd, setup, teardown),
		cmocka_unit_test_setup_teardown(daemon_before_its_parent, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

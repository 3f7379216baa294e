// SPDX-License-Identifier: GPL-2.0
/* Reading ceph-osd binaries: refusals name the cause; Debian's 16.2.15 build
 * (installed by scripts/setup.sh) is accepted with its verified offsets. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "binary.h"

static void not_elf(void **state)
{
	struct osd_binary b;
	char err[512];
	(void)state;

	assert_int_equal(binary_inspect("/etc/hostname", "/etc/hostname", &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is not an ELF binary"));
	assert_int_equal(binary_inspect("/nonexistent", "/nonexistent", &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open /nonexistent"));
}

static void lacks_symbol(void **state)
{
	struct osd_binary b;
	char err[512];
	(void)state;

	assert_int_equal(binary_inspect("/bin/true", "/bin/true", &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "lacks the symbol _ZN12PrimaryLogPG12log_op_stats"));
	assert_non_null(strstr(err, "(PrimaryLogPG::log_op_stats)"));
	assert_non_null(strstr(err, "build-id "));
	assert_null(strstr(err, "build-id none"));
}

static void debian_ceph_osd(void **state)
{
	struct osd_binary b;
	char err[512] = "";
	(void)state;

	assert_int_equal(access("/usr/bin/ceph-osd", R_OK), 0);
	assert_int_equal(binary_inspect("/usr/bin/ceph-osd", "/usr/bin/ceph-osd", &b, err, sizeof(err)), 0);
	assert_string_equal(b.build_id, "fb66b3cec5f264a2f863d96fa875eb4ae39bb0bf");
	assert_int_equal(b.fn_off[FN_ENQUEUE_OP], 0x6567b0);
	assert_int_equal(b.fn_off[FN_LOG_OP_STATS], 0x76da00);
	assert_int_equal(b.fn_off[FN_UNREGISTERED], 0xfff040);
	assert_int_equal(b.offs.op_request, 0xe0);
	assert_int_equal(b.offs.op_rmw, 0xc0);
	assert_int_equal(b.offs.msg_type, 0x28);
}

int run_binary_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(not_elf),
		cmocka_unit_test(lacks_symbol),
		cmocka_unit_test(debian_ceph_osd),
	};
	return cmocka_run_group_tests_name("binary", tests, NULL, NULL);
}

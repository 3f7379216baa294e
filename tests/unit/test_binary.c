// SPDX-License-Identifier: GPL-2.0
/* Reading ceph-osd binaries: refusals name the cause; Debian's 16.2.15 build
 * (installed by scripts/setup.sh) is accepted with the offsets derived from
 * its code; cut or damaged copies are refused without a crash. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "unit.h"
#include "ceph/binary.h"

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
	assert_string_equal(b.version, "16.2.15");
	assert_int_equal(b.fn_off[FN_LOG_OP_STATS], 0x76da00);
	assert_int_equal(b.fn_off[FN_UNREGISTERED], 0xfff040);
	assert_int_equal(b.fn_off[FN_REPOP_COMMIT], 0xa09330);
	assert_int_equal(b.fn_off[FN_ENQUEUE_OP], 0x6567b0);
	assert_int_equal(b.fn_off[FN_DEQUEUE_OP], 0x64a130);
	assert_int_equal(b.fn_off[FN_REP_SUBMIT], 0xa05320);
	assert_int_equal(b.fn_off[FN_EC_SUBMIT], 0xa55060);	/* no ECSwitch in 16 */
	assert_int_equal(b.have & OFFS_REQUIRED, OFFS_REQUIRED);
	assert_int_equal(b.offs.op_request, 0xe0);
	assert_int_equal(b.offs.op_rmw, 0xc0);
	assert_int_equal(b.offs.op_dequeued, 0x150);
	assert_int_equal(b.offs.msg_type, 0x28);
	assert_int_equal(b.offs.msg_recv, 0xc8);
	assert_int_equal(b.offs.repmod_op, 0);
	assert_int_equal(b.offs.sp_spg, 8);
	assert_int_equal(b.offs.sp_submit_op, 80);
	assert_int_equal(binary_feature(&b, FEAT_POOL, err, sizeof(err)), 0);
	assert_int_equal(b.offs.mosdop_ops, 0x210);
	assert_int_equal(b.offs.osdop_size, 0x98);
	assert_int_equal(b.offs.osdop_rval, 0x90);
	assert_int_equal(binary_feature(&b, FEAT_PHASES, err, sizeof(err)), 0);
	assert_int_equal(binary_feature(&b, FEAT_OPTYPES, err, sizeof(err)), 0);
}

/* A copy of the first LEN bytes of /usr/bin/ceph-osd, or with BYTE at
 * offset AT set; returns its path (caller unlinks). */
static void damaged_copy(char *path, size_t len, long at, int byte)
{
	int in = open("/usr/bin/ceph-osd", O_RDONLY), out;
	static char buf[1 << 16];
	size_t done = 0;
	ssize_t n;

	strcpy(path, "/tmp/osdhist-unit-XXXXXX");
	out = mkstemp(path);
	assert_true(in >= 0 && out >= 0);
	while (done < len && (n = read(in, buf, sizeof(buf))) > 0) {
		if ((size_t)n > len - done)
			n = (ssize_t)(len - done);
		assert_int_equal(write(out, buf, (size_t)n), n);
		done += (size_t)n;
	}
	if (at >= 0)
		assert_int_equal(pwrite(out, &(char){ (char)byte }, 1, at), 1);
	close(in);
	close(out);
}

static void truncated(void **state)
{
	struct osd_binary b;
	char path[64], err[1024];
	struct stat st;
	(void)state;

	assert_int_equal(stat("/usr/bin/ceph-osd", &st), 0);
	/* cut inside .text: the section and symbol tables are gone */
	damaged_copy(path, (size_t)st.st_size / 2, -1, 0);
	assert_int_equal(binary_inspect(path, "half", &b, err, sizeof(err)), -1);
	assert_null(strchr(err, '\n'));
	unlink(path);
	/* only the ELF header */
	damaged_copy(path, 64, -1, 0);
	assert_int_equal(binary_inspect(path, "header", &b, err, sizeof(err)), -1);
	unlink(path);
}

/* The 4-byte e_shoff pointing past the end of the file: libelf refuses the
 * section table, we refuse the binary. */
static void bad_section_table(void **state)
{
	struct osd_binary b;
	char path[64], err[1024];
	struct stat st;
	(void)state;

	assert_int_equal(stat("/usr/bin/ceph-osd", &st), 0);
	damaged_copy(path, (size_t)st.st_size, 0x2f, 0x7f);	/* e_shoff's top byte */
	assert_int_equal(binary_inspect(path, "bad-shoff", &b, err, sizeof(err)), -1);
	unlink(path);
}

/* The last byte of .dynstr (0xf46d8 + 0x2fbe70 - 1 in Debian's 16.2.15, as
 * readelf -S shows) no longer NUL: libelf would still hand out every name
 * (a NUL lies just before), but would search for one at every call; the
 * table is refused before a name is read. */
static void dynstr_without_nul(void **state)
{
	struct osd_binary b;
	char path[64], err[1024];
	struct stat st;
	(void)state;

	assert_int_equal(stat("/usr/bin/ceph-osd", &st), 0);
	damaged_copy(path, (size_t)st.st_size, 0xf46d8 + 0x2fbe70 - 1, 'A');
	assert_int_equal(binary_inspect(path, "nonul", &b, err, sizeof(err)), -1);
	assert_string_equal(err, "nonul: the string table of its .dynsym does not end "
			    "in a NUL byte: a malformed ELF, not read");
	unlink(path);
}

int run_binary_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(not_elf),
		cmocka_unit_test(lacks_symbol),
		cmocka_unit_test(debian_ceph_osd),
		cmocka_unit_test(truncated),
		cmocka_unit_test(bad_section_table),
		cmocka_unit_test(dynstr_without_nul),
	};
	return cmocka_run_group_tests_name("binary", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* Reading ceph-osd binaries: refusals name the cause; Debian's 16.2.15 build
 * (installed by scripts/setup.sh) is accepted with the offsets derived from
 * its code; cut or damaged copies are refused without a crash. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "unit.h"
#include "ceph/binary.h"
#include "release_offsets.h"

static void not_elf(void **state)
{
	struct osd_binary b;
	char err[512];
	(void)state;

	assert_int_equal(binary_inspect("/etc/hostname", "/etc/hostname", &b, err, sizeof(err)),
			 -ENOEXEC);
	assert_non_null(strstr(err, "is not an ELF binary"));
	assert_int_equal(binary_inspect("/nonexistent", "/nonexistent", &b, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "cannot open /nonexistent"));
}

static void lacks_symbol(void **state)
{
	struct osd_binary b;
	char err[512];
	(void)state;

	assert_int_equal(binary_inspect("/bin/true", "/bin/true", &b, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "lacks the symbol _ZN12PrimaryLogPG12log_op_stats"));
	assert_non_null(strstr(err, "(PrimaryLogPG::log_op_stats)"));
	assert_non_null(strstr(err, "build-id "));
	assert_null(strstr(err, "build-id none"));
}

/*
 * The oracle of the symbol lookup, apart from libelf: binutils.  vaddr[f]
 * gets nm -D's address of every function of cephfns.h that PATH defines
 * (0: absent), turned into a file offset through readelf -lW's PT_LOADs.
 */
static void binutils_offsets(const char *path, uint64_t vaddr[NR_CEPH_FNS])
{
	struct { unsigned long long off, va, filesz; } seg[16];
	char cmd[256], line[4096], name[4096];
	unsigned long long a;
	int nseg = 0;
	FILE *p;

	memset(vaddr, 0, NR_CEPH_FNS * sizeof(vaddr[0]));
	snprintf(cmd, sizeof(cmd), "nm -D --defined-only %s", path);
	assert_non_null(p = popen(cmd, "r"));
	while (fgets(line, sizeof(line), p))
		for (int f = 0; f < NR_CEPH_FNS; f++)
			if (sscanf(line, "%llx %*s %4095s", &a, name) == 2 &&
			    !strcmp(name, ceph_fn_symbol[f]))
				vaddr[f] = a;
	assert_int_equal(pclose(p), 0);
	snprintf(cmd, sizeof(cmd), "readelf -lW %s", path);
	assert_non_null(p = popen(cmd, "r"));
	while (fgets(line, sizeof(line), p) && nseg < 16)
		if (sscanf(line, " LOAD %llx %llx %*x %llx", &seg[nseg].off, &seg[nseg].va,
			   &seg[nseg].filesz) == 3)
			nseg++;
	assert_int_equal(pclose(p), 0);
	assert_true(nseg > 0);
	for (int f = 0; f < NR_CEPH_FNS; f++) {
		int i = 0;

		while (vaddr[f] && i < nseg && (vaddr[f] < seg[i].va ||
						vaddr[f] >= seg[i].va + seg[i].filesz))
			i++;
		if (vaddr[f])
			vaddr[f] = i < nseg ? vaddr[f] - seg[i].va + seg[i].off : 0;
	}
}

/* Debian's 16.2.15 has every probed function (ECBackend's submit, no
 * ECSwitch) and calls each non-virtual one directly, and every offset. */
static void debian_ceph_osd(void **state)
{
	uint64_t want[NR_CEPH_FNS];
	struct osd_binary b;
	char err[512] = "";
	(void)state;

	assert_int_equal(access("/usr/bin/ceph-osd", R_OK), 0);
	assert_int_equal(binary_inspect("/usr/bin/ceph-osd", "/usr/bin/ceph-osd", &b, err, sizeof(err)), 0);
	assert_string_equal(b.build_id, "fb66b3cec5f264a2f863d96fa875eb4ae39bb0bf");
	assert_string_equal(b.version, "16.2.15");
	binutils_offsets("/usr/bin/ceph-osd", want);
	for (int p = 0; p < NR_PROBE_FNS; p++) {
		assert_int_not_equal(want[probe_fn[p]], 0);
		assert_int_equal(b.fn_off[p], want[probe_fn[p]]);
	}
	assert_int_equal(b.inlined, 0);
	assert_int_equal(want[CF_ECSWITCH_SUBMIT], 0);	/* 20.x only */
	check_release_offsets(&b.offs, b.have, R16);
	for (int f = 0; f < NR_FEATS; f++)
		assert_int_equal(binary_lacks(&b, f, err, sizeof(err)), false);
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
	assert_int_equal(binary_inspect(path, "half", &b, err, sizeof(err)), -ENOTSUP);
	assert_null(strchr(err, '\n'));
	unlink(path);
	/* only the ELF header */
	damaged_copy(path, 64, -1, 0);
	assert_int_equal(binary_inspect(path, "header", &b, err, sizeof(err)), -ENOTSUP);
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
	assert_int_equal(binary_inspect(path, "bad-shoff", &b, err, sizeof(err)), -ENOTSUP);
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
	assert_int_equal(binary_inspect(path, "nonul", &b, err, sizeof(err)), -ENOEXEC);
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

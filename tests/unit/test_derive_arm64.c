// SPDX-License-Identifier: GPL-2.0
/* loader/ceph/derive.c on AArch64: the real machine code of Debian's arm64
 * ceph-osd 18.2.7 (derive_fixture_arm64.h).  The same witnesses as on
 * x86-64, read through symtrace_arm64.c: every offset derived with its
 * arm64 DWARF value (tests/integration/test_dwarf_arm64.sh checks the same
 * against ceph-osd-dbg on three releases), the spg_t's pool as an offset
 * past x1 (AAPCS64 passes it by reference); refusals when a witness is
 * removed or two disagree; arm64 code read as x86-64 derives nothing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "derive_fixture_arm64.h"

/* arm64 18.2.7's offsets, as its ceph-osd-dbg's DWARF gives them
 * (build/dwarf_offsets); OSDOp, the buffers and hobject_t are laid out as
 * on x86-64, OpRequest is 0x10 longer before request. */
static const struct { enum osd_off o; uint32_t v; } a18_offsets[] = {
	{ OFF_OP_REQUEST, 0x118 }, { OFF_OP_RMW, 0xf8 }, { OFF_OP_DEQUEUED, 0x188 },
	{ OFF_MSG_TYPE, 0x28 }, { OFF_MSG_RECV, 0xc8 }, { OFF_REPMOD_OP, 0 },
	{ OFF_SP_SUBMIT_OP, 0x20 }, { OFF_MOSDOP_OPS, 0x210 }, { OFF_OSDOP_SIZE, 0x98 },
	{ OFF_OSDOP_RVAL, 0x90 }, { OFF_OSDOP_INDATA, 0x50 }, { OFF_OSDOP_CLS, 6 },
	{ OFF_BL_FIRST, 0 }, { OFF_NODE_PTR, 8 }, { OFF_PTR_RAW, 0 }, { OFF_PTR_OFF, 8 },
	{ OFF_PTR_LEN, 0xc }, { OFF_RAW_DATA, 0x20 }, { OFF_OP_REQID, 0x120 },
	{ OFF_MOSDOP_OID, 0x150 }, { OFF_MOSDOP_PGID, 0x1d0 }, { OFF_HOBJ_SNAP, 0x20 },
	{ OFF_HOBJ_REVHASH, 0x34 }, { OFF_HOBJ_POOL, 0x38 }, { OFF_HOBJ_NSPACE, 0x40 },
	{ OFF_HOBJ_KEY, 0x60 }, { OFF_SP_SPG, 0 },
};
#define NR_A18	(sizeof(a18_offsets) / sizeof(a18_offsets[0]))

/* Every offset, each from two witnesses or more; sp_spg past x1, where the
 * 24-byte spg_t's copy is (AAPCS64 passes it by reference), read by
 * enqueue_op through x1 as it copies it into the PGOpItem. */
static void reef(void **state)
{
	struct derive_out out;
	char err[1024] = "";
	(void)state;

	assert_int_equal(derive_offsets(&a18_in, "a18", &out, err, sizeof(err)), 0);
	assert_int_equal(NR_A18, NR_OFFS);
	for (size_t i = 0; i < NR_A18; i++) {
		enum osd_off o = a18_offsets[i].o;

		if (!(out.have & OFF_BIT(o)) || osd_off_get(&out.offs, o) != a18_offsets[i].v)
			fail_msg("%s: derived %d, 0x%x (%s); want 0x%x", osd_off_name[o],
				 !!(out.have & OFF_BIT(o)), osd_off_get(&out.offs, o), out.why[o],
				 a18_offsets[i].v);
		assert_non_null(strchr(out.why[o], ','));
	}
	assert_string_equal(out.why[OFF_SP_SPG], "OSD::enqueue_op, "
			    "AAPCS64 of OSD::enqueue_op's signature");
	assert_non_null(strstr(out.why[OFF_SP_SUBMIT_OP], "AAPCS64"));
	/* the printers, read past a branch that moved x19 (symtrace's joins)
	 * and an epilogue with autiasp, answer as on x86-64 */
	assert_string_equal(out.why[OFF_OSDOP_INDATA], "operator<<(ostream&, OSDOp), "
			    "OpInfo::set_from_op(vector), sizeof(OSDOp) - 0x48 (indata, outdata, "
			    "rval end it)");
	assert_string_equal(out.why[OFF_OSDOP_CLS], "operator<<(ostream&, OSDOp), "
			    "OpInfo::set_from_op(vector), the wire format of ceph_osd_op");
	assert_string_equal(out.why[OFF_HOBJ_POOL], "operator<<(ostream&, hobject_t), "
			    "hobject_t::dump, hobject_t::to_str");
}

/* log_op_stats with `ldr x25, [x22, #280]` (op.get_req()) made to read
 * #288: the witnesses of op_request disagree and tracing is refused. */
static void disagreeing_pair(void **state)
{
	struct derive_in in = a18_in;
	struct derive_out out;
	uint8_t *ls = malloc(sizeof(a18_cf_log_op_stats));
	char err[1024] = "";
	(void)state;

	memcpy(ls, a18_cf_log_op_stats, sizeof(a18_cf_log_op_stats));
	/* 765758: f9408ed9  ldr x25, [x22, #280]: imm12 0x23 in bits 10..21 */
	assert_memory_equal(ls + 0x38, ((const uint8_t[]){ 0xd9, 0x8e, 0x40, 0xf9 }), 4);
	ls[0x39] += 1 << 2;	/* imm12 0x24: #288 */
	in.fn[CF_LOG_OP_STATS].code = ls;
	assert_int_equal(derive_offsets(&in, "e7bb2e7a5e27bab9fccf6f9796d54fb65ff24ee6",
					&out, err, sizeof(err)), -ENOTSUP);
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, "build-id e7bb2e7a5e27bab9fccf6f9796d54fb65ff24ee6"));
	assert_non_null(strstr(err, "cannot derive op_request: witnesses disagree"));
	assert_non_null(strstr(err, "OpRequest::maybe_init_op_info says 0x118"));
	assert_non_null(strstr(err, "PrimaryLogPG::log_op_stats says 0x120"));
	assert_false(out.have & OFF_BIT(OFF_OP_REQUEST));
	free(ls);
}

/* A witness removed: without dequeue_op only log_op_stats tells
 * dequeued_time, and one witness is not enough. */
static void single_witness(void **state)
{
	struct derive_in in = a18_in;
	struct derive_out out;
	char err[1024] = "";
	(void)state;

	in.fn[CF_DEQUEUE_OP] = (struct derive_code){ 0, NULL, 0 };
	assert_int_equal(derive_offsets(&in, "a18", &out, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "cannot derive op_dequeued: only one witness "
			       "(looked at: PrimaryLogPG::log_op_stats [found])"));
	assert_false(out.have & OFF_BIT(OFF_OP_DEQUEUED));
}

/* AArch64 code read as x86-64: nothing required derives, no crash
 * (binary.c takes the architecture from the ELF header). */
static void wrong_arch(void **state)
{
	struct derive_in in = a18_in;
	struct derive_out out;
	char err[1024] = "";
	(void)state;

	in.arch = ST_X86_64;
	assert_int_equal(derive_offsets(&in, "a18", &out, err, sizeof(err)), -ENOTSUP);
	assert_int_equal(out.have & OFFS_REQUIRED, 0);
}

int run_derive_arm64_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reef),
		cmocka_unit_test(disagreeing_pair),
		cmocka_unit_test(single_witness),
		cmocka_unit_test(wrong_arch),
	};
	return cmocka_run_group_tests_name("derive_arm64", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* loader/ceph/derive.c on the real machine code of Debian's ceph-osd 16.2.15,
 * 18.2.7 and 20.2.4 (derive_fixture.h): the offsets each release has (the
 * figures of DESIGN.md "Ceph releases", cross-checked there with DWARF for
 * 18 and 20), and refusals when witnesses disagree or are missing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "derive_fixture.h"
#include "release_offsets.h"

/* Every offset derived with the release's value, each naming two or more
 * witnesses. */
static void check_release(const struct derive_in *in, const char *build_id, enum release r)
{
	struct derive_out out;
	char err[1024] = "";

	assert_int_equal(derive_offsets(in, build_id, &out, err, sizeof(err)), 0);
	check_release_offsets(&out.offs, out.have, r);
	for (int o = 0; o < NR_OFFS; o++)
		assert_non_null(strchr(out.why[o], ','));
}

static void pacific(void **state)
{
	(void)state;
	check_release(&v16_in, "v16", R16);
}

static void reef(void **state)
{
	(void)state;
	check_release(&v18_in, "v18", R18);
}

static void tentacle(void **state)
{
	struct derive_out out;
	char err[256];
	(void)state;
	check_release(&v20_in, "v20", R20);
	/* 20.x: ECSwitch's own frame is read too, and agrees */
	assert_int_equal(derive_offsets(&v20_in, "v20", &out, err, sizeof(err)), 0);
	assert_non_null(strstr(out.why[OFF_SP_SUBMIT_OP], "ECSwitch::submit_transaction"));
	/* the 20.x dequeue_op writes dequeued_time with one SSE store */
	assert_non_null(strstr(out.why[OFF_OP_DEQUEUED], "OSD::dequeue_op"));
}

/* log_op_stats of 16.2.15 with the displacement of `mov 0xe0(%rsi),%r15`
 * (op.get_req()) changed to 0xe8: the witnesses of op_request disagree. */
static void disagreeing_pair(void **state)
{
	struct derive_in in = v16_in;
	struct derive_out out;
	uint8_t *ls = malloc(sizeof(v16_cf_log_op_stats));
	char err[1024] = "";
	(void)state;

	memcpy(ls, v16_cf_log_op_stats, sizeof(v16_cf_log_op_stats));
	/* 76da19: 4c 8b be e0 00 00 00 */
	assert_int_equal(ls[0x19], 0x4c);
	assert_int_equal(ls[0x1c], 0xe0);
	ls[0x1c] = 0xe8;
	in.fn[CF_LOG_OP_STATS].code = ls;
	assert_int_equal(derive_offsets(&in, "fb66b3cec5f264a2f863d96fa875eb4ae39bb0bf",
					&out, err, sizeof(err)), -ENOTSUP);
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, "build-id fb66b3cec5f264a2f863d96fa875eb4ae39bb0bf"));
	assert_non_null(strstr(err, "cannot derive op_request: witnesses disagree"));
	assert_non_null(strstr(err, "OpRequest::maybe_init_op_info says 0xe0"));
	assert_non_null(strstr(err, "PrimaryLogPG::log_op_stats says 0xe8"));
	assert_false(out.have & OFF_BIT(OFF_OP_REQUEST));
	free(ls);
}

/* Reef's binary with Pacific's log_op_stats: a layout that grew is not
 * silently read at the old place. */
static void mixed_releases(void **state)
{
	struct derive_in in = v18_in;
	struct derive_out out;
	char err[1024] = "";
	(void)state;

	in.fn[CF_LOG_OP_STATS] = v16_in.fn[CF_LOG_OP_STATS];
	assert_int_equal(derive_offsets(&in, "mixed", &out, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "op_request: witnesses disagree"));
	assert_non_null(strstr(err, "says 0x108"));
	assert_non_null(strstr(err, "says 0xe0"));
}

/* One witness is not enough: without dequeue_op only log_op_stats tells
 * dequeued_time. */
static void single_witness(void **state)
{
	struct derive_in in = v20_in;
	struct derive_out out;
	char err[1024] = "";
	(void)state;

	in.fn[CF_DEQUEUE_OP] = (struct derive_code){ 0, NULL, 0 };
	assert_int_equal(derive_offsets(&in, "v20", &out, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "cannot derive op_dequeued: only one witness "
			       "(looked at: PrimaryLogPG::log_op_stats [found])"));
}

/* Optional offsets may be missing; tracing is still allowed. */
static void optional_missing(void **state)
{
	struct derive_in in = v16_in;
	struct derive_out out;
	char err[1024] = "";
	(void)state;

	in.fn[CF_REP_SUBMIT] = (struct derive_code){ 0, NULL, 0 };
	in.fn[CF_EC_SUBMIT] = (struct derive_code){ 0, NULL, 0 };
	in.fn[CF_ENQUEUE_OP].len = 8;	/* endless prologue cut short */
	assert_int_equal(derive_offsets(&in, "v16", &out, err, sizeof(err)), 0);
	assert_false(out.have & OFF_BIT(OFF_SP_SUBMIT_OP));
	assert_false(out.have & OFF_BIT(OFF_SP_SPG));
	assert_non_null(strstr(out.why[OFF_SP_SUBMIT_OP], "no witness"));
	assert_non_null(strstr(out.why[OFF_SP_SPG], "only one witness"));
	assert_true(out.have & OFF_BIT(OFF_OP_REQUEST));
}

/* MOSDOp::ops: 16.2.15 iterates m->ops inline in set_from_op, 18.2.7 calls
 * the vector overload; both agree with clear_buffers. */
static void ops_vector(void **state)
{
	struct derive_out out;
	char err[256];
	(void)state;

	assert_int_equal(derive_offsets(&v16_in, "v16", &out, err, sizeof(err)), 0);
	assert_string_equal(out.why[OFF_MOSDOP_OPS], "OpInfo::set_from_op, MOSDOp::clear_buffers");
	assert_int_equal(derive_offsets(&v18_in, "v18", &out, err, sizeof(err)), 0);
	assert_string_equal(out.why[OFF_MOSDOP_OPS], "OpInfo::set_from_op, MOSDOp::clear_buffers");
}

/* A witness of an optional offset that disagrees: that offset is unknown
 * (its feature is refused), tracing itself is still allowed. */
static void optional_disagrees(void **state)
{
	struct derive_in in = v20_in;
	struct derive_out out;
	char err[256];
	(void)state;

	/* Reef's fill_in_copy_get_noent says rval is at 0x90, Tentacle's OSDOp is 0x70 long */
	in.fn[CF_FILL_IN_COPY_GET_NOENT] = v18_in.fn[CF_FILL_IN_COPY_GET_NOENT];
	assert_int_equal(derive_offsets(&in, "v20", &out, err, sizeof(err)), 0);
	assert_false(out.have & OFF_BIT(OFF_OSDOP_RVAL));
	assert_non_null(strstr(out.why[OFF_OSDOP_RVAL], "witnesses disagree: "
			       "PrimaryLogPG::fill_in_copy_get_noent says 0x90"));
	assert_true(out.have & OFF_BIT(OFF_OSDOP_SIZE));
}

/* A call's class.method (issue 25): on 16.2.15 only after the pass goes on
 * past a mid-function epilogue with the body's registers (symtrace_core.c
 * leaves()), operator<<(OSDOp) and set_from_op's inline loop answer
 * besides the layout facts.  Tentacle's OSDOp (0x70) read by Reef's
 * set_from_op (an element of 0x98): the modulo of another stride
 * disagrees; the call split's OSDOp fields are refused, tracing is not. */
static void call_split(void **state)
{
	struct derive_in in = v20_in;
	struct derive_out out;
	char err[256];
	(void)state;

	assert_int_equal(derive_offsets(&v16_in, "v16", &out, err, sizeof(err)), 0);
	assert_string_equal(out.why[OFF_OSDOP_INDATA], "operator<<(ostream&, OSDOp), "
			    "OpInfo::set_from_op, sizeof(OSDOp) - 0x48 (indata, outdata, rval end it)");
	assert_string_equal(out.why[OFF_OSDOP_CLS], "operator<<(ostream&, OSDOp), "
			    "OpInfo::set_from_op, the wire format of ceph_osd_op");

	in.fn[CF_SET_FROM_OP_VEC] = v18_in.fn[CF_SET_FROM_OP_VEC];
	in.fn[CF_LIST_ITERATOR] = v18_in.fn[CF_LIST_ITERATOR];
	in.fn[CF_ITER_COPY_STRING] = v18_in.fn[CF_ITER_COPY_STRING];
	assert_int_equal(derive_offsets(&in, "v20", &out, err, sizeof(err)), 0);
	assert_false(out.have & OFF_BIT(OFF_OSDOP_INDATA));
	assert_non_null(strstr(out.why[OFF_OSDOP_INDATA], "witnesses disagree: "
			       "operator<<(ostream&, OSDOp) says 0x28, "
			       "OpInfo::set_from_op(vector) says 0x"));
	assert_false(out.have & OFF_BIT(OFF_OSDOP_CLS));	/* 0x136 % 0x70 */
	assert_int_equal(out.have & OFFS_REQUIRED, OFFS_REQUIRED);	/* still traced */
	assert_true(out.have & OFF_BIT(OFF_BL_FIRST));
	assert_true(out.have & OFF_BIT(OFF_RAW_DATA));
}

/* The slowest ops' names (issue 25): on each release every witness
 * answers, the constructor's reqid copy on 16.2.15 through get_reqid()'s
 * result on the stack too (SSE moves, symtrace_x86.c). */
static void slowops(void **state)
{
	const struct derive_in *rel[] = { &v16_in, &v18_in, &v20_in };
	struct derive_out out;
	char err[256];
	(void)state;

	for (size_t r = 0; r < sizeof(rel) / sizeof(rel[0]); r++) {
		assert_int_equal(derive_offsets(rel[r], "rel", &out, err, sizeof(err)), 0);
		assert_string_equal(out.why[OFF_OP_REQID], "OpRequest::OpRequest, "
				    "OpRequest::request + 8 (reqid follows it)");
		assert_string_equal(out.why[OFF_MOSDOP_OID], "MOSDOp::print, "
				    "MOSDOp::finish_decode, MOSDOp::get_object_locator");
		assert_string_equal(out.why[OFF_MOSDOP_PGID], "MOSDOp::print, "
				    "MOSDOp::get_spg, MOSDOp::get_pg");
	}
}

/* MOSDOp's accessors are inline members, emitted out of line only where a
 * call was not inlined: a build may lack any one of them (or print) and
 * still derive the three; without all three inline ones (an LTO build,
 * say) the PG still comes from print and get_spg, the object name from
 * print alone is refused, and so is the feature, not tracing. */
static void slowops_missing(void **state)
{
	const struct derive_in *rel[] = { &v16_in, &v18_in, &v20_in };
	const enum release rr[] = { R16, R18, R20 };
	const enum ceph_fn weak[] = { CF_MOSDOP_PRINT, CF_MOSDOP_GET_SPG, CF_MOSDOP_GET_PG,
				      CF_MOSDOP_FINISH_DECODE, CF_MOSDOP_GET_OLOC };
	const uint32_t slow = OFF_BIT(OFF_OP_REQID) | OFF_BIT(OFF_MOSDOP_OID) |
			      OFF_BIT(OFF_MOSDOP_PGID);
	struct derive_in in;
	struct derive_out out;
	char err[256];
	(void)state;

	for (size_t r = 0; r < sizeof(rel) / sizeof(rel[0]); r++)
		for (size_t k = 0; k < sizeof(weak) / sizeof(weak[0]); k++) {
			in = *rel[r];
			in.fn[weak[k]] = (struct derive_code){ 0, NULL, 0 };
			assert_int_equal(derive_offsets(&in, "rel", &out, err, sizeof(err)), 0);
			assert_int_equal(out.have & slow, slow);
			check_release_offsets(&out.offs, out.have, rr[r]);
		}

	in = v18_in;
	in.fn[CF_MOSDOP_GET_PG] = (struct derive_code){ 0, NULL, 0 };
	in.fn[CF_MOSDOP_FINISH_DECODE] = (struct derive_code){ 0, NULL, 0 };
	in.fn[CF_MOSDOP_GET_OLOC] = (struct derive_code){ 0, NULL, 0 };
	assert_int_equal(derive_offsets(&in, "v18", &out, err, sizeof(err)), 0);
	assert_string_equal(out.why[OFF_MOSDOP_PGID], "MOSDOp::print, MOSDOp::get_spg");
	assert_int_equal(out.offs.mosdop_pgid, 0x1d0);
	assert_false(out.have & OFF_BIT(OFF_MOSDOP_OID));
	assert_string_equal(out.why[OFF_MOSDOP_OID],
			    "only one witness (looked at: MOSDOp::print [found])");
	assert_int_equal(out.have & OFFS_REQUIRED, OFFS_REQUIRED);
}

/* Witnesses of the slowest ops' offsets that disagree refuse that offset
 * alone: Pacific's MOSDOp::print made to pass this + 0x1d8 as the spg_t;
 * Tentacle's OpRequest constructor made to copy the reqid 8 bytes further
 * in both its branches (then the copies and request + 8 disagree), or in
 * one (then the constructor names two places and says nothing). */
static void slowops_disagree(void **state)
{
	struct derive_in in = v16_in;
	struct derive_out out;
	uint8_t *pr = malloc(sizeof(v16_cf_mosdop_print));
	uint8_t *ct = malloc(sizeof(v20_cf_oprequest_ctor));
	/* e6b206: 48 8d b3 d0 01 00 00  lea 0x1d0(%rbx),%rsi; 14ebe1f, 14ebe2e,
	 * 14ebf51, 14ebf62: 0f 11 83 {18,24} 01 00 00  movups %xmm0,{0x118,0x124}(%rbx) */
	static const size_t at[] = { 0x232, 0x241, 0x364, 0x375 };
	char err[256];
	(void)state;

	memcpy(pr, v16_cf_mosdop_print, sizeof(v16_cf_mosdop_print));
	assert_int_equal(pr[0xf6], 0x48);
	assert_int_equal(pr[0xf9], 0xd0);
	pr[0xf9] = 0xd8;
	in.fn[CF_MOSDOP_PRINT].code = pr;
	assert_int_equal(derive_offsets(&in, "v16", &out, err, sizeof(err)), 0);
	assert_false(out.have & OFF_BIT(OFF_MOSDOP_PGID));
	assert_string_equal(out.why[OFF_MOSDOP_PGID], "witnesses disagree: "
			    "MOSDOp::print says 0x1d8, MOSDOp::get_spg says 0x1d0");
	assert_true(out.have & OFF_BIT(OFF_MOSDOP_OID));	/* print's hobject_t call */
	assert_int_equal(out.have & OFFS_REQUIRED, OFFS_REQUIRED);

	in = v20_in;
	memcpy(ct, v20_cf_oprequest_ctor, sizeof(v20_cf_oprequest_ctor));
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		assert_int_equal(ct[at[i] - 3], 0x0f);
		assert_int_equal(ct[at[i]], i % 2 ? 0x24 : 0x18);
		ct[at[i]] += 8;
	}
	in.fn[CF_OPREQUEST_CTOR].code = ct;
	assert_int_equal(derive_offsets(&in, "v20", &out, err, sizeof(err)), 0);
	assert_false(out.have & OFF_BIT(OFF_OP_REQID));
	assert_string_equal(out.why[OFF_OP_REQID], "witnesses disagree: OpRequest::OpRequest "
			    "says 0x120, OpRequest::request + 8 (reqid follows it) says 0x118");
	assert_true(out.have & OFF_BIT(OFF_OP_REQUEST));

	ct[at[2]] -= 8;		/* the MOSDOp branch back at 0x118 */
	ct[at[3]] -= 8;
	assert_int_equal(derive_offsets(&in, "v20", &out, err, sizeof(err)), 0);
	assert_false(out.have & OFF_BIT(OFF_OP_REQID));
	assert_string_equal(out.why[OFF_OP_REQID], "only one witness (looked at: "
			    "OpRequest::OpRequest, OpRequest::request + 8 (reqid follows it) [found])");
	free(pr);
	free(ct);
}

/* The rest of the object (hobject_t's snap, hash as printed, pool, nspace,
 * key; relative to it): operator<<(ostream&, hobject_t) and dump() answer
 * on every release (dump's last field through a virtual tail call:
 * symtrace_x86.c), to_str() on 16.2.15 and 18.2.7; 20.2.4's formats with fmt
 * and keeps this on its stack, so only the pool it passes is seen.  The
 * snap has MOSDOp::get_snapid too, less the derived mosdop_oid. */
#define HOBJ_REVHASH_WHY "operator<<(ostream&, hobject_t), hobject_t::dump's hash + 12 " \
	"(hash, max, nibblewise_key_cache, hash_reverse_bits)"
#define HOBJ_NIBBLE_WHY ", hobject_t::to_str's nibblewise_key_cache + 4 " \
	"(hash_reverse_bits follows it)"
#define HOBJ_ALL "operator<<(ostream&, hobject_t), hobject_t::dump, hobject_t::to_str"
#define HOBJ_TWO "operator<<(ostream&, hobject_t), hobject_t::dump"
#define HOBJ_SNAPID ", MOSDOp::get_snapid - mosdop_oid"

static const enum osd_off hobj_offs[] = { OFF_HOBJ_SNAP, OFF_HOBJ_REVHASH, OFF_HOBJ_POOL,
					  OFF_HOBJ_NSPACE, OFF_HOBJ_KEY };
#define NR_HOBJ_OFFS	(sizeof(hobj_offs) / sizeof(hobj_offs[0]))

static uint32_t hobj_bits(void)
{
	uint32_t b = 0;

	for (size_t i = 0; i < NR_HOBJ_OFFS; i++)
		b |= OFF_BIT(hobj_offs[i]);
	return b;
}

static void hobj(void **state)
{
	const struct derive_in *rel[] = { &v16_in, &v18_in, &v20_in };
	struct derive_out out;
	char err[256];
	(void)state;

	for (size_t r = 0; r < sizeof(rel) / sizeof(rel[0]); r++) {
		assert_int_equal(derive_offsets(rel[r], "rel", &out, err, sizeof(err)), 0);
		assert_int_equal(out.have & hobj_bits(), hobj_bits());
		assert_int_equal(out.offs.hobj_snap, 0x20);
		assert_int_equal(out.offs.hobj_revhash, 0x34);
		assert_int_equal(out.offs.hobj_pool, 0x38);
		assert_int_equal(out.offs.hobj_nspace, 0x40);
		assert_int_equal(out.offs.hobj_key, 0x60);
		assert_string_equal(out.why[OFF_HOBJ_POOL], HOBJ_ALL);
		if (r == R20) {
			assert_string_equal(out.why[OFF_HOBJ_SNAP], HOBJ_TWO HOBJ_SNAPID);
			assert_string_equal(out.why[OFF_HOBJ_REVHASH], HOBJ_REVHASH_WHY);
			assert_string_equal(out.why[OFF_HOBJ_NSPACE], HOBJ_TWO);
			assert_string_equal(out.why[OFF_HOBJ_KEY], HOBJ_TWO);
			continue;
		}
		assert_string_equal(out.why[OFF_HOBJ_SNAP], HOBJ_ALL HOBJ_SNAPID);
		assert_string_equal(out.why[OFF_HOBJ_REVHASH], HOBJ_REVHASH_WHY HOBJ_NIBBLE_WHY);
		assert_string_equal(out.why[OFF_HOBJ_NSPACE], HOBJ_ALL);
		assert_string_equal(out.why[OFF_HOBJ_KEY], HOBJ_ALL);
	}
}

/* Any one of the four functions missing: 16.2.15 and 18.2.7 still derive
 * the five; 20.2.4 (no to_str answers but the pool) without dump keeps
 * the pool and the snap (get_snapid), and refuses the others with a why
 * line -- the feature, not tracing; without get_snapid it keeps all. */
static void hobj_missing(void **state)
{
	const struct derive_in *rel[] = { &v16_in, &v18_in };
	const enum ceph_fn fn[] = { CF_HOBJ_PRINT, CF_HOBJ_DUMP, CF_HOBJ_TO_STR,
				    CF_MOSDOP_GET_SNAPID };
	struct derive_in in;
	struct derive_out out;
	char err[256];
	(void)state;

	for (size_t r = 0; r < sizeof(rel) / sizeof(rel[0]); r++)
		for (size_t k = 0; k < sizeof(fn) / sizeof(fn[0]); k++) {
			in = *rel[r];
			in.fn[fn[k]] = (struct derive_code){ 0, NULL, 0 };
			assert_int_equal(derive_offsets(&in, "rel", &out, err, sizeof(err)), 0);
			check_release_offsets(&out.offs, out.have, (enum release)r);
		}

	in = v20_in;
	in.fn[CF_HOBJ_DUMP] = (struct derive_code){ 0, NULL, 0 };
	assert_int_equal(derive_offsets(&in, "v20", &out, err, sizeof(err)), 0);
	assert_int_equal(out.have & hobj_bits(), OFF_BIT(OFF_HOBJ_POOL) | OFF_BIT(OFF_HOBJ_SNAP));
	assert_string_equal(out.why[OFF_HOBJ_POOL], "operator<<(ostream&, hobject_t), "
			    "hobject_t::to_str");
	assert_string_equal(out.why[OFF_HOBJ_SNAP], "operator<<(ostream&, hobject_t)"
			    HOBJ_SNAPID);
	assert_string_equal(out.why[OFF_HOBJ_KEY], "only one witness (looked at: "
			    "operator<<(ostream&, hobject_t) [found], hobject_t::to_str)");
	assert_int_equal(out.have & OFFS_REQUIRED, OFFS_REQUIRED);

	in = v20_in;
	in.fn[CF_MOSDOP_GET_SNAPID] = (struct derive_code){ 0, NULL, 0 };
	assert_int_equal(derive_offsets(&in, "v20", &out, err, sizeof(err)), 0);
	check_release_offsets(&out.offs, out.have, R20);
}

/* Disagreeing or inapplicable answers: Pacific's operator<< made to print
 * `o + 0x30` as the pool (then it and dump, to_str disagree: the pool is
 * refused, alone); Pacific's dump made to read the hash at 0x24 (then max
 * is not at hash + 4: the layout fact is not used, the hash as printed
 * still has print and to_str); Tentacle's dump made to read the snap at
 * 0x28 (then only two witnesses, disagreeing). */
static void hobj_disagree(void **state)
{
	struct derive_in in = v16_in;
	struct derive_out out;
	uint8_t *pr = malloc(sizeof(v16_cf_hobj_print));
	uint8_t *du = malloc(sizeof(v16_cf_hobj_dump));
	uint8_t *du20 = malloc(sizeof(v20_cf_hobj_dump));
	char err[256];
	(void)state;

	/* d8e4d2: 48 8b 75 38  mov 0x38(%rbp),%rsi (then _M_insert<long>) */
	memcpy(pr, v16_cf_hobj_print, sizeof(v16_cf_hobj_print));
	assert_int_equal(pr[0x172], 0x48);
	assert_int_equal(pr[0x175], 0x38);
	pr[0x175] = 0x30;
	in.fn[CF_HOBJ_PRINT].code = pr;
	assert_int_equal(derive_offsets(&in, "v16", &out, err, sizeof(err)), 0);
	assert_false(out.have & OFF_BIT(OFF_HOBJ_POOL));
	assert_string_equal(out.why[OFF_HOBJ_POOL], "witnesses disagree: "
			    "operator<<(ostream&, hobject_t) says 0x30, hobject_t::dump says 0x38");
	assert_int_equal(out.have & hobj_bits(), hobj_bits() & ~OFF_BIT(OFF_HOBJ_POOL));
	assert_int_equal(out.have & OFFS_REQUIRED, OFFS_REQUIRED);

	/* d8dbc7: 8b 4d 28  mov 0x28(%rbp),%ecx (dump_int("hash", hash)) */
	in = v16_in;
	memcpy(du, v16_cf_hobj_dump, sizeof(v16_cf_hobj_dump));
	assert_int_equal(du[0x67], 0x8b);
	assert_int_equal(du[0x69], 0x28);
	du[0x69] = 0x24;
	in.fn[CF_HOBJ_DUMP].code = du;
	assert_int_equal(derive_offsets(&in, "v16", &out, err, sizeof(err)), 0);
	assert_int_equal(out.have & hobj_bits(), hobj_bits());
	assert_int_equal(out.offs.hobj_revhash, 0x34);
	assert_string_equal(out.why[OFF_HOBJ_REVHASH], "operator<<(ostream&, hobject_t)"
			    HOBJ_NIBBLE_WHY);

	/* 114fa40: 48 8b 4d 20  mov 0x20(%rbp),%rcx (dump_int("snapid", snap)) */
	in = v20_in;
	memcpy(du20, v20_cf_hobj_dump, sizeof(v20_cf_hobj_dump));
	assert_int_equal(du20[0x60], 0x48);
	assert_int_equal(du20[0x63], 0x20);
	du20[0x63] = 0x28;
	in.fn[CF_HOBJ_DUMP].code = du20;
	assert_int_equal(derive_offsets(&in, "v20", &out, err, sizeof(err)), 0);
	assert_false(out.have & OFF_BIT(OFF_HOBJ_SNAP));
	assert_string_equal(out.why[OFF_HOBJ_SNAP], "witnesses disagree: "
			    "operator<<(ostream&, hobject_t) says 0x20, hobject_t::dump says 0x28");
	assert_true(out.have & OFF_BIT(OFF_HOBJ_KEY));
	free(pr);
	free(du);
	free(du20);
}

/* Bytes that are no function at all: no offset, no crash. */
static void garbage(void **state)
{
	static uint8_t junk[4096];
	struct derive_in in;
	struct derive_out out;
	char err[1024] = "";
	(void)state;

	srand(17);
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)rand();
	memset(&in, 0, sizeof(in));
	for (int f = 0; f < NR_CEPH_FNS; f++)
		in.fn[f] = (struct derive_code){ 0x1000 + 0x100 * f,
						 derive_reads_code(f) ? junk : NULL,
						 derive_reads_code(f) ? sizeof(junk) : 0 };
	assert_int_equal(derive_offsets(&in, "junk", &out, err, sizeof(err)), -ENOTSUP);
	assert_int_equal(out.have & OFFS_REQUIRED, 0);
}

int run_derive_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pacific),
		cmocka_unit_test(reef),
		cmocka_unit_test(tentacle),
		cmocka_unit_test(disagreeing_pair),
		cmocka_unit_test(mixed_releases),
		cmocka_unit_test(single_witness),
		cmocka_unit_test(optional_missing),
		cmocka_unit_test(ops_vector),
		cmocka_unit_test(optional_disagrees),
		cmocka_unit_test(call_split),
		cmocka_unit_test(slowops),
		cmocka_unit_test(slowops_missing),
		cmocka_unit_test(slowops_disagree),
		cmocka_unit_test(hobj),
		cmocka_unit_test(hobj_missing),
		cmocka_unit_test(hobj_disagree),
		cmocka_unit_test(garbage),
	};
	return cmocka_run_group_tests_name("derive", tests, NULL, NULL);
}

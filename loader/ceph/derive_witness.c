// SPDX-License-Identifier: GPL-2.0
/*
 * Each offset's witnesses, witnesses_FIELD() for each row of maps/
 * osdhist.h's OSDHIST_OFFSETS: which facts the readers found (derive_facts.h)
 * say where the field is, and the calling convention and layout facts that
 * say it too.  Each one adds its answers; the engine (derive.c) judges them.
 */
#include <string.h>

#include "derive_facts.h"

/* --- the calling convention's witnesses ----------------------------- */

/*
 * Where a parameter lives at entry, from the signature alone.  SysV x86-64:
 * INTEGER parameters take %rdi..%r9 then 8-byte caller-frame slots from
 * entry %rsp + 8; a MEMORY-class one (an aggregate over 16 bytes) takes its
 * size rounded to 8 in the frame.  AAPCS64: x0..x7 then 8-byte slots from
 * entry sp; an aggregate over 16 bytes is copied by the caller and passed
 * as a pointer to the copy (B.4), so it takes a register like any pointer.
 * Sizes of Ceph's by-value aggregates here: spg_t = pg_t (u64 m_pool, u32
 * m_seed: 16) + shard_id_t (s8) = 24; osd_reqid_t = entity_name_t (u8 +
 * s64: 16) + u64 tid + s32 inc = 32.  A non-trivially copyable class
 * (intrusive_ptr) is passed as a pointer in both.
 */
struct abi_param {
	int mem_size;		/* 0: INTEGER class */
};

/* The entry stack pointer offset of parameter which of the n, -1 if it
 * arrives in a register (or as a pointer in one). */
static int64_t abi_stack_slot(const struct derive_in *in, const struct abi_param *p, int n,
			      int which)
{
	const bool arm64 = in->arch == ST_ARM64;
	const int nregs = arm64 ? 8 : 6;
	int regs = 0;
	int64_t slot = arm64 ? 0 : 8;

	for (int i = 0; i < n; i++) {
		int mem = arm64 ? 0 : p[i].mem_size;	/* arm64: a pointer to it */

		if (!mem && regs < nregs) {
			regs++;
			if (i == which)
				return -1;	/* in a register */
			continue;
		}
		if (i == which)
			return slot;
		slot += mem ? (mem + 7) / 8 * 8 : 8;
	}
	return -1;
}

/* OSD::enqueue_op(this, spg_t, OpRequestRef&&, epoch_t): the spg_t's pool.
 * SysV: its entry stack slot.  AAPCS64: x1 points at the caller's copy,
 * whose first bytes are pgid.m_pool (maps/osdhist.h: spg_t), so 0 past
 * x1 (bpf/arch.bpf.h reads x1 + sp_spg there). */
static int64_t abi_enqueue_spg(const struct derive_in *in)
{
	static const struct abi_param p[] = { {0}, {24}, {0}, {0} };

	if (in->arch == ST_ARM64)
		return 0;
	return abi_stack_slot(in, p, 4, 1);
}

/* submit_transaction(this, soid&, delta&, at_version&, t&&, trim_to&,
 * min_last_complete_ondisk&, log_entries&&, hset_history&, on_all_commit,
 * tid, osd_reqid_t reqid, OpRequestRef op): the op. */
static int64_t abi_submit_op(const struct derive_in *in)
{
	static const struct abi_param p[] = {
		{0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {32}, {0} };

	return abi_stack_slot(in, p, 13, 12);
}

/* How the witnesses name the calling convention. */
static const char *abi_name(const struct derive_in *in)
{
	return in->arch == ST_ARM64 ? "AAPCS64" : "SysV ABI";
}

static struct fact sum(struct fact a, struct fact b)
{
	return (struct fact){ a.ok && b.ok, a.v + b.v };
}

static struct fact abi(int64_t v)
{
	return (struct fact){ v >= 0, v };
}

/* --- each offset's witnesses (maps/osdhist.h's rows) ------------------ */

static void witnesses_op_request(const struct derive_in *in, const struct facts *fx,
				 struct offset_witnesses *w)
{
	derive_witness(w, CF_MAYBE_INIT_OP_INFO, in, fx->mi_request);
	derive_witness(w, CF_LOG_OP_STATS, in, fx->ls_request);
	derive_witness(w, CF_DEQUEUE_OP, in, fx->dq_request);
	derive_witness(w, CF_ENQUEUE_OP, in, fx->eq_request);
	derive_witness(w, CF_OPREQUEST_CTOR, in, fx->ct_request);
	derive_witness(w, CF_REPOP_COMMIT, in, fx->rc_request);
}

static void witnesses_op_rmw(const struct derive_in *in, const struct facts *fx,
			     struct offset_witnesses *w)
{
	derive_witness(w, CF_MAYBE_INIT_OP_INFO, in, fx->mi_rmw);
	if (in->fn[CF_CHECK_RMW].vaddr)
		derive_witness_as(w, CF_LOG_OP_STATS, in, sum(fx->ls_opinfo, fx->cr_rmw), "%s+%s",
				  ceph_fn_pretty[CF_LOG_OP_STATS], ceph_fn_pretty[CF_CHECK_RMW]);
}

static void witnesses_op_dequeued(const struct derive_in *in, const struct facts *fx,
				  struct offset_witnesses *w)
{
	derive_witness(w, CF_LOG_OP_STATS, in, fx->ls_dequeued);
	derive_witness(w, CF_DEQUEUE_OP, in, fx->dq_dequeued);
}

static void witnesses_msg_type(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	derive_witness(w, CF_OPREQUEST_CTOR, in, fx->ct_type);
	derive_witness(w, CF_REPOP_COMMIT, in, fx->rc_type);
}

static void witnesses_msg_recv(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	derive_witness(w, CF_LOG_OP_STATS, in, fx->ls_recv);
	derive_witness(w, CF_DEQUEUE_OP, in, fx->dq_recv);
	derive_witness(w, CF_ENQUEUE_OP, in, fx->eq_recv);
}

static void witnesses_repmod_op(const struct derive_in *in, const struct facts *fx,
				struct offset_witnesses *w)
{
	derive_witness(w, CF_REPOP_COMMIT, in, fx->rc_repmod);
	derive_witness(w, CF_REPMOD_DISPOSE, in, fx->rd_repmod);
}

static void witnesses_sp_spg(const struct derive_in *in, const struct facts *fx,
			     struct offset_witnesses *w)
{
	derive_witness(w, CF_ENQUEUE_OP, in, fx->eq_spg);
	derive_witness_as(w, CF_ENQUEUE_OP, in, abi(abi_enqueue_spg(in)), "%s of %s's signature",
			  abi_name(in), ceph_fn_pretty[CF_ENQUEUE_OP]);
}

static void witnesses_sp_submit_op(const struct derive_in *in, const struct facts *fx,
				   struct offset_witnesses *w)
{
	derive_witness(w, CF_REP_SUBMIT, in, fx->sub[0]);
	derive_witness(w, CF_EC_SUBMIT, in, fx->sub[1]);
	derive_witness(w, CF_ECSWITCH_SUBMIT, in, fx->sub[2]);
	if (in->fn[CF_REP_SUBMIT].vaddr || in->fn[CF_EC_SUBMIT].vaddr)
		derive_witness_as(w, CF_NONE, in, abi(abi_submit_op(in)),
				  "%s of submit_transaction's signature", abi_name(in));
}

static void witnesses_mosdop_ops(const struct derive_in *in, const struct facts *fx,
				 struct offset_witnesses *w)
{
	derive_witness(w, CF_SET_FROM_OP, in, fx->sf_ops);
	derive_witness(w, CF_MOSDOP_CLEAR_BUFFERS, in, fx->cb_ops);
}

static void witnesses_osdop_size(const struct derive_in *in, const struct facts *fx,
				 struct offset_witnesses *w)
{
	derive_witness(w, CF_OSDOP_MERGE_OUT, in, fx->merge_size);
	derive_witness(w, CF_OSDOP_SPLIT_OUT, in, fx->split_size);
}

/* sizeof(OSDOp) as both out_data functions agree on it, else none. */
static struct fact osdop_size(const struct facts *fx)
{
	return fx->merge_size.ok && fx->split_size.ok && fx->merge_size.v == fx->split_size.v ?
	       fx->merge_size : (struct fact){ 0, 0 };
}

/* OSDOp's declaration ends `bufferlist indata, outdata; errorcode32_t rval;`
 * (src/osd/osd_types.h, 16 to 20): rval, 4 bytes, is the last member of an
 * 8-aligned struct, so it sits 8 bytes before its end. */
static struct fact rval_last_member(struct fact size)
{
	return (struct fact){ size.ok && size.v >= 8, size.v - 8 };
}

static void witnesses_osdop_rval(const struct derive_in *in, const struct facts *fx,
				 struct offset_witnesses *w)
{
	struct fact size = osdop_size(fx);

	derive_witness(w, CF_FILL_IN_COPY_GET_NOENT, in, fx->noent_rval);
	if (in->fn[CF_OSDOP_MERGE_OUT].vaddr || in->fn[CF_OSDOP_SPLIT_OUT].vaddr)
		derive_witness_as(w, CF_NONE, in, rval_last_member(size),
				  "sizeof(OSDOp) - 8 (rval is its last member)");
}

/* set_from_op reads an element of the op vector, begin + k * sizeof(OSDOp)
 * with k unknown to a linear pass: its field is the offset modulo the size. */
static struct fact in_element(struct fact raw, struct fact size)
{
	return (struct fact){ raw.ok && size.ok && size.v > 0, size.v > 0 ? raw.v % size.v : 0 };
}

/* OSDOp's declaration ends `bufferlist indata, outdata; errorcode32_t
 * rval;` and a buffer::list is 0x20 bytes in its ABI-versioned namespace
 * (v15_2_0: _buffers' head 16, _carriage 8, _len and _num 4 each). */
#define BUFFER_LIST_SIZE	0x20

static struct fact indata_before_end(struct fact size)
{
	return (struct fact){ size.ok && size.v >= 2 * BUFFER_LIST_SIZE + 8,
			      size.v - 2 * BUFFER_LIST_SIZE - 8 };
}

static void witnesses_osdop_indata(const struct derive_in *in, const struct facts *fx,
				   struct offset_witnesses *w)
{
	struct fact size = osdop_size(fx);

	derive_witness(w, CF_OSDOP_PRINT, in, fx->pr_indata);
	derive_witness(w, CF_SET_FROM_OP, in, in_element(fx->sf_indata, size));
	derive_witness(w, CF_SET_FROM_OP_VEC, in, in_element(fx->sfv_indata, size));
	if (in->fn[CF_OSDOP_MERGE_OUT].vaddr || in->fn[CF_OSDOP_SPLIT_OUT].vaddr)
		derive_witness_as(w, CF_NONE, in, indata_before_end(size),
				  "sizeof(OSDOp) - 0x48 (indata, outdata, rval end it)");
}

/* The wire format (rados.h, packed): struct ceph_osd_op { __le16 op;
 * __le32 flags; union { ... struct { __u8 class_len; __u8 method_len; ...}
 * cls; ... }; } -- OSDOp starts with it. */
#define WIRE_CLASS_LEN		6

static void witnesses_osdop_cls(const struct derive_in *in, const struct facts *fx,
				struct offset_witnesses *w)
{
	struct fact size = osdop_size(fx);

	derive_witness(w, CF_OSDOP_PRINT, in, fx->pr_cls);
	derive_witness(w, CF_SET_FROM_OP, in, in_element(fx->sf_cls, size));
	derive_witness(w, CF_SET_FROM_OP_VEC, in, in_element(fx->sfv_cls, size));
	derive_witness_as(w, CF_NONE, in, abi(WIRE_CLASS_LEN), "the wire format of ceph_osd_op");
}

static void witnesses_bl_first(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	derive_witness(w, CF_LIST_ITER_IMPL, in, fx->it_first);
	derive_witness(w, CF_LIST_C_STR, in, fx->lc_first);
}

static void witnesses_node_ptr(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	derive_witness(w, CF_LIST_C_STR, in, fx->lc_node_ptr);
	derive_witness(w, CF_LIST_WRITE, in, fx->lw_node_ptr);
}

static void witnesses_ptr_raw(const struct derive_in *in, const struct facts *fx,
			      struct offset_witnesses *w)
{
	derive_witness(w, CF_PTR_C_STR, in, fx->pc.raw);
	derive_witness(w, CF_PTR_C_STR_CONST, in, fx->pcc.raw);
	derive_witness(w, CF_PTR_AT, in, fx->pat.raw);
	derive_witness(w, CF_PTR_COPY_OUT, in, fx->pco.raw);
}

/* c_str reads one 4-byte field, _off; operator[] and copy_out two. */
static struct fact only_u32(const struct ptr_reads *r)
{
	return r->u32[1].ok ? (struct fact){ 0, 0 } : r->u32[0];
}

static void witnesses_ptr_off(const struct derive_in *in, const struct facts *fx,
			      struct offset_witnesses *w)
{
	derive_witness(w, CF_PTR_C_STR, in, only_u32(&fx->pc));
	derive_witness(w, CF_PTR_C_STR_CONST, in, only_u32(&fx->pcc));
}

/* Of the two 4-byte fields r reads, the one that is not _off (c_str's). */
static struct fact other_u32(const struct ptr_reads *r, struct fact off)
{
	if (!off.ok || !r->u32[0].ok || !r->u32[1].ok)
		return (struct fact){ 0, 0 };
	return r->u32[0].v == off.v ? r->u32[1] : r->u32[1].v == off.v ? r->u32[0] :
	       (struct fact){ 0, 0 };
}

/* ptr::_len read through a ptr_node: its offset in the node less the ptr's. */
static struct fact in_ptr(struct fact in_node, struct fact node_ptr)
{
	return (struct fact){ in_node.ok && node_ptr.ok && in_node.v >= node_ptr.v,
			      in_node.v - node_ptr.v };
}

static void witnesses_ptr_len(const struct derive_in *in, const struct facts *fx,
			      struct offset_witnesses *w)
{
	struct fact off = only_u32(&fx->pc);

	if (in->fn[CF_PTR_C_STR].vaddr) {
		derive_witness_as(w, CF_PTR_AT, in, other_u32(&fx->pat, off), "%s+%s",
				  ceph_fn_pretty[CF_PTR_AT], ceph_fn_pretty[CF_PTR_C_STR]);
		derive_witness_as(w, CF_PTR_COPY_OUT, in, other_u32(&fx->pco, off), "%s+%s",
				  ceph_fn_pretty[CF_PTR_COPY_OUT], ceph_fn_pretty[CF_PTR_C_STR]);
	}
	derive_witness(w, CF_LIST_C_STR, in, in_ptr(fx->lc_len, fx->lc_node_ptr));
	derive_witness(w, CF_LIST_WRITE, in, in_ptr(fx->lw_len, fx->lw_node_ptr));
}

static void witnesses_raw_data(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	derive_witness(w, CF_PTR_C_STR, in, fx->pc.data);
	derive_witness(w, CF_PTR_C_STR_CONST, in, fx->pcc.data);
	derive_witness(w, CF_PTR_AT, in, fx->pat.data);
	derive_witness(w, CF_PTR_COPY_OUT, in, fx->pco.data);
}

/* What derive_judge() makes of fn's witnesses: a layout fact built on another
 * offset uses the value osdhist derives for it, by the same rule. */
static struct fact derived(witnesses_fn *fn, const struct derive_in *in,
			   const struct facts *fx)
{
	struct offset_witnesses w;
	char why[256];
	int64_t v = 0;

	memset(&w, 0, sizeof(w));
	fn(in, fx, &w);
	return (struct fact){ !derive_judge(&w, &v, why, sizeof(why)), v };
}

/* OpRequest's declaration (src/osd/OpRequest.h, 16 to 20) has `Message
 * *request; osd_reqid_t reqid;` back to back, and osd_reqid_t (its first
 * member an entity_name_t: u8, s64) is 8-aligned: reqid = request + 8. */
static struct fact reqid_after_request(struct fact request)
{
	return (struct fact){ request.ok, request.v + 8 };
}

static void witnesses_op_reqid(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	derive_witness(w, CF_OPREQUEST_CTOR, in, fx->ct_reqid);
	derive_witness_as(w, CF_NONE, in, reqid_after_request(derived(witnesses_op_request, in, fx)),
			  "OpRequest::request + 8 (reqid follows it)");
}

static struct fact name_of_len(struct fact len)
{
	return (struct fact){ len.ok && len.v >= STRING_LENGTH, len.v - STRING_LENGTH };
}

static void witnesses_mosdop_oid(const struct derive_in *in, const struct facts *fx,
				 struct offset_witnesses *w)
{
	derive_witness(w, CF_MOSDOP_PRINT, in, sum(fx->pr_hobj, abi(HOBJ_OID_NAME)));
	derive_witness(w, CF_MOSDOP_FINISH_DECODE, in, fx->fd_name);
	derive_witness(w, CF_MOSDOP_GET_OLOC, in, name_of_len(fx->ol_name_len));
}

static void witnesses_mosdop_pgid(const struct derive_in *in, const struct facts *fx,
				  struct offset_witnesses *w)
{
	derive_witness(w, CF_MOSDOP_PRINT, in, fx->pr_pgid);
	derive_witness(w, CF_MOSDOP_GET_SPG, in, fx->spg_pgid);
	derive_witness(w, CF_MOSDOP_GET_PG, in, fx->pg_pgid);
}

/* A field of MOSDOp::hobj read in MOSDOp: its offset in the hobject_t,
 * hobj being where osdhist derives it (mosdop_oid, hobj + 0). */
static struct fact in_hobj(struct fact in_mosdop, struct fact hobj)
{
	return (struct fact){ in_mosdop.ok && hobj.ok && in_mosdop.v >= hobj.v,
			      in_mosdop.v - hobj.v };
}

static void witnesses_hobj_snap(const struct derive_in *in, const struct facts *fx,
				struct offset_witnesses *w)
{
	derive_witness(w, CF_HOBJ_PRINT, in, fx->hp.snap);
	derive_witness(w, CF_HOBJ_DUMP, in, fx->hd.snap);
	derive_witness(w, CF_HOBJ_TO_STR, in, fx->hs.snap);
	derive_witness_as(w, CF_MOSDOP_GET_SNAPID, in,
			  in_hobj(fx->sn_snap, derived(witnesses_mosdop_oid, in, fx)),
			  "%s - mosdop_oid", ceph_fn_pretty[CF_MOSDOP_GET_SNAPID]);
}

/* hobject_t's declaration (src/common/hobject.h, 16 to 20) has `uint32_t
 * hash; bool max; uint32_t nibblewise_key_cache; uint32_t
 * hash_reverse_bits;`: max at hash + 4 (dump() must say so, else the
 * fact does not apply), hash_reverse_bits at hash + 12, which is
 * nibblewise_key_cache + 4. */
#define HOBJ_MAX_AFTER_HASH	4
#define HOBJ_REVHASH_AFTER_HASH	12
#define HOBJ_REVHASH_AFTER_NIBBLE 4

static struct fact revhash_of_hash(const struct hobj_reads *r)
{
	return (struct fact){ r->hash.ok && r->max.ok &&
			      r->max.v == r->hash.v + HOBJ_MAX_AFTER_HASH,
			      r->hash.v + HOBJ_REVHASH_AFTER_HASH };
}

static struct fact revhash_of_nibble(struct fact nibble)
{
	return (struct fact){ nibble.ok, nibble.v + HOBJ_REVHASH_AFTER_NIBBLE };
}

static void witnesses_hobj_revhash(const struct derive_in *in, const struct facts *fx,
				   struct offset_witnesses *w)
{
	derive_witness(w, CF_HOBJ_PRINT, in, fx->hp.revhash);
	derive_witness_as(w, CF_HOBJ_DUMP, in, revhash_of_hash(&fx->hd),
			  "%s's hash + 12 (hash, max, nibblewise_key_cache, hash_reverse_bits)",
			  ceph_fn_pretty[CF_HOBJ_DUMP]);
	derive_witness_as(w, CF_HOBJ_TO_STR, in, revhash_of_nibble(fx->hs.nibble),
			  "%s's nibblewise_key_cache + 4 (hash_reverse_bits follows it)",
			  ceph_fn_pretty[CF_HOBJ_TO_STR]);
}

static void witnesses_hobj_pool(const struct derive_in *in, const struct facts *fx,
				struct offset_witnesses *w)
{
	derive_witness(w, CF_HOBJ_PRINT, in, fx->hp.pool);
	derive_witness(w, CF_HOBJ_DUMP, in, fx->hd.pool);
	derive_witness(w, CF_HOBJ_TO_STR, in, fx->hs.pool);
}

static void witnesses_hobj_nspace(const struct derive_in *in, const struct facts *fx,
				  struct offset_witnesses *w)
{
	derive_witness(w, CF_HOBJ_PRINT, in, fx->hp.nspace);
	derive_witness(w, CF_HOBJ_DUMP, in, fx->hd.nspace);
	derive_witness(w, CF_HOBJ_TO_STR, in, fx->hs.nspace);
}

static void witnesses_hobj_key(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	derive_witness(w, CF_HOBJ_PRINT, in, fx->hp.key);
	derive_witness(w, CF_HOBJ_DUMP, in, fx->hd.key);
	derive_witness(w, CF_HOBJ_TO_STR, in, fx->hs.key);
}

/* A row without its witnesses_FIELD() does not compile. */
#define OFF_WITNESSES(id, field, need) [id] = witnesses_##field,
witnesses_fn *const derive_witnesses[NR_OFFS] = { OSDHIST_OFFSETS(OFF_WITNESSES) };
#undef OFF_WITNESSES

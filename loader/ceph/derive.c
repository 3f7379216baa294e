// SPDX-License-Identifier: GPL-2.0
/*
 * struct osd_offsets from the ceph-osd binary's own code.  Each witness is a
 * question asked of one function's symbolic trace (symtrace.h), phrased in
 * terms of what the C++ source does, e.g. "log_op_stats passes &op->op_info
 * to OpInfo::may_read: which offset of its OpRequest argument is that?".
 * The answers of different functions for one offset must all agree, and at
 * least two must exist.  What each witness reads, per release, is in
 * tests/unit/derive_fixture.h (real bytes of 16.2.15, 18.2.7, 20.2.4).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "symtrace.h"

#define CF_SYMBOL(id, pretty, derive, symbol) [id] = symbol,
#define CF_PRETTY(id, pretty, derive, symbol) [id] = pretty,
const char *const ceph_fn_symbol[NR_CEPH_FNS] = { OSDHIST_CEPH_FNS(CF_SYMBOL) };
const char *const ceph_fn_pretty[NR_CEPH_FNS] = { OSDHIST_CEPH_FNS(CF_PRETTY) };
#undef CF_SYMBOL
#undef CF_PRETTY

#define OFF_NAME(id, field, need) [id] = #field,
#define OFF_NEED(id, field, need) [id] = need,
const char *const osd_off_name[NR_OFFS] = { OSDHIST_OFFSETS(OFF_NAME) };
const enum osd_feature osd_off_need[NR_OFFS] = { OSDHIST_OFFSETS(OFF_NEED) };
#undef OFF_NAME
#undef OFF_NEED

/* Offsets above this are not a field of these objects: a witness that
 * finds one has found something else. */
#define MAX_FIELD_OFF		0x10000

/* One witness's answer. */
struct answer {
	char who[96];		/* a function's name, or what else answered */
	int found;
	int64_t val;
};

#define MAX_ANSWERS	8

struct offset_witnesses {
	struct answer a[MAX_ANSWERS];
	int n;
};

/* One more answer, its witness named by fmt. */
__attribute__((format(printf, 4, 0)))
static void answer(struct offset_witnesses *w, int found, int64_t val, const char *fmt,
		   va_list ap)
{
	if (w->n == MAX_ANSWERS)
		return;
	vsnprintf(w->a[w->n].who, sizeof(w->a[w->n].who), fmt, ap);
	w->a[w->n].found = found && val >= 0 && val < MAX_FIELD_OFF;
	w->a[w->n++].val = val;
}

/* --- what one function says ------------------------------------------ */

struct fact {
	int ok;
	int64_t v;
};

static void set(struct fact *f, int64_t v)
{
	if (!f->ok)
		*f = (struct fact){ 1, v };
}

struct facts {
	struct fact mi_request, mi_opinfo, mi_rmw;
	struct fact ls_request, ls_recv, ls_opinfo, ls_dequeued;
	struct fact dq_request, dq_recv, dq_dequeued;
	struct fact eq_request, eq_recv, eq_spg;
	struct fact ct_request, ct_type, ct_reqid;
	struct fact rc_repmod, rc_request, rc_type;
	struct fact rd_repmod;
	struct fact cr_rmw;
	struct fact sub[3];	/* Replicated, EC, ECSwitch: OpRequestRef slot */
	struct fact sf_ops, cb_ops;		/* MOSDOp::ops */
	struct fact merge_size, split_size;	/* sizeof(OSDOp) */
	struct fact noent_rval;			/* OSDOp::rval */
	/* a call's class.method: indata and class_len of the OSDOp as
	 * operator<<(OSDOp) reads them, and as set_from_op (16: the MOSDOp
	 * overload, 18 on: the vector one) does, there relative to an
	 * element: offsets modulo sizeof(OSDOp) */
	struct fact pr_indata, pr_cls;
	struct fact sf_indata, sf_cls, sfv_indata, sfv_cls;
	/* the buffer::list, ptr_node, ptr and raw fields on the way */
	struct fact it_first, lc_first, lc_node_ptr, lc_len, lw_node_ptr, lw_len;
	struct ptr_reads { struct fact raw, data, u32[2]; } pc, pcc, pat, pco;
	/* the slowest ops' PG and object in MOSDOp: pgid as print, get_spg
	 * and get_pg read it; hobj as print passes it, hobj.oid.name as
	 * finish_decode decodes into it, its length as get_object_locator
	 * tests it */
	struct fact pr_pgid, spg_pgid, pg_pgid;
	struct fact pr_hobj, fd_name, ol_name_len;
	/* the rest of the object, relative to the hobject_t, as its
	 * operator<< prints it, dump() dumps it, to_str() spells it */
	struct hobj_reads {
		struct fact snap, hash, max, nibble, revhash, pool, nspace, key;
	} hp, hd, hs;
	struct fact sn_snap;	/* hobj.snap in MOSDOp, as get_snapid reads it */
};

/* A pair of 4-byte loads at off and off + 4 from node base: a utime_t
 * (sec, nsec) read field by field.  The lower offset, or -1.  Bounded:
 * one pass over the events, then pairs among the first PAIR_MAX loads. */
#define PAIR_MAX	64

static int64_t utime_pair(const struct symtrace *t, int base)
{
	int64_t offs[PAIR_MAX];
	int n = 0;

	for (int i = 0; i < t->nev && n < PAIR_MAX; i++)
		if (t->ev[i].type == EV_LOAD && t->ev[i].size == 4 && t->ev[i].base == base)
			offs[n++] = t->ev[i].off;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (offs[j] == offs[i] + 4)
				return offs[i];
	return -1;
}

/* The first node loaded (8 bytes) from [op + F] whose pointee is read as a
 * utime_t pair; sets request = F, recv = the pair's offset.  At most
 * PAIR_MAX candidates are tried. */
static void request_and_recv(const struct symtrace *t, int op, struct fact *req, struct fact *recv)
{
	int tried = 0;

	for (int n = 0; n < t->nnodes && tried < PAIR_MAX; n++) {
		int64_t f, r;

		if (t->nodes[n].size != 8 || !st_is_load_of(t, n, op, &f))
			continue;
		tried++;
		r = utime_pair(t, n);
		if (r >= 0) {
			set(req, f);
			set(recv, r);
			return;
		}
	}
}

/* OpRequest::maybe_init_op_info(): `if (op_info.get_flags()) return 0;
 * return op_info.set_from_op(get_req<MOSDOp>(), osdmap);` -- a compare of
 * the u64 at this + rmw with 0, then a call of set_from_op(this + op_info,
 * [this + request]). */
static void read_mi(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int self = st_arg(t, ARG_RDI);

	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t off;

		if (e->type == EV_CMP && e->imm == 0 && e->size == 8 &&
		    st_is_load_of(t, e->node, self, &off))
			set(&fx->mi_rmw, off);
		if (e->type == EV_CALL && e->target == in->fn[CF_SET_FROM_OP].vaddr &&
		    e->target && e->args[0].node == self) {
			set(&fx->mi_opinfo, e->args[0].add);
			if (e->args[1].add == 0 && st_is_load_of(t, e->args[1].node, self, &off))
				set(&fx->mi_request, off);
		}
	}
}

/* PrimaryLogPG::log_op_stats(const OpRequest& op, ...): `now -
 * m->get_recv_stamp()` with m = op.get_req(), `now - op.get_dequeued_time()`,
 * then `op.may_read()` etc. on &op.op_info. */
static void read_ls(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int op = st_arg(t, ARG_RSI);
	int64_t d;

	request_and_recv(t, op, &fx->ls_request, &fx->ls_recv);
	d = utime_pair(t, op);
	if (d >= 0)
		set(&fx->ls_dequeued, d);
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type == EV_CALL && e->target && e->target == in->fn[CF_MAY_READ].vaddr &&
		    e->args[0].node == op)
			set(&fx->ls_opinfo, e->args[0].add);
	}
}

/* OSD::dequeue_op(PGRef pg, OpRequestRef op, ...): `op->set_dequeued_time(now)`
 * is the first store into the OpRequest; `now - m->get_recv_stamp()` follows.
 * op arrives by invisible reference in %rdx. */
static void read_dq(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int op = st_load(t, st_arg(t, ARG_RDX), 0, 8);

	(void)in;
	if (op < 0)
		return;
	request_and_recv(t, op, &fx->dq_request, &fx->dq_recv);
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type == EV_STORE && e->base == op && e->size >= 4) {
			set(&fx->dq_dequeued, e->off);
			break;
		}
	}
}

/* OSD::enqueue_op(spg_t pg, OpRequestRef&& op, epoch_t): its first statement
 * is `stamp = op->get_req()->get_recv_stamp()`, read before any call; the
 * spg_t (MEMORY class) is read from the caller's frame in the prologue. */
static void read_eq(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int op = st_load(t, st_arg(t, ARG_RSI), 0, 8);
	int sp = st_sp(t);
	int64_t lowest = -1;

	(void)in;
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t f;

		if (e->type != EV_LOAD || e->ncalls)
			continue;
		if (e->base == sp && e->off > 0 && (lowest < 0 || e->off < lowest))
			lowest = e->off;
		if (op >= 0 && !fx->eq_recv.ok && t->nodes[e->base].size == 8 &&
		    st_is_load_of(t, e->base, op, &f)) {
			set(&fx->eq_request, f);
			set(&fx->eq_recv, e->off);
		}
	}
	if (lowest > 0)
		set(&fx->eq_spg, lowest);
}

/* The 16 bytes that store e writes, if they are a 16-byte load: its node. */
static int stored_16(const struct symtrace *t, const struct st_event *e)
{
	int n = e->src.node;

	return e->type == EV_STORE && e->size == 16 && n >= 0 && !e->src.add &&
	       t->nodes[n].kind == N_LOAD && t->nodes[n].size == 16 ? n : -1;
}

/*
 * `reqid = static_cast<MOSDOp*>(req)->get_reqid();` (and the MOSDRepOp,
 * MOSDRepOpReply branches): an osd_reqid_t's members (entity_name_t 16,
 * tid 8, inc 4) are 28 bytes, which GCC copies as two overlapping 16-byte
 * moves: the 16 bytes at G and at G + 12 of one source (the message, or its
 * get_reqid() result on the stack) stored at F and F + 12 of this.  Every
 * such copy in the constructor must say the same F, else no answer.
 * Bounded: pairs among the first PAIR_MAX 16-byte copies into this.
 */
#define REQID_SECOND_MOVE	12

static void ctor_reqid(const struct symtrace *t, int self, struct fact *f)
{
	const struct st_event *c[PAIR_MAX];
	int64_t reqid = -1;
	int n = 0;

	for (int i = 0; i < t->nev && n < PAIR_MAX; i++)
		if (t->ev[i].base == self && stored_16(t, &t->ev[i]) >= 0)
			c[n++] = &t->ev[i];
	for (int i = 0; i < n; i++) {
		const struct st_node *a = &t->nodes[stored_16(t, c[i])];

		for (int j = 0; j < n; j++) {
			const struct st_node *b = &t->nodes[stored_16(t, c[j])];

			if (c[j]->off != c[i]->off + REQID_SECOND_MOVE || b->base != a->base ||
			    b->off != a->off + REQID_SECOND_MOVE)
				continue;
			if (reqid >= 0 && reqid != c[i]->off)
				return;		/* two places: no answer */
			reqid = c[i]->off;
		}
	}
	if (reqid >= 0)
		set(f, reqid);
}

/* OpRequest::OpRequest(Message *req, OpTracker *): `request(req)` stores the
 * argument into this; `if (req->get_type() == CEPH_MSG_OSD_OP)`; the
 * reqid copies (ctor_reqid). */
static void read_ct(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int self = st_arg(t, ARG_RDI), msg = st_arg(t, ARG_RSI);

	(void)in;
	ctor_reqid(t, self, &fx->ct_reqid);
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t off;

		if (e->type == EV_STORE && e->base == self && e->size == 8 &&
		    e->src.node == msg && e->src.add == 0)
			set(&fx->ct_request, e->off);
		if (e->type == EV_CMP && e->imm == MSG_OSD_OP && e->size == 2 &&
		    st_is_load_of(t, e->node, msg, &off))
			set(&fx->ct_type, off);
	}
}

/* ReplicatedBackend::repop_commit(RepModifyRef rm): `rm->op->mark_commit_sent()`
 * (a call of mark_flag_point on [rm + op]) and `ceph_assert(m->get_type() ==
 * MSG_OSD_REPOP)` with m = rm->op->get_req(). */
static void read_rc(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int rm = st_load(t, st_arg(t, ARG_RSI), 0, 8);

	if (rm < 0)
		return;
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t f, g, h;

		if (e->type == EV_CALL && e->target && e->target == in->fn[CF_MARK_FLAG_POINT].vaddr &&
		    e->args[0].add == 0 && st_is_load_of(t, e->args[0].node, rm, &f))
			set(&fx->rc_repmod, f);
		if (e->type == EV_CMP && e->imm == MSG_OSD_REPOP && e->size == 2 &&
		    e->node >= 0 && t->nodes[e->node].kind == N_LOAD) {
			int req = t->nodes[e->node].base;
			int op = t->nodes[req].kind == N_LOAD ? t->nodes[req].base : -1;

			h = t->nodes[e->node].off;
			if (op >= 0 && st_is_load_of(t, req, op, &g) && st_is_load_of(t, op, rm, &f)) {
				set(&fx->rc_request, g);
				set(&fx->rc_type, h);
			}
		}
	}
}

/* std::_Sp_counted_ptr_inplace<RepModify>::_M_dispose(): destroys the
 * RepModify held inline after the control block's vptr and two counts
 * (libstdc++: 16 bytes), which releases `op` with TrackedOp::put(). */
#define SP_INPLACE_STORAGE	16

static void read_rd(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int self = st_arg(t, ARG_RDI);

	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t off;

		if (e->type == EV_CALL && e->target && e->target == in->fn[CF_TRACKEDOP_PUT].vaddr &&
		    e->args[0].add == 0 && st_is_load_of(t, e->args[0].node, self, &off) &&
		    off >= SP_INPLACE_STORAGE)
			set(&fx->rd_repmod, off - SP_INPLACE_STORAGE);
	}
}

/* OpInfo::check_rmw(int flag): `ceph_assert(rmw_flags != 0); return
 * rmw_flags & flag;` -- the first u64 read from this. */
static void read_cr(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int self = st_arg(t, ARG_RDI);

	(void)in;
	for (int i = 0; i < t->nev; i++)
		if (t->ev[i].type == EV_LOAD && t->ev[i].base == self && t->ev[i].size == 8) {
			set(&fx->cr_rmw, t->ev[i].off);
			return;
		}
}

/* {Replicated,EC}Backend / ECSwitch::submit_transaction(..., OpRequestRef op):
 * op is the last parameter, so the highest caller-frame slot the prologue
 * reads (before any call) is the pointer to it. */
static void read_sub(const struct symtrace *t, struct fact *f)
{
	int sp = st_sp(t);
	int64_t hi = -1;

	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type == EV_LOAD && !e->ncalls && e->base == sp && e->off > 0 &&
		    e->size == 8 && e->off > hi)
			hi = e->off;
	}
	if (hi > 0)
		set(f, hi);
}

/* --- a call op's class.method (OSDOp::indata, then bufferlist internals) */

/* How a function reads a call op's class.method: a call of `first` whose
 * argument fa is X + indata (X an OSDOp, or an element of the op vector),
 * then a call of `then` passing u8 [X + class_len] as argument ta, and the
 * next passing u8 [X + class_len + 1] (method_len); first and then may be
 * one function.  Sets indata, cls. */
struct call_question {
	uint64_t first, then;
	int fa, ta;
};

static bool u8_load_of(const struct symtrace *t, struct sval v, int base, int64_t *off)
{
	return v.node >= 0 && v.add == 0 && t->nodes[v.node].size == 1 &&
	       st_is_load_of(t, v.node, base, off);
}

static void read_call(const struct symtrace *t, const struct call_question *q,
		      struct fact *indata, struct fact *cls)
{
	int x = -1;
	bool seen = false;
	int64_t in = 0, c = 0;

	for (int i = 0; i < t->nev && q->first && q->then; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t off;

		if (e->type != EV_CALL || !e->target)
			continue;
		if (seen && e->target == q->then && u8_load_of(t, e->args[q->ta], x, &off) &&
		    off == c + 1) {
			set(indata, in);
			set(cls, c);
			return;
		}
		if (e->target == q->first && e->args[q->fa].node >= 0 &&
		    t->nodes[e->args[q->fa].node].kind != N_SP) {
			x = e->args[q->fa].node;
			in = e->args[q->fa].add;
			seen = false;
		}
		if (x >= 0 && !seen && e->target == q->then &&
		    u8_load_of(t, e->args[q->ta], x, &off)) {
			c = off;
			seen = true;
		}
	}
}

/* operator<<(std::ostream&, const OSDOp& op), CEPH_OSD_OP_CALL:
 * `op.indata.write(0, op.op.cls.class_len, out); out << ".";
 *  op.indata.write(op.op.cls.class_len, op.op.cls.method_len, out);` */
static void read_op_print(const struct symtrace *t, const struct derive_in *in,
			  struct facts *fx)
{
	const struct call_question q = { in->fn[CF_LIST_WRITE].vaddr, in->fn[CF_LIST_WRITE].vaddr,
					 ARG_RDI, ARG_RDX };

	read_call(t, &q, &fx->pr_indata, &fx->pr_cls);
}

/* OpInfo::set_from_op's CEPH_OSD_OP_CALL case: `bp = iter->indata.begin();
 * bp.copy(iter->op.cls.class_len, cname); bp.copy(iter->op.cls.method_len,
 * mname);` -- a list::iterator made on X + indata, then two copies. */
static void set_from_op_call(const struct symtrace *t, const struct derive_in *in,
			     struct fact *indata, struct fact *cls)
{
	const struct call_question q = { in->fn[CF_LIST_ITERATOR].vaddr,
					 in->fn[CF_ITER_COPY_STRING].vaddr, ARG_RSI, ARG_RSI };

	read_call(t, &q, indata, cls);
}

static void read_sfv(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	set_from_op_call(t, in, &fx->sfv_indata, &fx->sfv_cls);
}

/* list::iterator_impl<false>(list *l, unsigned o): `bl(l),
 * ls(&bl->_buffers), p(ls->begin())` -- the one 8-byte load from l, the
 * first node, stored into the iterator. */
static void read_iter_impl(const struct symtrace *t, const struct derive_in *in,
			   struct facts *fx)
{
	int self = st_arg(t, ARG_RDI), ls = st_arg(t, ARG_RSI);

	(void)in;
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t off;

		if (e->type == EV_STORE && e->base == self && e->src.add == 0 &&
		    e->src.node >= 0 && t->nodes[e->src.node].size == 8 &&
		    st_is_load_of(t, e->src.node, ls, &off))
			set(&fx->it_first, off);
	}
}

/* The first 4-byte load from node n: ptr::_len read through a ptr_node. */
static struct fact u32_of(const struct symtrace *t, int n)
{
	for (int i = 0; i < t->nev; i++)
		if (t->ev[i].type == EV_LOAD && t->ev[i].size == 4 && t->ev[i].base == n)
			return (struct fact){ 1, t->ev[i].off };
	return (struct fact){ 0, 0 };
}

/* list::c_str(): `return _buffers.front().c_str();` (after a rebuild when
 * the list has more than one node; 18 on first compare the first node's
 * length with the list's) -- a tail call of ptr::c_str() on
 * [this + first] + ptr. */
static void read_list_c_str(const struct symtrace *t, const struct derive_in *in,
			    struct facts *fx)
{
	int self = st_arg(t, ARG_RDI);

	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t f;

		if (e->type == EV_CALL && e->target && e->target == in->fn[CF_PTR_C_STR].vaddr &&
		    e->args[0].node >= 0 && t->nodes[e->args[0].node].size == 8 &&
		    st_is_load_of(t, e->args[0].node, self, &f)) {
			struct fact len = u32_of(t, e->args[0].node);

			set(&fx->lc_first, f);
			set(&fx->lc_node_ptr, e->args[0].add);
			if (len.ok)
				set(&fx->lc_len, len.v);
			return;
		}
	}
}

/* list::write(int off, int len, ostream& out): for each node of a
 * substr_of copy, `if (node.length()) out.write(node.c_str(), node.length())`
 * -- ptr::c_str() const on node + ptr, after a 4-byte read of the node
 * (ptr::_len through the node). */
static void read_list_write(const struct symtrace *t, const struct derive_in *in,
			    struct facts *fx)
{
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int n = e->args[0].node;

		if (e->type == EV_CALL && e->target &&
		    e->target == in->fn[CF_PTR_C_STR_CONST].vaddr && n >= 0 &&
		    t->nodes[n].kind == N_LOAD) {
			struct fact len = u32_of(t, n);

			set(&fx->lw_node_ptr, e->args[0].add);
			if (len.ok)
				set(&fx->lw_len, len.v);
			return;
		}
	}
}

/* ptr::c_str(), ptr::operator[](n), ptr::copy_out(o, l, dest): `_raw->
 * get_data() + _off (+ n)`, after `ceph_assert(_raw)` and, in the latter
 * two, a bound check against _len -- an 8-byte load of this (_raw) whose
 * node is loaded from (raw::data), and the 4-byte fields of this read:
 * _off alone, or _off and _len. */
static void read_ptr(const struct symtrace *t, struct ptr_reads *r)
{
	int self = st_arg(t, ARG_RDI), nu = 0;
	int64_t u[2];

	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t off;

		if (e->type != EV_LOAD || e->base < 0)
			continue;
		if (e->size == 4 && e->base == self) {
			bool known = false;

			for (int k = 0; k < nu && k < 2; k++)
				known |= u[k] == e->off;
			if (!known && nu++ < 2)	/* a third field: no answer */
				u[nu - 1] = e->off;
		}
		if (e->size == 8 && t->nodes[e->base].size == 8 &&
		    st_is_load_of(t, e->base, self, &off)) {
			set(&r->raw, off);
			set(&r->data, e->off);
		}
	}
	for (int k = 0; k < nu && nu <= 2; k++)
		set(&r->u32[k], u[k]);
}

/* OpInfo::set_from_op(const MOSDOp *m, const OSDMap&): since 18 it calls the
 * overload on `m->ops` (an address inside m); in 16 the loop is inline:
 * begin = [m + F], end = [m + F + 8], and each op's code (the u16 at the
 * element's start) is compared with CEPH_OSD_OP_* constants. */
static void read_sf(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int m = st_arg(t, ARG_RSI);

	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t f;

		if (e->type == EV_CALL && e->target && e->target == in->fn[CF_SET_FROM_OP_VEC].vaddr &&
		    e->args[1].node == m && e->args[1].add > 0)
			set(&fx->sf_ops, e->args[1].add);
		if (e->type == EV_CMP && e->size == 2 && e->imm > 0xff && e->node >= 0 &&
		    t->nodes[e->node].kind == N_LOAD && t->nodes[e->node].off == 0) {
			int begin = t->nodes[e->node].base;

			if (t->nodes[begin].size == 8 && st_is_load_of(t, begin, m, &f) &&
			    st_load(t, m, f + 8, 8) >= 0)
				set(&fx->sf_ops, f);
		}
	}
	set_from_op_call(t, in, &fx->sf_indata, &fx->sf_cls);
}

/* MOSDOp::clear_buffers(): `OSDOp::clear_data(ops);` -- this + ops passed
 * to clear_data<vector<OSDOp>>. */
static void read_cb(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int self = st_arg(t, ARG_RDI);

	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type == EV_CALL && e->target && e->target == in->fn[CF_OSDOP_CLEAR_DATA].vaddr &&
		    e->args[0].node == self && e->args[0].add > 0)
			set(&fx->cb_ops, e->args[0].add);
	}
}

/* OSDOp::{merge,split}_osd_op_vector_out_data(vector<OSDOp>& ops, ...) loop
 * `for (i = 0; i < ops.size(); i++)`: size() is the exact division of
 * end - begin by sizeof(OSDOp).  Every division there must say the same. */
static void read_osdop_size(const struct symtrace *t, struct fact *f)
{
	uint64_t size = 0;

	for (int i = 0; i < t->nev; i++) {
		uint64_t d;

		if (t->ev[i].type != EV_DIV)
			continue;
		d = st_exact_divisor(&t->ev[i]);
		if (!d || (size && d != size))
			return;		/* not one size: no answer */
		size = d;
	}
	if (size)
		set(f, (int64_t)size);
}

/* The functions that answer one question each into their own slot. */
#define READ_INTO(name, question, slot)					\
static void name(const struct symtrace *t, const struct derive_in *in, struct facts *fx) \
{									\
	(void)in;							\
	question(t, &fx->slot);						\
}
READ_INTO(read_rep_sub, read_sub, sub[0])
READ_INTO(read_ec_sub, read_sub, sub[1])
READ_INTO(read_ecswitch_sub, read_sub, sub[2])
READ_INTO(read_merge_out, read_osdop_size, merge_size)
READ_INTO(read_split_out, read_osdop_size, split_size)
READ_INTO(read_ptr_c_str, read_ptr, pc)
READ_INTO(read_ptr_c_str_const, read_ptr, pcc)
READ_INTO(read_ptr_at, read_ptr, pat)
READ_INTO(read_ptr_copy_out, read_ptr, pco)
#undef READ_INTO

/* PrimaryLogPG::fill_in_copy_get_noent(OpRequestRef&, hobject_t, OSDOp& osd_op):
 * `osd_op.rval = -ENOENT;` -- a 4-byte store of -2 into the OSDOp (%rcx). */
#define MINUS_ENOENT	(-2)

static void read_noent(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int osd_op = st_arg(t, ARG_RCX);

	(void)in;
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type == EV_STORE && e->base == osd_op && e->size == 4 &&
		    e->has_imm && (int32_t)e->imm == MINUS_ENOENT)
			set(&fx->noent_rval, e->off);
	}
}

/* --- the slowest ops' PG and object (MOSDOp) ------------------------- */

/* MOSDOp::print(ostream& out): `out << pgid;` and, once decoded, `out <<
 * hobj` -- this + F passed to operator<<(ostream&, const spg_t&), and
 * this + H to operator<<(ostream&, const hobject_t&). */
static void read_mosdop_print(const struct symtrace *t, const struct derive_in *in,
			      struct facts *fx)
{
	int self = st_arg(t, ARG_RDI);
	uint64_t spg = in->fn[CF_SPG_PRINT].vaddr, hobj = in->fn[CF_HOBJ_PRINT].vaddr;

	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type != EV_CALL || !e->target || e->args[1].node != self ||
		    e->args[1].add <= 0)
			continue;
		if (e->target == spg)
			set(&fx->pr_pgid, e->args[1].add);
		if (e->target == hobj)
			set(&fx->pr_hobj, e->args[1].add);
	}
}

/* MOSDOp::get_spg(): `ceph_assert(!partial_decode_needed); return pgid;` --
 * an spg_t (24 bytes, MEMORY class) returned through the pointer in %rdi,
 * this in %rsi: each store into the result at k is of the bytes loaded
 * from this + F + k, one F for all, and one store is at k = 0. */
static void read_get_spg(const struct symtrace *t, const struct derive_in *in,
			 struct facts *fx)
{
	int ret = st_arg(t, ARG_RDI), self = st_arg(t, ARG_RSI);
	int64_t pgid = -1;
	bool first = false;

	(void)in;
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t off;

		if (e->type != EV_STORE || e->base != ret)
			continue;
		if (e->src.add || !st_is_load_of(t, e->src.node, self, &off) ||
		    (pgid >= 0 && off - e->off != pgid))
			return;		/* not one copy of this + F */
		pgid = off - e->off;
		first |= !e->off;
	}
	if (first)
		set(&fx->spg_pgid, pgid);
}

/* MOSDOp::get_pg(): `ceph_assert(!partial_decode_needed); return
 * pgid.pgid;` -- a pg_t (16 bytes, INTEGER class) returned in %rax:%rdx:
 * before any call, this's 8-byte loads are the two at F and F + 8. */
static void read_get_pg(const struct symtrace *t, const struct derive_in *in,
			struct facts *fx)
{
	int self = st_arg(t, ARG_RDI), n = 0;
	int64_t off[2] = { 0, 0 };

	(void)in;
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type != EV_LOAD || e->ncalls || e->base != self || e->size != 8 ||
		    (n && off[0] == e->off) || (n == 2 && off[1] == e->off))
			continue;
		if (n == 2)
			return;		/* a third field: not pg_t alone */
		off[n++] = e->off;
	}
	if (n == 2 && (off[1] - off[0] == 8 || off[0] - off[1] == 8))
		set(&fx->pg_pgid, off[0] < off[1] ? off[0] : off[1]);
}

/* MOSDOp::finish_decode(): `decode(hobj.oid, p);` -- object_t decodes its
 * name with `p.copy(len, name)`: the std::string& of the first call of
 * list::iterator_impl<true>::copy(unsigned, std::string&) is this + N (the
 * other strings it fills, nspace and key, are assigned from the decoded
 * object_locator_t). */
static void read_finish_decode(const struct symtrace *t, const struct derive_in *in,
			       struct facts *fx)
{
	int self = st_arg(t, ARG_RDI);
	uint64_t copy = in->fn[CF_CITER_COPY_STRING].vaddr;

	for (int i = 0; i < t->nev && copy; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type == EV_CALL && e->target == copy) {
			if (e->args[2].node == self && e->args[2].add > 0)
				set(&fx->fd_name, e->args[2].add);
			return;
		}
	}
}

/* MOSDOp::get_object_locator(): `ceph_assert(!final_decode_needed); if
 * (hobj.oid.name.empty())` -- the first compare of an 8-byte field of this
 * (%rsi; the result is returned through %rdi) with 0 is the name's length. */
static void read_get_oloc(const struct symtrace *t, const struct derive_in *in,
			  struct facts *fx)
{
	int self = st_arg(t, ARG_RSI);

	(void)in;
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t off;

		if (e->type == EV_CMP && e->size == 8 && e->imm == 0 &&
		    st_is_load_of(t, e->node, self, &off)) {
			set(&fx->ol_name_len, off);
			return;
		}
	}
}

/* --- the rest of the object (hobject_t) ------------------------------ */

/* libstdc++'s std::string (the C++11 ABI): _M_dataplus._M_p, then
 * size_type _M_string_length. */
#define STRING_LENGTH		8

/* Is argument k of call e the size bytes of o's field at *off? */
static bool field_arg(const struct symtrace *t, const struct st_event *e, int k, int o,
		      int size, int64_t *off)
{
	const struct sval v = e->args[k];

	return v.node >= 0 && !v.add && t->nodes[v.node].size == size &&
	       st_is_load_of(t, v.node, o, off);
}

/* Does call e pass a std::string field of o (at *off) from argument k on:
 * by reference, o + off in k, or as GCC passes a string_view of it, its
 * data pointer [o + off] and length [o + off + STRING_LENGTH] in k and
 * k + 1, either way round? */
static bool string_arg(const struct symtrace *t, const struct st_event *e, int k, int o,
		       int64_t *off)
{
	int64_t a, b;

	if (o >= 0 && e->args[k].node == o && e->args[k].add >= 0) {
		*off = e->args[k].add;
		return true;
	}
	if (k + 1 >= NR_ARGS || !field_arg(t, e, k, o, 8, &a) || !field_arg(t, e, k + 1, o, 8, &b))
		return false;
	if (b == a + STRING_LENGTH || a == b + STRING_LENGTH) {
		*off = a < b ? a : b;
		return true;
	}
	return false;
}

/* The field of o, size bytes, that the first call passing one in an
 * argument register passes. */
static struct fact first_field_passed(const struct symtrace *t, int o, int size)
{
	for (int i = 0; i < t->nev; i++) {
		int64_t off;

		if (t->ev[i].type != EV_CALL)
			continue;
		for (int k = 0; k < NR_ARGS; k++)
			if (field_arg(t, &t->ev[i], k, o, size, &off))
				return (struct fact){ 1, off };
	}
	return (struct fact){ 0, 0 };
}

/* `out << o.snap`, `if (snap == CEPH_NOSNAP)`: snapid_t's printing
 * compares it with CEPH_NOSNAP ((__u64)(-2)) first -- the first compare of
 * an 8-byte field of o with -2. */
#define CEPH_NOSNAP		(-2)

static struct fact nosnap_compared(const struct symtrace *t, int o)
{
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t off;

		if (e->type == EV_CMP && e->size == 8 && e->imm == CEPH_NOSNAP &&
		    st_is_load_of(t, e->node, o, &off))
			return (struct fact){ 1, off };
	}
	return (struct fact){ 0, 0 };
}

/* `append_escaped(s, &out)` of three strings of o: the one function (a
 * local one: any callee) that three calls pass a string of o to, its three
 * fields in call order in off[]; 0 if no such function, or two. */
static int escaped_three(const struct symtrace *t, int o, int64_t off[3])
{
	struct { uint64_t target; int64_t off; } c[PAIR_MAX];
	uint64_t found = 0;
	int n = 0;

	for (int i = 0; i < t->nev && n < PAIR_MAX; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type == EV_CALL && e->target && string_arg(t, e, ARG_RDI, o, &c[n].off))
			c[n++].target = e->target;
	}
	for (int i = 0; i < n; i++) {
		int same = 0;

		for (int j = 0; j < n; j++)
			same += c[j].target == c[i].target;
		if (same != 3 || c[i].target == found)
			continue;
		if (found)
			return 0;	/* two such functions: no answer */
		found = c[i].target;
	}
	for (int i = 0, k = 0; found && i < n; i++)
		if (c[i].target == found)
			off[k++] = c[i].off;
	return found != 0;
}

/* hobject_t's first member is `object_t oid`, whose only member is
 * `std::string name` (src/common/hobject.h, include/object.h): the name
 * is at hobj + 0. */
#define HOBJ_OID_NAME		0

/* Three strings that are (a, b, name) with name at HOBJ_OID_NAME (as a
 * check: else none of them is trusted) and a, b two other places. */
static bool two_and_name(const int64_t off[3], int name)
{
	const int64_t a = off[name == 0 ? 1 : 0], b = off[name == 2 ? 1 : 2];

	return off[name] == HOBJ_OID_NAME && a != b && a != HOBJ_OID_NAME && b != HOBJ_OID_NAME;
}

/* operator<<(ostream& out, const hobject_t& o) (src/common/hobject.cc):
 * after `if (o == hobject_t()) return out << "MIN";` (a default hobject_t
 * built on the stack: not o) and `if (o.is_max())`, `out << o.pool <<
 * ':'; ... out << o.get_bitwise_key_u32();` (hash_reverse_bits) -- the first
 * calls passing an 8-byte, and a 4-byte, field of o; `append_escaped(
 * o.nspace, &v); ... append_escaped(o.get_key(), &v); ...
 * append_escaped(o.oid.name, &v);` -- nspace, key, name; `out << v << ':'
 * << o.snap;`. */
static void read_hobj_print(const struct symtrace *t, const struct derive_in *in,
			    struct facts *fx)
{
	int o = st_arg(t, ARG_RSI);
	int64_t s[3];

	(void)in;
	fx->hp.pool = first_field_passed(t, o, 8);
	fx->hp.revhash = first_field_passed(t, o, 4);
	fx->hp.snap = nosnap_compared(t, o);
	if (escaped_three(t, o, s) && two_and_name(s, 2)) {
		set(&fx->hp.nspace, s[0]);
		set(&fx->hp.key, s[1]);
	}
}

/* hobject_t::to_str(): `t += snprintf(t, end - t, "%.*llX", 16, (long
 * long unsigned)poolid);`, then the same of get_nibblewise_key_u32() --
 * the first calls passing an 8-byte, and a 4-byte, field of this; `if
 * (snap == CEPH_NOSNAP)`; `append_escaped(oid.name, &out); ...
 * (get_key(), &out); ... (nspace, &out);`.  The result is returned through
 * %rdi, this is in %rsi.  (20's formats with fmt and reads the rest
 * through a copy of this on its stack: only its pool answers.) */
static void read_hobj_to_str(const struct symtrace *t, const struct derive_in *in,
			     struct facts *fx)
{
	int o = st_arg(t, ARG_RSI);
	int64_t s[3];

	(void)in;
	fx->hs.pool = first_field_passed(t, o, 8);
	fx->hs.nibble = first_field_passed(t, o, 4);
	fx->hs.snap = nosnap_compared(t, o);
	if (escaped_three(t, o, s) && two_and_name(s, 0)) {
		set(&fx->hs.key, s[1]);
		set(&fx->hs.nspace, s[2]);
	}
}

/*
 * hobject_t::dump(Formatter *f): `f->dump_string("oid", oid.name);
 * f->dump_string("key", key); f->dump_int("snapid", snap);
 * f->dump_int("hash", hash); f->dump_int("max", (int)max);
 * f->dump_int("pool", pool); f->dump_string("namespace", nspace);` --
 * seven virtual calls on f (the last a tail call), each passing its name
 * as a string_view (%rsi, %rdx) then the value: a string_view of a string
 * of this from %rcx, or an integer field in %rcx (8, 4, 1, 8 bytes).  All
 * seven must be so, and the first the name, or none is trusted.
 */
#define DUMP_CALLS	7
#define DUMP_STRING	0

static void read_hobj_dump(const struct symtrace *t, const struct derive_in *in,
			   struct facts *fx)
{
	static const int kind[DUMP_CALLS] = { DUMP_STRING, DUMP_STRING, 8, 4, 1, 8, DUMP_STRING };
	int o = st_arg(t, ARG_RDI), f = st_arg(t, ARG_RSI), n = 0;
	int64_t off[DUMP_CALLS];

	(void)in;
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type != EV_CALL || e->target || e->args[0].node != f || e->args[0].add)
			continue;
		if (n == DUMP_CALLS ||
		    !(kind[n] == DUMP_STRING ? string_arg(t, e, ARG_RCX, o, &off[n]) :
		      field_arg(t, e, ARG_RCX, o, kind[n], &off[n])))
			return;		/* not dump()'s seven fields */
		n++;
	}
	if (n != DUMP_CALLS || off[0] != HOBJ_OID_NAME)
		return;
	set(&fx->hd.key, off[1]);
	set(&fx->hd.snap, off[2]);
	set(&fx->hd.hash, off[3]);
	set(&fx->hd.max, off[4]);
	set(&fx->hd.pool, off[5]);
	set(&fx->hd.nspace, off[6]);
}

/* MOSDOp::get_snapid(): `ceph_assert(!final_decode_needed); return
 * hobj.snap;` -- this's 8-byte loads (the flag is one byte) are all of
 * one field, hobj.snap in MOSDOp. */
static void read_get_snapid(const struct symtrace *t, const struct derive_in *in,
			    struct facts *fx)
{
	int self = st_arg(t, ARG_RDI);
	int64_t snap = -1;

	(void)in;
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type != EV_LOAD || e->base != self || e->size != 8)
			continue;
		if (snap >= 0 && e->off != snap)
			return;		/* two fields: not this accessor */
		snap = e->off;
	}
	if (snap >= 0)
		set(&fx->sn_snap, snap);
}

/* OSDOp's declaration ends `bufferlist indata, outdata; errorcode32_t rval;`
 * (src/osd/osd_types.h, 16 to 20): rval, 4 bytes, is the last member of an
 * 8-aligned struct, so it sits 8 bytes before its end. */
static struct fact rval_last_member(struct fact size)
{
	return (struct fact){ size.ok && size.v >= 8, size.v - 8 };
}

/* --- the SysV ABI witnesses ------------------------------------------ */

/*
 * Where a parameter lives at entry, from the signature alone: INTEGER
 * parameters take %rdi..%r9 then 8-byte caller-frame slots from entry
 * %rsp + 8; a MEMORY-class one (an aggregate over 16 bytes) takes its size
 * rounded to 8 in the frame.  Sizes of Ceph's by-value aggregates here:
 * spg_t = pg_t (u64 m_pool, u32 m_seed: 16) + shard_id_t (s8) = 24;
 * osd_reqid_t = entity_name_t (u8 + s64: 16) + u64 tid + s32 inc = 32.
 * A non-trivially copyable class (intrusive_ptr) is passed as a pointer.
 */
struct abi_param {
	int mem_size;		/* 0: INTEGER class */
};

static int64_t abi_stack_slot(const struct abi_param *p, int n, int which)
{
	int regs = 0;
	int64_t slot = 8;

	for (int i = 0; i < n; i++) {
		if (!p[i].mem_size && regs < NR_ARGS) {
			regs++;
			if (i == which)
				return -1;	/* in a register */
			continue;
		}
		if (i == which)
			return slot;
		slot += p[i].mem_size ? (p[i].mem_size + 7) / 8 * 8 : 8;
	}
	return -1;
}

/* OSD::enqueue_op(this, spg_t, OpRequestRef&&, epoch_t): the spg_t. */
static int64_t abi_enqueue_spg(void)
{
	static const struct abi_param p[] = { {0}, {24}, {0}, {0} };

	return abi_stack_slot(p, 4, 1);
}

/* submit_transaction(this, soid&, delta&, at_version&, t&&, trim_to&,
 * min_last_complete_ondisk&, log_entries&&, hset_history&, on_all_commit,
 * tid, osd_reqid_t reqid, OpRequestRef op): the op. */
static int64_t abi_submit_op(void)
{
	static const struct abi_param p[] = {
		{0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {32}, {0} };

	return abi_stack_slot(p, 13, 12);
}

/* --- agreement --------------------------------------------------------- */

/* What function cf says, under the name fmt makes (a sum of two functions'
 * answers, an ABI fact); cf CF_NONE: asked whatever the binary has. */
__attribute__((format(printf, 5, 6)))
static void add_as(struct offset_witnesses *w, enum ceph_fn cf, const struct derive_in *in,
		   struct fact f, const char *fmt, ...)
{
	va_list ap;

	if (cf != CF_NONE && !in->fn[cf].vaddr)
		return;		/* the binary has no such function: not looked at */
	va_start(ap, fmt);
	answer(w, f.ok, f.v, fmt, ap);
	va_end(ap);
}

/* What function cf says, by its name. */
static void add(struct offset_witnesses *w, enum ceph_fn cf, const struct derive_in *in,
		struct fact f)
{
	add_as(w, cf, in, f, "%s", ceph_fn_pretty[cf]);
}

/* Judges one offset: 0 and *val if >= 2 answers and all agree.  why gets
 * the witness list, or the reason. */
static int judge(const struct offset_witnesses *w, int64_t *val, char *why, size_t len)
{
	int found = 0, first = -1;
	size_t o = 0;

	why[0] = 0;
	for (int i = 0; i < w->n; i++) {
		if (!w->a[i].found)
			continue;
		found++;
		if (first < 0)
			first = i;
	}
	for (int i = 0; first >= 0 && i < w->n; i++) {
		if (!w->a[i].found || w->a[i].val == w->a[first].val)
			continue;
		snprintf(why, len, "witnesses disagree: %s says 0x%llx, %s says 0x%llx",
			 w->a[first].who, (unsigned long long)w->a[first].val,
			 w->a[i].who, (unsigned long long)w->a[i].val);
		return -1;
	}
	if (found < 2) {
		o = (size_t)snprintf(why, len, "%s witness (looked at: ",
				     found ? "only one" : "no");
		for (int i = 0; i < w->n && o < len; i++)
			o += (size_t)snprintf(why + o, len - o, "%s%s%s", i ? ", " : "",
					      w->a[i].who, w->a[i].found ? " [found]" : "");
		if (!w->n && o < len)
			o += (size_t)snprintf(why + o, len - o, "none in this binary");
		if (o < len)
			snprintf(why + o, len - o, ")");
		return -1;
	}
	for (int i = 0; i < w->n && o < len; i++)
		if (w->a[i].found)
			o += (size_t)snprintf(why + o, len - o, "%s%s", o ? ", " : "", w->a[i].who);
	*val = w->a[first].val;
	return 0;
}

static uint32_t *field(struct osd_offsets *offs, enum osd_off o)
{
#define OFF_FIELD(id, name, need) case id: return &offs->name;
	switch (o) {
	OSDHIST_OFFSETS(OFF_FIELD)
	default: return &offs->pad;
	}
#undef OFF_FIELD
}

uint32_t osd_off_get(const struct osd_offsets *offs, enum osd_off o)
{
	return *field((struct osd_offsets *)offs, o);
}

static struct fact sum(struct fact a, struct fact b)
{
	return (struct fact){ a.ok && b.ok, a.v + b.v };
}

static struct fact abi(int64_t v)
{
	return (struct fact){ v >= 0, v };
}

/* What each function's code is asked: cephfns.h's derive column. */
typedef void reader_fn(const struct symtrace *t, const struct derive_in *in, struct facts *fx);

#define DERIVE_READ(fn)	fn
#define DERIVE_CALLEE	NULL
#define DERIVE_NONE	NULL
#define CF_READER(id, pretty, derive, symbol) [id] = derive,
static reader_fn *const reader[NR_CEPH_FNS] = { OSDHIST_CEPH_FNS(CF_READER) };
#undef CF_READER
#undef DERIVE_READ
#undef DERIVE_CALLEE
#undef DERIVE_NONE

bool derive_reads_code(enum ceph_fn f)
{
	return f >= 0 && f < NR_CEPH_FNS && reader[f];
}

static void read_all(const struct derive_in *in, struct facts *fx, struct symtrace *t)
{
	for (int f = 0; f < NR_CEPH_FNS; f++) {
		const struct derive_code *c = &in->fn[f];

		if (!reader[f] || !c->vaddr || !c->code || !c->len ||
		    symtrace_run(c->code, c->len, c->vaddr, t))
			continue;
		reader[f](t, in, fx);
	}
}

/* --- each offset's witnesses (maps/osdhist.h's rows) ------------------ */

typedef void witnesses_fn(const struct derive_in *in, const struct facts *fx,
			  struct offset_witnesses *w);

static void witnesses_op_request(const struct derive_in *in, const struct facts *fx,
				 struct offset_witnesses *w)
{
	add(w, CF_MAYBE_INIT_OP_INFO, in, fx->mi_request);
	add(w, CF_LOG_OP_STATS, in, fx->ls_request);
	add(w, CF_DEQUEUE_OP, in, fx->dq_request);
	add(w, CF_ENQUEUE_OP, in, fx->eq_request);
	add(w, CF_OPREQUEST_CTOR, in, fx->ct_request);
	add(w, CF_REPOP_COMMIT, in, fx->rc_request);
}

static void witnesses_op_rmw(const struct derive_in *in, const struct facts *fx,
			     struct offset_witnesses *w)
{
	add(w, CF_MAYBE_INIT_OP_INFO, in, fx->mi_rmw);
	if (in->fn[CF_CHECK_RMW].vaddr)
		add_as(w, CF_LOG_OP_STATS, in, sum(fx->ls_opinfo, fx->cr_rmw), "%s+%s",
		       ceph_fn_pretty[CF_LOG_OP_STATS], ceph_fn_pretty[CF_CHECK_RMW]);
}

static void witnesses_op_dequeued(const struct derive_in *in, const struct facts *fx,
				  struct offset_witnesses *w)
{
	add(w, CF_LOG_OP_STATS, in, fx->ls_dequeued);
	add(w, CF_DEQUEUE_OP, in, fx->dq_dequeued);
}

static void witnesses_msg_type(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	add(w, CF_OPREQUEST_CTOR, in, fx->ct_type);
	add(w, CF_REPOP_COMMIT, in, fx->rc_type);
}

static void witnesses_msg_recv(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	add(w, CF_LOG_OP_STATS, in, fx->ls_recv);
	add(w, CF_DEQUEUE_OP, in, fx->dq_recv);
	add(w, CF_ENQUEUE_OP, in, fx->eq_recv);
}

static void witnesses_repmod_op(const struct derive_in *in, const struct facts *fx,
				struct offset_witnesses *w)
{
	add(w, CF_REPOP_COMMIT, in, fx->rc_repmod);
	add(w, CF_REPMOD_DISPOSE, in, fx->rd_repmod);
}

static void witnesses_sp_spg(const struct derive_in *in, const struct facts *fx,
			     struct offset_witnesses *w)
{
	add(w, CF_ENQUEUE_OP, in, fx->eq_spg);
	add_as(w, CF_ENQUEUE_OP, in, abi(abi_enqueue_spg()), "SysV ABI of %s's signature",
	       ceph_fn_pretty[CF_ENQUEUE_OP]);
}

static void witnesses_sp_submit_op(const struct derive_in *in, const struct facts *fx,
				   struct offset_witnesses *w)
{
	add(w, CF_REP_SUBMIT, in, fx->sub[0]);
	add(w, CF_EC_SUBMIT, in, fx->sub[1]);
	add(w, CF_ECSWITCH_SUBMIT, in, fx->sub[2]);
	if (in->fn[CF_REP_SUBMIT].vaddr || in->fn[CF_EC_SUBMIT].vaddr)
		add_as(w, CF_NONE, in, abi(abi_submit_op()),
		       "SysV ABI of submit_transaction's signature");
}

static void witnesses_mosdop_ops(const struct derive_in *in, const struct facts *fx,
				 struct offset_witnesses *w)
{
	add(w, CF_SET_FROM_OP, in, fx->sf_ops);
	add(w, CF_MOSDOP_CLEAR_BUFFERS, in, fx->cb_ops);
}

static void witnesses_osdop_size(const struct derive_in *in, const struct facts *fx,
				 struct offset_witnesses *w)
{
	add(w, CF_OSDOP_MERGE_OUT, in, fx->merge_size);
	add(w, CF_OSDOP_SPLIT_OUT, in, fx->split_size);
}

/* sizeof(OSDOp) as both out_data functions agree on it, else none. */
static struct fact osdop_size(const struct facts *fx)
{
	return fx->merge_size.ok && fx->split_size.ok && fx->merge_size.v == fx->split_size.v ?
	       fx->merge_size : (struct fact){ 0, 0 };
}

static void witnesses_osdop_rval(const struct derive_in *in, const struct facts *fx,
				 struct offset_witnesses *w)
{
	struct fact size = osdop_size(fx);

	add(w, CF_FILL_IN_COPY_GET_NOENT, in, fx->noent_rval);
	if (in->fn[CF_OSDOP_MERGE_OUT].vaddr || in->fn[CF_OSDOP_SPLIT_OUT].vaddr)
		add_as(w, CF_NONE, in, rval_last_member(size),
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

	add(w, CF_OSDOP_PRINT, in, fx->pr_indata);
	add(w, CF_SET_FROM_OP, in, in_element(fx->sf_indata, size));
	add(w, CF_SET_FROM_OP_VEC, in, in_element(fx->sfv_indata, size));
	if (in->fn[CF_OSDOP_MERGE_OUT].vaddr || in->fn[CF_OSDOP_SPLIT_OUT].vaddr)
		add_as(w, CF_NONE, in, indata_before_end(size),
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

	add(w, CF_OSDOP_PRINT, in, fx->pr_cls);
	add(w, CF_SET_FROM_OP, in, in_element(fx->sf_cls, size));
	add(w, CF_SET_FROM_OP_VEC, in, in_element(fx->sfv_cls, size));
	add_as(w, CF_NONE, in, abi(WIRE_CLASS_LEN), "the wire format of ceph_osd_op");
}

static void witnesses_bl_first(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	add(w, CF_LIST_ITER_IMPL, in, fx->it_first);
	add(w, CF_LIST_C_STR, in, fx->lc_first);
}

static void witnesses_node_ptr(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	add(w, CF_LIST_C_STR, in, fx->lc_node_ptr);
	add(w, CF_LIST_WRITE, in, fx->lw_node_ptr);
}

static void witnesses_ptr_raw(const struct derive_in *in, const struct facts *fx,
			      struct offset_witnesses *w)
{
	add(w, CF_PTR_C_STR, in, fx->pc.raw);
	add(w, CF_PTR_C_STR_CONST, in, fx->pcc.raw);
	add(w, CF_PTR_AT, in, fx->pat.raw);
	add(w, CF_PTR_COPY_OUT, in, fx->pco.raw);
}

/* c_str reads one 4-byte field, _off; operator[] and copy_out two. */
static struct fact only_u32(const struct ptr_reads *r)
{
	return r->u32[1].ok ? (struct fact){ 0, 0 } : r->u32[0];
}

static void witnesses_ptr_off(const struct derive_in *in, const struct facts *fx,
			      struct offset_witnesses *w)
{
	add(w, CF_PTR_C_STR, in, only_u32(&fx->pc));
	add(w, CF_PTR_C_STR_CONST, in, only_u32(&fx->pcc));
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
		add_as(w, CF_PTR_AT, in, other_u32(&fx->pat, off), "%s+%s",
		       ceph_fn_pretty[CF_PTR_AT], ceph_fn_pretty[CF_PTR_C_STR]);
		add_as(w, CF_PTR_COPY_OUT, in, other_u32(&fx->pco, off), "%s+%s",
		       ceph_fn_pretty[CF_PTR_COPY_OUT], ceph_fn_pretty[CF_PTR_C_STR]);
	}
	add(w, CF_LIST_C_STR, in, in_ptr(fx->lc_len, fx->lc_node_ptr));
	add(w, CF_LIST_WRITE, in, in_ptr(fx->lw_len, fx->lw_node_ptr));
}

static void witnesses_raw_data(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	add(w, CF_PTR_C_STR, in, fx->pc.data);
	add(w, CF_PTR_C_STR_CONST, in, fx->pcc.data);
	add(w, CF_PTR_AT, in, fx->pat.data);
	add(w, CF_PTR_COPY_OUT, in, fx->pco.data);
}

/* What judge() makes of fn's witnesses: a layout fact built on another
 * offset uses the value osdhist derives for it, by the same rule. */
static struct fact derived(witnesses_fn *fn, const struct derive_in *in,
			   const struct facts *fx)
{
	struct offset_witnesses w;
	char why[256];
	int64_t v = 0;

	memset(&w, 0, sizeof(w));
	fn(in, fx, &w);
	return (struct fact){ !judge(&w, &v, why, sizeof(why)), v };
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
	add(w, CF_OPREQUEST_CTOR, in, fx->ct_reqid);
	add_as(w, CF_NONE, in, reqid_after_request(derived(witnesses_op_request, in, fx)),
	       "OpRequest::request + 8 (reqid follows it)");
}

static struct fact name_of_len(struct fact len)
{
	return (struct fact){ len.ok && len.v >= STRING_LENGTH, len.v - STRING_LENGTH };
}

static void witnesses_mosdop_oid(const struct derive_in *in, const struct facts *fx,
				 struct offset_witnesses *w)
{
	add(w, CF_MOSDOP_PRINT, in, sum(fx->pr_hobj, abi(HOBJ_OID_NAME)));
	add(w, CF_MOSDOP_FINISH_DECODE, in, fx->fd_name);
	add(w, CF_MOSDOP_GET_OLOC, in, name_of_len(fx->ol_name_len));
}

static void witnesses_mosdop_pgid(const struct derive_in *in, const struct facts *fx,
				  struct offset_witnesses *w)
{
	add(w, CF_MOSDOP_PRINT, in, fx->pr_pgid);
	add(w, CF_MOSDOP_GET_SPG, in, fx->spg_pgid);
	add(w, CF_MOSDOP_GET_PG, in, fx->pg_pgid);
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
	add(w, CF_HOBJ_PRINT, in, fx->hp.snap);
	add(w, CF_HOBJ_DUMP, in, fx->hd.snap);
	add(w, CF_HOBJ_TO_STR, in, fx->hs.snap);
	add_as(w, CF_MOSDOP_GET_SNAPID, in,
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
	add(w, CF_HOBJ_PRINT, in, fx->hp.revhash);
	add_as(w, CF_HOBJ_DUMP, in, revhash_of_hash(&fx->hd),
	       "%s's hash + 12 (hash, max, nibblewise_key_cache, hash_reverse_bits)",
	       ceph_fn_pretty[CF_HOBJ_DUMP]);
	add_as(w, CF_HOBJ_TO_STR, in, revhash_of_nibble(fx->hs.nibble),
	       "%s's nibblewise_key_cache + 4 (hash_reverse_bits follows it)",
	       ceph_fn_pretty[CF_HOBJ_TO_STR]);
}

static void witnesses_hobj_pool(const struct derive_in *in, const struct facts *fx,
				struct offset_witnesses *w)
{
	add(w, CF_HOBJ_PRINT, in, fx->hp.pool);
	add(w, CF_HOBJ_DUMP, in, fx->hd.pool);
	add(w, CF_HOBJ_TO_STR, in, fx->hs.pool);
}

static void witnesses_hobj_nspace(const struct derive_in *in, const struct facts *fx,
				  struct offset_witnesses *w)
{
	add(w, CF_HOBJ_PRINT, in, fx->hp.nspace);
	add(w, CF_HOBJ_DUMP, in, fx->hd.nspace);
	add(w, CF_HOBJ_TO_STR, in, fx->hs.nspace);
}

static void witnesses_hobj_key(const struct derive_in *in, const struct facts *fx,
			       struct offset_witnesses *w)
{
	add(w, CF_HOBJ_PRINT, in, fx->hp.key);
	add(w, CF_HOBJ_DUMP, in, fx->hd.key);
	add(w, CF_HOBJ_TO_STR, in, fx->hs.key);
}

/* A row without its witnesses_FIELD() does not compile. */
#define OFF_WITNESSES(id, field, need) [id] = witnesses_##field,
static witnesses_fn *const witnesses[NR_OFFS] = { OSDHIST_OFFSETS(OFF_WITNESSES) };
#undef OFF_WITNESSES

int derive_offsets(const struct derive_in *in, const char *build_id,
		   struct derive_out *out, char *err, size_t errlen)
{
	struct symtrace *t = malloc(sizeof(*t));
	struct facts fx;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	memset(&fx, 0, sizeof(fx));
	if (!t) {
		snprintf(err, errlen, "out of memory deriving offsets for build-id %s", build_id);
		return -1;
	}
	read_all(in, &fx, t);
	free(t);

	for (int o = 0; o < NR_OFFS; o++) {
		struct offset_witnesses w;
		int64_t v;

		memset(&w, 0, sizeof(w));
		witnesses[o](in, &fx, &w);
		if (judge(&w, &v, out->why[o], sizeof(out->why[o]))) {
			if (!ret && (OFFS_REQUIRED & OFF_BIT(o))) {
				snprintf(err, errlen, "build-id %s: cannot derive %s: %s; osdhist "
					 "traces no binary with an offset it cannot prove",
					 build_id, osd_off_name[o], out->why[o]);
				ret = -1;
			}
			continue;
		}
		*field(&out->offs, o) = (uint32_t)v;
		out->have |= OFF_BIT(o);
	}
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The readers of the op's path: what OpRequest's, the OSD's and the
 * backends' functions, a call op's class.method on its way through
 * OSDOp and bufferlist, and OSDOp's size and rval say about the offsets.
 * Each reader (cephfns.h's DERIVE_READ) asks one function's symbolic trace
 * (symtrace.h) its questions and sets the facts it answers
 * (derive_facts.h); derive_read_obj.c reads the slowest ops' PG and object.
 */
#include "derive_facts.h"

/* A pair of 4-byte loads at off and off + 4 from node base: a utime_t
 * (sec, nsec) read field by field.  The lower offset, or -1.  Bounded:
 * one pass over the events, then pairs among the first PAIR_MAX loads. */
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
void read_mi(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int self = st_arg(t, ARG_0);

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
void read_ls(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int op = st_arg(t, ARG_1);
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
 * op arrives by invisible reference in argument 2. */
void read_dq(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int op = st_load(t, st_arg(t, ARG_2), 0, 8);

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
 * is `stamp = op->get_req()->get_recv_stamp()`, read before any call.  The
 * spg_t: SysV passes it in the caller's frame (MEMORY class), read in the
 * prologue, so the lowest stack slot read before a call; AAPCS64 passes a
 * pointer to the caller's copy in x1 (and op in x2), which the function
 * copies into the PGOpItem it queues, after operator new: the lowest
 * offset read through that pointer is where the copy starts, pgid.m_pool. */
void read_eq(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	const bool byref = in->arch == ST_ARM64;
	int op = st_load(t, st_arg(t, byref ? ARG_2 : ARG_1), 0, 8);
	int spg = byref ? st_arg(t, ARG_1) : st_sp(t);
	int64_t first = byref ? 0 : t->stack_args, lowest = -1;

	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];
		int64_t f;

		if (e->type != EV_LOAD || (e->ncalls && !byref))
			continue;
		if (spg >= 0 && e->base == spg && e->off >= first && (lowest < 0 || e->off < lowest))
			lowest = e->off;
		if (e->ncalls)
			continue;
		if (op >= 0 && !fx->eq_recv.ok && t->nodes[e->base].size == 8 &&
		    st_is_load_of(t, e->base, op, &f)) {
			set(&fx->eq_request, f);
			set(&fx->eq_recv, e->off);
		}
	}
	if (lowest >= 0)
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
void read_ct(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int self = st_arg(t, ARG_0), msg = st_arg(t, ARG_1);

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
void read_rc(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int rm = st_load(t, st_arg(t, ARG_1), 0, 8);

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

void read_rd(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int self = st_arg(t, ARG_0);

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
void read_cr(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int self = st_arg(t, ARG_0);

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

		if (e->type == EV_LOAD && !e->ncalls && e->base == sp &&
		    e->off >= t->stack_args && e->size == 8 && e->off > hi)
			hi = e->off;
	}
	if (hi >= 0)
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
void read_op_print(const struct symtrace *t, const struct derive_in *in,
		   struct facts *fx)
{
	const struct call_question q = { in->fn[CF_LIST_WRITE].vaddr, in->fn[CF_LIST_WRITE].vaddr,
					 ARG_0, ARG_2 };

	read_call(t, &q, &fx->pr_indata, &fx->pr_cls);
}

/* OpInfo::set_from_op's CEPH_OSD_OP_CALL case: `bp = iter->indata.begin();
 * bp.copy(iter->op.cls.class_len, cname); bp.copy(iter->op.cls.method_len,
 * mname);` -- a list::iterator made on X + indata, then two copies. */
static void set_from_op_call(const struct symtrace *t, const struct derive_in *in,
			     struct fact *indata, struct fact *cls)
{
	const struct call_question q = { in->fn[CF_LIST_ITERATOR].vaddr,
					 in->fn[CF_ITER_COPY_STRING].vaddr, ARG_1, ARG_1 };

	read_call(t, &q, indata, cls);
}

void read_sfv(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	set_from_op_call(t, in, &fx->sfv_indata, &fx->sfv_cls);
}

/* list::iterator_impl<false>(list *l, unsigned o): `bl(l),
 * ls(&bl->_buffers), p(ls->begin())` -- the one 8-byte load from l, the
 * first node, stored into the iterator. */
void read_iter_impl(const struct symtrace *t, const struct derive_in *in,
		    struct facts *fx)
{
	int self = st_arg(t, ARG_0), ls = st_arg(t, ARG_1);

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
void read_list_c_str(const struct symtrace *t, const struct derive_in *in,
		     struct facts *fx)
{
	int self = st_arg(t, ARG_0);

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
void read_list_write(const struct symtrace *t, const struct derive_in *in,
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
	int self = st_arg(t, ARG_0), nu = 0;
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
void read_sf(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int m = st_arg(t, ARG_1);

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
void read_cb(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int self = st_arg(t, ARG_0);

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
void name(const struct symtrace *t, const struct derive_in *in, struct facts *fx) \
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
 * `osd_op.rval = -ENOENT;` -- a 4-byte store of -2 into the OSDOp (argument
 * 3: this, the OpRequestRef&, the hobject_t passed by reference). */
#define MINUS_ENOENT	(-2)

void read_noent(const struct symtrace *t, const struct derive_in *in, struct facts *fx)
{
	int osd_op = st_arg(t, ARG_3);

	(void)in;
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type == EV_STORE && e->base == osd_op && e->size == 4 &&
		    e->has_imm && (int32_t)e->imm == MINUS_ENOENT)
			set(&fx->noent_rval, e->off);
	}
}

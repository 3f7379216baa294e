// SPDX-License-Identifier: GPL-2.0
/*
 * The readers of the slowest ops' PG and object: what MOSDOp's accessors
 * and print() say about where pgid and hobj lie in it, and what hobject_t's
 * operator<<, dump() and to_str() say about the hobject_t's own fields
 * (the readers of the op's path are in derive_read.c).
 */
#include "derive_facts.h"

/* --- the slowest ops' PG and object (MOSDOp) ------------------------- */

/* MOSDOp::print(ostream& out): `out << pgid;` and, once decoded, `out <<
 * hobj` -- this + F passed to operator<<(ostream&, const spg_t&), and
 * this + H to operator<<(ostream&, const hobject_t&). */
void read_mosdop_print(const struct symtrace *t, const struct derive_in *in,
		       struct facts *fx)
{
	int self = st_arg(t, ARG_0);
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
 * an spg_t (24 bytes: returned in memory) returned through the result
 * pointer (x86-64 %rdi, this in %rsi; arm64 x8, this in x0): each store
 * into the result at k is of the bytes loaded
 * from this + F + k, one F for all, and one store is at k = 0. */
void read_get_spg(const struct symtrace *t, const struct derive_in *in,
		  struct facts *fx)
{
	int ret = st_sret(t), self = st_sret_arg(t, 0);
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
 * pgid.pgid;` -- a pg_t (16 bytes) returned in two registers:
 * before any call, this's 8-byte loads are the two at F and F + 8. */
void read_get_pg(const struct symtrace *t, const struct derive_in *in,
		 struct facts *fx)
{
	int self = st_arg(t, ARG_0), n = 0;
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
void read_finish_decode(const struct symtrace *t, const struct derive_in *in,
			struct facts *fx)
{
	int self = st_arg(t, ARG_0);
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
 * (returned in memory: st_sret_arg) with 0 is the name's length. */
void read_get_oloc(const struct symtrace *t, const struct derive_in *in,
		   struct facts *fx)
{
	int self = st_sret_arg(t, 0);

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

/* The field of o, size bytes, that the first call passing one in argument
 * register k passes (k = NR_ARGS: in any). */
static struct fact first_field_passed(const struct symtrace *t, int o, int size, int k)
{
	for (int i = 0; i < t->nev; i++) {
		int64_t off;

		if (t->ev[i].type != EV_CALL)
			continue;
		for (int a = 0; a < NR_ARGS; a++)
			if ((k == NR_ARGS || a == k) && field_arg(t, &t->ev[i], a, o, size, &off))
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

		if (e->type == EV_CALL && e->target && string_arg(t, e, ARG_0, o, &c[n].off))
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
 * calls passing an 8-byte, and a 4-byte, field of o as the value of
 * ostream::_M_insert(this, value), its second argument (arm64 16.2.15
 * calls operator delete with o.hash left in x2 before); `append_escaped(
 * o.nspace, &v); ... append_escaped(o.get_key(), &v); ...
 * append_escaped(o.oid.name, &v);` -- nspace, key, name; `out << v << ':'
 * << o.snap;`. */
void read_hobj_print(const struct symtrace *t, const struct derive_in *in,
		     struct facts *fx)
{
	int o = st_arg(t, ARG_1);
	int64_t s[3];

	(void)in;
	fx->hp.pool = first_field_passed(t, o, 8, ARG_1);
	fx->hp.revhash = first_field_passed(t, o, 4, ARG_1);
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
 * (get_key(), &out); ... (nspace, &out);`.  The std::string is returned
 * in memory (st_sret_arg).  (20's formats with fmt and reads the rest
 * through a copy of this on its stack: only its pool answers.) */
void read_hobj_to_str(const struct symtrace *t, const struct derive_in *in,
		      struct facts *fx)
{
	int o = st_sret_arg(t, 0);
	int64_t s[3];

	(void)in;
	fx->hs.pool = first_field_passed(t, o, 8, NR_ARGS);
	fx->hs.nibble = first_field_passed(t, o, 4, NR_ARGS);
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
 * as a string_view (arguments 1, 2) then the value: a string_view of a
 * string of this from argument 3, or an integer field in argument 3 (8, 4, 1, 8 bytes).  All
 * seven must be so, and the first the name, or none is trusted.
 */
#define DUMP_CALLS	7
#define DUMP_STRING	0

void read_hobj_dump(const struct symtrace *t, const struct derive_in *in,
		    struct facts *fx)
{
	static const int kind[DUMP_CALLS] = { DUMP_STRING, DUMP_STRING, 8, 4, 1, 8, DUMP_STRING };
	int o = st_arg(t, ARG_0), f = st_arg(t, ARG_1), n = 0;
	int64_t off[DUMP_CALLS];

	(void)in;
	for (int i = 0; i < t->nev; i++) {
		const struct st_event *e = &t->ev[i];

		if (e->type != EV_CALL || e->target || e->args[0].node != f || e->args[0].add)
			continue;
		if (n == DUMP_CALLS ||
		    !(kind[n] == DUMP_STRING ? string_arg(t, e, ARG_3, o, &off[n]) :
		      field_arg(t, e, ARG_3, o, kind[n], &off[n])))
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
void read_get_snapid(const struct symtrace *t, const struct derive_in *in,
		     struct facts *fx)
{
	int self = st_arg(t, ARG_0);
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

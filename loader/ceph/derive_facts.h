/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_DERIVE_FACTS_H
#define OSDHIST_DERIVE_FACTS_H

/*
 * What passes between the three parts of the derivation (derive.h): the
 * readers (derive_read.c, derive_read_obj.c) each read what one function's
 * code says into struct facts; the witnesses (derive_witness.c) say, per
 * offset, which facts witness it, as answers; the engine (derive.c) runs
 * the readers, asks the witnesses and judges whether their answers agree.
 * Only these files include this one.
 */
#include <stdint.h>

#include "derive.h"
#include "symtrace.h"

/* --- what one function says ------------------------------------------ */

struct fact {
	int ok;
	int64_t v;
};

static inline void set(struct fact *f, int64_t v)
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

/* How many candidates (loads, copies, calls) a reader pairs up at most:
 * its pairs are quadratic in them. */
#define PAIR_MAX	64

/* Layout facts both a reader and a witness rely on. */

/* libstdc++'s std::string (the C++11 ABI): _M_dataplus._M_p, then
 * size_type _M_string_length. */
#define STRING_LENGTH		8

/* hobject_t's first member is `object_t oid`, whose only member is
 * `std::string name` (src/common/hobject.h, include/object.h): the name
 * is at hobj + 0. */
#define HOBJ_OID_NAME		0

/* What each function's code is asked: cephfns.h's derive column. */
typedef void reader_fn(const struct symtrace *t, const struct derive_in *in, struct facts *fx);

/* Every DERIVE_READ(fn) of cephfns.h's rows, declared from those rows:
 * defined in derive_read.c or derive_read_obj.c, called through the
 * engine's table (derive.c). */
#define DERIVE_READ(fn)	reader_fn fn;
#define DERIVE_CALLEE
#define DERIVE_NONE
#define CF_READER_DECL(id, pretty, derive, symbol) derive
OSDHIST_CEPH_FNS(CF_READER_DECL)
#undef CF_READER_DECL
#undef DERIVE_READ
#undef DERIVE_CALLEE
#undef DERIVE_NONE

/* --- what the witnesses answer (derive_witness.c asks, derive.c judges) */

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

/* Each offset's witnesses: the answers of the functions (or ABI and
 * layout facts) that say where it is. */
typedef void witnesses_fn(const struct derive_in *in, const struct facts *fx,
			  struct offset_witnesses *w);

/* witnesses_FIELD() of each row of maps/osdhist.h's OSDHIST_OFFSETS, in
 * enum osd_off order (derive_witness.c, beside them: they stay static). */
extern witnesses_fn *const derive_witnesses[NR_OFFS];

/* What function cf says, under the name fmt makes (a sum of two functions'
 * answers, an ABI fact); cf CF_NONE: asked whatever the binary has. */
__attribute__((format(printf, 5, 6)))
void derive_witness_as(struct offset_witnesses *w, enum ceph_fn cf, const struct derive_in *in,
		       struct fact f, const char *fmt, ...);

/* What function cf says, by its name. */
void derive_witness(struct offset_witnesses *w, enum ceph_fn cf, const struct derive_in *in,
		    struct fact f);

/* Judges one offset: 0 and *val if >= 2 answers and all agree, else
 * -ENODATA (fewer answers) or -EINVAL (they disagree).  why gets the
 * witness list, or the reason. */
int derive_judge(const struct offset_witnesses *w, int64_t *val, char *why, size_t len);

#endif

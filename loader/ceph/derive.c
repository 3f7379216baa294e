// SPDX-License-Identifier: GPL-2.0
/*
 * struct osd_offsets from the ceph-osd binary's own code.  Each witness is a
 * question asked of one function's symbolic trace (symtrace.h), phrased in
 * terms of what the C++ source does, e.g. "log_op_stats passes &op->op_info
 * to OpInfo::may_read: which offset of its OpRequest argument is that?".
 * The answers of different functions for one offset must all agree, and at
 * least two must exist.  What each witness reads, per release, is in
 * tests/unit/derive_fixture.h (real bytes of 16.2.15, 18.2.7, 20.2.4).
 *
 * This file is the engine: it runs each function's reader, asks each
 * offset's witnesses and judges their answers.  The readers are in
 * derive_read.c and derive_read_obj.c, the witnesses in derive_witness.c,
 * what passes between them in derive_facts.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "derive_facts.h"
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

/* --- agreement --------------------------------------------------------- */

__attribute__((format(printf, 5, 6)))
void derive_witness_as(struct offset_witnesses *w, enum ceph_fn cf, const struct derive_in *in,
		       struct fact f, const char *fmt, ...)
{
	va_list ap;

	if (cf != CF_NONE && !in->fn[cf].vaddr)
		return;		/* the binary has no such function: not looked at */
	va_start(ap, fmt);
	answer(w, f.ok, f.v, fmt, ap);
	va_end(ap);
}

void derive_witness(struct offset_witnesses *w, enum ceph_fn cf, const struct derive_in *in,
		    struct fact f)
{
	derive_witness_as(w, cf, in, f, "%s", ceph_fn_pretty[cf]);
}

int derive_judge(const struct offset_witnesses *w, int64_t *val, char *why, size_t len)
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
		return -EINVAL;
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
		return -ENODATA;
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

/* cephfns.h's derive column: each function's reader (derive_facts.h
 * declares them from the same rows), NULL if its code is not read. */
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
		    symtrace_run(in->arch, c->code, c->len, c->vaddr, t) < 0)
			continue;
		reader[f](t, in, fx);
	}
}

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
		return -ENOMEM;
	}
	read_all(in, &fx, t);
	free(t);

	for (int o = 0; o < NR_OFFS; o++) {
		struct offset_witnesses w;
		int64_t v;

		memset(&w, 0, sizeof(w));
		derive_witnesses[o](in, &fx, &w);
		if (derive_judge(&w, &v, out->why[o], sizeof(out->why[o])) < 0) {
			if (!ret && (OFFS_REQUIRED & OFF_BIT(o))) {
				snprintf(err, errlen, "build-id %s: cannot derive %s: %s; osdhist "
					 "traces no binary with an offset it cannot prove",
					 build_id, osd_off_name[o], out->why[o]);
				ret = -ENOTSUP;
			}
			continue;
		}
		*field(&out->offs, o) = (uint32_t)v;
		out->have |= OFF_BIT(o);
	}
	return ret;
}

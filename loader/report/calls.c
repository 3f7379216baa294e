// SPDX-License-Identifier: GPL-2.0
/* Call ops by class.method: the loader's op ids for bpf/'s per-process
 * numbers (calls.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calls.h"

static char *names[OPX_NAMES_MAX];
static int nnames;

static char *put_escaped(char *o, const char *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c <= 0x20 || c >= 0x7f || c == '%' || c == '"' || c == '\\')
			o += sprintf(o, "%%%02X", c);
		else
			*o++ = c;
	}
	return o;
}

void call_text(const struct call_key *k, char out[CALL_TEXT_MAX])
{
	unsigned total = k->class_len + k->method_len;
	unsigned kept = total < CALL_NAME_BYTES ? total : CALL_NAME_BYTES;
	unsigned cl = k->class_len < kept ? k->class_len : kept;
	char *o = out;

	o = put_escaped(o + sprintf(o, "call "), k->name, cl);
	*o++ = '.';
	o = put_escaped(o, k->name + cl, kept - cl);
	if (kept < total)
		o += sprintf(o, " (+%u bytes)", total - kept);
	*o = 0;
}

const char *call_name(unsigned x)
{
	if (x >= OPX_CALL_FIRST && x - OPX_CALL_FIRST < (unsigned)nnames)
		return names[x - OPX_CALL_FIRST];
	return x == OPX_CALL_OTHER ? "call other" : "unknown";
}

/* The op id of a name, a new one if need be. */
static __u8 intern(const struct call_key *k)
{
	char text[CALL_TEXT_MAX];

	call_text(k, text);
	for (int i = 0; i < nnames; i++)
		if (!strcmp(names[i], text))
			return OPX_CALL_FIRST + i;
	if (nnames == OPX_NAMES_MAX || !(names[nnames] = strdup(text)))
		return OPX_CALL_OTHER;
	return OPX_CALL_FIRST + nnames++;
}

static struct call_proc *proc_of(struct call_xlate *x, __u32 tgid, bool make)
{
	for (int i = 0; i < x->n; i++)
		if (x->proc[i].tgid == tgid)
			return &x->proc[i];
	if (!make)
		return NULL;
	if (x->n == x->cap) {
		int cap = x->cap ? 2 * x->cap : 8;
		void *p = realloc(x->proc, cap * sizeof(*x->proc));

		if (!p)
			return NULL;
		x->proc = p;
		x->cap = cap;
	}
	memset(&x->proc[x->n], 0, sizeof(x->proc[x->n]));
	x->proc[x->n].tgid = tgid;
	return &x->proc[x->n++];
}

int call_xlate_put(struct call_xlate *x, const struct call_key *k, __u32 num)
{
	struct call_proc *p;

	if (num >= CALLS_MAX)
		return 0;	/* not one bpf/ writes */
	p = proc_of(x, k->tgid, true);
	if (!p)
		return -ENOMEM;
	p->id[num] = intern(k);
	return 0;
}

void call_xlate_clear(struct call_xlate *x)
{
	x->n = 0;
}

__u8 call_xlate(struct call_xlate *x, __u32 tgid, unsigned ix)
{
	struct call_proc *p;

	if (ix < NR_OPCODES || ix == OPTYPE_ALL)
		return ix;
	if (ix == OPI_CALL_OTHER)
		return OPX_CALL_OTHER;
	if (ix > OPI_CALL_OTHER)
		return OPI_UNKNOWN;	/* not one bpf/ writes */
	p = proc_of(x, tgid, false);
	return p ? p->id[ix - OPI_CALL_FIRST] : 0;
}

void call_xlate_gone(struct call_xlate *x, __u32 tgid, unsigned ix)
{
	struct call_proc *p = proc_of(x, tgid, true);

	if (p && ix >= OPI_CALL_FIRST && ix < OPI_CALL_OTHER && !p->id[ix - OPI_CALL_FIRST])
		p->id[ix - OPI_CALL_FIRST] = OPX_CALL_OTHER;
}

void call_xlate_free(struct call_xlate *x)
{
	free(x->proc);
	memset(x, 0, sizeof(*x));
}

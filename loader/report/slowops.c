// SPDX-License-Identifier: GPL-2.0
/* The slowest ops of an interval: merged per OSD, and their names as text
 * (slowops.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "slowops.h"

int slow_list_add(struct slow_list *l, int osd, const struct slowop *o)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 64;
		struct slow_entry *e = realloc(l->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		l->e = e;
		l->cap = cap;
	}
	l->e[l->n].osd = osd;
	l->e[l->n++].op = *o;
	return 0;
}

static int cmp_slow(const void *a, const void *b)
{
	const struct slow_entry *x = a, *y = b;

	if (x->osd != y->osd)
		return x->osd < y->osd ? -1 : 1;
	if (x->op.total_ns != y->op.total_ns)
		return x->op.total_ns > y->op.total_ns ? -1 : 1;
	return x->op.end_rt < y->op.end_rt ? -1 : x->op.end_rt > y->op.end_rt;
}

void slow_list_finish(struct slow_list *l, unsigned k)
{
	int n = 0;

	qsort(l->e, l->n, sizeof(*l->e), cmp_slow);
	for (int i = 0, run = 0; i < l->n; i++) {
		run = i && l->e[i].osd == l->e[i - 1].osd ? run + 1 : 0;
		if ((unsigned)run < k)
			l->e[n++] = l->e[i];
	}
	l->n = n;
}

void slow_list_free(struct slow_list *l)
{
	free(l->e);
	memset(l, 0, sizeof(*l));
}

/* Ceph's append_out_escaped (hobject.cc): what it escapes. */
static int ceph_escaped(unsigned char c)
{
	return c < 0x20 || c >= 0x7f || c == '%' || c == '/' || c == ':';
}

/* The first kept of len bytes of s, escaped, at p; the end. */
static char *escaped(char *p, const char *s, unsigned len, unsigned max)
{
	unsigned kept = len < max ? len : max;

	for (unsigned i = 0; i < kept; i++) {
		unsigned char c = s[i];

		if (ceph_escaped(c))
			p += sprintf(p, "%%%02x", c);
		else
			*p++ = c;
	}
	return p;
}

/* " (+N bytes)" for the N bytes of the strings not kept, if any. */
static void cut(char *p, __u64 n)
{
	if (n)
		sprintf(p, " (+%llu bytes)", (unsigned long long)n);
	else
		*p = 0;
}

static __u64 lost(__u32 len, unsigned max)
{
	return len > max ? len - max : 0;
}

void slow_name_text(const struct slowop *o, char out[SLOW_OBJECT_MAX])
{
	if (!o->name_len) {
		strcpy(out, "(undecoded)");
		return;
	}
	cut(escaped(out, o->name, o->name_len, SLOW_NAME_BYTES),
	    lost(o->name_len, SLOW_NAME_BYTES));
}

/* include/rados.h */
#define CEPH_NOSNAP	((__u64)(-2))
#define CEPH_SNAPDIR	((__u64)(-1))

void slow_object_text(const struct slowop *o, char out[SLOW_OBJECT_MAX])
{
	char *p = out;

	if (!o->name_len) {
		strcpy(out, "(undecoded)");
		return;
	}
	/* hobject_t's operator<<: pool, get_bitwise_key_u32() in %08x, then
	 * nspace, key and name escaped, then snapid_t's operator<< */
	p += sprintf(p, "%lld:%08x:", (long long)o->obj_pool, o->revhash);
	p = escaped(p, o->ns, o->ns_len, SLOW_LOC_BYTES);
	*p++ = ':';
	p = escaped(p, o->key, o->key_len, SLOW_LOC_BYTES);
	*p++ = ':';
	p = escaped(p, o->name, o->name_len, SLOW_NAME_BYTES);
	if (o->snap == CEPH_NOSNAP)
		p += sprintf(p, ":head");
	else if (o->snap == CEPH_SNAPDIR)
		p += sprintf(p, ":snapdir");
	else
		p += sprintf(p, ":%llx", (unsigned long long)o->snap);
	cut(p, lost(o->name_len, SLOW_NAME_BYTES) + lost(o->ns_len, SLOW_LOC_BYTES) +
	       lost(o->key_len, SLOW_LOC_BYTES));
}

/* ceph_entity_type_name() (msg_types.h's CEPH_ENTITY_TYPE_*). */
static const char *entity_type(unsigned t)
{
	switch (t) {
	case 0x01: return "mon";
	case 0x02: return "mds";
	case 0x04: return "osd";
	case 0x08: return "client";
	case 0x10: return "mgr";
	case 0x20: return "auth";
	default: return "unknown";
	}
}

void slow_reqid_text(const struct slowop *o, char out[SLOW_REQID_MAX])
{
	snprintf(out, SLOW_REQID_MAX, "%s.%lld.%d:%llu", entity_type(o->client[0] & 0xff),
		 (long long)o->client[1], (int)(__s32)o->client[3],
		 (unsigned long long)o->client[2]);
}

void slow_pg_text(const struct slowop *o, char out[SLOW_PG_MAX])
{
	/* spg_t's operator<<: the shard (EC) after an s; NO_SHARD is -1 */
	if (o->shard >= 0)
		snprintf(out, SLOW_PG_MAX, "%lld.%xs%d", (long long)o->pool, o->pg_seed,
			 o->shard);
	else
		snprintf(out, SLOW_PG_MAX, "%lld.%x", (long long)o->pool, o->pg_seed);
}

void slow_ops_text(const struct slowop *o, char out[SLOW_OPS_MAX])
{
	unsigned n = o->nops < SLOW_OPS ? o->nops : SLOW_OPS;
	char *p = out;

	*p = 0;
	if (!o->nops) {
		strcpy(out, "-");
		return;
	}
	for (unsigned i = 0; i < n; i++)
		p += snprintf(p, out + SLOW_OPS_MAX - p, "%s%s", i ? "," : "",
			      op_name(o->op[i]));
	if (o->nops > n)
		snprintf(p, out + SLOW_OPS_MAX - p, ",+%u", o->nops - n);
}

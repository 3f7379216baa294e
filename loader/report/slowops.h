/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_SLOWOPS_H
#define OSDHIST_SLOWOPS_H

/*
 * An interval's slowest client ops per OSD, as the report shows them: the
 * slots bpf/ kept per process (maps/osdhist.h: struct slow_sets), merged
 * per OSD (a restarted OSD had two processes), at most K each, slowest
 * first.  Names are printed as Ceph prints them, escaped once here.
 */
#include <linux/types.h>

#include "osdhist.h"

struct slow_entry {
	int osd;
	struct slowop op;	/* optype and op[]: the report's op ids */
};

struct slow_list {
	struct slow_entry *e;
	int n, cap;
};

/* 0, or -ENOMEM (the list stays as it was). */
int slow_list_add(struct slow_list *l, int osd, const struct slowop *o);
/* By OSD, then slowest first; at most k of each OSD kept. */
void slow_list_finish(struct slow_list *l, unsigned k);
void slow_list_free(struct slow_list *l);

/* The object as Ceph's hobject_t printing spells it,
 * pool:hash:nspace:key:name:snap, each string escaped as Ceph escapes it
 * (%, /, :, bytes below 0x20 or from 0x7f as %xx); when a string was
 * longer than bpf/ keeps, " (+N bytes)" follows, N their bytes not shown
 * (no escaped object holds a space); "(undecoded)" for an op rejected
 * before Ceph decoded its object.  slow_name_text: the name alone, alike. */
#define SLOW_OBJECT_MAX	(3 * (SLOW_NAME_BYTES + 2 * SLOW_LOC_BYTES) + 96)
void slow_object_text(const struct slowop *o, char out[SLOW_OBJECT_MAX]);
void slow_name_text(const struct slowop *o, char out[SLOW_OBJECT_MAX]);

/* The client as Ceph prints an osd_reqid_t: "client.4123.0:17". */
#define SLOW_REQID_MAX	64
void slow_reqid_text(const struct slowop *o, char out[SLOW_REQID_MAX]);

/* The PG as Ceph prints a pg_t: "<pool>.<seed in hex>". */
#define SLOW_PG_MAX	32
void slow_pg_text(const struct slowop *o, char out[SLOW_PG_MAX]);

/* The first op ids joined by ",", and "+N" for the message's others. */
#define SLOW_OPS_MAX	(SLOW_OPS * 180 + 16)
void slow_ops_text(const struct slowop *o, char out[SLOW_OPS_MAX]);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_CALLS_H
#define OSDHIST_CALLS_H

/*
 * Call ops by class.method, as the report names them.  bpf/ numbers the
 * names of each OSD process (maps/osdhist.h: the calls map, at most
 * CALLS_MAX a process); a restarted OSD numbers them anew, so the loader
 * turns each (process, number) into an op id of its own before it adds
 * counts to an OSD's series:
 *
 *   op id < NR_OPCODES               bpf/'s op index (maps/osdhist_ops.h)
 *   OPX_CALL_OTHER                   "call other": past a process's
 *                                    CALLS_MAX names, or past this table
 *   OPX_CALL_FIRST + g               the g-th name the loader met
 *
 * so every op id is below OPTYPE_ALL and fits the report's u8.  Names are
 * never forgotten (at most OPX_NAMES_MAX, then "call other").
 */
#include <stdbool.h>
#include <linux/types.h>

#include "osdhist.h"

#define OPX_CALL_OTHER	NR_OPCODES
#define OPX_CALL_FIRST	(NR_OPCODES + 1)
#define OPX_NAMES_MAX	(OPTYPE_ALL - OPX_CALL_FIRST)
#define NR_OPX		OPTYPE_ALL	/* op ids are below this */

/* "call <class>.<method>": bytes outside printable ASCII, space, %, " and
 * \ as %XX (real names are [a-z0-9_]: unchanged, as Ceph prints them); a
 * name cut by bpf/ ends in " (+N bytes)", which no escaped name holds. */
#define CALL_TEXT_MAX	(5 + 3 * CALL_NAME_BYTES + 1 + 20 + 1)
void call_text(const struct call_key *k, char out[CALL_TEXT_MAX]);

/* The name of op id x >= NR_OPCODES ("call other", "call lock.lock"). */
const char *call_name(unsigned x);

/* Op ids of the call numbers of each process, as the calls map said when
 * snapshot.c read it (call_xlate_clear, then call_xlate_put per key). */
struct call_xlate {
	struct call_proc {
		__u32 tgid;
		__u8 id[CALLS_MAX];	/* 0: not in the map when read */
	} *proc;
	int n, cap;
};

void call_xlate_clear(struct call_xlate *x);
/* One key of the map: process k->tgid's number num is k's name; 0, or
 * -ENOMEM. */
int call_xlate_put(struct call_xlate *x, const struct call_key *k, __u32 num);
/* The op id of bpf/'s op index ix of process tgid (OPTYPE_ALL stays); 0
 * for a call number the map did not hold when read. */
__u8 call_xlate(struct call_xlate *x, __u32 tgid, unsigned ix);
/* A number the map does not hold even when read again: call other. */
void call_xlate_gone(struct call_xlate *x, __u32 tgid, unsigned ix);
void call_xlate_free(struct call_xlate *x);

#endif

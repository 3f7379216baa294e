/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_BINARY_H
#define OSDHIST_BINARY_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "osdhist.h"

/* The functions osdhist probes, in the order of the probes in attach.c. */
enum probe_fn {
	FN_LOG_OP_STATS,	/* success end of client ops */
	FN_UNREGISTERED,	/* OpRequest::_unregistered(): every op, once */
	FN_REPOP_COMMIT,	/* sub-ops, unless --no-subops */
	FN_ENQUEUE_OP,		/* -P, --phases */
	FN_DEQUEUE_OP,		/* --phases */
	FN_REP_SUBMIT,		/* --phases */
	FN_EC_SUBMIT,		/* --phases: ECSwitch:: in 20.x, else ECBackend:: */
	NR_PROBE_FNS,
};

/* Optional offsets, bits of osd_binary.have. */
#define HAVE_SP_SPG	(1u << 0)	/* -P */
#define HAVE_SP_SUBMIT	(1u << 1)	/* --phases */
#define HAVE_OP_VECTOR	(1u << 2)	/* per-op-type counts */

struct osd_binary {
	char build_id[41];
	char version[64];		/* the binary's own Ceph version */
	uint64_t fn_off[NR_PROBE_FNS];	/* file offsets for the uprobes; 0: absent */
	struct osd_offsets offs;
	uint32_t have;			/* HAVE_* */
};

extern const char *const probe_fn_symbol[NR_PROBE_FNS];
extern const char *const probe_fn_pretty[NR_PROBE_FNS];

/* Reads PATH (an ELF ceph-osd; NAME is how messages call it): build-id,
 * the probed symbols, and the Ceph offsets for that build-id, verified
 * against the binary's own instructions.  0 on success; otherwise a one-line
 * reason in err and -1. */
int binary_inspect(const char *path, const char *name, struct osd_binary *b,
		   char *err, size_t errlen);

#endif

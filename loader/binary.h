/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_BINARY_H
#define OSDHIST_BINARY_H

#include <stddef.h>
#include <stdint.h>

/* The functions osdhist probes, in the order of the probes in attach.c. */
enum probe_fn {
	FN_ENQUEUE_OP,
	FN_LOG_OP_STATS,
	FN_UNREGISTER_INFLIGHT_OP,
	FN_REPOP_COMMIT,	/* sub-ops, unless --no-subops */
	FN_DEQUEUE_OP,		/* --phases */
	FN_REP_SUBMIT,		/* --phases */
	FN_EC_SUBMIT,		/* --phases */
	NR_PROBE_FNS,
};

/* Offsets inside Ceph objects the BPF programs read (bpf/ rodata). */
struct ceph_offsets {
	uint32_t op_request;	/* OpRequest::request */
	uint32_t op_rmw;	/* OpRequest::op_info.rmw_flags */
	uint32_t msg_type;	/* Message::header.type */
	uint32_t msg_recv;	/* Message::recv_stamp */
	uint32_t op_dequeued;	/* OpRequest::dequeued_time */
	uint32_t repmod_op;	/* ReplicatedBackend::RepModify::op */
	uint32_t sp_spg;	/* enqueue_op's spg_t: entry %rsp + this */
	uint32_t sp_submit_op;	/* submit_transaction's OpRequestRef: likewise */
};

struct osd_binary {
	char build_id[41];
	uint64_t fn_off[NR_PROBE_FNS];	/* file offsets for the uprobes */
	struct ceph_offsets offs;
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

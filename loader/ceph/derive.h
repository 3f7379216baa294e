/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_DERIVE_H
#define OSDHIST_DERIVE_H

/*
 * Every struct and stack offset of struct osd_offsets, derived from the
 * machine code of the ceph-osd binary's own exported functions.  Each offset
 * needs two or more witnesses (different functions, or a function and a
 * SysV ABI fact for stack offsets) that agree; one disagreeing witness, or
 * fewer than two, and the offset is not known.  No value is ever assumed.
 */
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>
#include "osdhist.h"

/* The functions whose code is read (witnesses), then those of which only
 * the address is needed (a call to them is what a witness looks for). */
enum derive_fn {
	DF_MAYBE_INIT_OP_INFO,	/* OpRequest::maybe_init_op_info */
	DF_LOG_OP_STATS,	/* PrimaryLogPG::log_op_stats */
	DF_DEQUEUE_OP,		/* OSD::dequeue_op */
	DF_ENQUEUE_OP,		/* OSD::enqueue_op */
	DF_OPREQUEST_CTOR,	/* OpRequest::OpRequest(Message*, OpTracker*) */
	DF_REPOP_COMMIT,	/* ReplicatedBackend::repop_commit */
	DF_REPMOD_DISPOSE,	/* shared_ptr<RepModify>'s _M_dispose */
	DF_CHECK_RMW,		/* OpInfo::check_rmw */
	DF_REP_SUBMIT,		/* ReplicatedBackend::submit_transaction */
	DF_EC_SUBMIT,		/* ECBackend::submit_transaction */
	DF_ECSWITCH_SUBMIT,	/* ECSwitch::submit_transaction (20.x) */
	DF_SET_FROM_OP,		/* OpInfo::set_from_op(const MOSDOp*, ...) */
	DF_MOSDOP_CLEAR_BUFFERS, /* MOSDOp::clear_buffers */
	DF_OSDOP_MERGE_OUT,	/* OSDOp::merge_osd_op_vector_out_data */
	DF_OSDOP_SPLIT_OUT,	/* OSDOp::split_osd_op_vector_out_data */
	DF_FILL_IN_COPY_GET_NOENT, /* PrimaryLogPG::fill_in_copy_get_noent */
	DF_NR_CODE,
	DF_SET_FROM_OP_VEC = DF_NR_CODE, /* OpInfo::set_from_op(const vector<OSDOp>&, ...) */
	DF_OSDOP_CLEAR_DATA,	/* OSDOp::clear_data<vector<OSDOp>> */
	DF_MAY_READ,		/* OpInfo::may_read */
	DF_MARK_FLAG_POINT,	/* OpRequest::mark_flag_point */
	DF_TRACKEDOP_PUT,	/* TrackedOp::put */
	NR_DF,
};

extern const char *const derive_fn_symbol[NR_DF];
extern const char *const derive_fn_pretty[NR_DF];

/* The offsets, in struct osd_offsets order; bit (1u << OFF_x) in `have`. */
enum osd_off {
	OFF_OP_REQUEST, OFF_OP_RMW, OFF_OP_DEQUEUED, OFF_MSG_TYPE, OFF_MSG_RECV,
	OFF_REPMOD_OP, OFF_SP_SPG, OFF_SP_SUBMIT_OP, OFF_MOSDOP_OPS,
	OFF_OSDOP_SIZE, OFF_OSDOP_RVAL, NR_OFFS,
};

#define OFF_BIT(o)	(1u << (o))
/* Without these osdhist traces nothing on the binary. */
#define OFFS_REQUIRED	(OFF_BIT(OFF_OP_REQUEST) | OFF_BIT(OFF_OP_RMW) | \
			 OFF_BIT(OFF_OP_DEQUEUED) | OFF_BIT(OFF_MSG_TYPE) | \
			 OFF_BIT(OFF_MSG_RECV) | OFF_BIT(OFF_REPMOD_OP))

extern const char *const osd_off_name[NR_OFFS];	/* struct field names */

/* One function's code: the bytes at vaddr; vaddr 0 = the binary lacks it. */
struct derive_code {
	uint64_t vaddr;
	const uint8_t *code;
	size_t len;
};

struct derive_in {
	struct derive_code fn[NR_DF];	/* code only for < DF_NR_CODE */
};

struct derive_out {
	struct osd_offsets offs;
	uint32_t have;			/* OFF_BIT()s derived */
	/* per offset: "Fn1, Fn2" if derived, else why not (one phrase) */
	char why[NR_OFFS][256];
};

/* Derives every offset.  0 if all of OFFS_REQUIRED are known; otherwise -1
 * and err holds one line naming the first offset missing, the functions
 * looked at and build_id.  out is filled either way. */
int derive_offsets(const struct derive_in *in, const char *build_id,
		   struct derive_out *out, char *err, size_t errlen);

/* The value of offset o in offs (the struct's field). */
uint32_t osd_off_get(const struct osd_offsets *offs, enum osd_off o);

#endif

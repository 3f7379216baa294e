// SPDX-License-Identifier: GPL-2.0
/* The self-check's names, for whoever prints its judgements (verify_report.h). */
#include <linux/types.h>
#include "osdhist.h"
#include "verify_report.h"

const char *const verify_counter[NR_VC] = {
	[VC_READ] = "op_r", [VC_WRITE] = "op_w", [VC_RW] = "op_rw", [VC_SUBOP] = "subop_w",
};

const __u8 verify_op_class[NR_VC] = {
	[VC_READ] = CLASS_READ, [VC_WRITE] = CLASS_WRITE, [VC_RW] = CLASS_RW,
	[VC_SUBOP] = CLASS_SUBOP,
};

const char *const verify_state_name[NR_VERIFY_STATES] = {
	[VERIFY_UNVERIFIED] = "unverified",
	[VERIFY_VERIFIED] = "verified",
	[VERIFY_MISMATCH] = "mismatch",
};

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_VERIFY_REPORT_H
#define OSDHIST_VERIFY_REPORT_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

/*
 * The self-check's judgements as the report carries them (report.h's
 * verify lines), apart from the checker (verify.h) so that the report
 * model and its outputs need nothing of the core to hold or copy them.
 */

/* The bound around Ceph's range a count must stay within (verify.h says
 * what it covers); the lines print it. */
#define VERIFY_SLACK		16

/* The classes compared (verify.h has Ceph's counter for each). */
enum verify_class { VC_READ, VC_WRITE, VC_RW, VC_SUBOP, NR_VC };

enum verify_state { VERIFY_UNVERIFIED, VERIFY_VERIFIED, VERIFY_MISMATCH, NR_VERIFY_STATES };

struct verify_judgement {
	__u64 ours;		/* osdhist's ops since the baseline */
	__s64 ceph_lo, ceph_hi;	/* Ceph's over the same time: at least, at most */
	__s64 excess;		/* ours beyond [lo - slack, hi + slack]; 0 inside */
};

struct verify_class_report {
	bool compared;		/* false: not checked yet, or --no-subops */
	struct verify_judgement j;
	int outside;		/* consecutive checks outside the bound */
	int inside;		/* consecutive checks inside */
	bool mismatch;
};

/* One traced OSD's health as a verifier sees it, in every snapshot. */
struct verify_report {
	int osd;
	pid_t pid;
	enum verify_state state;
	char reason[160];	/* unverified: why ("timeout: ...") */
	char socket[256];	/* the admin socket used, "" if none */
	double since;		/* unix time of the baseline, 0 if none */
	__u64 checks;		/* comparisons made since the baseline */
	struct verify_class_report cls[NR_VC];
};

/* Ceph's counter for each class compared, osdhist's class, the states'
 * names (verify_report.c). */
extern const char *const verify_counter[NR_VC];	/* "op_r" ... */
extern const __u8 verify_op_class[NR_VC];		/* CLASS_READ ... */
extern const char *const verify_state_name[NR_VERIFY_STATES];

#endif

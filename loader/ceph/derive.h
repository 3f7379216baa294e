/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_DERIVE_H
#define OSDHIST_DERIVE_H

/*
 * Every struct and stack offset of struct osd_offsets, derived from the
 * machine code of the ceph-osd binary's own exported functions.  Each offset
 * needs two or more witnesses (different functions, or a function and a
 * calling-convention fact for stack offsets) that agree; one disagreeing witness, or
 * fewer than two, and the offset is not known.  No value is ever assumed.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>
#include "osdhist.h"
#include "cephfns.h"

/* The offsets, in struct osd_offsets order (maps/osdhist.h's rows); bit
 * OFF_BIT(OFF_x) in `have`. */
#define OSDHIST_OFF_ENUM(id, field, need) id,
enum osd_off { OSDHIST_OFFSETS(OSDHIST_OFF_ENUM) NR_OFFS };
#undef OSDHIST_OFF_ENUM
_Static_assert(NR_OFFS <= 32, "offset masks are 32 bits");

#define OFF_BIT(o)	(1u << (o))
#define OSDHIST_OFF_REQ(id, field, need) | ((need) == FEAT_TRACE ? OFF_BIT(id) : 0u)
/* Without these osdhist traces nothing on the binary (need FEAT_TRACE). */
#define OFFS_REQUIRED	(0u OSDHIST_OFFSETS(OSDHIST_OFF_REQ))

extern const char *const osd_off_name[NR_OFFS];	/* struct field names */
extern const enum osd_feature osd_off_need[NR_OFFS];

/* Whether derive_offsets() reads function f's code (DERIVE_READ); of the
 * others it needs only the address. */
bool derive_reads_code(enum ceph_fn f);

/* One function's code: the bytes at vaddr; vaddr 0 = the binary lacks it. */
struct derive_code {
	uint64_t vaddr;
	const uint8_t *code;
	size_t len;
};

struct derive_in {
	uint8_t arch;				/* enum st_arch (symtrace.h) of the code */
	struct derive_code fn[NR_CEPH_FNS];	/* code only where derive_reads_code() */
};

struct derive_out {
	struct osd_offsets offs;
	uint32_t have;			/* OFF_BIT()s derived */
	/* per offset: "Fn1, Fn2" if derived, else why not (one phrase) */
	char why[NR_OFFS][256];
};

/* Derives every offset.  0 if all of OFFS_REQUIRED are known; otherwise
 * -ENOTSUP (or -ENOMEM) and err holds one line naming the first offset
 * missing, the functions looked at and build_id.  out is filled either way. */
int derive_offsets(const struct derive_in *in, const char *build_id,
		   struct derive_out *out, char *err, size_t errlen);

/* The value of offset o in offs (the struct's field). */
uint32_t osd_off_get(const struct osd_offsets *offs, enum osd_off o);

#endif

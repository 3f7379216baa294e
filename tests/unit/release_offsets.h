/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The oracle of the derived offsets: their values in Debian's three builds
 * (DESIGN.md "Ceph releases"; test_dwarf checks the same against DWARF),
 * one row per offset as DESIGN.md's table has it.  test_derive holds the
 * derivation on each release's code (derive_fixture.h) against it,
 * test_binary the host's 16.2.15.  Both walk maps/osdhist.h's rows: an
 * offset added there fails them until its values are added here.
 */
#ifndef OSDHIST_RELEASE_OFFSETS_H
#define OSDHIST_RELEASE_OFFSETS_H

#include <stdio.h>
#include "unit.h"
#include "ceph/derive.h"

enum release { R16, R18, R20, NR_RELEASES };

static const char *const release_name[NR_RELEASES] = { "16.2.15", "18.2.7", "20.2.4" };

static const struct release_offset {
	enum osd_off o;
	uint32_t v[NR_RELEASES];
} release_offsets[] = {
	{ OFF_OP_REQUEST,	{ 0xe0, 0x108, 0x110 } },
	{ OFF_OP_RMW,		{ 0xc0, 0xe8, 0xf0 } },
	{ OFF_OP_DEQUEUED,	{ 0x150, 0x178, 0x180 } },
	{ OFF_MSG_TYPE,		{ 0x28, 0x28, 0x28 } },
	{ OFF_MSG_RECV,		{ 0xc8, 0xc8, 0xc8 } },
	{ OFF_REPMOD_OP,	{ 0, 0, 0 } },
	{ OFF_SP_SPG,		{ 8, 8, 8 } },
	{ OFF_SP_SUBMIT_OP,	{ 80, 80, 80 } },
	{ OFF_MOSDOP_OPS,	{ 0x210, 0x210, 0x210 } },
	{ OFF_OSDOP_SIZE,	{ 0x98, 0x98, 0x70 } },
	{ OFF_OSDOP_RVAL,	{ 0x90, 0x90, 0x68 } },
	{ OFF_OSDOP_INDATA,	{ 0x50, 0x50, 0x28 } },
	{ OFF_OSDOP_CLS,	{ 6, 6, 6 } },
	{ OFF_BL_FIRST,		{ 0, 0, 0 } },
	{ OFF_NODE_PTR,		{ 8, 8, 8 } },
	{ OFF_PTR_RAW,		{ 0, 0, 0 } },
	{ OFF_PTR_OFF,		{ 8, 8, 8 } },
	{ OFF_PTR_LEN,		{ 0xc, 0xc, 0xc } },
	{ OFF_RAW_DATA,		{ 0x20, 0x20, 0x20 } },
	{ OFF_OP_REQID,		{ 0xe8, 0x110, 0x118 } },
	{ OFF_MOSDOP_OID,	{ 0x150, 0x150, 0x150 } },
	{ OFF_MOSDOP_PGID,	{ 0x1d0, 0x1d0, 0x1d0 } },
	{ OFF_HOBJ_SNAP,	{ 0x20, 0x20, 0x20 } },
	{ OFF_HOBJ_REVHASH,	{ 0x34, 0x34, 0x34 } },
	{ OFF_HOBJ_POOL,	{ 0x38, 0x38, 0x38 } },
	{ OFF_HOBJ_NSPACE,	{ 0x40, 0x40, 0x40 } },
	{ OFF_HOBJ_KEY,		{ 0x60, 0x60, 0x60 } },
};
#define NR_RELEASE_OFFSETS (sizeof(release_offsets) / sizeof(release_offsets[0]))

/* Every offset of the table derived (in have), with release r's value. */
static inline void check_release_offsets(const struct osd_offsets *offs, uint32_t have,
					 enum release r)
{
	for (int o = 0; o < NR_OFFS; o++) {
		const struct release_offset *want = NULL;

		for (size_t i = 0; i < NR_RELEASE_OFFSETS; i++)
			if ((int)release_offsets[i].o == o)
				want = &release_offsets[i];
		if (!want)
			fail_msg("offset %s has no row in release_offsets.h", osd_off_name[o]);
		if (!(have & OFF_BIT(o)))
			fail_msg("%s: %s not derived", release_name[r], osd_off_name[o]);
		if (osd_off_get(offs, o) != want->v[r])
			fail_msg("%s: %s = 0x%x, expected 0x%x", release_name[r],
				 osd_off_name[o], osd_off_get(offs, o), want->v[r]);
	}
	assert_int_equal(NR_RELEASE_OFFSETS, NR_OFFS);	/* none twice, none stale */
}

#endif

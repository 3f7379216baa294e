/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ceph's OSD op codes (the CEPH_OSD_OP_* of src/include/rados.h, part of
 * the wire protocol, so the same in every release) and the names `ceph
 * daemon osd.N dump_historic_ops` prints for them.  One list,
 * X(name, code, guard): the BPF side builds its code -> index table from
 * it, the loader its names.  A code missing here is counted as "unknown".
 *
 * guard = 1 marks the ops that only check or hint (a version or xattr
 * assertion, an allocation hint): an op's *type*, the key of its op-type
 * histogram, is its message's first op that is not a guard, so an RBD write
 * [set-alloc-hint, write] is a `write`.  A message of guards only takes
 * its first op's code.
 */
#ifndef OSDHIST_OPS_H
#define OSDHIST_OPS_H

#define OSDHIST_OPCODES(X)					\
	/* data, read */					\
	X("read",		0x1201, 0)			\
	X("stat",		0x1202, 0)			\
	X("mapext",		0x1203, 0)			\
	X("masktrunc",		0x1204, 0)			\
	X("sparse-read",	0x1205, 0)			\
	X("notify",		0x1206, 0)			\
	X("notify-ack",		0x1207, 0)			\
	X("assert-version",	0x1208, 1)			\
	X("list-watchers",	0x1209, 0)			\
	X("list-snaps",		0x120a, 0)			\
	X("sync_read",		0x120b, 0)			\
	X("tmapget",		0x120c, 0)			\
	X("omap-get-keys",	0x1211, 0)			\
	X("omap-get-vals",	0x1212, 0)			\
	X("omap-get-header",	0x1213, 0)			\
	X("omap-get-vals-by-keys", 0x1214, 0)			\
	X("omap-cmp",		0x1219, 1)			\
	X("isdirty",		0x121d, 0)			\
	X("copy-get",		0x121e, 0)			\
	X("checksum",		0x121f, 0)			\
	X("cmpext",		0x1220, 1)			\
	/* data, write */					\
	X("write",		0x2201, 0)			\
	X("writefull",		0x2202, 0)			\
	X("truncate",		0x2203, 0)			\
	X("zero",		0x2204, 0)			\
	X("delete",		0x2205, 0)			\
	X("append",		0x2206, 0)			\
	X("startsync",		0x2207, 0)			\
	X("settrunc",		0x2208, 0)			\
	X("trimtrunc",		0x2209, 0)			\
	X("tmapput",		0x220b, 0)			\
	X("create",		0x220d, 0)			\
	X("rollback",		0x220e, 0)			\
	X("watch",		0x220f, 0)			\
	X("omap-set-vals",	0x2215, 0)			\
	X("omap-set-header",	0x2216, 0)			\
	X("omap-clear",		0x2217, 0)			\
	X("omap-rm-keys",	0x2218, 0)			\
	X("copy-from",		0x221a, 0)			\
	X("undirty",		0x221c, 0)			\
	X("set-alloc-hint",	0x2223, 1)			\
	X("cache-pin",		0x2224, 0)			\
	X("cache-unpin",	0x2225, 0)			\
	X("write-same",		0x2226, 0)			\
	X("set-redirect",	0x2227, 0)			\
	X("tier-promote",	0x2229, 0)			\
	X("unset-manifest",	0x222a, 0)			\
	X("omap-rm-key-range",	0x222c, 0)			\
	X("copy-from2",		0x222d, 0)			\
	/* data, read-modify-write */				\
	X("tmapup",		0x320a, 0)			\
	X("tmap2omap",		0x3222, 0)			\
	/* data, cache tier */					\
	X("cache-flush",	0x821f, 0)			\
	X("cache-evict",	0x8220, 0)			\
	X("cache-try-flush",	0x8221, 0)			\
	X("set-chunk",		0x8228, 0)			\
	X("tier-flush",		0x822b, 0)			\
	X("tier-evict",		0x822c, 0)			\
	/* xattrs */						\
	X("getxattr",		0x1301, 0)			\
	X("getxattrs",		0x1302, 0)			\
	X("cmpxattr",		0x1303, 1)			\
	X("setxattr",		0x2301, 0)			\
	X("setxattrs",		0x2302, 0)			\
	X("resetxattrs",	0x2303, 0)			\
	X("rmxattr",		0x2304, 0)			\
	/* class method call (rbd.*, rgw.*, lock.*, ...) */	\
	X("call",		0x1401, 0)			\
	/* PG ops (rados ls, hit sets, scrub listing) */	\
	X("pgls",		0x1501, 0)			\
	X("pgls-filter",	0x1502, 0)			\
	X("pg-hitset-ls",	0x1503, 0)			\
	X("pg-hitset-get",	0x1504, 0)			\
	X("pgnls",		0x1505, 0)			\
	X("pgnls-filter",	0x1506, 0)			\
	X("scrubls",		0x1507, 0)

/* Ops of one message looked at; a message with more is counted (health
 * ops_cut) and its other ops are not counted by code. */
#define OSDHIST_OPS_MAX	16

/*
 * Op indices: OPI_UNKNOWN for a code not in the list, OPI_NONE for a
 * message with no op (or whose ops were not seen), then the list in order.
 */
#define OSDHIST_OPI_ENUM(name, code, guard) OPI_##code,
enum op_index {
	OPI_UNKNOWN,
	OPI_NONE,
	OSDHIST_OPCODES(OSDHIST_OPI_ENUM)
	NR_OPCODES
};
#undef OSDHIST_OPI_ENUM

/*
 * Code -> index through a table of 1024, not a switch: in BPF a switch
 * gives the verifier one state per case, and 16 ops of 72 cases each are
 * too many for it.  Every listed code has mode RD, WR, RMW or CACHE (the
 * 0xf000 nibble 1, 2, 3, 8), type DATA, ATTR, EXEC or PG (the 0x0f00
 * nibble 2..5) and nr < 64: 2 + 2 + 6 bits.  Other codes are unknown.
 */
#define OSDHIST_OPC_OK(c) ((((c) >> 12) == 1 || ((c) >> 12) == 2 ||	\
			    ((c) >> 12) == 3 || ((c) >> 12) == 8) &&		\
			   (((c) >> 8) & 0xf) >= 2 && (((c) >> 8) & 0xf) <= 5 &&	\
			   ((c) & 0xff) < 64)
#define OSDHIST_OPC_SLOT(c) (((((c) >> 12) == 8 ? 0 : ((c) >> 12)) << 8) |	\
			     (((((c) >> 8) & 0xf) - 2) << 6) | ((c) & 0x3f))

#define OSDHIST_OPI_INIT(name, code, guard) [OSDHIST_OPC_SLOT(code)] = OPI_##code,
static const unsigned char osdhist_opc_index[1024] = {
	OSDHIST_OPCODES(OSDHIST_OPI_INIT)
};
#undef OSDHIST_OPI_INIT

#define OSDHIST_OPI_GUARD(name, code, guard) [OPI_##code] = guard,
static const unsigned char osdhist_opi_guard[NR_OPCODES] = {
	OSDHIST_OPCODES(OSDHIST_OPI_GUARD)
};
#undef OSDHIST_OPI_GUARD

static inline unsigned osdhist_opi(unsigned code)
{
	code &= 0xffff;
	if (!OSDHIST_OPC_OK(code))
		return OPI_UNKNOWN;
	return osdhist_opc_index[OSDHIST_OPC_SLOT(code) & 1023];
}

/*
 * A message's op type: its first op that is not a guard, or, if all are
 * guards, its first op; OPI_NONE for no op.  The one rule, one op at a time
 * (as bpf/ sees them), and for a whole list (tests/unit).
 */
struct osdhist_type_acc {
	unsigned char type;	/* OPI_NONE until the first op */
	unsigned char fixed;	/* type is a non-guard op: final */
};

static inline void osdhist_op_type_step(struct osdhist_type_acc *a, unsigned ix)
{
	int guard = osdhist_opi_guard[ix < NR_OPCODES ? ix : OPI_UNKNOWN];

	if (a->type == OPI_NONE || (!a->fixed && !guard)) {
		a->type = ix;
		a->fixed = !guard;
	}
}

static inline unsigned char osdhist_op_type(const unsigned char *idx, unsigned n)
{
	struct osdhist_type_acc a = { OPI_NONE, 0 };

	for (unsigned i = 0; i < n && i < OSDHIST_OPS_MAX; i++)
		osdhist_op_type_step(&a, idx[i]);
	return a.type;
}

#endif /* OSDHIST_OPS_H */

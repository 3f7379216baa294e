// SPDX-License-Identifier: GPL-2.0
/* The printed names of bpf/'s classes, phases, op ids and health counters. */
#include "calls.h"
#include "names.h"

const char *const class_name[NR_CLASSES] = {
	[CLASS_READ] = "read",
	[CLASS_WRITE] = "write",
	[CLASS_RW] = "rw",
	[CLASS_ERROR] = "error",
	[CLASS_PG] = "pg",
	[CLASS_SUBOP] = "subop",
};

const char *const phase_name[NR_PHASES] = {
	[PHASE_TOTAL] = "total",
	[PHASE_QUEUE] = "queue",
	[PHASE_EXECUTE] = "execute",
	[PHASE_COMMIT] = "commit",
};

#define OP_NAME(name, code, guard) [OPI_##code] = name,
static const char *const op_names[NR_OPCODES] = {
	[OPI_NONE] = "none",
	[OPI_UNKNOWN] = "unknown",
	OSDHIST_OPCODES(OP_NAME)
};
#undef OP_NAME

const char *op_name(unsigned opi)
{
	if (opi < NR_OPCODES)
		return op_names[opi];
	return opi < NR_OPX ? call_name(opi) : "all";
}

#define HEALTH_NAME(id, name, loss) [id] = name,
const char *const health_name[NR_HEALTH] = { OSDHIST_HEALTH(HEALTH_NAME) };
#undef HEALTH_NAME

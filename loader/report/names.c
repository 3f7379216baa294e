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

const char *const http_reject_name[NR_HTTP_REJECT] = {
	[HTTP_REJ_PER_ADDR] = "per_ip_limit",
	[HTTP_REJ_CONNS] = "connection_limit",
	[HTTP_REJ_REQUEST_TIMEOUT] = "request_timeout",
	[HTTP_REJ_IDLE_TIMEOUT] = "idle_timeout",
	[HTTP_REJ_INCOMPLETE] = "incomplete",
	[HTTP_REJ_BAD_REQUEST] = "bad_request",
	[HTTP_REJ_EVICTED] = "evicted",
};

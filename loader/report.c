// SPDX-License-Identifier: GPL-2.0
/* Names shared by the renderers. */
#include "report.h"

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

const char *const health_name[NR_HEALTH] = {
	[H_STARTED] = "started",
	[H_INSERT_FAIL] = "insert_failed",
	[H_DONE_MISS] = "done_without_start",
	[H_END_MISS] = "end_without_entry",
	[H_ENDED] = "ended",
	[H_HIST_FAIL] = "hist_full",
	[H_READ_FAIL] = "read_failed",
	[H_IGNORED] = "ignored_msgs",
	[H_OUTSIDE] = "started_outside",
};

const char *const http_reject_name[NR_HTTP_REJECT] = {
	[HTTP_REJ_PER_ADDR] = "per_ip_limit",
	[HTTP_REJ_CONNS] = "connection_limit",
	[HTTP_REJ_REQUEST_TIMEOUT] = "request_timeout",
	[HTTP_REJ_IDLE_TIMEOUT] = "idle_timeout",
	[HTTP_REJ_INCOMPLETE] = "incomplete",
	[HTTP_REJ_BAD_REQUEST] = "bad_request",
};

bool health_is_loss(int h)
{
	return h == H_INSERT_FAIL || h == H_DONE_MISS || h == H_END_MISS ||
	       h == H_HIST_FAIL || h == H_READ_FAIL;
}

void health_loader_losses(const struct health_report *h,
			  struct loader_loss out[NR_LOADER_LOSSES])
{
	out[0] = (struct loader_loss){ "reaped_dead_proc", h->reaped };
	out[1] = (struct loader_loss){ "drain_timeout", h->drain_timeouts };
	out[2] = (struct loader_loss){ "unknown_proc_ops", h->unknown_ops };
}

__u64 health_losses(const struct health_report *h)
{
	struct loader_loss ll[NR_LOADER_LOSSES];
	__u64 n = 0;

	health_loader_losses(h, ll);
	for (int i = 0; i < NR_LOADER_LOSSES; i++)
		n += ll[i].value;

	for (int i = 0; i < NR_HEALTH; i++)
		if (health_is_loss(i))
			n += h->bpf[i];
	return n;
}

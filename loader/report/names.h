/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_NAMES_H
#define OSDHIST_NAMES_H

/*
 * The printed names of bpf/'s classes, phases, op ids and health counters
 * (maps/osdhist.h), and of the reasons /metrics refuses a peer, for every
 * output and for the slowest ops' text: one table.  Apart from report.h
 * because slowops.c prints op ids too and report.c needs slowops.h: the
 * names in either would make the two include each other.
 */
#include <linux/types.h>
#include "osdhist.h"

extern const char *const class_name[NR_CLASSES];
/* Ceph's name of an op id ("read", "omap-get-vals", ..., and calls.h's
 * "call lock.lock"). */
const char *op_name(unsigned opi);
extern const char *const phase_name[NR_PHASES];
extern const char *const health_name[NR_HEALTH];

/* Why the /metrics endpoint (--prometheus) refused or dropped a connection
 * or a request: the reasons this guard counts; see osdhist(8). */
enum http_reject {
	HTTP_REJ_PER_ADDR,	/* refused at accept: its address held the most */
	HTTP_REJ_CONNS,		/* refused at accept: the server held the most */
	HTTP_REJ_REQUEST_TIMEOUT, /* request line + headers not in by the deadline */
	HTTP_REJ_IDLE_TIMEOUT,	/* the peer stopped reading its response */
	HTTP_REJ_INCOMPLETE,	/* closed before a complete request: garbage,
				 * oversized, or abandoned by the peer */
	HTTP_REJ_BAD_REQUEST,	/* a complete request refused: path, method, body */
	HTTP_REJ_EVICTED,	/* idle or stalled, closed to let a new one in */
	NR_HTTP_REJECT
};
/* Their names in every output and metric ("per_ip_limit" ...). */
extern const char *const http_reject_name[NR_HTTP_REJECT];

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_HTTP_GUARD_H
#define OSDHIST_HTTP_GUARD_H

/*
 * Who may hold a connection to /metrics, and for how long: the bookkeeping
 * behind http.c, with no libmicrohttpd and no clock of its own (the caller
 * passes "now"), so it can be unit-tested.  One thread owns a guard (the
 * HTTP thread); only the rejection counters are read from another thread,
 * through guard_counts().
 *
 * The limits a peer cannot get around:
 *  - per address: at most per_addr connections from one IPv4 address or one
 *    IPv6 /64 (one host usually owns a whole /64), so one peer cannot take
 *    every slot.  Loopback is one address: all of 127.0.0.0/8 and ::1 (and
 *    ::ffff:127.x.y.z) are this host, whose every process (cephadm runs its
 *    containers on the host network) could otherwise bind 127.0.0.2, .3, ...
 *    and take per_addr slots with each;
 *  - in total: at most conns connections;
 *  - a full table still lets a new peer in: when its address, or the whole
 *    table, is at its limit, the connection that has waited longest for a
 *    request (since its accept, or since its last response if kept alive)
 *    is closed to make room, of the same address if that is the limit
 *    reached.  Age alone: preferring to keep connections that once made a
 *    complete request would let a peer make its own look like that and
 *    have every fresh scrape evicted first.  Evicting rather than keeping
 *    slots aside because loopback is one address: a scraper on 127.0.0.1
 *    shares its limit with every abuser on the host, and no reserve could
 *    tell it from them at accept.  A scrape is a request sent at once, so it
 *    is the newest idle connection and the last to go: to evict it before
 *    its request is in, a peer would have to open per_addr connections in
 *    that moment, and even then the scraper's retry evicts one of them.
 *    With none idle, a connection whose response has not gone out
 *    GUARD_STALL_S after its request came in (a peer that does not read
 *    it) goes, longest stalled first; a response being sent in time is
 *    never cut; with neither, the newcomer is refused as before;
 *  - a deadline for each request line + headers, fixed when the connection
 *    is accepted (first_request_s later) or when the previous response was
 *    sent (next_request_s later), and not moved by trickled bytes, unlike
 *    libmicrohttpd's idle timeout.
 */
#include <stdbool.h>
#include <sys/socket.h>
#include <linux/types.h>
#include "report/names.h"	/* enum http_reject */


#define GUARD_KEY_LEN 9	/* family tag + 4 (IPv4) or 8 (IPv6 /64) bytes */
/* Evicted connections not yet closed by the server, at most: each still
 * holds a descriptor and counts in libmicrohttpd's own limits until the
 * server sees its end (its next round), and http.c sets those limits and
 * its descriptor budget this much above ours.  Evictions pile up only
 * within one round of accepts (a small batch in libmicrohttpd's epoll
 * mode), so a connect storm should not reach this cap and refuse a
 * newcomer for want of room on the way out; beyond it, refusals are
 * counted as before. */
#define GUARD_EVICT_PENDING 64
/* A response not out this long after its request is stalled by its reader:
 * a scrape's is out in milliseconds on any link Prometheus is used on, and
 * without this a peer that sends GET and never reads would hold its slots
 * until libmicrohttpd's idle timeout (15 s), the longest idle-free way to
 * keep a full table from evicting. */
#define GUARD_STALL_S 2.0

struct guard_limits {
	unsigned per_addr;
	unsigned conns;
	double first_request_s;
	double next_request_s;
};

struct guard_conn {
	struct guard_conn *prev, *next;
	unsigned char key[GUARD_KEY_LEN];
	int fd;			/* the caller's handle, given back by guard_expired() */
	double deadline;	/* the current request's line and headers are due
				 * by then; 0 while one is being answered */
	double since;		/* ... and it has waited for it since then */
	double busy_since;	/* its last request came in then */
	bool requested;		/* a complete request arrived on it at least once */
	bool expired;		/* guard_expired() handed it out */
	bool evicted;		/* guard_admit() handed it out to make room */
};

struct guard {
	struct guard_limits lim;
	struct guard_conn *head;
	unsigned open;
	unsigned evicting;	/* evicted, not closed yet: out of the limits */
	__u64 rejected[NR_HTTP_REJECT];	/* written by the owner, read atomically */
};

void guard_init(struct guard *g, const struct guard_limits *lim);

/* The per-address key of a peer: IPv4 (also IPv4-mapped IPv6) by address,
 * IPv6 by /64, loopback (127.0.0.0/8, ::1) as one; any other family shares
 * one all-zero key. */
void guard_key(const struct sockaddr *sa, socklen_t len, unsigned char key[GUARD_KEY_LEN]);

/* A connection was accepted at now: true to keep it, false to close it at
 * once (counted as HTTP_REJ_PER_ADDR or HTTP_REJ_CONNS).  If it is kept
 * only by making room, *evict is the idle (or stalled) connection to end
 * now (the caller shuts it down; counted as HTTP_REJ_EVICTED; guard_close()
 * still follows), else NULL.  Admitting does not count it as open yet: guard_open() does, once
 * the server really holds it, so a connection the server fails to set up
 * is never counted. */
bool guard_admit(struct guard *g, const struct sockaddr *sa, socklen_t len,
		 double now, struct guard_conn **evict);

/* The server holds c now; its first request is due first_request_s after now. */
void guard_open(struct guard *g, struct guard_conn *c, const struct sockaddr *sa,
		socklen_t len, int fd, double now);

/* Request line and headers of c's current request are in (at now): no
 * deadline while it is answered. */
void guard_request(struct guard_conn *c, double now);

/* A complete request was refused (wrong path or method, a body):
 * counted as HTTP_REJ_BAD_REQUEST. */
void guard_refused(struct guard *g);

/* c's response was sent, or given up (timed_out: the peer stopped reading
 * it; counted as HTTP_REJ_IDLE_TIMEOUT): the next request on the
 * connection is due next_request_s later. */
void guard_completed(struct guard *g, struct guard_conn *c, double now, bool timed_out);

/* c is closed: forgets it; counted as HTTP_REJ_INCOMPLETE if it closed
 * before any complete request arrived, other than by its deadline or an
 * eviction. */
void guard_close(struct guard *g, struct guard_conn *c);

/* A connection past its deadline, marked and counted as
 * HTTP_REJ_REQUEST_TIMEOUT; the caller closes it.  NULL if none. */
struct guard_conn *guard_expired(struct guard *g, double now);

/* The earliest deadline of any connection, 0 if none. */
double guard_next_deadline(const struct guard *g);

/* A consistent-enough copy of the counters, from any thread. */
void guard_counts(const struct guard *g, __u64 out[NR_HTTP_REJECT]);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * Connection limits and request deadlines for /metrics (see http_guard.h).
 * A plain list: there are at most lim.conns connections (hundreds), and
 * each accept or poll round walks it once, which costs far less than the
 * system calls around it and keeps no second structure to get out of step.
 */
#include <string.h>
#include <netinet/in.h>

#include "http_guard.h"

static void count(struct guard *g, enum http_reject why)
{
	__atomic_fetch_add(&g->rejected[why], 1, __ATOMIC_RELAXED);
}

void guard_init(struct guard *g, const struct guard_limits *lim)
{
	memset(g, 0, sizeof(*g));
	g->lim = *lim;
}

enum { KEY_NONE, KEY_LOOPBACK, KEY_V4 = 4, KEY_V6 = 6 };

static void key_v4(const unsigned char a[4], unsigned char key[GUARD_KEY_LEN])
{
	if (a[0] == 127) {	/* 127.0.0.0/8: this host, one peer */
		key[0] = KEY_LOOPBACK;
		return;
	}
	key[0] = KEY_V4;
	memcpy(key + 1, a, 4);
}

void guard_key(const struct sockaddr *sa, socklen_t len, unsigned char key[GUARD_KEY_LEN])
{
	static const unsigned char v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	static const unsigned char v6loop[16] = { [15] = 1 };

	memset(key, 0, GUARD_KEY_LEN);
	if (sa && sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		key_v4((const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr, key);
	} else if (sa && sa->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		const unsigned char *a = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;

		/* an IPv4 client of a [::] socket is the same peer as on 0.0.0.0 */
		if (!memcmp(a, v4mapped, sizeof(v4mapped))) {
			key_v4(a + 12, key);
		} else if (!memcmp(a, v6loop, sizeof(v6loop))) {
			key[0] = KEY_LOOPBACK;
		} else {
			key[0] = KEY_V6;
			memcpy(key + 1, a, 8);
		}
	}
}

/* Waiting for a request (not being answered), and not on its way out. */
static bool idle(const struct guard_conn *c)
{
	return c->deadline && !c->expired && !c->evicted;
}

/* The one to evict: of key's connections (any if NULL), the idle one that
 * has waited longest, else the one whose response has stalled longest
 * (GUARD_STALL_S at least); NULL if none. */
static struct guard_conn *victim(struct guard *g, const unsigned char *key, double now)
{
	struct guard_conn *best = NULL, *stalled = NULL;

	for (struct guard_conn *c = g->head; c; c = c->next) {
		if (c->expired || c->evicted || (key && memcmp(c->key, key, GUARD_KEY_LEN)))
			continue;
		if (idle(c)) {
			if (!best || c->since < best->since)
				best = c;
		} else if (c->busy_since + GUARD_STALL_S <= now &&
			   (!stalled || c->busy_since < stalled->busy_since)) {
			stalled = c;
		}
	}
	return best ? best : stalled;
}

bool guard_admit(struct guard *g, const struct sockaddr *sa, socklen_t len,
		 double now, struct guard_conn **evict)
{
	unsigned char key[GUARD_KEY_LEN];
	unsigned same = 0;
	bool per_addr;
	struct guard_conn *v;

	*evict = NULL;
	guard_key(sa, len, key);
	for (const struct guard_conn *c = g->head; c; c = c->next)
		same += !c->evicted && !memcmp(c->key, key, GUARD_KEY_LEN);
	per_addr = same >= g->lim.per_addr;
	if (!per_addr && g->open - g->evicting < g->lim.conns)
		return true;
	/* at a limit: room from the address that reached it, or from any */
	v = g->evicting < GUARD_EVICT_PENDING ? victim(g, per_addr ? key : NULL, now) : NULL;
	if (!v) {
		count(g, per_addr ? HTTP_REJ_PER_ADDR : HTTP_REJ_CONNS);
		return false;
	}
	v->evicted = true;
	v->deadline = 0;
	g->evicting++;
	count(g, HTTP_REJ_EVICTED);
	*evict = v;
	return true;
}

void guard_open(struct guard *g, struct guard_conn *c, const struct sockaddr *sa,
		socklen_t len, int fd, double now)
{
	memset(c, 0, sizeof(*c));
	guard_key(sa, len, c->key);
	c->fd = fd;
	c->since = now;
	c->deadline = now + g->lim.first_request_s;
	c->next = g->head;
	if (g->head)
		g->head->prev = c;
	g->head = c;
	g->open++;
}

void guard_request(struct guard_conn *c, double now)
{
	c->deadline = 0;
	c->busy_since = now;
	c->requested = true;
}

void guard_refused(struct guard *g)
{
	count(g, HTTP_REJ_BAD_REQUEST);
}

void guard_completed(struct guard *g, struct guard_conn *c, double now, bool timed_out)
{
	if (timed_out)
		count(g, HTTP_REJ_IDLE_TIMEOUT);
	if (!c->expired && !c->evicted) {
		c->since = now;
		c->deadline = now + g->lim.next_request_s;
	}
}

void guard_close(struct guard *g, struct guard_conn *c)
{
	if (!c->requested && !c->expired && !c->evicted)
		count(g, HTTP_REJ_INCOMPLETE);
	if (c->evicted)
		g->evicting--;
	if (c->prev)
		c->prev->next = c->next;
	else
		g->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->prev = c->next = NULL;
	g->open--;
}

struct guard_conn *guard_expired(struct guard *g, double now)
{
	for (struct guard_conn *c = g->head; c; c = c->next) {
		if (!idle(c) || c->deadline > now)
			continue;
		c->expired = true;
		c->deadline = 0;
		count(g, HTTP_REJ_REQUEST_TIMEOUT);
		return c;
	}
	return NULL;
}

double guard_next_deadline(const struct guard *g)
{
	double next = 0;

	for (const struct guard_conn *c = g->head; c; c = c->next)
		if (c->deadline && (!next || c->deadline < next))
			next = c->deadline;
	return next;
}

void guard_counts(const struct guard *g, __u64 out[NR_HTTP_REJECT])
{
	for (int i = 0; i < NR_HTTP_REJECT; i++)
		out[i] = __atomic_load_n(&g->rejected[i], __ATOMIC_RELAXED);
}

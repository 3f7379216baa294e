// SPDX-License-Identifier: GPL-2.0
/* The /metrics connection limits and request deadlines (loader/output/http_guard.c),
 * and how the renderers show what they refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include "unit.h"
#include "output/http_guard.h"
#include "report/report.h"

static struct sockaddr_in v4(const char *a, unsigned port)
{
	struct sockaddr_in s = { .sin_family = AF_INET, .sin_port = htons(port) };

	inet_pton(AF_INET, a, &s.sin_addr);
	return s;
}

static struct sockaddr_in6 v6(const char *a)
{
	struct sockaddr_in6 s = { .sin6_family = AF_INET6, .sin6_port = htons(80) };

	inet_pton(AF_INET6, a, &s.sin6_addr);
	return s;
}

#define SA(x) ((const struct sockaddr *)&(x)), sizeof(x)

static const struct guard_limits lim = {
	.per_addr = 2, .conns = 4, .first_request_s = 3, .next_request_s = 18,
};

static __u64 n(const struct guard *g, enum http_reject why)
{
	__u64 c[NR_HTTP_REJECT];

	guard_counts(g, c);
	return c[why];
}

/* Connections being answered (their request in): never evicted, so a
 * newcomer beyond the limit is refused. */
static void busy(struct guard_conn *c, int n)
{
	for (int i = 0; i < n; i++)
		guard_request(&c[i], 0);
}

static void per_address_limit(void **state)
{
	struct sockaddr_in a = v4("192.0.2.2", 40000), b = v4("192.0.2.2", 40001),
			   other = v4("192.0.2.1", 40000);
	struct guard_conn c[3], *ev;
	struct guard g;
	(void)state;

	guard_init(&g, &lim);
	assert_true(guard_admit(&g, SA(a), 0, &ev));
	assert_null(ev);
	guard_open(&g, &c[0], SA(a), 10, 0);
	assert_true(guard_admit(&g, SA(b), 0, &ev));
	guard_open(&g, &c[1], SA(b), 11, 0);
	busy(c, 2);
	/* a third from 192.0.2.2, whatever its port, none of its own idle:
	 * refused and counted */
	assert_false(guard_admit(&g, SA(a), 0, &ev));
	assert_null(ev);
	assert_false(guard_admit(&g, SA(b), 0, &ev));
	assert_int_equal(n(&g, HTTP_REJ_PER_ADDR), 2);
	/* another address is not held back by it */
	assert_true(guard_admit(&g, SA(other), 0, &ev));
	assert_null(ev);
	guard_open(&g, &c[2], SA(other), 12, 0);
	/* the other address's idle connection is not the first's to evict */
	assert_false(guard_admit(&g, SA(a), 0, &ev));
	/* a slot freed is a slot again */
	guard_close(&g, &c[0]);
	assert_true(guard_admit(&g, SA(a), 0, &ev));
	assert_null(ev);
	assert_int_equal(n(&g, HTTP_REJ_PER_ADDR), 3);
	assert_int_equal(n(&g, HTTP_REJ_CONNS), 0);
	assert_int_equal(n(&g, HTTP_REJ_EVICTED), 0);
}

static void total_limit(void **state)
{
	struct guard_conn c[4], *ev;
	struct sockaddr_in a[5];
	char ip[32];
	struct guard g;
	(void)state;

	guard_init(&g, &lim);
	for (int i = 0; i < 5; i++) {
		snprintf(ip, sizeof(ip), "10.0.0.%d", i + 1);
		a[i] = v4(ip, 1234);
	}
	/* admitting alone holds nothing: a connection the server failed to
	 * set up must not take a slot */
	for (int i = 0; i < 10; i++)
		assert_true(guard_admit(&g, SA(a[0]), 0, &ev));
	for (int i = 0; i < 4; i++) {
		assert_true(guard_admit(&g, SA(a[i]), 0, &ev));
		guard_open(&g, &c[i], SA(a[i]), i, 0);
	}
	busy(c, 4);
	assert_int_equal(g.open, 4);
	assert_false(guard_admit(&g, SA(a[4]), 0, &ev));
	assert_null(ev);
	assert_int_equal(n(&g, HTTP_REJ_CONNS), 1);
	assert_int_equal(n(&g, HTTP_REJ_PER_ADDR), 0);
	guard_close(&g, &c[2]);		/* from the middle of the list */
	guard_close(&g, &c[3]);		/* the head */
	guard_close(&g, &c[0]);		/* the tail */
	assert_int_equal(g.open, 1);
	assert_ptr_equal(g.head, &c[1]);
	assert_null(c[1].prev);
	assert_null(c[1].next);
	assert_true(guard_admit(&g, SA(a[4]), 0, &ev));
	assert_null(ev);
}

/* At a limit with idle connections: the one idle longest makes room. */
static void eviction(void **state)
{
	struct sockaddr_in a = v4("192.0.2.2", 1), b = v4("192.0.2.3", 1),
			   d = v4("192.0.2.4", 1);
	struct guard_conn c[6], *ev;
	struct guard g;
	(void)state;

	guard_init(&g, &lim);	/* 2 per address, 4 in all */
	guard_open(&g, &c[0], SA(a), 10, 100);
	guard_open(&g, &c[1], SA(a), 11, 101);
	/* c[0] answered at 102: idle since then, c[1] since 101 */
	guard_request(&c[0], 101.5);
	guard_completed(&g, &c[0], 102, false);
	assert_true(guard_admit(&g, SA(a), 0, &ev));
	assert_ptr_equal(ev, &c[1]);
	assert_true(c[1].evicted);
	assert_int_equal(n(&g, HTTP_REJ_EVICTED), 1);
	assert_int_equal(n(&g, HTTP_REJ_PER_ADDR), 0);
	/* on its way out: its deadline (104) gone, not in the count */
	assert_null(guard_expired(&g, 104.5));
	guard_open(&g, &c[2], SA(a), 12, 103);
	assert_int_equal(g.evicting, 1);
	/* next from a: c[0] (idle since 102) goes before c[2] (103) */
	assert_true(guard_admit(&g, SA(a), 0, &ev));
	assert_ptr_equal(ev, &c[0]);
	/* the server sees their ends: not "incomplete", out of the pending */
	guard_close(&g, &c[1]);
	guard_close(&g, &c[0]);
	assert_int_equal(g.evicting, 0);
	assert_int_equal(n(&g, HTTP_REJ_INCOMPLETE), 0);
	assert_int_equal(n(&g, HTTP_REJ_EVICTED), 2);
	guard_open(&g, &c[3], SA(a), 13, 104);
	/* the table full (a: c[2] c[3], b: c[4] c[5]), d is new: the longest
	 * idle of all makes room, whatever its address */
	guard_open(&g, &c[4], SA(b), 14, 99);
	guard_open(&g, &c[5], SA(b), 15, 105);
	assert_int_equal(g.open, 4);
	assert_true(guard_admit(&g, SA(d), 0, &ev));
	assert_ptr_equal(ev, &c[4]);
	assert_int_equal(n(&g, HTTP_REJ_CONNS), 0);
	/* neither an expired connection (on its way out already) nor a busy
	 * one is evicted: a, with c[2] expired and c[3] busy, is refused */
	assert_ptr_equal(guard_expired(&g, 106.5), &c[2]);
	busy(&c[3], 1);
	assert_false(guard_admit(&g, SA(a), 0, &ev));
	assert_null(ev);
	assert_int_equal(n(&g, HTTP_REJ_PER_ADDR), 1);
	guard_close(&g, &c[2]);
	assert_true(guard_admit(&g, SA(a), 0, &ev));
	assert_null(ev);
}

/* None idle: a response not out GUARD_STALL_S after its request (a peer
 * that does not read) is evicted, longest stalled first; one in time never,
 * and an idle one always before a stalled one. */
static void eviction_of_stalled(void **state)
{
	struct sockaddr_in a = v4("192.0.2.2", 1);
	struct guard_conn c[3], *ev;
	struct guard g;
	(void)state;

	guard_init(&g, &lim);	/* 2 per address */
	guard_open(&g, &c[0], SA(a), 10, 9);
	guard_open(&g, &c[1], SA(a), 11, 9);
	guard_request(&c[0], 10);
	guard_request(&c[1], 11);
	assert_false(guard_admit(&g, SA(a), 10 + GUARD_STALL_S - 0.1, &ev));
	assert_null(ev);
	assert_int_equal(n(&g, HTTP_REJ_PER_ADDR), 1);
	assert_true(guard_admit(&g, SA(a), 10 + GUARD_STALL_S + 0.5, &ev));
	assert_ptr_equal(ev, &c[0]);
	guard_open(&g, &c[2], SA(a), 12, 12.5);
	/* c[1] stalled since 11, c[2] idle since 12.5: the idle one goes */
	assert_true(guard_admit(&g, SA(a), 11 + GUARD_STALL_S + 1, &ev));
	assert_ptr_equal(ev, &c[2]);
	/* an evicted response that MHD then ends gets no new deadline */
	guard_completed(&g, &c[0], 14, false);
	assert_true(c[0].deadline == 0);
	assert_int_equal(n(&g, HTTP_REJ_EVICTED), 2);
}

/* An abuser that evicts faster than the server closes: at most
 * GUARD_EVICT_PENDING on their way out, then refusals. */
static void eviction_pending_cap(void **state)
{
	const struct guard_limits one = { .per_addr = 1, .conns = 100,
					  .first_request_s = 3, .next_request_s = 18 };
	struct sockaddr_in a = v4("192.0.2.2", 1);
	struct guard_conn c[GUARD_EVICT_PENDING + 1], *ev;
	struct guard g;
	(void)state;

	guard_init(&g, &one);
	guard_open(&g, &c[0], SA(a), 0, 0);
	for (int i = 1; i <= GUARD_EVICT_PENDING; i++) {
		assert_true(guard_admit(&g, SA(a), 0, &ev));
		assert_ptr_equal(ev, &c[i - 1]);
		guard_open(&g, &c[i], SA(a), i, i);
	}
	assert_false(guard_admit(&g, SA(a), 0, &ev));
	assert_null(ev);
	assert_int_equal(n(&g, HTTP_REJ_PER_ADDR), 1);
	guard_close(&g, &c[0]);
	assert_true(guard_admit(&g, SA(a), 0, &ev));
	assert_ptr_equal(ev, &c[GUARD_EVICT_PENDING]);
}

/* Issue 23: 4 x 130 connections from 127.0.0.2-5, held open without a
 * request, then 20 scrapes from 127.0.0.1, with osdhist's real limits. */
static void loopback_abuse_then_scrapes(void **state)
{
	const struct guard_limits real = { .per_addr = 128, .conns = 512,
					   .first_request_s = 3, .next_request_s = 18 };
	static struct guard_conn abuse[4 * 130], again[20];
	struct guard_conn scrape, *ev;
	struct sockaddr_in who = v4("127.0.0.1", 50000);
	unsigned held = 0, evicted = 0;
	struct guard g;
	char ip[32];
	(void)state;

	guard_init(&g, &real);
	for (int k = 0; k < 4 * 130; k++) {
		snprintf(ip, sizeof(ip), "127.0.0.%d", 2 + k / 130);
		struct sockaddr_in a = v4(ip, 40000 + k);

		if (!guard_admit(&g, SA(a), 0, &ev))
			continue;
		if (ev) {	/* the server sees its end at once */
			guard_close(&g, ev);
			evicted++;
		}
		guard_open(&g, &abuse[k], SA(a), k, k * 0.001);
		held++;
	}
	assert_int_equal(g.open, 128);		/* all of loopback is one peer */
	assert_int_equal(held, 4 * 130);
	assert_int_equal(evicted, 4 * 130 - 128);
	for (int i = 0; i < 20; i++) {
		double t = 1 + i;

		assert_true(guard_admit(&g, SA(who), 0, &ev));
		assert_non_null(ev);
		assert_true(ev >= abuse && ev < abuse + 4 * 130);
		guard_close(&g, ev);
		guard_open(&g, &scrape, SA(who), 1000 + i, t);
		guard_request(&scrape, t);
		guard_completed(&g, &scrape, t + 0.01, false);
		guard_close(&g, &scrape);
		/* the abuser takes the slot back at once */
		struct sockaddr_in a = v4("127.0.0.3", 30000 + i);

		assert_true(guard_admit(&g, SA(a), 0, &ev));
		assert_null(ev);
		guard_open(&g, &again[i], SA(a), 2000 + i, t + 0.02);
	}
	assert_int_equal(n(&g, HTTP_REJ_PER_ADDR), 0);
	assert_int_equal(n(&g, HTTP_REJ_CONNS), 0);
	assert_int_equal(n(&g, HTTP_REJ_EVICTED), 4 * 130 - 128 + 20);
	assert_int_equal(g.open, 128);
}

/* addr (IPv6 if it has a ':') has the key loop */
static bool is_loopback(const char *addr, const unsigned char loop[GUARD_KEY_LEN])
{
	unsigned char k[GUARD_KEY_LEN];
	struct sockaddr_in a = v4(addr, 7);
	struct sockaddr_in6 b = v6(addr);

	if (strchr(addr, ':'))
		guard_key(SA(b), k);
	else
		guard_key(SA(a), k);
	return !memcmp(k, loop, GUARD_KEY_LEN);
}

static void keys(void **state)
{
	unsigned char k1[GUARD_KEY_LEN], k2[GUARD_KEY_LEN], zero[GUARD_KEY_LEN] = { 0 };
	struct sockaddr_in a = v4("192.0.2.7", 1), b = v4("192.0.2.7", 2), c = v4("192.0.2.8", 1);
	struct sockaddr_in6 mapped = v6("::ffff:192.0.2.7"), h1 = v6("2001:db8:1:2::1"),
			    h2 = v6("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), other = v6("2001:db8:1:3::1");
	struct sockaddr un = { .sa_family = AF_UNIX };
	const char *loop4[] = { "127.0.0.1", "127.0.0.2", "127.255.255.254", "127.1.2.3" };
	const char *loop6[] = { "::1", "::ffff:127.0.0.1", "::ffff:127.9.8.7" };
	const char *not4[] = { "126.255.255.255", "128.0.0.1", "0.0.0.0", "10.127.0.1" };
	const char *not6[] = { "::2", "::", "::ffff:128.0.0.1", "fe80::1", "::127.0.0.1" };
	(void)state;

	guard_key(SA(a), k1);
	guard_key(SA(b), k2);
	assert_memory_equal(k1, k2, GUARD_KEY_LEN);	/* the port does not count */
	guard_key(SA(c), k2);
	assert_memory_not_equal(k1, k2, GUARD_KEY_LEN);
	guard_key(SA(mapped), k2);	/* IPv4 through a [::] socket: the same peer */
	assert_memory_equal(k1, k2, GUARD_KEY_LEN);
	guard_key(SA(h1), k1);
	guard_key(SA(h2), k2);
	assert_memory_equal(k1, k2, GUARD_KEY_LEN);	/* one /64, one host */
	guard_key(SA(other), k2);
	assert_memory_not_equal(k1, k2, GUARD_KEY_LEN);
	guard_key(&un, sizeof(un), k1);
	assert_memory_equal(k1, zero, GUARD_KEY_LEN);
	guard_key(NULL, 0, k1);
	assert_memory_equal(k1, zero, GUARD_KEY_LEN);
	/* too short to be what it says: no address read past its end */
	guard_key((const struct sockaddr *)&h1, sizeof(struct sockaddr_in), k1);
	assert_memory_equal(k1, zero, GUARD_KEY_LEN);

	/* loopback, in either family, is one peer, and nothing else is it */
	struct sockaddr_in l = v4("127.0.0.1", 9);
	guard_key(SA(l), k1);
	assert_memory_not_equal(k1, zero, GUARD_KEY_LEN);
	for (size_t i = 0; i < sizeof(loop4) / sizeof(loop4[0]); i++)
		assert_true(is_loopback(loop4[i], k1));
	for (size_t i = 0; i < sizeof(loop6) / sizeof(loop6[0]); i++)
		assert_true(is_loopback(loop6[i], k1));
	for (size_t i = 0; i < sizeof(not4) / sizeof(not4[0]); i++)
		assert_false(is_loopback(not4[i], k1));
	for (size_t i = 0; i < sizeof(not6) / sizeof(not6[0]); i++)
		assert_false(is_loopback(not6[i], k1));
	/* an IPv4-mapped address is its IPv4 one, not an IPv6 /64 */
	struct sockaddr_in6 m1 = v6("::ffff:192.0.2.9"), m2 = v6("::ffff:192.0.2.10");
	guard_key(SA(m1), k1);
	guard_key(SA(m2), k2);
	assert_memory_not_equal(k1, k2, GUARD_KEY_LEN);
}

static void request_deadline(void **state)
{
	struct sockaddr_in a = v4("127.0.0.2", 1), b = v4("127.0.0.3", 1);
	struct guard_conn c[2];
	struct guard g;
	(void)state;

	guard_init(&g, &lim);
	assert_true(guard_next_deadline(&g) == 0);
	guard_open(&g, &c[0], SA(a), 7, 100);
	guard_open(&g, &c[1], SA(b), 8, 101);
	assert_true(guard_next_deadline(&g) == 103);
	assert_null(guard_expired(&g, 102.9));
	/* due at 103 and nothing moved it: expired once, counted once */
	assert_ptr_equal(guard_expired(&g, 103), &c[0]);
	assert_int_equal(c[0].fd, 7);
	assert_null(guard_expired(&g, 103.5));
	assert_int_equal(n(&g, HTTP_REJ_REQUEST_TIMEOUT), 1);
	assert_true(guard_next_deadline(&g) == 104);
	/* the other's headers are in: no deadline while it is answered */
	guard_request(&c[1], 105);
	assert_true(guard_next_deadline(&g) == 0);
	assert_null(guard_expired(&g, 1000));
	/* answered at 110: the next request is due 18 s later */
	guard_completed(&g, &c[1], 110, false);
	assert_true(guard_next_deadline(&g) == 128);
	assert_null(guard_expired(&g, 127.9));
	assert_ptr_equal(guard_expired(&g, 128), &c[1]);
	assert_int_equal(n(&g, HTTP_REJ_REQUEST_TIMEOUT), 2);
	/* closed by their deadlines: not counted again as incomplete */
	guard_close(&g, &c[0]);
	guard_close(&g, &c[1]);
	assert_int_equal(n(&g, HTTP_REJ_INCOMPLETE), 0);
	assert_int_equal(g.open, 0);
	assert_null(g.head);
}

static void reasons_at_close(void **state)
{
	struct sockaddr_in a = v4("127.0.0.2", 1);
	struct guard_conn c;
	struct guard g;
	(void)state;

	guard_init(&g, &lim);
	/* closed before any complete request (garbage, oversized, abandoned) */
	guard_open(&g, &c, SA(a), 1, 0);
	guard_close(&g, &c);
	assert_int_equal(n(&g, HTTP_REJ_INCOMPLETE), 1);
	/* a request answered, then the peer went away: nothing to count */
	guard_open(&g, &c, SA(a), 1, 0);
	guard_request(&c, 0);
	guard_completed(&g, &c, 1, false);
	guard_close(&g, &c);
	assert_int_equal(n(&g, HTTP_REJ_INCOMPLETE), 1);
	assert_int_equal(n(&g, HTTP_REJ_IDLE_TIMEOUT), 0);
	/* a response the peer stopped reading */
	guard_open(&g, &c, SA(a), 1, 0);
	guard_request(&c, 0);
	guard_completed(&g, &c, 20, true);
	guard_close(&g, &c);
	assert_int_equal(n(&g, HTTP_REJ_IDLE_TIMEOUT), 1);
	guard_refused(&g);
	assert_int_equal(n(&g, HTTP_REJ_BAD_REQUEST), 1);
	/* an expired connection whose request MHD still completes (aborted)
	 * gets no new deadline */
	guard_open(&g, &c, SA(a), 1, 0);
	assert_non_null(guard_expired(&g, 5));
	guard_completed(&g, &c, 5, false);
	assert_true(guard_next_deadline(&g) == 0);
	guard_close(&g, &c);
	assert_int_equal(n(&g, HTTP_REJ_INCOMPLETE), 1);
}

/* --- renderers */

static void shown_in_every_output(void **state)
{
	struct report r = { .time = 1700000000, .interval = 1, .traced = 1 };
	char *out;
	(void)state;

	/* without --prometheus: not a word about HTTP */
	out = unit_render('t', &r);
	assert_null(strstr(out, "http"));
	free(out);
	out = unit_render('j', &r);
	assert_null(strstr(out, "http"));
	free(out);
	out = unit_render('p', &r);
	assert_null(strstr(out, "http"));
	free(out);

	r.health.http = true;
	out = unit_render('t', &r);
	assert_non_null(strstr(out, ", http rejected 0; no op lost\n"));
	free(out);
	r.health.http_rejected[HTTP_REJ_PER_ADDR] = 290;
	r.health.http_rejected[HTTP_REJ_BAD_REQUEST] = 3;
	out = unit_render('t', &r);
	assert_non_null(strstr(out, ", http rejected 293 (per_ip_limit=290 bad_request=3); "
			    "no op lost\n"));
	free(out);
	out = unit_render('j', &r);
	assert_non_null(strstr(out, ",\"http_rejected_per_ip_limit\":290,"
			    "\"http_rejected_connection_limit\":0,"
			    "\"http_rejected_request_timeout\":0,"
			    "\"http_rejected_idle_timeout\":0,"
			    "\"http_rejected_incomplete\":0,"
			    "\"http_rejected_bad_request\":3,"
			    "\"http_rejected_evicted\":0,\"keys_hists\":"));
	free(out);
	out = unit_render('p', &r);
	assert_non_null(strstr(out, "# TYPE osdhist_http_rejected_total counter\n"
			    "osdhist_http_rejected_total{reason=\"per_ip_limit\"} 290\n"
			    "osdhist_http_rejected_total{reason=\"connection_limit\"} 0\n"
			    "osdhist_http_rejected_total{reason=\"request_timeout\"} 0\n"
			    "osdhist_http_rejected_total{reason=\"idle_timeout\"} 0\n"
			    "osdhist_http_rejected_total{reason=\"incomplete\"} 0\n"
			    "osdhist_http_rejected_total{reason=\"bad_request\"} 3\n"
			    "osdhist_http_rejected_total{reason=\"evicted\"} 0\n"));
	free(out);
}

int run_http_guard_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(per_address_limit),
		cmocka_unit_test(total_limit),
		cmocka_unit_test(eviction),
		cmocka_unit_test(eviction_of_stalled),
		cmocka_unit_test(eviction_pending_cap),
		cmocka_unit_test(loopback_abuse_then_scrapes),
		cmocka_unit_test(keys),
		cmocka_unit_test(request_deadline),
		cmocka_unit_test(reasons_at_close),
		cmocka_unit_test(shown_in_every_output),
	};
	return cmocka_run_group_tests_name("http_guard", tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_HTTP_H
#define OSDHIST_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "http_guard.h"	/* NR_HTTP_REJECT */

#define HTTP_DEFAULT_HOST "127.0.0.1"

/* The endpoint's limits (osdhist(8) and --help say them): connections from
 * one address (IPv4, or IPv6 /64; all of loopback is one) and in all;
 * seconds a request line and its headers may take, from the accept or from
 * the previous response on a kept-alive connection; seconds without a byte
 * either way. */
#define HTTP_PER_ADDR		128
#define HTTP_CONNECTIONS	512
#define HTTP_REQUEST_S		3
#define HTTP_IDLE_S		15

/* "[ADDR:]PORT" ("9720", "0.0.0.0:9720", "[::1]:9720") -> host (default
 * 127.0.0.1, brackets removed) and port (0 = any free port).  0, or
 * -EINVAL if malformed. */
int http_parse_listen(const char *arg, char *host, size_t hostlen, unsigned *port);

/* Binds host:port and serves GET/HEAD /metrics from a thread of its own.
 * Until the first http_publish() it answers 503.  0, or a negative errno
 * after one line on stderr naming the address and the cause (-EADDRINUSE,
 * -EADDRNOTAVAIL, -EACCES ...; -EIO when libmicrohttpd will not start). */
int http_start(const char *host, unsigned port);

/* The counts of connections and requests the endpoint refused or dropped,
 * by reason, since it started; false (out untouched) if it is not serving.
 * Atomic loads only: safe from the main loop, never blocks. */
bool http_rejected(__u64 out[NR_HTTP_REJECT]);

/* The body /metrics serves from now on (copied). */
void http_publish(const char *body, size_t len);

void http_stop(void);

#endif

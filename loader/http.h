/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_HTTP_H
#define OSDHIST_HTTP_H

#include <stddef.h>

#define HTTP_DEFAULT_HOST "127.0.0.1"

/* "[ADDR:]PORT" ("9720", "0.0.0.0:9720", "[::1]:9720") -> host (default
 * 127.0.0.1, brackets removed) and port (0 = any free port).  0, or -1 if
 * malformed. */
int http_parse_listen(const char *arg, char *host, size_t hostlen, unsigned *port);

/* Binds host:port and serves GET/HEAD /metrics from a thread of its own.
 * Until the first http_publish() it answers 503.  0, or -1 after one line
 * on stderr naming the address and the cause. */
int http_start(const char *host, unsigned port);

/* The body /metrics serves from now on (copied). */
void http_publish(const char *body, size_t len);

void http_stop(void);

#endif

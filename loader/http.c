// SPDX-License-Identifier: GPL-2.0
/*
 * The /metrics endpoint: libmicrohttpd with its own polling thread.  The
 * thread only ever copies the last exposition the main loop published, under
 * a mutex; it never touches a BPF map, and nothing it does can block the
 * main loop longer than a memcpy.  Abuse is bounded by MHD: at most
 * HTTP_CONNECTIONS connections at once (more wait in the listen backlog),
 * each closed after HTTP_TIMEOUT_S idle seconds, request line and headers
 * within HTTP_REQUEST_MAX bytes (else MHD answers 414/431 and closes).
 */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include "http.h"
#include "prom.h"

#define HTTP_CONNECTIONS	16
#define HTTP_TIMEOUT_S		5
#define HTTP_REQUEST_MAX	(16 * 1024)
#define HTTP_BACKLOG		128

static struct MHD_Daemon *daemon_;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *body;		/* the last exposition, NULL before the first */
static size_t body_len;

int http_parse_listen(const char *arg, char *host, size_t hostlen, unsigned *port)
{
	const char *h = HTTP_DEFAULT_HOST, *p = arg, *colon;
	size_t hl = strlen(HTTP_DEFAULT_HOST);
	char *end;
	unsigned long v;

	if (arg[0] == '[') {		/* [IPv6]:PORT */
		colon = strstr(arg, "]:");
		if (!colon)
			return -1;
		h = arg + 1;
		hl = colon - h;
		p = colon + 2;
	} else if ((colon = strrchr(arg, ':'))) {
		if (memchr(arg, ':', colon - arg))	/* IPv6 without brackets */
			return -1;
		h = arg;
		hl = colon - arg;
		p = colon + 1;
	}
	if (!hl || hl >= hostlen || *p < '0' || *p > '9')
		return -1;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (errno || *end || v > 65535)
		return -1;
	memcpy(host, h, hl);
	host[hl] = 0;
	*port = v;
	return 0;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
			     const char *text, const char *allow)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(text), (void *)text,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(r, "Allow", allow);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* MHD calls this once the headers are in, then for each piece of the body,
 * then once more with none.  Refusals go out at the first call (MHD then
 * closes the connection, never reading a body); GET and HEAD are answered at
 * the last call, which lets MHD keep the connection alive. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct MHD_Response *r;
	enum MHD_Result ret;
	char *copy = NULL;
	size_t len = 0;
	bool have;

	(void)cls; (void)version; (void)upload;
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "osdhist serves /metrics only\n", NULL);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n",
			     "GET, HEAD");
	if (!*con_cls) {		/* headers only so far */
		*con_cls = c;
		return MHD_YES;
	}
	if (*upload_size)	/* a GET with a body: drop the connection */
		return MHD_NO;

	pthread_mutex_lock(&lock);
	have = body;
	if (have && (copy = malloc(body_len))) {
		memcpy(copy, body, body_len);
		len = body_len;
	}
	pthread_mutex_unlock(&lock);
	if (!have)
		return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE,
			     "osdhist: no snapshot yet (the first comes after one INTERVAL)\n",
			     NULL);
	if (!copy)
		return MHD_NO;
	r = MHD_create_response_from_buffer(len, copy, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(copy);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", PROM_CONTENT_TYPE);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static void say_addr(char *buf, size_t size, const char *host, unsigned port)
{
	snprintf(buf, size, strchr(host, ':') ? "[%s]:%u" : "%s:%u", host, port);
}

/* Our own socket, so that a failure to bind can say why (MHD cannot). */
static int listen_on(const char *host, unsigned port, unsigned *bound)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char where[300], ps[8];
	int fd, err, one = 1;

	say_addr(where, sizeof(where), host, port);
	snprintf(ps, sizeof(ps), "%u", port);
	err = getaddrinfo(host, ps, &hints, &ai);
	if (err) {
		fprintf(stderr, "osdhist: cannot serve metrics on %s: %s\n", where,
			gai_strerror(err));
		return -1;
	}
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    ai->ai_protocol);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, HTTP_BACKLOG)) {
		fprintf(stderr, "osdhist: cannot serve metrics on %s: %s\n", where,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	*bound = port;
	if (!getsockname(fd, (struct sockaddr *)&ss, &sl))
		*bound = ntohs(ss.ss_family == AF_INET6 ?
			       ((struct sockaddr_in6 *)&ss)->sin6_port :
			       ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

int http_start(const char *host, unsigned port)
{
	sigset_t block, old;
	unsigned bound;
	char where[300];
	int fd = listen_on(host, port, &bound);

	if (fd < 0)
		return -1;
	/* MHD's thread inherits this mask: SIGINT/TERM/USR1 must wake the
	 * main loop's sleep, and a SIGPIPE on a dropped client must not kill
	 * us (MHD writes with MSG_NOSIGNAL anyway). */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	daemon_ = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL,
				   on_request, NULL,
				   MHD_OPTION_LISTEN_SOCKET, fd,
				   MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTP_CONNECTIONS,
				   MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_TIMEOUT_S,
				   MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_REQUEST_MAX,
				   MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	say_addr(where, sizeof(where), host, bound);
	if (!daemon_) {
		fprintf(stderr, "osdhist: cannot start the metrics server on %s\n", where);
		close(fd);
		return -1;
	}
	fprintf(stderr, "osdhist: serving metrics on http://%s/metrics\n", where);
	return 0;
}

void http_publish(const char *buf, size_t len)
{
	char *copy = malloc(len ? len : 1), *old;

	if (!copy)
		return;		/* keep serving the previous one */
	memcpy(copy, buf, len);
	pthread_mutex_lock(&lock);
	old = body;
	body = copy;
	body_len = len;
	pthread_mutex_unlock(&lock);
	free(old);
}

void http_stop(void)
{
	if (daemon_)
		MHD_stop_daemon(daemon_);	/* closes the listen socket too */
	daemon_ = NULL;
	pthread_mutex_lock(&lock);
	free(body);
	body = NULL;
	pthread_mutex_unlock(&lock);
}

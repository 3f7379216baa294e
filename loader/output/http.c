// SPDX-License-Identifier: GPL-2.0
/*
 * The /metrics endpoint: libmicrohttpd driven by a thread of our own.  The
 * thread only ever copies the last exposition the main loop published, under
 * a mutex; it never touches a BPF map, and nothing it does can block the
 * main loop longer than a memcpy (the main loop reads the rejection
 * counters with atomic loads).
 *
 * One misbehaving peer must not starve Prometheus: every accepted
 * connection passes http_guard.c (at most HTTP_PER_ADDR per address, all of
 * loopback being one, HTTP_CONNECTIONS in all; at a limit the longest idle
 * (else stalled) connection of the address, or of all, is shut down to make
 * room, and with none the newcomer is closed at once, so none waits in the
 * listen backlog in front of a scrape), and its request line and
 * headers must be in within HTTP_REQUEST_S of the accept, or of the previous
 * response on a kept-alive connection, however slowly they trickle in.
 * libmicrohttpd's own idle timeout (HTTP_IDLE_S without a byte either way)
 * still ends silent connections and stalled readers, and its own per-address
 * and total limits are set just above ours as a backstop.  A connection the
 * peer closed is noticed by epoll and released in the same round.
 *
 * Why our own thread and not MHD's internal one: the request deadline needs
 * something to run when no socket is ready.  MHD's external epoll mode lets
 * this thread wait on MHD's epoll fd with the earliest deadline as timeout,
 * and close expired connections (shutdown(); MHD then sees EOF and releases
 * them) in the same thread that runs MHD, so no fd can be reused under it.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include "util/clock.h"
#include "http.h"
#include "http_guard.h"
#include "prom.h"

#define HTTP_REQUEST_MAX	(16 * 1024)	/* request line + headers, bytes */
#define HTTP_BACKLOG		512
/* file descriptors kept for the rest of osdhist (BPF maps, programs,
 * links, /proc) when the open file limit decides HTTP_CONNECTIONS */
#define HTTP_FD_RESERVE		256

static struct MHD_Daemon *daemon_;
static struct guard guard;
static pthread_t thread;
static int wake_fd = -1;
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
			return -EINVAL;
		h = arg + 1;
		hl = colon - h;
		p = colon + 2;
	} else if ((colon = strrchr(arg, ':'))) {
		if (memchr(arg, ':', colon - arg))	/* IPv6 without brackets */
			return -EINVAL;
		h = arg;
		hl = colon - arg;
		p = colon + 1;
	}
	if (!hl || hl >= hostlen || *p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (errno || *end || v > 65535)
		return -EINVAL;
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

static enum MHD_Result refuse(struct MHD_Connection *c, unsigned status,
			      const char *text, const char *allow)
{
	guard_refused(&guard);
	return reply(c, status, text, allow);
}

static struct guard_conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return i ? i->socket_context : NULL;
}

/* A body announced (Content-Length other than 0, or any Transfer-Encoding):
 * MHD has checked the syntax, but reading it would only give a slow peer
 * more time on the connection. */
static bool has_body(struct MHD_Connection *c)
{
	const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						     MHD_HTTP_HEADER_CONTENT_LENGTH);

	if (MHD_lookup_connection_value(c, MHD_HEADER_KIND,
					MHD_HTTP_HEADER_TRANSFER_ENCODING))
		return true;
	return cl && (!*cl || cl[strspn(cl, "0")]);
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
	struct guard_conn *gc;
	enum MHD_Result ret;
	char *copy = NULL;
	size_t len = 0;
	bool have;

	(void)cls; (void)version; (void)upload;
	if (!*con_cls) {		/* headers only so far */
		if ((gc = conn_of(c)))
			guard_request(gc, mono_now());
		if (strcmp(url, "/metrics"))
			return refuse(c, MHD_HTTP_NOT_FOUND,
				      "osdhist serves /metrics only\n", NULL);
		if (strcmp(method, MHD_HTTP_METHOD_GET) &&
		    strcmp(method, MHD_HTTP_METHOD_HEAD))
			return refuse(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				      "only GET and HEAD\n", "GET, HEAD");
		if (has_body(c)) {	/* a GET with a body: drop the connection */
			guard_refused(&guard);
			return MHD_NO;
		}
		*con_cls = c;
		return MHD_YES;
	}
	if (*upload_size) {		/* cannot happen after has_body(); still */
		guard_refused(&guard);
		return MHD_NO;
	}

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

/* Before MHD sets up an accepted connection (after its own backstop limits).
 * An evicted connection is shut down, not closed: MHD sees its end in the
 * next round and releases it itself, so no fd is reused under MHD. */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *sa, socklen_t len)
{
	struct guard_conn *evict;
	bool ok = guard_admit(&guard, sa, len, mono_now(), &evict);

	(void)cls;
	if (evict)
		shutdown(evict->fd, SHUT_RDWR);
	return ok ? MHD_YES : MHD_NO;
}

static socklen_t addr_len(const struct sockaddr *sa)
{
	if (sa && sa->sa_family == AF_INET6)
		return sizeof(struct sockaddr_in6);
	return sa && sa->sa_family == AF_INET ? sizeof(struct sockaddr_in) : 0;
}

/* The connection's life: the guard holds it from set-up to release. */
static void on_connection(void *cls, struct MHD_Connection *c, void **ctx,
			  enum MHD_ConnectionNotificationCode what)
{
	const union MHD_ConnectionInfo *fd, *peer;
	struct guard_conn *gc;

	(void)cls;
	if (what == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (*ctx) {
			guard_close(&guard, *ctx);
			free(*ctx);
			*ctx = NULL;
		}
		return;
	}
	fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	peer = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	gc = malloc(sizeof(*gc));
	if (!gc || !fd) {	/* cannot be limited: end it now (MHD sees EOF) */
		if (fd)
			shutdown(fd->connect_fd, SHUT_RDWR);
		free(gc);
		*ctx = NULL;
		return;
	}
	guard_open(&guard, gc, peer ? peer->client_addr : NULL,
		   addr_len(peer ? peer->client_addr : NULL), fd->connect_fd, mono_now());
	*ctx = gc;
}

/* A request is over (answered, refused, or abandoned). */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode why)
{
	struct guard_conn *gc = conn_of(c);

	(void)cls; (void)con_cls;
	if (gc)
		guard_completed(&guard, gc, mono_now(),
				why == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED);
}

/* How long the thread may sleep: until MHD's next idle timeout or our next
 * request deadline, whichever is first; -1 for no limit. */
static int wait_ms(void)
{
	MHD_UNSIGNED_LONG_LONG mhd;
	double next = guard_next_deadline(&guard);
	long long ms = -1;

	if (MHD_get_timeout(daemon_, &mhd) == MHD_YES)
		ms = mhd > INT_MAX ? INT_MAX : (long long)mhd;
	if (next > 0) {
		double d = ceil((next - mono_now()) * 1000);
		long long g = d < 0 ? 0 : d > INT_MAX ? INT_MAX : (long long)d;

		if (ms < 0 || g < ms)
			ms = g;
	}
	return ms;
}

static void *serve(void *arg)
{
	const union MHD_DaemonInfo *ep = MHD_get_daemon_info(daemon_, MHD_DAEMON_INFO_EPOLL_FD);
	struct pollfd p[2] = {
		{ .fd = ep ? ep->epoll_fd : -1, .events = POLLIN },
		{ .fd = wake_fd, .events = POLLIN },
	};
	struct guard_conn *gc;

	(void)arg;
	for (;;) {
		if (poll(p, 2, wait_ms()) < 0 && errno != EINTR)
			p[0].revents = 0;	/* cannot happen with valid fds; go on */
		if (p[1].revents)
			break;		/* http_stop() */
		MHD_run(daemon_);
		while ((gc = guard_expired(&guard, mono_now())))
			shutdown(gc->fd, SHUT_RDWR);
	}
	return NULL;
}

static void say_addr(char *buf, size_t size, const char *host, unsigned port)
{
	snprintf(buf, size, strchr(host, ':') ? "[%s]:%u" : "%s:%u", host, port);
}

/* Our own socket, so that a failure to bind can say why (MHD cannot): its
 * fd, or a negative errno after one line on stderr. */
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
		/* a host getaddrinfo cannot make an address of */
		return err == EAI_MEMORY ? -ENOMEM : -EADDRNOTAVAIL;
	}
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    ai->ai_protocol);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, HTTP_BACKLOG)) {
		err = errno;
		fprintf(stderr, "osdhist: cannot serve metrics on %s: %s\n", where,
			strerror(err));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return err > 0 ? -err : -EIO;
	}
	freeaddrinfo(ai);
	*bound = port;
	if (!getsockname(fd, (struct sockaddr *)&ss, &sl))
		*bound = ntohs(ss.ss_family == AF_INET6 ?
			       ((struct sockaddr_in6 *)&ss)->sin6_port :
			       ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

/* HTTP_CONNECTIONS, or fewer if the open file limit cannot make room for
 * them beside HTTP_FD_RESERVE (said once on stderr). */
static unsigned fd_budget(void)
{
	rlim_t need = HTTP_CONNECTIONS + GUARD_EVICT_PENDING + HTTP_FD_RESERVE;
	struct rlimit rl;
	unsigned n;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= need)
		return HTTP_CONNECTIONS;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
		struct rlimit raised = { need, rl.rlim_max };

		if (!setrlimit(RLIMIT_NOFILE, &raised))
			return HTTP_CONNECTIONS;
	}
	n = rl.rlim_cur > HTTP_FD_RESERVE + GUARD_EVICT_PENDING + 16 ?
		rl.rlim_cur - HTTP_FD_RESERVE - GUARD_EVICT_PENDING : 16;
	fprintf(stderr, "osdhist: the open file limit (%llu) allows %u metrics "
		"connections, not %u: raise it (ulimit -n, LimitNOFILE=) to %llu\n",
		(unsigned long long)rl.rlim_cur, n, HTTP_CONNECTIONS,
		(unsigned long long)need);
	return n;
}

int http_start(const char *host, unsigned port)
{
	struct guard_limits lim = {
		.per_addr = HTTP_PER_ADDR,
		.first_request_s = HTTP_REQUEST_S,
		/* longer than MHD's idle timeout: a kept-alive connection that
		 * stays silent is MHD's to close, quietly; one that trickles a
		 * request to dodge it is ours */
		.next_request_s = HTTP_IDLE_S + HTTP_REQUEST_S,
	};
	sigset_t block, old;
	unsigned bound;
	char where[300];
	int fd, err;

	lim.conns = fd_budget();
	if (lim.per_addr > lim.conns / 4)
		lim.per_addr = lim.conns / 4 ? lim.conns / 4 : 1;
	fd = listen_on(host, port, &bound);
	if (fd < 0)
		return fd;
	say_addr(where, sizeof(where), host, bound);
	guard_init(&guard, &lim);
	wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	err = wake_fd < 0 ? -errno : 0;
	daemon_ = wake_fd < 0 ? NULL :
		MHD_start_daemon(MHD_USE_EPOLL, 0, on_accept, NULL, on_request, NULL,
				 MHD_OPTION_LISTEN_SOCKET, fd,
				 /* backstops, never reached while the guard works:
				  * evicted connections count in them until MHD
				  * sees their end */
				 MHD_OPTION_CONNECTION_LIMIT,
				 lim.conns + GUARD_EVICT_PENDING + 8,
				 MHD_OPTION_PER_IP_CONNECTION_LIMIT,
				 lim.per_addr + GUARD_EVICT_PENDING + 1,
				 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_S,
				 MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_REQUEST_MAX,
				 MHD_OPTION_NOTIFY_CONNECTION, on_connection, NULL,
				 MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL,
				 MHD_OPTION_END);
	if (!daemon_) {
		fprintf(stderr, "osdhist: cannot start the metrics server on %s\n", where);
		if (!err)
			err = -EIO;	/* libmicrohttpd does not say why */
		goto fail;
	}
	/* The thread inherits this mask: SIGINT/TERM/USR1 must wake the main
	 * loop's sleep, and a SIGPIPE on a dropped client must not kill us
	 * (MHD writes with MSG_NOSIGNAL anyway). */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	err = pthread_create(&thread, NULL, serve, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		fprintf(stderr, "osdhist: cannot start the metrics server on %s: %s\n",
			where, strerror(err));
		MHD_stop_daemon(daemon_);	/* closes fd */
		daemon_ = NULL;
		fd = -1;
		err = -err;
		goto fail;
	}
	fprintf(stderr, "osdhist: serving metrics on http://%s/metrics\n", where);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	if (wake_fd >= 0)
		close(wake_fd);
	wake_fd = -1;
	return err;
}

bool http_rejected(__u64 out[NR_HTTP_REJECT])
{
	if (!daemon_)
		return false;
	guard_counts(&guard, out);
	return true;
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
	__u64 one = 1;

	if (daemon_) {
		if (write(wake_fd, &one, sizeof(one)) != sizeof(one))
			pthread_cancel(thread);	/* an eventfd write cannot fail */
		pthread_join(thread, NULL);
		MHD_stop_daemon(daemon_);	/* closes the listen socket too */
		close(wake_fd);
		wake_fd = -1;
	}
	daemon_ = NULL;
	pthread_mutex_lock(&lock);
	free(body);
	body = NULL;
	pthread_mutex_unlock(&lock);
}

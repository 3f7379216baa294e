// SPDX-License-Identifier: GPL-2.0
/* A ceph-osd's admin socket: one bounded request to it (asok_find.c finds it). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <json-c/json.h>

#include "asok.h"

const char *const asok_err_name[NR_ASOK_ERRS] = {
	[ASOK_OK] = "ok",
	[ASOK_NO_SOCKET] = "no socket",
	[ASOK_PERMISSION] = "permission",
	[ASOK_TIMEOUT] = "timeout",
	[ASOK_GARBAGE] = "garbage",
	[ASOK_IO] = "error",
};

/* ---- the protocol -------------------------------------------------------- */

size_t asok_frame_request(const char *cmd, char *buf, size_t size)
{
	size_t n = strlen(cmd);

	if (n + 1 > size || strchr(cmd, '\n'))
		return 0;
	memcpy(buf, cmd, n + 1);	/* the NUL ends the command */
	return n + 1;
}

int64_t asok_reply_length(const unsigned char hdr[4], uint32_t max)
{
	uint32_t be;

	memcpy(&be, hdr, 4);
	return ntohl(be) > max ? -1 : (int64_t)ntohl(be);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Waits for events on fd until the deadline: 1 ready, 0 timed out, -errno. */
static int wait_fd(int fd, short events, double deadline)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		double left = deadline - now_ms();
		int r;

		if (left <= 0)
			return 0;
		r = poll(&p, 1, (int)left + 1);
		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

static enum asok_err sys_err(int e, const char *what, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s: %s", what, strerror(e));
	if (e == ENOENT || e == ECONNREFUSED || e == ENOTDIR || e == ENOTSOCK)
		return ASOK_NO_SOCKET;
	if (e == EACCES || e == EPERM)
		return ASOK_PERMISSION;
	return ASOK_IO;
}

/*
 * connect() through an O_PATH descriptor of the socket (asok_find()): the
 * kernel resolves /proc/self/fd/N to that very inode, whatever its path's
 * length and whatever has been renamed or linked since it was checked.
 */
static enum asok_err connect_fd(int s, int sockfd, char *why, size_t whylen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int r;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d", sockfd);
	r = connect(s, (struct sockaddr *)&sa, sizeof(sa));
	if (r && errno == EAGAIN) {	/* the listen backlog is full */
		snprintf(why, whylen, "connect: backlog full (daemon not accepting)");
		r = ASOK_TIMEOUT;
	} else if (r) {
		r = sys_err(errno, "connect", why, whylen);
	}
	return r;
}

/* Reads exactly len bytes before the deadline. */
static enum asok_err read_all(int s, char *buf, size_t len, double deadline,
			      const char *what, char *why, size_t whylen)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(s, buf + got, len - got, MSG_DONTWAIT);
		int w;

		if (n > 0) {
			got += n;
			continue;
		}
		if (n == 0) {
			snprintf(why, whylen, "connection closed after %zu of %zu %s bytes",
				 got, len, what);
			return ASOK_GARBAGE;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return sys_err(errno, "recv", why, whylen);
		w = wait_fd(s, POLLIN, deadline);
		if (w < 0)
			return sys_err(-w, "poll", why, whylen);
		if (w == 0) {
			snprintf(why, whylen, "no %s within the time allowed (%zu of %zu bytes)",
				 what, got, len);
			return ASOK_TIMEOUT;
		}
	}
	return ASOK_OK;
}

enum asok_err asok_request(int sockfd, const char *cmd, int timeout_ms,
			   char **out, size_t *outlen, char *why, size_t whylen)
{
	double deadline = now_ms() + timeout_ms;
	unsigned char hdr[4];
	char req[1024];
	size_t reqlen = asok_frame_request(cmd, req, sizeof(req)), sent = 0;
	char *buf = NULL;
	int64_t len;
	enum asok_err e;
	int s;

	*out = NULL;
	*outlen = 0;
	why[0] = 0;
	if (!reqlen) {
		snprintf(why, whylen, "command too long");
		return ASOK_IO;
	}
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s < 0)
		return sys_err(errno, "socket", why, whylen);
	e = connect_fd(s, sockfd, why, whylen);
	while (!e && sent < reqlen) {
		ssize_t n = send(s, req + sent, reqlen - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
		int w;

		if (n >= 0) {
			sent += n;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			e = sys_err(errno, "send", why, whylen);
			break;
		}
		w = wait_fd(s, POLLOUT, deadline);
		if (w <= 0) {
			snprintf(why, whylen, "could not send the command in time");
			e = w ? ASOK_IO : ASOK_TIMEOUT;
		}
	}
	if (!e)
		e = read_all(s, (char *)hdr, 4, deadline, "answer", why, whylen);
	if (!e) {
		len = asok_reply_length(hdr, ASOK_MAX_REPLY);
		if (len < 0) {
			snprintf(why, whylen, "answer length header %02x%02x%02x%02x is above %u",
				 hdr[0], hdr[1], hdr[2], hdr[3], ASOK_MAX_REPLY);
			e = ASOK_GARBAGE;
		} else if (!(buf = malloc(len + 1))) {
			e = sys_err(ENOMEM, "malloc", why, whylen);
		} else {
			e = read_all(s, buf, len, deadline, "answer body", why, whylen);
			buf[len] = 0;
		}
	}
	close(s);
	if (e) {
		free(buf);
		return e;
	}
	*out = buf;
	*outlen = len;
	return ASOK_OK;
}

/* ---- perf dump ------------------------------------------------------------ */

static bool get_u64(struct json_object *o, const char *key, uint64_t *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_int))
		return false;
	*v = json_object_get_uint64(x);
	return true;
}

enum asok_err asok_parse_perf(const char *json, size_t len,
			      struct ceph_osd_counts *c, char *why, size_t whylen)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root, *osd;
	enum asok_err e = ASOK_GARBAGE;

	if (!tok) {
		snprintf(why, whylen, "out of memory");
		return ASOK_IO;
	}
	root = json_tokener_parse_ex(tok, json, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		/* a newer Ceph answers a failed command with "ERROR: ..." */
		snprintf(why, whylen, "answer is not JSON: %.40s", json);
		for (char *p = why; *p; p++)
			if (*p == '\n' || (unsigned char)*p < 0x20)
				*p = ' ';
	} else if (!json_object_object_get_ex(root, "osd", &osd) ||
		   !json_object_is_type(osd, json_type_object)) {
		snprintf(why, whylen, "answer has no \"osd\" counters");
	} else if (!get_u64(osd, "op_r", &c->op_r) || !get_u64(osd, "op_w", &c->op_w) ||
		   !get_u64(osd, "op_rw", &c->op_rw) || !get_u64(osd, "subop_w", &c->subop_w)) {
		snprintf(why, whylen, "answer lacks osd.op_r/op_w/op_rw/subop_w");
	} else {
		e = ASOK_OK;
	}
	if (root)
		json_object_put(root);
	json_tokener_free(tok);
	return e;
}

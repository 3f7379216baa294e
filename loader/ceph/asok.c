// SPDX-License-Identifier: GPL-2.0
/* A ceph-osd's admin socket: one bounded request to it (asok_find.c finds it). */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <json-c/json.h>

#include "asok.h"
#include "util/clock.h"

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
	return ntohl(be) > max ? -EMSGSIZE : (int64_t)ntohl(be);
}

static void call_fail(struct asok_call *c, enum asok_err e)
{
	c->err = e;
	c->phase = ASOK_DONE;
	if (c->s >= 0)
		close(c->s);
	c->s = -1;
	if (e) {
		free(c->buf);
		c->buf = NULL;
		c->len = 0;
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

static void call_sys(struct asok_call *c, int e, const char *what)
{
	call_fail(c, sys_err(e, what, c->why, sizeof(c->why)));
}

/*
 * connect() through an O_PATH descriptor of the socket (asok_find()): the
 * kernel resolves /proc/self/fd/N to that very inode, whatever its path's
 * length and whatever has been renamed or linked since it was checked.  A
 * unix stream connect never waits: it succeeds at once or fails with
 * EAGAIN when the listen backlog is full.
 */
void asok_call_start(struct asok_call *c, int sockfd, const char *cmd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	memset(c, 0, sizeof(*c));
	c->s = -1;
	c->phase = ASOK_SEND;
	c->reqlen = asok_frame_request(cmd, c->req, sizeof(c->req));
	if (!c->reqlen) {
		snprintf(c->why, sizeof(c->why), "command too long");
		call_fail(c, ASOK_IO);
		return;
	}
	c->s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->s < 0) {
		call_sys(c, errno, "socket");
		return;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d", sockfd);
	if (connect(c->s, (struct sockaddr *)&sa, sizeof(sa)) == 0)
		asok_call_step(c);	/* the command fits the socket buffer */
	else if (errno == EAGAIN) {
		snprintf(c->why, sizeof(c->why), "connect: backlog full (daemon not accepting)");
		call_fail(c, ASOK_TIMEOUT);
	} else {
		call_sys(c, errno, "connect");
	}
}

short asok_call_events(const struct asok_call *c)
{
	if (c->phase == ASOK_DONE)
		return 0;
	return c->phase == ASOK_SEND ? POLLOUT : POLLIN;
}

/* The header is read: the body's length, within ASOK_MAX_REPLY. */
static bool start_body(struct asok_call *c)
{
	int64_t len = asok_reply_length(c->hdr, ASOK_MAX_REPLY);
	uint32_t be;

	if (len < 0) {
		memcpy(&be, c->hdr, 4);
		snprintf(c->why, sizeof(c->why), "answer of %u bytes is above the "
			 "%u allowed", (unsigned)ntohl(be), ASOK_MAX_REPLY);
		call_fail(c, ASOK_GARBAGE);
		return false;
	}
	c->buf = malloc(len + 1);
	if (!c->buf) {
		call_sys(c, ENOMEM, "malloc");
		return false;
	}
	c->len = len;
	c->buf[len] = 0;
	c->got = 0;
	c->phase = ASOK_BODY;
	return true;
}

bool asok_call_step(struct asok_call *c)
{
	while (c->phase != ASOK_DONE) {
		bool hdr = c->phase == ASOK_HEADER;
		size_t want = hdr ? 4 : c->len;
		char *to = hdr ? (char *)c->hdr : c->buf;
		ssize_t n = 0;

		if (c->phase == ASOK_SEND) {
			n = send(c->s, c->req + c->sent, c->reqlen - c->sent,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
			if (n >= 0 && (c->sent += n) == c->reqlen)
				c->phase = ASOK_HEADER;
		} else if (c->got == want) {
			if (!hdr) {
				call_fail(c, ASOK_OK);	/* closes; keeps buf */
				break;
			}
			if (!start_body(c))
				break;
			continue;
		} else {
			n = recv(c->s, to + c->got, want - c->got, MSG_DONTWAIT);
			if (n > 0)
				c->got += n;
			if (n == 0) {
				snprintf(c->why, sizeof(c->why), "connection closed after %zu "
					 "of %zu %s bytes", c->got, want, hdr ? "header" : "answer");
				call_fail(c, ASOK_GARBAGE);
			}
		}
		if (n < 0 && errno == EAGAIN)
			return false;	/* poll again */
		if (n < 0 && errno != EINTR)
			call_sys(c, errno, c->phase == ASOK_SEND ? "send" : "recv");
	}
	return true;
}

void asok_call_expire(struct asok_call *c)
{
	static const char *const what[] = {
		[ASOK_SEND] = "could not send the command",
		[ASOK_HEADER] = "no answer", [ASOK_BODY] = "no whole answer",
	};

	if (c->phase == ASOK_DONE)
		return;
	snprintf(c->why, sizeof(c->why), "%s within the time allowed (%zu of %zu bytes)",
		 what[c->phase], c->phase == ASOK_SEND ? c->sent : c->got,
		 c->phase == ASOK_BODY ? c->len :
		 c->phase == ASOK_HEADER ? (size_t)4 : c->reqlen);
	call_fail(c, ASOK_TIMEOUT);
}

void asok_call_end(struct asok_call *c)
{
	if (c->s >= 0)
		close(c->s);
	c->s = -1;
	free(c->buf);
	c->buf = NULL;
	c->phase = ASOK_DONE;
}

enum asok_err asok_request(int sockfd, const char *cmd, int timeout_ms,
			   char **out, size_t *outlen, char *why, size_t whylen)
{
	double deadline = mono_now() + timeout_ms / 1e3;
	struct asok_call c;

	*out = NULL;
	*outlen = 0;
	asok_call_start(&c, sockfd, cmd);
	while (c.phase != ASOK_DONE) {
		struct pollfd p = { .fd = c.s, .events = asok_call_events(&c) };
		double left = (deadline - mono_now()) * 1e3;	/* ms */

		if (left <= 0) {
			asok_call_expire(&c);
			break;
		}
		if (poll(&p, 1, (int)left + 1) < 0 && errno != EINTR) {
			call_sys(&c, errno, "poll");
			break;
		}
		asok_call_step(&c);
	}
	snprintf(why, whylen, "%s", c.err ? c.why : "");
	if (!c.err) {
		*out = c.buf;
		*outlen = c.len;
		c.buf = NULL;
	}
	asok_call_end(&c);
	return c.err;
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

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_ASOK_H
#define OSDHIST_ASOK_H

/*
 * A Ceph daemon's admin socket: a client for its protocol (src/common/admin_socket.cc): the client writes
 * one JSON command ended by a NUL; the daemon answers with a 4-byte
 * big-endian length and that many bytes, then closes the connection.  One
 * command per connection.  The daemon serves the socket from one thread, so
 * the client is bounded in time and never holds a connection open.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Why a request failed.  The names are what health output prints. */
enum asok_err {
	ASOK_OK,
	ASOK_NO_SOCKET,		/* no path, no file, or nobody listening */
	ASOK_PERMISSION,	/* EACCES/EPERM on the path or the connect */
	ASOK_TIMEOUT,		/* no whole answer within the time allowed */
	ASOK_GARBAGE,		/* an answer that is not the protocol or not JSON */
	ASOK_IO,		/* any other system error */
	NR_ASOK_ERRS,
};

extern const char *const asok_err_name[NR_ASOK_ERRS];

/* Largest answer accepted; a longer one is garbage and its OSD backed off.
 * Measured: the whole answer to ASOK_PERF_CMD (compact JSON, the "osd"
 * logger) of a memstore OSD after a few seconds of rados bench was
 * 2,914 bytes on 16.2.15, 3,706 on 18.2.7 and 5,718 on 20.2.4 (the dump
 * of every logger, pretty-printed by the ceph CLI: 20,391 / 22,384 /
 * 25,691).  64 KiB is 11 times the largest: room for releases that add
 * counters, while 256 OSDs answering at once hold at most 16 MiB and one
 * answer parses in well under a millisecond (a 16 MiB one took 1.2 s and
 * 229 MB). */
#define ASOK_MAX_REPLY	(64u << 10)

/*
 * One request as a non-blocking state machine, so that a caller can have
 * many in flight and poll them together: asok_call_start() connects
 * through the O_PATH descriptor sockfd (as asok_find() gives) and sends
 * what it can; then, whenever poll() reports asok_call_events() on c->s,
 * asok_call_step() moves on without blocking.  The call is done when
 * c->err is set (ASOK_OK: c->buf holds c->len bytes and a NUL) or when
 * the caller gives up on it with asok_call_expire().  asok_call_end()
 * closes and frees whatever is left, in any state.
 */
enum asok_phase { ASOK_SEND, ASOK_HEADER, ASOK_BODY, ASOK_DONE };

struct asok_call {
	int s;			/* the connection; -1 when closed */
	enum asok_phase phase;
	enum asok_err err;	/* meaningful at ASOK_DONE */
	char req[128];
	size_t reqlen, sent;
	unsigned char hdr[4];
	size_t got;		/* bytes of the header, then of the body */
	char *buf;		/* the body, len + 1 bytes */
	size_t len;
	char why[128];		/* on failure: one short phrase */
};

/* Starts; c is done at once if the connect fails (or cmd is too long). */
void asok_call_start(struct asok_call *c, int sockfd, const char *cmd);
/* POLLOUT or POLLIN while under way, 0 when done. */
short asok_call_events(const struct asok_call *c);
/* Reads or writes what is ready, never blocking; true once done. */
bool asok_call_step(struct asok_call *c);
/* The deadline passed: a call not done is an ASOK_TIMEOUT, now done. */
void asok_call_expire(struct asok_call *c);
void asok_call_end(struct asok_call *c);

/*
 * The same, blocking: sends cmd and reads the answer, all within
 * timeout_ms.  On success *out is a NUL-terminated malloc'd buffer of
 * *outlen bytes (the caller frees it).  On failure, why holds one short
 * phrase (e.g. "connect: Connection refused").
 */
enum asok_err asok_request(int sockfd, const char *cmd, int timeout_ms,
			   char **out, size_t *outlen, char *why, size_t whylen);

/* Framing, apart for the unit tests.  The request: cmd and its NUL; returns
 * the bytes written to buf, 0 if cmd does not fit or holds a newline (the
 * daemon ends a command at a newline too). */
size_t asok_frame_request(const char *cmd, char *buf, size_t size);
/* The answer's length from its 4-byte header; -EMSGSIZE if above max. */
int64_t asok_reply_length(const unsigned char hdr[4], uint32_t max);

/* Ceph's counters osdhist compares against, from the "osd" logger. */
struct ceph_osd_counts {
	uint64_t op_r, op_w, op_rw, subop_w;
};

/* Parses a "perf dump" answer (the whole dump or the "osd" logger's).
 * ASOK_OK, or ASOK_GARBAGE with why set (not JSON, no osd.op_r, ...). */
enum asok_err asok_parse_perf(const char *json, size_t len,
			      struct ceph_osd_counts *c, char *why, size_t whylen);

/* The read-only command osdhist sends: perf dump of the "osd" logger only. */
#define ASOK_PERF_CMD	"{\"prefix\": \"perf dump\", \"logger\": \"osd\", \"format\": \"json\"}"

#endif

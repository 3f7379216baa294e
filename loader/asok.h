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

/* Largest answer accepted; more is garbage (a perf dump of one logger is a
 * few KiB, the whole dump of an OSD a few hundred). */
#define ASOK_MAX_REPLY	(16u << 20)

/*
 * Sends cmd (a JSON object, no NUL inside) to the socket sockfd (an O_PATH
 * descriptor, as asok_find() gives) and reads
 * the answer, all within timeout_ms.  On success *out is a NUL-terminated
 * malloc'd buffer of *outlen bytes (the caller frees it).  On failure, why
 * holds one short phrase (e.g. "connect: Connection refused").
 */
enum asok_err asok_request(int sockfd, const char *cmd, int timeout_ms,
			   char **out, size_t *outlen, char *why, size_t whylen);

/* Framing, apart for the unit tests.  The request: cmd and its NUL; returns
 * the bytes written to buf, 0 if cmd does not fit or holds a newline (the
 * daemon ends a command at a newline too). */
size_t asok_frame_request(const char *cmd, char *buf, size_t size);
/* The answer's length from its 4-byte header; -1 if above max. */
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

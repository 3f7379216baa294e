/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_READERS_H
#define OSDHIST_READERS_H

/*
 * The readers of what an OSD process offers (its binary, its config, its
 * admin socket), each one a job (job.h): a FUSE mount in a process's root
 * may stall any of them for ever, and osdhist's loop must not stall with
 * it: one process's mount would stop the output of every OSD.  Each takes
 * its request as arg and answers in out.
 */
#include <limits.h>
#include <sys/types.h>

#include "ceph/asok_find.h"
#include "ceph/binary.h"
#include "util/job.h"

/* The wall-clock a reader may take before it is said stalled: inspecting
 * ceph-osd takes ~50 ms of CPU, reading a config or finding a socket
 * a few ms; a loaded host is given 100 times that. */
#define READ_BINARY_S	10.0
#define READ_CONFIG_S	5.0

/* The binary of a process, opened (fds[0]: it pins the inode, and the
 * probes are attached through it) and inspected (binary_inspect). */
struct binary_req {
	const char *exe;	/* PROC/PID/exe */
	const char *where;	/* its name in messages */
};
struct binary_ans {
	int rc;			/* binary_inspect's, or -errno of the open */
	char err[512];
	struct osd_binary ob;
};
ssize_t read_binary(void *arg, void *out, size_t size, int *fds, int *nfds);

/* The fsid of an OSD process (asok_fsid): out is the UUID, or "" when
 * none is found. */
struct fsid_req {
	const char *proc_root;
	pid_t pid;
	int id;
};
ssize_t read_fsid(void *arg, void *out, size_t size, int *fds, int *nfds);

/* Its admin socket (asok_locate), fds[0] an O_PATH descriptor of it. */
struct socket_req {
	const char *proc_root;
	pid_t pid;
	int id;
};
struct socket_ans {
	int err;		/* asok_locate's */
	char how[32];
	char path[PATH_MAX];
	char why[256];
};
ssize_t find_socket(void *arg, void *out, size_t size, int *fds, int *nfds);

/* fn in a job, waited for up to seconds (--list: one reader at a time).
 * job_wait's answer. */
ssize_t reader_run(job_fn fn, void *arg, void *out, size_t size, int *fds, int *nfds,
		   double seconds);

#endif

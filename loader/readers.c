// SPDX-License-Identifier: GPL-2.0
/* What an OSD process offers, read in a job (readers.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "readers.h"

ssize_t read_binary(void *arg, void *out, size_t size, int *fds, int *nfds)
{
	const struct binary_req *r = arg;
	struct binary_ans *a = out;
	int fd;

	if (size < sizeof(*a))
		return -ENOSPC;
	a->rc = binary_inspect_exe(r->exe, r->where, &a->ob, a->err, sizeof(a->err), &fd);
	/* a process to attach to: its code must be what our BPF object reads
	 * (an arm64 ceph-osd under qemu-user on an x86 host is not) */
	if (a->rc >= 0 && a->ob.arch != binary_host_arch()) {
		binary_foreign(&a->ob, r->where, a->err, sizeof(a->err));
		a->rc = -ENOEXEC;
	}
	if (fd >= 0) {
		fds[0] = fd;
		*nfds = 1;
	}
	return sizeof(*a);
}

ssize_t read_fsid(void *arg, void *out, size_t size, int *fds, int *nfds)
{
	const struct fsid_req *r = arg;
	char why[256];

	(void)fds;
	(void)nfds;
	if (size < ASOK_FSID_LEN + 1)
		return -ENOSPC;
	if (asok_fsid(r->proc_root, r->pid, r->id, out, why, sizeof(why)))
		((char *)out)[0] = 0;
	return ASOK_FSID_LEN + 1;
}

ssize_t find_socket(void *arg, void *out, size_t size, int *fds, int *nfds)
{
	const struct socket_req *r = arg;
	struct socket_ans *a = out;
	const char *how = "";
	int fd = -1;

	if (size < sizeof(*a))
		return -ENOSPC;
	memset(a, 0, sizeof(*a));
	a->err = asok_locate(r->proc_root, r->pid, r->id, &fd, a->path, sizeof(a->path),
			     &how, a->why, sizeof(a->why));
	snprintf(a->how, sizeof(a->how), "%s", how ? how : "");
	if (a->err)
		return sizeof(*a);
	fds[0] = fd;
	*nfds = 1;
	return sizeof(*a);
}

ssize_t reader_run(job_fn fn, void *arg, void *out, size_t size, int *fds, int *nfds,
		   double seconds)
{
	struct job j = { 0 };
	int err = job_start(&j, fn, arg, seconds);

	if (nfds)
		*nfds = 0;
	if (err)
		return err;
	return job_wait(&j, mono_now() + seconds + 1, out, size, fds, nfds);
}

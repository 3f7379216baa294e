// SPDX-License-Identifier: GPL-2.0
/* Reads in a child process with a deadline (job.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "clock.h"
#include "job.h"

/* An answer: the status word, then the bytes. */
#define JOB_OUT_MAX	8192

/* Every child not yet reaped: running, done, or killed (stuck).  As
 * many can run at once as OSD processes are met at once (a cluster and a
 * socket each), and JOB_STUCK_MAX more may be stuck. */
#define JOB_KIDS_MAX	1024
static struct {
	pid_t pid;
	bool killed;
} kids[JOB_KIDS_MAX];
static int nkids;

int job_reap(void)
{
	int stuck = 0;

	for (int i = 0; i < nkids; i++) {
		if (waitpid(kids[i].pid, NULL, WNOHANG) != 0) {	/* gone, or not ours */
			kids[i--] = kids[--nkids];
			continue;
		}
		stuck += kids[i].killed;
	}
	return stuck;
}

static void mark_killed(pid_t pid)
{
	for (int i = 0; i < nkids; i++)
		if (kids[i].pid == pid)
			kids[i].killed = true;
}

/*
 * None of osdhist's descriptors in a child: one stuck on a stalled mount
 * may outlive osdhist by hours, and a copy of a BPF link's descriptor
 * would keep that link's uprobes in the OSD until it goes.
 */
static void close_all_but(int keep)
{
	if ((keep == 3 || !close_range(3, keep - 1, 0)) && !close_range(keep + 1, ~0U, 0))
		return;
	for (int fd = 3; fd < 65536; fd++)	/* before Linux 5.9 */
		if (fd != keep)
			close(fd);
}

/* The child's side: fn, its answer in one message, and nothing else. */
static void child(int sock, job_fn fn, void *arg, pid_t parent)
{
	static char buf[sizeof(int) + JOB_OUT_MAX];
	char cbuf[CMSG_SPACE(sizeof(int) * JOB_FDS)] = { 0 };
	int fds[JOB_FDS], nfds = 0;
	struct iovec iov = { buf, sizeof(int) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;
	int st;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	close_all_but(sock);
	n = fn(arg, buf + sizeof(int), JOB_OUT_MAX, fds, &nfds);
	st = n < 0 ? (int)n : (int)(n > JOB_OUT_MAX ? JOB_OUT_MAX : n);
	memcpy(buf, &st, sizeof(st));
	iov.iov_len += st > 0 ? st : 0;
	if (st >= 0 && nfds > 0 && nfds <= JOB_FDS) {
		struct cmsghdr *c;

		m.msg_control = cbuf;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	sendmsg(sock, &m, MSG_NOSIGNAL);
	_exit(0);
}

int job_start(struct job *j, job_fn fn, void *arg, double seconds)
{
	pid_t parent = getpid(), pid;
	int sv[2];

	j->pid = 0;
	j->sock = -1;
	if (job_reap() >= JOB_STUCK_MAX || nkids == JOB_KIDS_MAX)
		return -EBUSY;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(sv[0]);
		close(sv[1]);
		return -e;
	}
	if (pid == 0) {
		close(sv[0]);
		child(sv[1], fn, arg, parent);
	}
	close(sv[1]);
	kids[nkids].pid = pid;
	kids[nkids++].killed = false;
	j->pid = pid;
	j->sock = sv[0];
	j->deadline = mono_now() + seconds;
	return 0;
}

static void end(struct job *j, bool kill_it)
{
	if (kill_it) {
		kill(j->pid, SIGKILL);
		mark_killed(j->pid);
	}
	close(j->sock);
	j->pid = 0;
	j->sock = -1;
	job_reap();
}

void job_cancel(struct job *j)
{
	if (j->pid)
		end(j, true);
}

/* The answer, once the socket is readable. */
static ssize_t receive(struct job *j, void *out, size_t size, int *fds, int *nfds)
{
	static char buf[sizeof(int) + JOB_OUT_MAX];
	char cbuf[CMSG_SPACE(sizeof(int) * JOB_FDS)];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	ssize_t n = recvmsg(j->sock, &m, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	int st, got = 0;

	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); n > 0 && c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

			for (int i = 0; i < k; i++) {
				int fd;

				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
				if (fds && got < JOB_FDS)
					fds[got++] = fd;
				else
					close(fd);
			}
		}
	if (nfds)
		*nfds = got;
	end(j, false);
	if (n < (ssize_t)sizeof(int))
		return -EIO;	/* died without an answer */
	memcpy(&st, buf, sizeof(st));
	if (st < 0)
		return st;
	if ((size_t)st > size || (size_t)st > (size_t)n - sizeof(int))
		return -EIO;
	memcpy(out, buf + sizeof(int), st);
	return st;
}

ssize_t job_wait(struct job *j, double until, void *out, size_t size, int *fds, int *nfds)
{
	if (nfds)
		*nfds = 0;
	if (!j->pid)
		return -EINVAL;
	for (;;) {
		double now = mono_now(), stop = until < j->deadline ? until : j->deadline;
		struct pollfd p = { j->sock, POLLIN, 0 };
		int ms = stop > now ? (int)((stop - now) * 1000) + 1 : 0;
		int r = poll(&p, 1, ms);

		if (r > 0)
			return receive(j, out, size, fds, nfds);
		if (r < 0 && errno != EINTR)
			return -errno;
		now = mono_now();
		if (now >= j->deadline) {
			j->stalled = j->pid;
			end(j, true);
			return -ETIMEDOUT;
		}
		if (now >= until)
			return -EINPROGRESS;
	}
}

/* Not waited for: a child whose FUSE request the server has read and
 * never answers sleeps uninterruptibly, SIGKILL or not, until that server
 * answers or goes (fs/fuse/dev.c request_wait_answer); init reaps it then. */
bool job_still_stalled(const struct job *j)
{
	job_reap();
	for (int i = 0; j->stalled && i < nkids; i++)
		if (kids[i].pid == j->stalled)
			return true;
	return false;
}

void job_kill_all(void)
{
	for (int i = 0; i < nkids; i++)
		kill(kids[i].pid, SIGKILL);
	job_reap();
}

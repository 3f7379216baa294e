/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_JOB_H
#define OSDHIST_JOB_H

/*
 * A read that touches an OSD process's root or its binary, run where a
 * stall cannot hold osdhist.  A FUSE mount inside a process's root can
 * block a path lookup, a stat or a read for ever, and no timeout of ours
 * can interrupt a read in our own process.  So each such read runs
 * in a child process: the loop waits for it no longer than it chooses
 * (job_wait), and a job past its deadline is killed and reaped later,
 * never waited for: a child whose FUSE request the server has taken and
 * never answers sleeps uninterruptibly, SIGKILL or not, until the server
 * answers or goes.  A child dies with osdhist (PR_SET_PDEATHSIG) where it
 * can.  The child hands back bytes and up to
 * JOB_FDS descriptors (an opened binary, an admin socket).
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define JOB_FDS		2
/* Children killed and not yet reaped: more than this and no job starts
 * (-EBUSY), so a mount that stalls everything costs a bounded number of
 * processes. */
#define JOB_STUCK_MAX	32

/* What the child runs: fills out (at most size bytes) and fds (at most
 * JOB_FDS, *nfds of them); returns the bytes of out to send, or -errno. */
typedef ssize_t (*job_fn)(void *arg, void *out, size_t size, int *fds, int *nfds);

struct job {
	pid_t pid;		/* 0: no job */
	int sock;		/* our end */
	double deadline;	/* CLOCK_MONOTONIC seconds: killed after it */
	pid_t stalled;		/* the last child killed past its deadline */
};

/* Starts fn(arg) in a child that must answer within seconds.  0, or
 * -errno (-EBUSY: JOB_STUCK_MAX children stuck). */
int job_start(struct job *j, job_fn fn, void *arg, double seconds);

/* Waits for j's answer until the monotonic time until at most (now: only
 * looks).  Bytes received into out (fds, *nfds filled; the caller owns
 * them), -EINPROGRESS while it runs before its deadline, -ETIMEDOUT once
 * past it (the child killed), the child's -errno, or -EIO if it died
 * without an answer.  Any answer but -EINPROGRESS ends the job. */
ssize_t job_wait(struct job *j, double until, void *out, size_t size, int *fds, int *nfds);

/* Ends a job whatever it does: killed, reaped later. */
void job_cancel(struct job *j);

/* Is the child j last killed past its deadline still there (stuck on
 * what stalled it)?  Then a new job would most likely stall the same way:
 * one stuck child per reader, not one per try. */
bool job_still_stalled(const struct job *j);

/* Reaps the children that have ended; returns how many of those killed
 * past their deadline are still there (stuck). */
int job_reap(void);

/* At exit: every child killed. */
void job_kill_all(void);

#endif

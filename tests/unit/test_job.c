// SPDX-License-Identifier: GPL-2.0
/* Readers in a child with a deadline (job.h): an answer with a descriptor,
 * a reader that never answers, one that dies, and the stuck one not tried
 * again while it is there. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "util/clock.h"
#include "util/job.h"

static ssize_t answer(void *arg, void *out, size_t size, int *fds, int *nfds)
{
	(void)size;
	strcpy(out, arg);
	fds[0] = open("/dev/null", O_RDONLY);
	*nfds = 1;
	return strlen(arg) + 1;
}

static ssize_t never(void *arg, void *out, size_t size, int *fds, int *nfds)
{
	(void)arg, (void)out, (void)size, (void)fds, (void)nfds;
	for (;;)
		pause();
	return 0;
}

static ssize_t dies(void *arg, void *out, size_t size, int *fds, int *nfds)
{
	(void)arg, (void)out, (void)size, (void)fds, (void)nfds;
	_exit(3);
}

static ssize_t refuses(void *arg, void *out, size_t size, int *fds, int *nfds)
{
	(void)arg, (void)out, (void)size, (void)fds, (void)nfds;
	return -EACCES;
}

static void answers_with_a_descriptor(void **state)
{
	struct job j = { 0 };
	char out[64];
	int fds[JOB_FDS], nfds;

	(void)state;
	assert_int_equal(job_start(&j, answer, "osd.3", 5), 0);
	assert_int_equal(job_wait(&j, mono_now() + 5, out, sizeof(out), fds, &nfds), 6);
	assert_string_equal(out, "osd.3");
	assert_int_equal(nfds, 1);
	assert_true(fcntl(fds[0], F_GETFD) & FD_CLOEXEC);
	close(fds[0]);
	assert_int_equal(j.pid, 0);
	assert_int_equal(job_wait(&j, mono_now(), out, sizeof(out), fds, &nfds), -EINVAL);
}

/* Waited for no longer than asked; past its deadline killed, and no new
 * try while the killed one is still there. */
static void stalls_then_times_out(void **state)
{
	struct job j = { 0 };
	char out[8];
	double t0 = mono_now();

	(void)state;
	assert_int_equal(job_start(&j, never, NULL, 0.3), 0);
	assert_int_equal(job_wait(&j, t0 + 0.05, out, sizeof(out), NULL, NULL), -EINPROGRESS);
	assert_true(mono_now() - t0 < 0.25);
	assert_int_equal(job_wait(&j, t0 + 10, out, sizeof(out), NULL, NULL), -ETIMEDOUT);
	assert_true(mono_now() - t0 < 1.0);
	assert_int_equal(j.pid, 0);
	assert_int_not_equal(j.stalled, 0);
	/* killed (pause() yields to SIGKILL): reaped by a later look */
	for (int i = 0; i < 100 && job_still_stalled(&j); i++)
		usleep(10000);
	assert_false(job_still_stalled(&j));
}

static void dead_or_refusing_child(void **state)
{
	struct job j = { 0 };
	char out[8];

	(void)state;
	assert_int_equal(job_start(&j, dies, NULL, 5), 0);
	assert_int_equal(job_wait(&j, mono_now() + 5, out, sizeof(out), NULL, NULL), -EIO);
	assert_int_equal(job_start(&j, refuses, NULL, 5), 0);
	assert_int_equal(job_wait(&j, mono_now() + 5, out, sizeof(out), NULL, NULL), -EACCES);
	job_cancel(&j);		/* nothing to end: fine */
}

int run_job_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(answers_with_a_descriptor),
		cmocka_unit_test(stalls_then_times_out),
		cmocka_unit_test(dead_or_refusing_child),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

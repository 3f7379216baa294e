/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_CLOCK_H
#define OSDHIST_CLOCK_H

#include <time.h>

/* CLOCK_MONOTONIC in seconds: the clock of every interval and window. */
static inline double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * bench/clock_offset.c: how far CLOCK_REALTIME - CLOCK_MONOTONIC, the
 * offset osdhist's "mono+offset" clock adds to bpf_ktime_get_ns() when the
 * kernel lacks bpf_ktime_get_tai_ns, moves while NTP slews the clock.
 *
 *   cc -O2 -o /tmp/clock_offset bench/clock_offset.c
 *   /tmp/clock_offset SECONDS [SLEW_US]   (root for SLEW_US)
 *
 * Reads the offset as loader/discover.c does (the middle of the tightest
 * of four MONOTONIC brackets around a REALTIME read) every 10 ms for
 * SECONDS.  With SLEW_US, it first asks adjtime(2) to slew the clock by
 * that much (the kernel slews at 500 ppm, NTP's maximum) and at the end
 * asks for the opposite slew, to give the time back.  Prints how far the
 * offset moved from its first reading (the error osdhist would carry if it
 * never refreshed it), how far REALTIME moved against MONOTONIC_RAW (the
 * slew, which proves one happened), and the widest bracket.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long long ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long offset(clockid_t base, long long *bracket)
{
	long long best = -1, off = 0;

	for (int i = 0; i < 4; i++) {
		long long m0 = ns(base), rt = ns(CLOCK_REALTIME), m1 = ns(base);

		if (best < 0 || m1 - m0 < best) {
			best = m1 - m0;
			off = rt - (m0 + best / 2);
		}
	}
	*bracket = best;
	return off;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 10;
	long slew = argc > 2 ? atol(argv[2]) : 0;
	long long br, wmax = 0, o0, r0, dmin = 0, dmax = 0, rawmin = 0, rawmax = 0;
	struct timeval tv = { 0, slew };
	struct timespec tick = { 0, 10000000 };

	if (slew && adjtime(&tv, NULL)) {
		perror("adjtime");
		return 1;
	}
	o0 = offset(CLOCK_MONOTONIC, &br);
	r0 = offset(CLOCK_MONOTONIC_RAW, &br);
	for (long i = 0; i < secs * 100; i++) {
		long long o = offset(CLOCK_MONOTONIC, &br) - o0;
		long long r;

		wmax = br > wmax ? br : wmax;
		r = offset(CLOCK_MONOTONIC_RAW, &br) - r0;
		dmin = o < dmin ? o : dmin;
		dmax = o > dmax ? o : dmax;
		rawmin = r < rawmin ? r : rawmin;
		rawmax = r > rawmax ? r : rawmax;
		nanosleep(&tick, NULL);
	}
	if (slew) {
		tv.tv_usec = -slew;
		tv.tv_sec = 0;
		if (tv.tv_usec < 0) {	/* adjtime wants 0 <= tv_usec < 1e6 */
			tv.tv_sec = -1;
			tv.tv_usec += 1000000;
		}
		adjtime(&tv, NULL);
	}
	printf("%.0f s, slew asked %ld us: REALTIME-MONOTONIC moved %lld..%lld ns; "
	       "REALTIME-MONOTONIC_RAW moved %lld..%lld ns; widest bracket %lld ns\n",
	       secs, slew, dmin, dmax, rawmin, rawmax, wmax);
	return 0;
}

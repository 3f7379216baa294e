/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_TESTHOOKS_H
#define OSDHIST_TESTHOOKS_H

#include <stddef.h>
#include <stdbool.h>
#include <linux/types.h>
#include "osdhist.h"

/*
 * Test-only faults, compiled in only with -DOSDHIST_TEST_HOOKS (the separate
 * binary build/osdhist-testhooks); in ./osdhist these do nothing.
 *
 * OSDHIST_TEST_OFFSETS="field+N" or "field-N" (a field of struct
 * osd_offsets, e.g. op_rmw+8) moves that offset after it was derived and
 * verified, to prove that the run-time check against perf dump catches a
 * wrong offset.  Said on stderr when applied; a bad value is refused.
 */
void testhook_offsets(struct osd_offsets *o);

/*
 * OSDHIST_TEST_NO_FEATURES="tai_helper,bpf_loop,..." (names of
 * loader/kfeatures.h's list) makes the feature probes answer "no" for those
 * features, as an older kernel would: the optional ones then load bpf/'s
 * fallback variant, the required ones (uprobes, bpf_cookie) get the
 * refusal.  The only way to reach those paths on the one kernel we have.
 * Not said on stderr (a refusal must stay one line); the health line says
 * which variant runs.  An unknown name is said and ignored.
 */
void testhook_features(bool *have, const char *const *names, int n);

/*
 * OSDHIST_TEST_KERNEL="5.14.0-570.12.1.el9_6.x86_64" replaces the kernel
 * release (uname -r) where osdhist shows it, on --list's kernel line.  No
 * decision reads the release any more: test_cli.sh shows that with a
 * RHEL 9 or Ubuntu 22.04 release osdhist loads what the feature probes
 * chose, and counts exactly.  Not said on stderr.
 */
const char *testhook_kernel_release(const char *real);

/*
 * OSDHIST_TEST_MARK_WAYS=N uses only N ways of each set of the done-mark
 * table (0: none, every mark spills into the in-flight LRU map), to test
 * the spill path.  Said on stderr when applied.
 */
__u32 testhook_mark_ways(__u32 real);

/*
 * OSDHIST_TEST_PID_ERRNO="EACCES:N" makes the N-th and later looks at the
 * -p process (after the start-up check) fail with that errno (EACCES,
 * EPERM or EIO), as a process that becomes unreadable while traced would;
 * it proves that osdhist then says why in one line.  EAGAIN stands for a
 * process caught in the middle of an exec or an exit: osdhist keeps what
 * it had and looks again at the next rescan.  Not said on stderr.
 */
int testhook_pid_errno(int real);

/*
 * OSDHIST_TEST_DEAD_KEYS=N retires at most N keys of exited processes per
 * map and snapshot (normally every one: as many as the map holds), to test
 * that a key left for the next snapshot is counted once.  Not said.
 */
size_t testhook_dead_keys(size_t real);

/*
 * OSDHIST_TEST_FRONT_ROWS=N gives the histograms and the op-code counters
 * N per-CPU front rows each (at most what the loader would), so that keys
 * take the shared tail and move from it to the front: the exactness tests
 * then prove both paths.  Said on stderr when applied.
 */
__u32 testhook_front_rows(__u32 real);

/*
 * OSDHIST_TEST_NO_PROC_EVENTS=1: bpf/'s process events are not attached,
 * as where raw tracepoints are refused, so every rescan walks /proc.  Said
 * on stderr when applied.
 */
bool testhook_no_proc_events(void);

/*
 * OSDHIST_TEST_PROC_WALK_S=N: at most N s between two walks of /proc
 * without a process event (normally PROC_WALK_MAX_S), so that a test can
 * push the walk that needs no event out of reach and see what the events
 * alone bring.  Said on stderr when applied.
 */
double testhook_proc_walk_s(double real);

#endif

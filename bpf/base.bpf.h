/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of the programs reads: the loader's knobs (.rodata), the
 * per-binary rows and clocks it keeps current (.bss), the tracer's health
 * counters, and the clock of Ceph's stamps.
 */
#ifndef OSDHIST_BASE_BPF_H
#define OSDHIST_BASE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "arch.bpf.h"
#include "osdhist.h"

/* Per-binary offsets and traced time, written in place by the loader
 * (loader/attach.c); the uprobe's cookie selects the row. */
struct binary_row rows[MAX_BINARIES];
/* CLOCK_TAI - CLOCK_REALTIME in ns (whole seconds), kept current by the
 * loader: BPF reads TAI, Ceph stamps ops with REALTIME. */
__s64 tai_offset_ns = 0;
/* Without the TAI helper (have_tai false): CLOCK_REALTIME - CLOCK_MONOTONIC
 * in ns, refreshed by the loader at every rescan of /proc. */
__s64 rt_mono_offset_ns = 0;
/* --sample: ends of ops received inside the current window; the loader
 * ends a drain once this stops moving. */
__u64 window_ends = 0;
const volatile bool split_pool = false;
const volatile bool trace_subops = true;
const volatile bool phases = false;
/* What the kernel has, by loader/kfeatures.c's probes.  The verifier reads
 * these as constants and never walks the other branch, and a privileged
 * load removes the dead code: a helper this kernel lacks is then not in the
 * loaded program at all (test_fallbacks.sh looks at the xlated code). */
const volatile bool have_tai = true;	/* bpf_ktime_get_tai_ns */
const volatile bool have_loop = true;	/* bpf_loop */
/* Read client messages' op vectors: op-code counts and op types. */
const volatile bool op_types = true;
/* -P or --phases: entries are made before the success end (enqueue_op,
 * submit_transaction), which then looks them up. */
const volatile bool start_probe = false;
/* --slowest: slots per OSD and interval; 0, none (the verifier drops the
 * code).  The interval the slots are for: the loader's (maps/osdhist.h). */
const volatile __u32 slow_k = 0;
__u32 slow_gen = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_HEALTH);
	__type(key, __u32);
	__type(value, __u64);
} health SEC(".maps");

static __always_inline int count(__u32 h)
{
	__u64 *v = bpf_map_lookup_elem(&health, &h);

	if (v)
		*v += 1;
	return 0;
}

static __always_inline __u32 tgid(void)
{
	return bpf_get_current_pid_tgid() >> 32;
}

/* The binary's row in rows[]: the uprobe's BPF cookie. */
static __always_inline __u32 row_index(void *ctx)
{
	return bpf_get_attach_cookie(ctx) & (MAX_BINARIES - 1);
}

static __always_inline struct binary_row *row(void *ctx)
{
	return &rows[row_index(ctx)];
}

static __always_inline __u64 read_u64(const void *addr)
{
	__u64 v = 0;

	if (bpf_probe_read_user(&v, sizeof(v), addr))
		return 0;
	return v;
}

/* CLOCK_REALTIME now, the clock of Ceph's stamps.  TAI differs from it by
 * whole seconds that change only with a leap second.  MONOTONIC differs
 * from it by an offset that NTP's slewing leaves alone (both run at the
 * same adjusted rate) and only a step of the clock moves: the loader
 * reads that offset again at every rescan. */
static __always_inline __u64 now_rt(void)
{
	if (have_tai)
		return bpf_ktime_get_tai_ns() - tai_offset_ns;
	return bpf_ktime_get_ns() + rt_mono_offset_ns;
}

/* utime_t (seconds, nanoseconds: two u32) in ns. */
static __always_inline __u64 utime_ns(__u64 t)
{
	return (t & 0xffffffffULL) * 1000000000ULL + (t >> 32);
}

#endif /* OSDHIST_BASE_BPF_H */

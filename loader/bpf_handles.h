/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_BPF_HANDLES_H
#define OSDHIST_BPF_HANDLES_H

#include <stdbool.h>
#include <bpf/bpf.h>
#include <linux/types.h>

#include "osdhist.h"

/*
 * The loaded BPF object as the rest of the loader uses it.  Only tracer.c
 * includes the skeleton (osdhist.skel.h): it loads it and fills this once,
 * so that a change of bpf/'s maps, programs or globals is one file's.  The
 * .bss pointers are the skeleton's own mmapped globals: reading or writing
 * through them costs what the skeleton's access did.
 */
struct bpf_program;

/* A map: its descriptor and its size, as loaded. */
struct bpf_mapref {
	int fd;
	__u32 max_entries;
};

struct bpf_handles {
	struct bpf_mapref hists, phase_hists, opcounts, calls, slowops, health, inflight;
	/* the uprobe programs, by bpf/'s names (attach.c picks per probe) */
	struct {
		struct bpf_program *op_done, *op_unregistered, *subop_done,
				   *op_enqueue, *op_submit;
	} progs;
	/* bpf/'s .bss */
	struct binary_row *rows;	/* [MAX_BINARIES]: one per binary */
	struct mark_set *marks;		/* [MARK_SETS]: the done marks */
	__u64 *window_ends;		/* ends counted in the window's ops */
	__s64 *tai_offset_ns, *rt_mono_offset_ns;
	__u32 *slow_gen;		/* the slowest ops' interval */
	/* exec, fork and exit of processes named like an OSD (bpf/'s
	 * procwatch.bpf.h); NULL when its programs could not be attached */
	__u64 *proc_changes;
	/* bpf/'s .rodata: in-flight entries made at enqueue_op (-P, --phases) */
	bool start_probe;
};

/*
 * For each key of a BPF map, in the kernel's order: key holds the last
 * one and receives the next in place (the kernel reads the old key before
 * it writes the new one).  A key deleted under the walk sends it back to
 * the first key, as any get_next_key walk; deleting the keys seen is for
 * after the loop.
 */
#define map_for_each_key(fd, key)					\
	for (int more_ = !bpf_map_get_next_key(fd, NULL, &(key)); more_;	\
	     more_ = !bpf_map_get_next_key(fd, &(key), &(key)))

#endif

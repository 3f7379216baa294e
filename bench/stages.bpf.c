// SPDX-License-Identifier: GPL-2.0
/*
 * bench/stages: what an op's histogram and op-code counter stages cost in
 * BPF instructions alone, without the uprobe around them.  The uprobe
 * ladder (bench/ablate.sh) measures a stage as the difference of two
 * builds' run time per op, each ±50-120 ns on this VM; here the same
 * code (osdhist's own, included whole) runs in a bpf_loop from
 * BPF_PROG_TEST_RUN, a million times, against the maps the loader fills.
 */
#include "../bpf/osdhist.bpf.c"

/* what stage_one runs, set before each test run (bench/stages.c) */
__u32 stage = 0;
__u8 stage_optype = 0;
__u64 stage_sink = 0;
/* CLOCK_REALTIME at the run's start: the ops' recv_stamp is before it */
__u64 stage_rt = 0;
/* a buffer of bench/stages.c's, for the user memory reads */
__u64 stage_ubuf = 0;

enum { ST_EMPTY, ST_CLOCK, ST_SCRATCH, ST_SLOT, ST_HIST, ST_LOOKUP, ST_BOTH,
       ST_MONO, ST_PID, ST_ATOMIC4, ST_PLAIN4, ST_BUCKET2, ST_READ8, ST_READ152,
       ST_READ2, NR_ST };

__u64 stage_cells[8];

/* The counters scan_one adds an op's code to (one op, as a write). */
static __always_inline void opc_add(__u32 pid, __u32 ix)
{
	struct op_counts *oc;
	struct front_opc *fo;

	if (opc_of(pid, &oc, &fo))
		return;
	ix &= OPCOUNT_SLOTS - 1;
	if (fo)
		__sync_fetch_and_add(&fo->ops[ix], 1);
	else if (oc)
		__sync_fetch_and_add(&oc->ops[ix], 1);
}

static long stage_one(__u64 i, void *unused)
{
	struct op_view v = {};
	struct scratch_buf *sb;
	struct hist_key key = { .pool = -1 };
	__u32 pid = tgid();
	__u64 rt;

	switch (stage) {
	case ST_CLOCK:
		stage_sink += now_rt();
		break;
	case ST_SCRATCH:
		sb = take_scratch();
		drop_scratch(sb);
		break;
	case ST_SLOT:
		key.tgid = pid;
		key.cls = CLASS_WRITE;
		key.optype = stage_optype;
		if (front_row(osdhist_front_key(key.tgid, key.cls, key.optype,
						key.pool)) != FRONT_NO_ROW)
			stage_sink++;
		break;
	case ST_HIST:
	case ST_BOTH:
		sb = take_scratch();
		if (!sb)
			break;
		rt = stage_rt;
		v.recv = rt - 250000 - (i & 1023) * 1000;
		v.deq = v.recv + 20000;
		note_op(sb, pid, CLASS_WRITE, stage_optype);
		record_op(&v, NULL, sb);
		if (stage == ST_BOTH)
			opc_add(pid, stage_optype);
		drop_scratch(sb);
		break;
	case ST_LOOKUP:
		opc_add(pid, stage_optype);
		break;
	case ST_MONO:
		stage_sink += bpf_ktime_get_ns();
		break;
	case ST_PID:
		stage_sink += pid;
		break;
	case ST_ATOMIC4:
		__sync_fetch_and_add(&stage_cells[0], i);
		__sync_fetch_and_add(&stage_cells[2], 1);
		__sync_fetch_and_add(&stage_cells[4], i);
		__sync_fetch_and_add(&stage_cells[6], 1);
		break;
	case ST_PLAIN4:
		stage_cells[0] += i;
		stage_cells[2] += 1;
		stage_cells[4] += i;
		stage_cells[6] += 1;
		break;
	case ST_READ8:
		stage_sink += read_u64((void *)stage_ubuf);
		break;
	case ST_READ152:
	case ST_READ2:
		sb = take_scratch();
		if (!sb)
			break;
		bpf_probe_read_user(sb->win, 152, (void *)stage_ubuf);
		if (stage == ST_READ2)
			bpf_probe_read_user(sb->win, 168, (void *)(stage_ubuf + 4096));
		drop_scratch(sb);
		break;
	case ST_BUCKET2:
		stage_sink += bucket_of(250000 + i * 977) + bucket_of(20000 + i * 13);
		break;
	}
	return 0;
}

SEC("raw_tp")
int stages(void *ctx)
{
	bpf_loop(1 << 20, stage_one, NULL, 0);
	return 0;
}

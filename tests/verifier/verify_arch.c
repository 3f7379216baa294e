// SPDX-License-Identifier: GPL-2.0
/*
 * The arm64 BPF object (build/arm64/osdhist.bpf.o, through its skeleton:
 * build/arm64_verify) before this x86-64 kernel's verifier, program by
 * program, in the variants the loader loads (the .rodata it sets): what
 * passes, and what an x86 kernel cannot show.  Built against the x86
 * skeleton (build/x86_verify), the control: every program passes as is.
 *
 * A kprobe program's context is the kernel's struct pt_regs: 168 bytes on
 * x86-64, so the verifier refuses a read past it ("invalid bpf_context
 * access off=248 size=8"), while arm64's pt_regs begins with user_pt_regs
 * (x0..x30, sp at 248, pc at 256: 272 bytes) and is larger still.  Such a
 * refusal names one instruction.  This program then loads the same code
 * again with only that instruction's offset moved to the x86 field of the
 * same meaning (sp -> 152, pc -> 128), through libbpf's prepare-load
 * callback on the relocated instructions, and repeats until the program
 * passes or is refused for another reason: so everything else in it is
 * the verifier's own verdict on the arm64 code.
 *
 * It also lists each program's context reads (a linear scan of its own
 * instructions, following the registers and stack slots that hold ctx),
 * for test_arm64_bpf.sh to hold against arm64's <asm/ptrace.h>.
 *
 * Output, one line each:
 *   ctx PROG OFF SIZE                         a context read in PROG's code
 *   pass VARIANT PROG INSNS                   passes unchanged
 *   refused VARIANT PROG INSN OFF: LOG LINE    the verifier's refusal
 *   remapped VARIANT PROG INSNS N              passes with N reads moved
 *   fail VARIANT PROG: LOG LINE                refused for another reason
 * Exit 0 when every program passes, unchanged or remapped only; 1 if one
 * is refused for another reason; 2 if the object does not open.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <linux/types.h>
#include "osdhist.h"
#include "osdhist.skel.h"
#include "../stack/variants.h"

/* arm64's user_pt_regs fields the x86 verifier refuses, and x86's
 * pt_regs field of the same meaning (arch/x86/include/asm/ptrace.h) */
static const struct remap {
	int arm64, x86;
	const char *name;
} remaps[] = {
	{ 248, 152, "sp" },
	{ 256, 128, "pc" },
};

#define MAX_PATCHES	16
#define STATS_BYTES	(1 << 16)
#define LOG_BYTES	(64 << 20)

/* The patches of the program being loaded: instruction index, new offset. */
static struct {
	int insn, off;
} patch[MAX_PATCHES];
static int npatch;
static bool want_ctx;	/* print the context reads (first variant only) */

/* Context reads in the program's own instructions (the first n: its
 * subprograms, appended by libbpf, take other arguments in r1).  Linear:
 * ctx lives in one register or stack slot for a whole program. */
static void print_ctx_reads(const char *prog, const struct bpf_insn *in, size_t n)
{
	unsigned regs = 1u << BPF_REG_1;
	bool slot[64] = { false };	/* r10 - 8 * (i + 1) */

	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *x = &in[i];
		__u8 cls = BPF_CLASS(x->code);
		bool src_ctx = regs & (1u << x->src_reg);
		int s = -x->off / 8 - 1;

		if (x->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			regs &= ~(1u << x->dst_reg);
			i++;
			continue;
		}
		if (cls == BPF_STX && BPF_MODE(x->code) == BPF_MEM && x->dst_reg == BPF_REG_10 &&
		    x->off < 0 && !(x->off % 8) && s < 64) {
			slot[s] = src_ctx && BPF_SIZE(x->code) == BPF_DW;
			continue;
		}
		if (cls == BPF_LDX && BPF_MODE(x->code) == BPF_MEM) {
			bool fill = x->src_reg == BPF_REG_10 && x->off < 0 && !(x->off % 8) &&
				    s < 64 && slot[s] && BPF_SIZE(x->code) == BPF_DW;

			if (src_ctx)
				printf("ctx %s %d %d\n", prog, x->off,
				       BPF_SIZE(x->code) == BPF_DW ? 8 : BPF_SIZE(x->code) == BPF_W ? 4 :
				       BPF_SIZE(x->code) == BPF_H ? 2 : 1);
			regs = fill ? regs | 1u << x->dst_reg : regs & ~(1u << x->dst_reg);
			continue;
		}
		if (cls == BPF_ALU64 && BPF_OP(x->code) == BPF_MOV && BPF_SRC(x->code) == BPF_X &&
		    !x->off) {
			regs = src_ctx ? regs | 1u << x->dst_reg : regs & ~(1u << x->dst_reg);
			continue;
		}
		if ((cls == BPF_JMP || cls == BPF_JMP32) && BPF_OP(x->code) == BPF_CALL) {
			regs &= ~0x3fu;	/* r0..r5 */
			continue;
		}
		if (cls == BPF_ALU64 || cls == BPF_ALU || cls == BPF_LD)
			regs &= ~(1u << x->dst_reg);
	}
}

static size_t own_insns[16];

/* libbpf's prepare-load callback for SEC("uprobe"): the instructions as
 * they go to the kernel, relocated, subprograms appended. */
static int prepare(struct bpf_program *p, struct bpf_prog_load_opts *o, long cookie)
{
	const struct bpf_insn *in = bpf_program__insns(p);
	size_t n = bpf_program__insn_cnt(p);
	struct bpf_insn *copy;
	int err;

	(void)o, (void)cookie;
	if (want_ctx)
		print_ctx_reads(bpf_program__name(p), in, own_insns[0] ? own_insns[0] : n);
	if (!npatch)
		return 0;
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, in, n * sizeof(*copy));
	for (int i = 0; i < npatch; i++) {
		struct bpf_insn *x = &copy[patch[i].insn];

		if ((size_t)patch[i].insn >= n || BPF_CLASS(x->code) != BPF_LDX) {
			fprintf(stderr, "verify_arch: instruction %d is not a load\n", patch[i].insn);
			free(copy);
			return -EINVAL;
		}
		x->off = (__s16)patch[i].off;
	}
	err = bpf_program__set_insns(p, copy, n);
	free(copy);
	return err;
}

/* The verifier's "processed N insns", or 0. */
static unsigned long walked(const char *log)
{
	const char *p = strstr(log, "processed ");

	return p ? strtoul(p + 10, NULL, 10) : 0;
}

/* The log line holding what, copied to out. */
static void line_of(const char *log, const char *what, char *out, size_t size)
{
	const char *p = strstr(log, what), *b = p, *e;

	out[0] = 0;
	if (!p)
		return;
	while (b > log && b[-1] != '\n')
		b--;
	e = strchr(p, '\n');
	snprintf(out, size, "%.*s", (int)(e ? e - b : (long)strlen(b)), b);
}

/* Load program PI alone in variant v, level 4 (stats) or 1 (every
 * instruction): 0 or -errno; the log in log. */
static int load(const struct variant *v, int pi, char *log, size_t size, int level)
{
	struct osdhist_bpf *s = osdhist_bpf__open();
	struct bpf_program *p;
	int i = 0, err;

	if (!s)
		return -ENOENT;
	variant_set(s, v);
	bpf_object__for_each_program(p, s->obj) {
		bpf_program__set_autoload(p, i == pi);
		if (i == pi) {
			own_insns[0] = bpf_program__insn_cnt(p);
			log[0] = 0;
			bpf_program__set_log_buf(p, log, size);
			bpf_program__set_log_level(p, level);
		}
		i++;
	}
	err = osdhist_bpf__load(s);
	osdhist_bpf__destroy(s);
	return err;
}

/* The index of the instruction the verifier refused: the last "N: (" line
 * before the refusal in a level-1 log. */
static int refused_insn(const char *log, const char *refusal)
{
	const char *end = strstr(log, refusal), *p = log;
	int insn = -1;

	while (end && (p = strchr(p, '\n')) && p < end) {
		char *q;
		long n = strtol(++p, &q, 10);

		if (q != p && q[0] == ':' && q[1] == ' ' && q[2] == '(')
			insn = (int)n;
	}
	return insn;
}

static int verify(const struct variant *v, int pi, const char *name, char *log)
{
	char line[256];

	npatch = 0;
	for (;;) {
		int err = load(v, pi, log, STATS_BYTES, 4), off, insn;
		const struct remap *m = NULL;

		want_ctx = false;
		if (!err) {
			if (npatch)
				printf("remapped %s|%s %lu %d\n", v->name, name, walked(log), npatch);
			else
				printf("pass %s|%s %lu\n", v->name, name, walked(log));
			return 0;
		}
		line_of(log, "invalid bpf_context access", line, sizeof(line));
		if (!line[0] || sscanf(strstr(line, "off="), "off=%d", &off) != 1) {
			size_t len = strlen(log);

			/* the verifier's last words, on one line */
			for (char *c = log; *c; c++)
				if (*c == '\n')
					*c = ' ';
			printf("fail %s|%s: %s: %s\n", v->name, name, strerror(-err),
			       log + (len > 300 ? len - 300 : 0));
			return 1;
		}
		for (size_t i = 0; i < sizeof(remaps) / sizeof(remaps[0]); i++)
			if (remaps[i].arm64 == off)
				m = &remaps[i];
		/* the same load at level 1 says which instruction it was */
		load(v, pi, log, LOG_BYTES, 1);
		insn = refused_insn(log, "invalid bpf_context access");
		printf("refused %s|%s %d %d: %s\n", v->name, name, insn, off, line);
		if (!m || insn < 0 || npatch == MAX_PATCHES) {
			printf("fail %s|%s: off=%d is no arm64 field this test maps to x86's\n",
			       v->name, name, off);
			return 1;
		}
		patch[npatch].insn = insn;
		patch[npatch++].off = m->x86;
	}
}

int main(void)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, h, .prog_prepare_load_fn = prepare);
	char *log = malloc(LOG_BYTES);
	struct osdhist_bpf *s;
	struct bpf_program *p;
	const char *names[16];
	int n = 0, bad = 0;

	libbpf_set_print(variant_quiet);
	if (!log || libbpf_register_prog_handler("uprobe", BPF_PROG_TYPE_KPROBE, 0, &h) < 0) {
		fprintf(stderr, "verify_arch: cannot register the uprobe handler\n");
		return 2;
	}
	s = osdhist_bpf__open();
	if (!s) {
		fprintf(stderr, "verify_arch: the skeleton's object does not open\n");
		return 2;
	}
	bpf_object__for_each_program(p, s->obj)
		if (n < 16)
			names[n++] = strdup(bpf_program__name(p));
	osdhist_bpf__destroy(s);

	for (size_t v = 0; v < NR_VARIANTS; v++)
		for (int i = 0; i < n; i++) {
			want_ctx = v == 0;
			bad |= verify(&variants[v], i, names[i], log);
		}
	free(log);
	return bad;
}

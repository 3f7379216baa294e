// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's stack depth of each BPF program, in each variant the
 * loader can load (the options and kernel fallbacks it sets in .rodata):
 * the kernel's own figure, from its log at BPF_LOG_STATS ("stack depth
 * A+B+C", one number per function, in the order of the functions).  The
 * verifier refuses a call chain whose frames, each rounded up to 32
 * bytes, add up to more than 512 (MAX_BPF_STACK, kernel/bpf/verifier.c
 * check_max_stack_depth); the chains are read here from the loaded
 * program's own code (bpf-to-bpf calls, and callbacks such as bpf_loop's,
 * which the verifier counts as calls) and its BTF function list, and the
 * deepest is added up the same way.  Prints one line per variant and
 * program, with the instructions the verifier walked; exits 1 if any has
 * less than MIN_HEADROOM bytes left (argv[1], 64 by default) or made the
 * verifier walk more than MAX_WALKED instructions, 2 if a variant does
 * not load or its call graph cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include "osdhist.h"
#include "osdhist.skel.h"
#include "variants.h"

#define BPF_STACK	512
#define LOG_BYTES	(1 << 20)

#define MAX_FUNCS	16
/* The verifier gives up at 1,000,000 instructions walked: a program past
 * half of it has no room for the next feature either. */
#define MAX_WALKED	500000

/* The frames of the log's last "stack depth" line, in function order, and
 * that line's numbers as the kernel wrote them; their count, or -1. */
static int frames_of(const char *log, int depth[MAX_FUNCS], char *text, size_t size)
{
	const char *p = NULL, *q = log;
	int n = 0;

	while ((q = strstr(q, "stack depth ")))
		p = q++;
	if (!p)
		return -1;
	p += strlen("stack depth ");
	snprintf(text, size, "%.*s", (int)strspn(p, "0123456789+"), p);
	while (n < MAX_FUNCS) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		depth[n++] = v;
		if (*end != '+')
			break;
		p = end + 1;
	}
	return n;
}

static int round32(int d)
{
	return ((d > 0 ? d : 1) + 31) / 32 * 32;
}

/* The deepest chain from function f: its frame and its deepest callee's. */
static int chain(int f, int n, const int depth[], bool calls[][MAX_FUNCS])
{
	int most = 0;

	for (int c = 0; c < n; c++)
		if (calls[f][c] && c != f) {
			int d = chain(c, n, depth, calls);

			if (d > most)
				most = d;
		}
	return round32(depth[f]) + most;
}

/* Instructions the verifier walked for program fd (Linux 5.16); 0: not said. */
static __u32 walked(int fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return bpf_prog_get_info_by_fd(fd, &info, &len) ? 0 : info.verified_insns;
}

/* The stack of program fd's deepest call chain, as the verifier adds it;
 * -1 if its functions or code cannot be read. */
static int deepest(int fd, const int depth[], int nfuncs)
{
	static struct bpf_insn insn[1 << 16];
	struct bpf_func_info fi[MAX_FUNCS];
	bool calls[MAX_FUNCS][MAX_FUNCS] = { { false } };
	struct bpf_prog_info info;
	__u32 len = sizeof(info), n;

	memset(&info, 0, sizeof(info));
	if (bpf_prog_get_info_by_fd(fd, &info, &len) || info.nr_func_info != (__u32)nfuncs ||
	    info.xlated_prog_len > sizeof(insn))
		return -1;
	n = info.xlated_prog_len / sizeof(insn[0]);
	memset(&info, 0, sizeof(info));
	info.nr_func_info = nfuncs;
	info.func_info_rec_size = sizeof(fi[0]);
	info.func_info = (__u64)(unsigned long)fi;
	info.xlated_prog_len = n * sizeof(insn[0]);
	info.xlated_prog_insns = (__u64)(unsigned long)insn;
	len = sizeof(info);
	if (bpf_prog_get_info_by_fd(fd, &info, &len))
		return -1;
	for (__u32 i = 0, f = 0; i < n; i++) {
		bool call = insn[i].code == (BPF_JMP | BPF_CALL) &&
			    insn[i].src_reg == BPF_PSEUDO_CALL;
		bool func = insn[i].code == (BPF_LD | BPF_IMM | BPF_DW) &&
			    insn[i].src_reg == BPF_PSEUDO_FUNC;
		/* a call's target: off, the kernel's relative offset once
		 * it has JITed the functions (imm is then the function's
		 * index); a callback's: imm, restored to its offset */
		long to = (long)i + 1 + (call ? insn[i].off : insn[i].imm);
		int t = -1;

		while (f + 1 < (__u32)nfuncs && fi[f + 1].insn_off <= i)
			f++;
		if (!call && !func)
			continue;
		for (int g = 0; g < nfuncs; g++)
			if ((long)fi[g].insn_off == to)
				t = g;
		if (t < 0)
			return -1;	/* not a function's start: not read right */
		calls[f][t] = true;
	}
	return chain(0, nfuncs, depth, calls);
}

static int run(const struct variant *v, int min_headroom)
{
	static char logs[8][LOG_BYTES];
	struct osdhist_bpf *s = osdhist_bpf__open();
	struct bpf_program *p;
	int i = 0, bad = 0;

	if (!s) {
		fprintf(stderr, "stack_depth: cannot open the BPF object\n");
		return 2;
	}
	variant_set(s, v);
	bpf_object__for_each_program(p, s->obj) {
		if (i >= 8)
			break;
		logs[i][0] = 0;
		bpf_program__set_log_buf(p, logs[i], LOG_BYTES);
		bpf_program__set_log_level(p, 4);
		i++;
	}
	if (osdhist_bpf__load(s)) {
		fprintf(stderr, "stack_depth: variant '%s' does not load\n", v->name);
		/* the verifier's last words, of the program it refused */
		for (int j = 0; j < i; j++) {
			size_t n = strlen(logs[j]);

			if (n && !strstr(logs[j], "stack depth"))
				fprintf(stderr, "%s\n", logs[j] + (n > 2000 ? n - 2000 : 0));
		}
		osdhist_bpf__destroy(s);
		return 2;
	}
	i = 0;
	bpf_object__for_each_program(p, s->obj) {
		char frames[64] = "?";
		int depth[MAX_FUNCS], n = frames_of(logs[i++], depth, frames, sizeof(frames));
		__u32 insns;
		int d = n > 0 ? deepest(bpf_program__fd(p), depth, n) : -1;

		if (d < 0) {
			fprintf(stderr, "stack_depth: %s, %s: cannot read its stack depths "
				"or its call graph\n", v->name, bpf_program__name(p));
			bad = 2;
			continue;
		}
		insns = walked(bpf_program__fd(p));
		printf("%-44s %-16s %7u insns, %4d bytes deepest (frames %s), %4d left\n",
		       v->name, bpf_program__name(p), insns, d, frames, BPF_STACK - d);
		if ((BPF_STACK - d < min_headroom || insns > MAX_WALKED) && !bad)
			bad = 1;
	}
	osdhist_bpf__destroy(s);
	return bad;
}

int main(int argc, char **argv)
{
	int min_headroom = argc > 1 ? atoi(argv[1]) : 64, rc = 0;

	libbpf_set_print(variant_quiet);
	for (size_t i = 0; i < NR_VARIANTS; i++) {
		int r = run(&variants[i], min_headroom);

		if (r > rc)
			rc = r;
	}
	if (rc == 1)
		fprintf(stderr, "stack_depth: a program has less than %d bytes of the verifier's "
			"%d left, or made it walk more than %d instructions\n", min_headroom,
			BPF_STACK, MAX_WALKED);
	return rc;
}

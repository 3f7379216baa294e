/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64's struct user_pt_regs (arch/arm64/include/uapi/asm/ptrace.h), the
 * start of its struct pt_regs, under a name of ours: a vmlinux.h dumped on
 * an arm64 host has the kernel's own, an x86 one has none (arch.bpf.h).
 * Its own header so that tests/verifier/arm64_regs.c can hold it against
 * the kernel's, field by field.
 */
#ifndef OSDHIST_ARM64_REGS_H
#define OSDHIST_ARM64_REGS_H

struct osdhist_arm64_regs {
	__u64 regs[31];		/* x0..x30: x0..x7 the first eight arguments */
	__u64 sp;
	__u64 pc;
	__u64 pstate;
};

#endif /* OSDHIST_ARM64_REGS_H */

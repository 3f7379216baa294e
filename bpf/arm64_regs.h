/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64's struct user_pt_regs (arch/arm64/include/uapi/asm/ptrace.h), the
 * start of its struct pt_regs and what libbpf's PT_REGS_* macros read
 * under __TARGET_ARCH_arm64.  Its own header so that
 * tests/verifier/arm64_regs.c can hold it against the kernel's, under
 * another name (OSDHIST_ARM64_REGS); arch.bpf.h says why bpf/ declares it.
 */
#ifndef OSDHIST_ARM64_REGS_H
#define OSDHIST_ARM64_REGS_H

#ifndef OSDHIST_ARM64_REGS
#define OSDHIST_ARM64_REGS user_pt_regs
#endif

struct OSDHIST_ARM64_REGS {
	__u64 regs[31];		/* x0..x30: x0..x7 the first eight arguments */
	__u64 sp;
	__u64 pc;
	__u64 pstate;
};

#endif /* OSDHIST_ARM64_REGS_H */

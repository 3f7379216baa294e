// SPDX-License-Identifier: GPL-2.0
/*
 * bpf/'s arm64 register file (bpf/arm64_regs.h, what PT_REGS_* read under
 * __TARGET_ARCH_arm64) against arm64's own struct user_pt_regs, from the
 * arm64 kernel headers (<asm/ptrace.h> of linux-libc-dev, seen through
 * the cross compiler's multiarch include path).  Built with
 * aarch64-linux-gnu-gcc, run under qemu-aarch64 (test_arm64_bpf.sh).
 * Prints "FIELD OURS KERNEL" for x0..x30, sp, pc, pstate and the size;
 * exits 1 on any difference.
 */
#include <stddef.h>
#include <stdio.h>
#include <asm/ptrace.h>
#include <linux/types.h>

#include "arm64_regs.h"

#ifndef __aarch64__
#error "build with aarch64-linux-gnu-gcc: the kernel's struct must be arm64's"
#endif

static int bad;

static void field(const char *name, size_t ours, size_t kernel)
{
	printf("%s %zu %zu\n", name, ours, kernel);
	bad |= ours != kernel;
}

int main(void)
{
	char name[8];

	for (int i = 0; i < 31; i++) {
		snprintf(name, sizeof(name), "x%d", i);
		field(name, offsetof(struct osdhist_arm64_regs, regs) + 8 * (size_t)i,
		      offsetof(struct user_pt_regs, regs) + sizeof(__u64) * (size_t)i);
	}
	field("sp", offsetof(struct osdhist_arm64_regs, sp), offsetof(struct user_pt_regs, sp));
	field("pc", offsetof(struct osdhist_arm64_regs, pc), offsetof(struct user_pt_regs, pc));
	field("pstate", offsetof(struct osdhist_arm64_regs, pstate),
	      offsetof(struct user_pt_regs, pstate));
	field("size", sizeof(struct osdhist_arm64_regs), sizeof(struct user_pt_regs));
	return bad;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the programs read differently on x86-64 and on arm64 (issue 42):
 * the register file and where an argument arrives.  Everything else in
 * bpf/ is the same on both (little-endian, 64-bit, offsets from the row).
 *
 * vmlinux.h is dumped from the build host's BTF: on an x86-64 host it has
 * x86's struct pt_regs and no struct user_pt_regs, which libbpf's PT_REGS_*
 * macros cast the context to under __TARGET_ARCH_arm64.  arm64_regs.h
 * declares it as arm64's UAPI has it, under our own name (an arm64 host's
 * vmlinux.h has the kernel's), and the cast is pointed at it: libbpf's
 * PT_REGS_* expand __PT_REGS_CAST where they are used.  No
 * preserve_access_index: the offsets are fixed by the UAPI, so the loads
 * are plain context reads that need no BTF of an arm64 kernel.
 * tests/verifier/arm64_regs.c holds the struct against the arm64 kernel
 * headers' own, and test_arm64_bpf.sh the object's context reads.
 */
#ifndef OSDHIST_ARCH_BPF_H
#define OSDHIST_ARCH_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_tracing.h>

#if defined(__TARGET_ARCH_arm64)

#include "arm64_regs.h"

#undef __PT_REGS_CAST
#define __PT_REGS_CAST(x) ((const struct osdhist_arm64_regs *)(x))

/*
 * OSD::enqueue_op(spg_t pgid, OpRequestRef&& op, unsigned owner_cost).
 * AAPCS64 passes a composite larger than 16 bytes (spg_t: 24) as the
 * address of a copy the caller made, in the next register: x1 points at
 * the spg_t, the OpRequestRef* is x2 (seen in Debian's 16.2.15 arm64
 * build: `mov x19, x2; ldr x4, [x19]` then the OpRequest's fields).
 * sp_spg is then the offset into that copy, not into the stack.
 */
#define ENQ_OPREF(ctx)	((void **)PT_REGS_PARM3(ctx))
#define ENQ_SPG(ctx)	((__u64)PT_REGS_PARM2(ctx))

#elif defined(__TARGET_ARCH_x86)

/*
 * SysV x86-64: a trivially copyable spg_t of 24 bytes goes on the stack
 * (class MEMORY), so the OpRequestRef* is the next register argument,
 * %rsi; sp_spg is the offset from the entry %rsp (the return address at
 * +0).
 */
#define ENQ_OPREF(ctx)	((void **)PT_REGS_PARM2(ctx))
#define ENQ_SPG(ctx)	((__u64)PT_REGS_SP(ctx))

#else
#error "bpf/: build with -D__TARGET_ARCH_x86 or -D__TARGET_ARCH_arm64"
#endif

/*
 * submit_transaction's OpRequestRef* is past the register arguments on
 * both: the entry stack pointer plus sp_submit_op.  On x86-64 that
 * counts the return address (+0) and six register arguments; on arm64
 * the return address is in x30, eight arguments go in x0..x7 and the
 * first stack argument is at sp + 0 (16.2.15: client_op at entry sp + 32,
 * read as [sp, #1024] after a 992-byte frame).
 */
#define STACK_ARGS(ctx)	((__u64)PT_REGS_SP(ctx))

#endif /* OSDHIST_ARCH_BPF_H */

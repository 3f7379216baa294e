/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_SYMTRACE_H
#define OSDHIST_SYMTRACE_H

/*
 * A small symbolic pass over one function's machine code (capstone), x86-64
 * or AArch64:
 * it follows, in address order, what each register holds in terms of the
 * function's entry state -- an argument register, the entry stack pointer,
 * or a value loaded from [such a value + offset] -- and records every
 * memory access, compare with a constant and call.  The derivation's
 * readers (derive_read.c, derive_read_obj.c) ask questions of that record
 * ("which offset of the op argument is passed to OpInfo::may_read?"),
 * never of byte strings, so register choices, endbr64 and layout changes
 * between builds do not matter.
 *
 * The pass is linear (no loop or branch is followed; code that nothing
 * falls into starts with the registers of the forward jumps that land on
 * it, symtrace_core.c), bounded (ST_MAX_INSNS,
 * ST_MAX_NODES) and never reads outside the bytes it is given.
 *
 * Everything below is free of the architecture: arguments are positions
 * in the calling convention (SysV x86-64: %rdi..%r9; AAPCS64: x0..x7), and
 * what differs between the two conventions for the questions the readers
 * ask (where a function returning an aggregate in memory finds its result
 * pointer and its arguments, where the caller's stack arguments begin) is
 * asked of the trace (st_sret(), st_sret_arg(), t->stack_args).  The two
 * front ends (symtrace_x86.c, symtrace_arm64.c) are the only code that
 * knows an instruction set.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ST_MAX_INSNS	6000
#define ST_MAX_NODES	8192
#define ST_MAX_EVENTS	12000

/* The instruction sets the pass reads. */
enum st_arch { ST_X86_64, ST_ARM64, NR_ST_ARCHS };

extern const char *const st_arch_name[NR_ST_ARCHS];	/* "x86-64", "arm64" */

/* Integer argument registers, by position in the calling convention:
 * ARG_0 is `this` of a method (x86-64 %rdi, arm64 x0); x86-64 has six
 * (ARG_6, ARG_7 are never known there), arm64 eight. */
enum { ARG_0, ARG_1, ARG_2, ARG_3, ARG_4, ARG_5, ARG_6, ARG_7, NR_ARGS };
/* The N_ARG position of a result pointer kept apart from the arguments
 * (arm64's x8); x86-64 passes it as ARG_0. */
#define ARG_SRET	NR_ARGS

enum st_kind { N_ARG, N_SP, N_LOAD };

/* A value known at function entry: argument k, the entry stack pointer, or
 * the `size` bytes loaded from [node base + off]. */
struct st_node {
	uint8_t kind;
	uint8_t size;
	int32_t base;		/* N_LOAD: node index of the address base */
	int64_t off;		/* N_LOAD: offset; N_ARG: argument position */
};

/* node + add; node < 0: unknown. */
struct sval {
	int32_t node;
	int64_t add;
};

enum st_ev { EV_LOAD, EV_STORE, EV_CALL, EV_CMP, EV_DIV };

struct st_event {
	uint8_t type;
	uint8_t size;		/* LOAD/STORE/CMP: access width in bytes;
				 * DIV: the shift */
	uint8_t has_imm;	/* STORE: a constant was stored (imm) */
	uint32_t ncalls;	/* calls seen before this event */
	uint64_t pc;
	int32_t base;		/* LOAD/STORE: address = node base + off */
	int64_t off;
	int32_t node;		/* LOAD: the loaded value; CMP: the value compared */
	int64_t imm;		/* CMP, STORE of a constant: the constant;
				 * DIV: the multiplier */
	struct sval src;	/* STORE: the value stored (16-byte vector
				 * store: the 16 bytes' load node) */
	uint64_t target;	/* CALL: callee vaddr, 0 if indirect (a
				 * call through a register or memory, or a
				 * jump through a loaded pointer with the
				 * stack pointer back at entry: a virtual
				 * tail call) */
	struct sval args[NR_ARGS];	/* CALL: argument registers */
};

#define ST_HASH		(2 * ST_MAX_NODES)	/* open addressing, power of 2 */

struct symtrace {
	uint8_t arch;		/* enum st_arch */
	int64_t stack_args;	/* entry stack pointer + this: the first
				 * stack argument (x86-64: 8, past the
				 * return address; arm64: 0) */
	struct st_node nodes[ST_MAX_NODES];
	int nnodes;
	int32_t hash[ST_HASH];	/* node index + 1, 0 = empty */
	struct st_event ev[ST_MAX_EVENTS];
	int nev;
	int ninsns;
	int truncated;		/* a bound was hit */
};

/*
 * EV_DIV: GCC divides a byte distance by a constant size exactly (as
 * std::vector::size() does) with a right shift by k (`sar $k, r`, `asr`)
 * then a multiplication (`imul`, `mul`) by the odd part's inverse modulo
 * 2^64.  The event records k and the multiplier;
 * st_exact_divisor() turns them back into the size.
 */
uint64_t st_exact_divisor(const struct st_event *e);

/* Traces LEN bytes of CODE, the function at VADDR, as ARCH code.  0 on
 * success (the trace may be partial: truncated); -ENOMEM, or -ENOTSUP if
 * this capstone lacks that architecture, when capstone cannot be opened;
 * -EINVAL for an arch not in enum st_arch. */
int symtrace_run(enum st_arch arch, const uint8_t *code, size_t len, uint64_t vaddr,
		 struct symtrace *t);

/* Node index of argument k / the entry stack pointer / [base + off] of
 * size bytes (size 0: any); -1 if the trace has no such node. */
int st_arg(const struct symtrace *t, int k);
int st_sp(const struct symtrace *t);

/* A function that returns an aggregate in memory (std::string, spg_t,
 * object_locator_t): the node of its result pointer, and of its argument k
 * (k = 0: `this` of a method).  x86-64 passes the result pointer as ARG_0
 * and shifts the arguments by one; arm64 passes it in x8. */
int st_sret(const struct symtrace *t);
int st_sret_arg(const struct symtrace *t, int k);
int st_load(const struct symtrace *t, int base, int64_t off, int size);

/* Is node n a load of [base + something]?  Returns that offset in *off. */
bool st_is_load_of(const struct symtrace *t, int n, int base, int64_t *off);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_SYMTRACE_H
#define OSDHIST_SYMTRACE_H

/*
 * A small symbolic pass over one x86-64 function's machine code (capstone):
 * it follows, in address order, what each register holds in terms of the
 * function's entry state -- an argument register, the entry stack pointer,
 * or a value loaded from [such a value + offset] -- and records every
 * memory access, compare with a constant and call.  The derivation's
 * readers (derive_read.c, derive_read_obj.c) ask questions of that record
 * ("which offset of the op argument is passed to OpInfo::may_read?"),
 * never of byte strings, so register choices, endbr64 and layout changes
 * between builds do not matter.
 *
 * The pass is linear (no control flow is followed), bounded (ST_MAX_INSNS,
 * ST_MAX_NODES) and never reads outside the bytes it is given.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ST_MAX_INSNS	6000
#define ST_MAX_NODES	8192
#define ST_MAX_EVENTS	12000

/* SysV integer argument registers, by position. */
enum { ARG_RDI, ARG_RSI, ARG_RDX, ARG_RCX, ARG_R8, ARG_R9, NR_ARGS };

enum st_kind { N_ARG, N_SP, N_LOAD };

/* A value known at function entry: argument k, the entry %rsp, or the
 * `size` bytes loaded from [node base + off]. */
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
	struct sval src;	/* STORE: the value stored (16-byte SSE
				 * store: the 16 bytes' load node) */
	uint64_t target;	/* CALL: callee vaddr, 0 if indirect (a
				 * call through a register or memory, or a
				 * jmp through a loaded pointer with %rsp
				 * back at entry: a virtual tail call) */
	struct sval args[NR_ARGS];	/* CALL: argument registers */
};

#define ST_HASH		(2 * ST_MAX_NODES)	/* open addressing, power of 2 */

struct symtrace {
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
 * std::vector::size() does) with `sar $k, r` then `imul` by the odd part's
 * inverse modulo 2^64.  The event records k and the multiplier;
 * st_exact_divisor() turns them back into the size.
 */
uint64_t st_exact_divisor(const struct st_event *e);

/* Traces LEN bytes of CODE, the function at VADDR.  0 on success (the trace
 * may be partial: truncated); -ENOMEM, or -ENOTSUP if this capstone has no
 * x86-64, when capstone cannot be opened. */
int symtrace_run(const uint8_t *code, size_t len, uint64_t vaddr, struct symtrace *t);

/* Node index of argument k / the entry stack pointer / [base + off] of
 * size bytes (size 0: any); -1 if the trace has no such node. */
int st_arg(const struct symtrace *t, int k);
int st_sp(const struct symtrace *t);
int st_load(const struct symtrace *t, int base, int64_t off, int size);

/* Is node n a load of [base + something]?  Returns that offset in *off. */
bool st_is_load_of(const struct symtrace *t, int n, int base, int64_t *off);

#endif

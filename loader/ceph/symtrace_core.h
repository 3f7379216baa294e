/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_SYMTRACE_CORE_H
#define OSDHIST_SYMTRACE_CORE_H

/*
 * Between symtrace_core.c (the pass: nodes, events, the walk over the
 * instructions) and its two front ends, symtrace_x86.c and
 * symtrace_arm64.c, which turn one decoded instruction into changes of the
 * register state and events.  Only these three files include it.
 */
#include <capstone/capstone.h>

#include "symtrace.h"

/* Register slots of the state: each front end numbers its registers
 * (general, then vector) below this. */
#define ST_MAX_REGS	72

/* What one instruction does to the walk (GCC's mid-function epilogues):
 * LV_BODY: body code, the state after it is where code after the next exit
 * resumes; LV_EPILOGUE: part of an exit path (restores of callee-saved
 * registers, the stack pointer's return, the return value's setting);
 * LV_EXIT: leaves the function (ret, a tail call); LV_SAME: changes no
 * register and says nothing of where it stands (AArch64's paciasp,
 * autiasp, bti, nop: autiasp sits between an epilogue's restores and its
 * ret, and must not make the restored registers the body's). */
enum { LV_BODY, LV_EPILOGUE, LV_EXIT, LV_SAME };

/* The register state of the walk, and constants with pending right shifts
 * per register (for EV_DIV). */
struct st_state {
	struct sval reg[ST_MAX_REGS];
	uint8_t known[ST_MAX_REGS];
	uint64_t val[ST_MAX_REGS];
	int8_t shift[ST_MAX_REGS];	/* -1: none */
	uint32_t ncalls;
	uint64_t fn_lo, fn_hi;		/* the function's bytes */
	/* set by the front end's step, 0 before each instruction: */
	uint64_t jump;			/* the target of a direct jump inside
					 * the function it may take */
	uint8_t ends;			/* it never goes on to the next one
					 * (an unconditional jump; a jump
					 * table's; ret and tail calls are
					 * LV_EXIT) */
};

struct st_front {
	cs_arch cs_arch;
	cs_mode cs_mode;
	int nregs;			/* slots used */
	int sp;				/* slot of the stack pointer */
	int arg[NR_ARGS + 1];		/* slot of each argument position and
					 * ARG_SRET; -1: none */
	int64_t stack_args;		/* symtrace.h */
	unsigned insn_size;		/* fixed instruction width, 0: varies.
					 * Fixed: an instruction capstone cannot
					 * decode is skipped, every register but
					 * the stack pointer forgotten. */
	/* One instruction: changes to st, events into t; returns LV_*. */
	int (*step)(csh h, struct symtrace *t, const cs_insn *in, struct st_state *st);
};

extern const struct st_front st_front_x86, st_front_arm64;

extern const struct sval ST_UNK;

/* The registers an instruction writes, as capstone says (cs_regs_access):
 * each one's slot by the front end's slot_of (-1 or below: none of the
 * state's, e.g. flags) in out[], and their count; -ENOTSUP if capstone cannot
 * tell (the caller forgets every register but the stack pointer). */
#define ST_MAX_WRITES	64	/* capstone's cs_regs */
int st_written(csh h, const cs_insn *in, int (*slot_of)(unsigned reg), int out[ST_MAX_WRITES]);

/* Records a load of size bytes at addr (node -1: not known, nothing
 * recorded); returns the loaded value's node, or -1. */
int st_ev_load(struct symtrace *t, const struct st_state *st, struct sval addr, int size,
	       uint64_t pc);

/* Records a store of src, size bytes at addr; the event, or NULL. */
struct st_event *st_ev_store(struct symtrace *t, const struct st_state *st, struct sval addr,
			     int size, struct sval src, uint64_t pc);

/* Records a compare of node n (size bytes) with imm. */
void st_ev_cmp(struct symtrace *t, const struct st_state *st, int n, int size, int64_t imm,
	       uint64_t pc);

/* Records a call (target 0: indirect) with the argument registers of st,
 * then forgets the values of the caller-saved registers (clobbered[slot]
 * set), which a call may change.  Their constants are the front end's. */
void st_ev_call(struct symtrace *t, struct st_state *st, const struct st_front *f,
		uint64_t target, uint64_t pc, const uint8_t clobbered[ST_MAX_REGS]);

/* Records a multiplication of a register shifted right by k with a
 * constant m (EV_DIV), when m is odd. */
void st_ev_div(struct symtrace *t, const struct st_state *st, int k, uint64_t m, uint64_t pc);

/* Forgets the constant and shift of slot r. */
void st_forget(struct st_state *st, int r);

/* Is the walk's stack pointer back at its entry value? */
bool st_sp_at_entry(const struct symtrace *t, const struct st_state *st, int sp);

#endif

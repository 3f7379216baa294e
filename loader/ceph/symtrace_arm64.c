// SPDX-License-Identifier: GPL-2.0
/*
 * The AArch64 front end of the symbolic pass (symtrace.h, symtrace_core.h),
 * for code GCC compiles under AAPCS64: x0..x7 are the arguments (x0 is
 * `this`), x8 the result pointer of a function returning an aggregate in
 * memory, sp the stack pointer (16-byte aligned; stack arguments from entry
 * sp + 0).  What it models: ldr/str/ldp/stp and their sign- and zero-
 * extending and unscaled forms with an immediate offset, pre- and
 * post-index (the base register moves), ldar* (acquire loads); mov and
 * add/sub of an immediate (lsl #12 too) between 64-bit registers, sp
 * included; constants (movz/movn/movk, orr with xzr, adrp/adr and an add to
 * them) and a register holding one used as an offset; cmp/cmn with an
 * immediate or a known constant, cbz/cbnz (a compare with 0); bl, blr,
 * b out of the function (a tail call), br through a loaded pointer with sp
 * back at entry (a virtual tail call); b, b.cond, cbz, cbnz, tbz, tbnz
 * inside it as jumps for the walk's joins; hint (paciasp, autiasp, bti)
 * and nop as nothing, not even body code; whole 16-byte q-register moves (a struct copy); asr then mul
 * by a constant (EV_DIV).  Anything else makes what it writes unknown.
 * An instruction capstone cannot decode (newer than its tables) is skipped
 * with every register but sp forgotten: AArch64 code has a fixed width.
 */
#include <string.h>

#include "symtrace_core.h"

/* slots: x0..x30, sp, then v0..v31 (the q registers) */
enum { R_X0 = 0, R_X8 = 8, R_X16 = 16, R_X18 = 18, R_X19 = 19, R_X29 = 29, R_X30 = 30,
       R_SP = 31, R_V0 = 32, NR_REGS = 64 };
#define R_ZERO	(-2)	/* xzr / wzr: the constant 0, no slot */

#define UNK ST_UNK

/* capstone register -> slot and width in bytes; R_ZERO for xzr/wzr, -1 if
 * not a general register. */
static int gpr_of(unsigned r, int *width)
{
	if (r >= ARM64_REG_X0 && r <= ARM64_REG_X28) {
		*width = 8;
		return (int)(r - ARM64_REG_X0);
	}
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W30) {
		*width = 4;
		return (int)(r - ARM64_REG_W0);
	}
	*width = 8;
	switch (r) {
	case ARM64_REG_X29: return R_X29;
	case ARM64_REG_X30: return R_X30;
	case ARM64_REG_SP: return R_SP;
	case ARM64_REG_XZR: return R_ZERO;
	case ARM64_REG_WSP: *width = 4; return R_SP;
	case ARM64_REG_WZR: *width = 4; return R_ZERO;
	}
	return -1;
}

/* capstone register -> its vector slot and width (q: 16, d: 8, s: 4, h: 2,
 * b: 1, v: 16); -1 if not a vector register. */
static int vec_of(unsigned r, int *width)
{
	static const struct { unsigned first; int width; } bank[] = {
		{ ARM64_REG_Q0, 16 }, { ARM64_REG_V0, 16 }, { ARM64_REG_D0, 8 },
		{ ARM64_REG_S0, 4 }, { ARM64_REG_H0, 2 }, { ARM64_REG_B0, 1 } };

	for (size_t i = 0; i < sizeof(bank) / sizeof(bank[0]); i++)
		if (r >= bank[i].first && r < bank[i].first + 32) {
			*width = bank[i].width;
			return R_V0 + (int)(r - bank[i].first);
		}
	return -1;
}

/* Slot of a register operand (general or vector) and its width; -1 if the
 * operand is not one. */
static int reg_op(const cs_arm64_op *o, int *width)
{
	int s;

	if (!o || o->type != ARM64_OP_REG)
		return -1;
	s = gpr_of(o->reg, width);
	return s != -1 ? s : vec_of(o->reg, width);
}

/* An immediate operand's value, its lsl applied (add #1, lsl #12; movk). */
static int64_t imm_of(const cs_arm64_op *o)
{
	if (o->shift.type == ARM64_SFT_LSL && o->shift.value < 64)
		return (int64_t)((uint64_t)o->imm << o->shift.value);
	return o->imm;
}

/* Bytes a load or store of insn id moves per register of width w. */
static int access_size(unsigned id, int w)
{
	switch (id) {
	case ARM64_INS_LDRB: case ARM64_INS_LDURB: case ARM64_INS_LDRSB:
	case ARM64_INS_LDURSB: case ARM64_INS_LDARB: case ARM64_INS_STRB:
	case ARM64_INS_STURB: case ARM64_INS_STLRB:
		return 1;
	case ARM64_INS_LDRH: case ARM64_INS_LDURH: case ARM64_INS_LDRSH:
	case ARM64_INS_LDURSH: case ARM64_INS_LDARH: case ARM64_INS_STRH:
	case ARM64_INS_STURH: case ARM64_INS_STLRH:
		return 2;
	case ARM64_INS_LDRSW: case ARM64_INS_LDURSW: case ARM64_INS_LDPSW:
		return 4;
	}
	return w;
}

static bool is_load(unsigned id)
{
	switch (id) {
	case ARM64_INS_LDR: case ARM64_INS_LDRB: case ARM64_INS_LDRH:
	case ARM64_INS_LDRSB: case ARM64_INS_LDRSH: case ARM64_INS_LDRSW:
	case ARM64_INS_LDUR: case ARM64_INS_LDURB: case ARM64_INS_LDURH:
	case ARM64_INS_LDURSB: case ARM64_INS_LDURSH: case ARM64_INS_LDURSW:
	case ARM64_INS_LDAR: case ARM64_INS_LDARB: case ARM64_INS_LDARH:
		return true;
	}
	return false;
}

static bool is_store(unsigned id)
{
	switch (id) {
	case ARM64_INS_STR: case ARM64_INS_STRB: case ARM64_INS_STRH:
	case ARM64_INS_STUR: case ARM64_INS_STURB: case ARM64_INS_STURH:
	case ARM64_INS_STLR: case ARM64_INS_STLRB: case ARM64_INS_STLRH:
		return true;
	}
	return false;
}

/* The value in slot s (R_ZERO: none known as a node). */
static struct sval val_of(const struct st_state *st, int s)
{
	return s >= 0 ? st->reg[s] : UNK;
}

static void set_reg(struct st_state *st, int s, struct sval v)
{
	if (s >= 0) {
		st->reg[s] = v;
		st_forget(st, s);
	}
}

static void set_const(struct st_state *st, int s, uint64_t v)
{
	if (s >= 0) {
		st->reg[s] = UNK;
		st_forget(st, s);
		st->known[s] = 1;
		st->val[s] = v;
	}
}

/* Is slot s (R_ZERO included) a known constant?  Its value in *v. */
static bool const_of(const struct st_state *st, int s, uint64_t *v)
{
	if (s == R_ZERO) {
		*v = 0;
		return true;
	}
	if (s < 0 || !st->known[s])
		return false;
	*v = st->val[s];
	return true;
}

/* The address of memory operand o, before any writeback: base + disp
 * (an index register: not known). */
static struct sval mem_addr(const struct st_state *st, const cs_arm64_op *o)
{
	int w, b;
	struct sval v;

	if (!o || o->type != ARM64_OP_MEM || o->mem.index != ARM64_REG_INVALID)
		return UNK;
	b = gpr_of(o->mem.base, &w);
	if (b < 0 || w != 8 || st->reg[b].node < 0)
		return UNK;
	v = st->reg[b];
	v.add += o->mem.disp;
	return v;
}

/* Pre- and post-index: the base register moves by the offset (pre: the
 * displacement; post: the immediate operand after the memory one). */
static void writeback(struct st_state *st, const cs_arm64 *a, int mi)
{
	const cs_arm64_op *m = &a->operands[mi];
	int w, b;
	int64_t by;

	if (!a->writeback || m->type != ARM64_OP_MEM)
		return;
	b = gpr_of(m->mem.base, &w);
	if (b < 0)
		return;
	by = mi + 1 < a->op_count && a->operands[mi + 1].type == ARM64_OP_IMM ?
	     a->operands[mi + 1].imm : m->mem.disp;
	if (st->reg[b].node >= 0)
		st->reg[b].add += by;
	st_forget(st, b);
}

/* The node and width a compare sees in slot s: a loaded value compared
 * whole, at the width it was loaded with (ldrh then cmp w: 2 bytes). */
static int cmp_node(const struct st_state *st, int s, int w, int *size)
{
	const struct sval v = val_of(st, s);

	if (v.node < 0 || v.add)
		return -1;
	*size = w;
	return v.node;
}

static int cmp_size(const struct symtrace *t, int n, int w)
{
	int ns = t->nodes[n].kind == N_LOAD ? t->nodes[n].size : 8;

	return ns < w ? ns : w;
}

/* capstone register -> slot (general or vector), for st_written(). */
static int slot_of(unsigned r)
{
	int w, s = gpr_of(r, &w);

	return s != -1 ? s : vec_of(r, &w);
}

/* Forget every register the instruction writes (all but sp if capstone
 * cannot tell). */
static void clobber_written(csh h, const cs_insn *in, struct st_state *st)
{
	int s[ST_MAX_WRITES], n = st_written(h, in, slot_of, s);

	for (int i = 0; n < 0 && i < NR_REGS; i++)
		if (i != R_SP)
			set_reg(st, i, UNK);
	for (int i = 0; i < n; i++)
		set_reg(st, s[i], UNK);
}

/* A call: recorded, then AAPCS64's caller-saved registers forgotten,
 * x0..x18, x30 and the vector registers (v8..v15 keep only their low 8
 * bytes: all are forgotten), their constants too. */
static void call(struct symtrace *t, struct st_state *st, uint64_t target, uint64_t pc)
{
	uint8_t c[ST_MAX_REGS] = { 0 };

	for (int i = 0; i < NR_REGS; i++)
		if ((c[i] = i <= R_X18 || i == R_X30 || i >= R_V0))
			st_forget(st, i);
	st_ev_call(t, st, &st_front_arm64, target, pc, c);
}

static int do_load(csh h, struct symtrace *t, const cs_insn *in, struct st_state *st)
{
	const cs_arm64 *a = &in->detail->arm64;
	int nreg = in->id == ARM64_INS_LDP || in->id == ARM64_INS_LDNP ||
		   in->id == ARM64_INS_LDPSW ? 2 : 1;
	int w = 0, s[2], saved = 0, size;
	struct sval addr;

	if (a->op_count < nreg + 1 || a->operands[nreg].type != ARM64_OP_MEM) {
		clobber_written(h, in, st);
		return LV_BODY;
	}
	addr = mem_addr(st, &a->operands[nreg]);
	for (int k = 0; k < nreg; k++) {
		s[k] = reg_op(&a->operands[k], &w);
		saved += (s[k] >= R_X19 && s[k] <= R_X30) || (s[k] >= R_V0 + 8 && s[k] < R_V0 + 16);
	}
	size = access_size(in->id, w);
	for (int k = 0; k < nreg; k++) {
		struct sval at = addr;
		int n;

		if (at.node >= 0)
			at.add += k * size;
		n = st_ev_load(t, st, at, size, in->address);
		set_reg(st, s[k], n >= 0 ? (struct sval){ n, 0 } : UNK);
	}
	writeback(st, a, nreg);
	/* callee-saved registers reloaded from the frame: an epilogue */
	return saved == nreg && a->operands[nreg].mem.base == ARM64_REG_SP ? LV_EPILOGUE : LV_BODY;
}

static int do_store(struct symtrace *t, const cs_insn *in, struct st_state *st)
{
	const cs_arm64 *a = &in->detail->arm64;
	int nreg = in->id == ARM64_INS_STP || in->id == ARM64_INS_STNP ? 2 : 1;
	int w = 0, size;
	struct sval addr;

	if (a->op_count < nreg + 1 || a->operands[nreg].type != ARM64_OP_MEM)
		return LV_BODY;
	addr = mem_addr(st, &a->operands[nreg]);
	for (int k = 0; k < nreg; k++) {
		int s = reg_op(&a->operands[k], &w);
		struct sval at = addr;
		struct st_event *e;

		size = access_size(in->id, w);
		if (at.node >= 0)
			at.add += k * size;
		/* a whole register's value (x, or all 16 bytes of q) */
		e = st_ev_store(t, st, at, size, size == w && (w == 8 || w == 16) ?
				val_of(st, s) : UNK, in->address);
		if (e && s == R_ZERO) {
			e->has_imm = 1;
			e->imm = 0;
		} else if (e && s >= 0 && st->known[s]) {
			e->has_imm = 1;
			e->imm = (int64_t)st->val[s];
		}
	}
	writeback(st, a, nreg);
	return LV_BODY;
}

/* add / sub of an immediate, or of a register holding a constant. */
static int do_add(csh h, const cs_insn *in, struct st_state *st)
{
	const cs_arm64 *a = &in->detail->arm64;
	int w0 = 0, w1 = 0, w2 = 0, d, s, r;
	int64_t by;
	uint64_t c;
	bool sub = in->id == ARM64_INS_SUB;

	if (a->op_count != 3 || (d = reg_op(&a->operands[0], &w0)) < 0 || d >= R_V0 ||
	    (s = reg_op(&a->operands[1], &w1)) < -2 || s >= R_V0) {
		clobber_written(h, in, st);
		return LV_BODY;
	}
	if (a->operands[2].type == ARM64_OP_IMM)
		by = imm_of(&a->operands[2]);
	else if ((r = reg_op(&a->operands[2], &w2)) != -1 && w2 == 8 &&
		 a->operands[2].shift.type == ARM64_SFT_INVALID &&
		 a->operands[2].ext == ARM64_EXT_INVALID && const_of(st, r, &c))
		by = (int64_t)c;
	else {
		clobber_written(h, in, st);
		return LV_BODY;
	}
	if (sub)
		by = -by;
	if (const_of(st, s, &c) && w0 == 8)
		set_const(st, d, c + (uint64_t)by);	/* adrp x0, page; add x0, x0, #lo */
	else if (w0 == 8 && w1 == 8 && s >= 0 && st->reg[s].node >= 0)
		set_reg(st, d, (struct sval){ st->reg[s].node, st->reg[s].add + by });
	else
		set_reg(st, d, UNK);
	return d == R_SP ? LV_EPILOGUE : LV_BODY;
}

/* A call (bl, blr), a tail call (b out of the function; br through a loaded
 * pointer with sp back at entry), or a jump inside (not followed). */
static int do_branch(struct symtrace *t, const cs_insn *in, struct st_state *st)
{
	const cs_arm64 *a = &in->detail->arm64;
	const cs_arm64_op *o0 = a->op_count ? &a->operands[0] : NULL;
	uint64_t target = o0 && o0->type == ARM64_OP_IMM ? (uint64_t)o0->imm : 0;
	int w, s = reg_op(o0, &w);
	int via = s >= 0 && !st->reg[s].add ? st->reg[s].node : -1;

	switch (in->id) {
	case ARM64_INS_BL:
	case ARM64_INS_BLR:
		call(t, st, in->id == ARM64_INS_BL ? target : 0, in->address);
		return LV_BODY;
	case ARM64_INS_B:
		if (target >= st->fn_lo && target < st->fn_hi) {
			st->jump = target;	/* control flow */
			st->ends = a->cc == ARM64_CC_INVALID || a->cc == ARM64_CC_AL;
			return LV_BODY;
		}
		if (a->cc != ARM64_CC_INVALID && a->cc != ARM64_CC_AL)
			return LV_BODY;		/* b.cond out: not a call */
		call(t, st, target, in->address);
		return LV_EXIT;
	case ARM64_INS_BR:
		/* else a switch's jump table: not followed */
		if (via < 0 || t->nodes[via].kind != N_LOAD || !st_sp_at_entry(t, st, R_SP)) {
			st->ends = 1;
			return LV_BODY;
		}
		call(t, st, 0, in->address);
		return LV_EXIT;
	}
	return LV_BODY;
}

/* cbz, cbnz, tbz, tbnz: a conditional jump to their last operand. */
static void jump_of(const cs_insn *in, struct st_state *st)
{
	const cs_arm64 *a = &in->detail->arm64;
	const cs_arm64_op *o = a->op_count ? &a->operands[a->op_count - 1] : NULL;

	if (o && o->type == ARM64_OP_IMM && (uint64_t)o->imm >= st->fn_lo &&
	    (uint64_t)o->imm < st->fn_hi)
		st->jump = (uint64_t)o->imm;
}

/* cmp / cmn / tst and cbz / cbnz: the compares derive_read.c asks about. */
static int do_compare(struct symtrace *t, const cs_insn *in, struct st_state *st)
{
	const cs_arm64 *a = &in->detail->arm64;
	int w = 0, w1 = 0, s, r, n, size = 0;
	uint64_t c;
	int64_t imm;

	if (a->op_count < 2 || (s = reg_op(&a->operands[0], &w)) < 0 || s >= R_V0)
		return LV_BODY;
	if (in->id == ARM64_INS_TST)
		return LV_BODY;		/* flags only */
	if (in->id == ARM64_INS_CBZ || in->id == ARM64_INS_CBNZ)
		imm = 0;
	else if (a->operands[1].type == ARM64_OP_IMM)
		imm = imm_of(&a->operands[1]);
	else if ((r = reg_op(&a->operands[1], &w1)) != -1 && const_of(st, r, &c) &&
		 a->operands[1].shift.type == ARM64_SFT_INVALID &&
		 a->operands[1].ext == ARM64_EXT_INVALID)
		imm = w == 4 ? (int64_t)(int32_t)(uint32_t)c : (int64_t)c;
	else
		return LV_BODY;
	if (in->id == ARM64_INS_CMN)
		imm = -imm;		/* cmn x, #2: x + 2 == 0 */
	n = cmp_node(st, s, w, &size);
	if (n >= 0)
		st_ev_cmp(t, st, n, cmp_size(t, n, size), imm, in->address);
	return LV_BODY;
}

/* Constants: movz, movn, movk, orr with the zero register, adrp, adr. */
static bool do_const(const cs_insn *in, struct st_state *st)
{
	const cs_arm64 *a = &in->detail->arm64;
	int w = 0, w1 = 0, d = a->op_count ? reg_op(&a->operands[0], &w) : -1;
	const cs_arm64_op *o1 = a->op_count > 1 ? &a->operands[1] : NULL;
	uint64_t v, mask;

	if (d < 0 || d >= R_V0)
		return false;
	mask = w == 4 ? 0xffffffffull : ~0ull;
	switch (in->id) {
	case ARM64_INS_MOVZ:
	case ARM64_INS_ADRP:
	case ARM64_INS_ADR:
		if (!o1 || o1->type != ARM64_OP_IMM)
			return false;
		set_const(st, d, (uint64_t)imm_of(o1) & mask);
		return true;
	case ARM64_INS_MOVN:
		if (!o1 || o1->type != ARM64_OP_IMM)
			return false;
		set_const(st, d, ~(uint64_t)imm_of(o1) & mask);
		return true;
	case ARM64_INS_MOVK:
		if (!o1 || o1->type != ARM64_OP_IMM || !st->known[d] ||
		    (o1->shift.type != ARM64_SFT_INVALID && o1->shift.value > 48)) {
			set_reg(st, d, UNK);
			return true;
		}
		v = o1->shift.type == ARM64_SFT_INVALID ? 0 : o1->shift.value;
		set_const(st, d, ((st->val[d] & ~(0xffffull << v)) |
				  ((uint64_t)(o1->imm & 0xffff) << v)) & mask);
		return true;
	case ARM64_INS_ORR:
		if (a->op_count == 3 && a->operands[2].type == ARM64_OP_IMM &&
		    reg_op(o1, &w1) == R_ZERO) {
			set_const(st, d, (uint64_t)a->operands[2].imm & mask);
			return true;
		}
		return false;
	case ARM64_INS_MOV:
		if (o1 && o1->type == ARM64_OP_IMM) {
			set_const(st, d, (uint64_t)o1->imm & mask);
			return true;
		}
		return false;
	}
	return false;
}

/* asr by k, then mul by a constant: an exact division (EV_DIV). */
static bool do_div(struct symtrace *t, const cs_insn *in, struct st_state *st)
{
	const cs_arm64 *a = &in->detail->arm64;
	int w0 = 0, w1 = 0, w2 = 0, d, s1, s2;
	uint64_t m;

	if (a->op_count != 3 || (d = reg_op(&a->operands[0], &w0)) < 0 || d >= R_V0 || w0 != 8)
		return false;
	s1 = reg_op(&a->operands[1], &w1);
	if ((in->id == ARM64_INS_ASR || in->id == ARM64_INS_LSR) &&
	    a->operands[2].type == ARM64_OP_IMM && a->operands[2].imm > 0 &&
	    a->operands[2].imm < 16) {
		set_reg(st, d, UNK);
		st->shift[d] = (int8_t)a->operands[2].imm;
		return true;
	}
	if (in->id != ARM64_INS_MUL || s1 < 0 || s1 >= R_V0 ||
	    (s2 = reg_op(&a->operands[2], &w2)) < 0 || s2 >= R_V0)
		return false;
	if (st->shift[s1] >= 0 && const_of(st, s2, &m))
		st_ev_div(t, st, st->shift[s1], m, in->address);
	else if (st->shift[s2] >= 0 && const_of(st, s1, &m))
		st_ev_div(t, st, st->shift[s2], m, in->address);
	set_reg(st, d, UNK);
	return true;
}

/* mov between registers: a 64-bit general copy, or a whole q copy. */
static bool do_mov(const cs_insn *in, struct st_state *st)
{
	const cs_arm64 *a = &in->detail->arm64;
	int w0 = 0, w1 = 0, d, s;

	if (in->id != ARM64_INS_MOV || a->op_count != 2 ||
	    (d = reg_op(&a->operands[0], &w0)) < 0 || (s = reg_op(&a->operands[1], &w1)) < -2)
		return false;
	if (s == R_ZERO)
		set_const(st, d, 0);
	else if (w0 == w1 && (w0 == 8 || w0 == 16) && (d >= R_V0) == (s >= R_V0)) {
		uint64_t c;
		bool k = const_of(st, s, &c);

		set_reg(st, d, st->reg[s]);
		if (k) {
			st->known[d] = 1;
			st->val[d] = c;
		}
	} else
		set_reg(st, d, UNK);
	return true;
}

/* Writes only the return registers x0, x1 (and no memory): the setting of
 * a return value, part of an exit path.  The code after the exit was
 * reached from before it, with x0 and x1 as the body left them. */
static bool only_return_regs(csh h, const cs_insn *in)
{
	int s[ST_MAX_WRITES], n = st_written(h, in, slot_of, s);

	for (int i = 0; i < n; i++)
		if (s[i] != R_X0 && s[i] != R_X0 + 1)
			return false;
	return n > 0;
}

static int step(csh h, struct symtrace *t, const cs_insn *in, struct st_state *st)
{
	unsigned id = in->id;

	if (id == ARM64_INS_HINT || id == ARM64_INS_NOP)
		return LV_SAME;		/* paciasp, autiasp, bti, nop */
	if (id == ARM64_INS_RET)
		return LV_EXIT;
	if (is_load(id) || id == ARM64_INS_LDP || id == ARM64_INS_LDNP || id == ARM64_INS_LDPSW)
		return do_load(h, t, in, st);
	if (is_store(id) || id == ARM64_INS_STP || id == ARM64_INS_STNP)
		return do_store(t, in, st);
	switch (id) {
	case ARM64_INS_B: case ARM64_INS_BL: case ARM64_INS_BLR: case ARM64_INS_BR:
		return do_branch(t, in, st);
	case ARM64_INS_CBZ: case ARM64_INS_CBNZ:
		jump_of(in, st);
		/* fall through */
	case ARM64_INS_CMP: case ARM64_INS_CMN: case ARM64_INS_TST:
		/* (capstone 4 marks cmp's first operand written: it is not) */
		return do_compare(t, in, st);
	case ARM64_INS_TBZ: case ARM64_INS_TBNZ:
		jump_of(in, st);
		return LV_BODY;
	case ARM64_INS_ADD: case ARM64_INS_SUB:
		return do_add(h, in, st);
	}
	if (do_const(in, st) || do_mov(in, st) || do_div(t, in, st))
		return only_return_regs(h, in) ? LV_EPILOGUE : LV_BODY;
	clobber_written(h, in, st);
	return only_return_regs(h, in) ? LV_EPILOGUE : LV_BODY;
}

const struct st_front st_front_arm64 = {
	.cs_arch = CS_ARCH_ARM64,
	.cs_mode = CS_MODE_ARM,
	.nregs = NR_REGS,
	.sp = R_SP,
	.arg = { R_X0, R_X0 + 1, R_X0 + 2, R_X0 + 3, R_X0 + 4, R_X0 + 5, R_X0 + 6, R_X0 + 7,
		 R_X8 },
	.stack_args = 0,
	.insn_size = 4,
	.step = step,
};

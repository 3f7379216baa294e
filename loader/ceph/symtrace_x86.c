// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 front end of the symbolic pass (symtrace.h, symtrace_core.h).
 * What it models is just enough
 * for Ceph's accessors as GCC compiles them: moves, loads, lea, add/sub of
 * constants, push/pop and sub of %rsp (so stack arguments are seen as
 * entry-%rsp offsets, through %rbp too), calls (caller-saved registers are
 * forgotten), and whole 16-byte SSE moves (an %xmm register holds the 16
 * bytes loaded from [node + off], so a memcpy GCC does in two overlapping
 * movdqu/movups pairs is a store of a known value).  Anything else that writes a register makes it unknown, so a
 * wrong guess is never produced by the pass itself, only "don't know".
 */
#include <string.h>

#include "symtrace_core.h"

enum { R_RAX, R_RCX, R_RDX, R_RBX, R_RSP, R_RBP, R_RSI, R_RDI,
       R_R8, R_R9, R_R10, R_R11, R_R12, R_R13, R_R14, R_R15, NR_GPR };
/* %xmm0-15 follow the general registers in the pass's state; SysV saves
 * none of them across a call. */
enum { R_XMM0 = NR_GPR, NR_XMM = 16, NR_REGS = NR_GPR + NR_XMM };


/* capstone register -> general register and width in bytes; -1 if not one. */
static int gpr_of(unsigned r, int *width)
{
	static const unsigned q[NR_GPR] = {
		X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX, X86_REG_RSP,
		X86_REG_RBP, X86_REG_RSI, X86_REG_RDI, X86_REG_R8, X86_REG_R9,
		X86_REG_R10, X86_REG_R11, X86_REG_R12, X86_REG_R13, X86_REG_R14,
		X86_REG_R15 };
	static const unsigned d[NR_GPR] = {
		X86_REG_EAX, X86_REG_ECX, X86_REG_EDX, X86_REG_EBX, X86_REG_ESP,
		X86_REG_EBP, X86_REG_ESI, X86_REG_EDI, X86_REG_R8D, X86_REG_R9D,
		X86_REG_R10D, X86_REG_R11D, X86_REG_R12D, X86_REG_R13D,
		X86_REG_R14D, X86_REG_R15D };
	static const unsigned w[NR_GPR] = {
		X86_REG_AX, X86_REG_CX, X86_REG_DX, X86_REG_BX, X86_REG_SP,
		X86_REG_BP, X86_REG_SI, X86_REG_DI, X86_REG_R8W, X86_REG_R9W,
		X86_REG_R10W, X86_REG_R11W, X86_REG_R12W, X86_REG_R13W,
		X86_REG_R14W, X86_REG_R15W };
	static const unsigned b[NR_GPR] = {
		X86_REG_AL, X86_REG_CL, X86_REG_DL, X86_REG_BL, X86_REG_SPL,
		X86_REG_BPL, X86_REG_SIL, X86_REG_DIL, X86_REG_R8B, X86_REG_R9B,
		X86_REG_R10B, X86_REG_R11B, X86_REG_R12B, X86_REG_R13B,
		X86_REG_R14B, X86_REG_R15B };

	for (int i = 0; i < NR_GPR; i++) {
		if (r == q[i]) { *width = 8; return i; }
		if (r == d[i]) { *width = 4; return i; }
		if (r == w[i]) { *width = 2; return i; }
		if (r == b[i]) { *width = 1; return i; }
	}
	if (r == X86_REG_AH || r == X86_REG_CH || r == X86_REG_DH || r == X86_REG_BH) {
		*width = 1;
		return r == X86_REG_AH ? R_RAX : r == X86_REG_CH ? R_RCX :
		       r == X86_REG_DH ? R_RDX : R_RBX;
	}
	return -1;
}

/* capstone register -> its %xmm slot in the state (%ymm, %zmm: the same
 * slot, which a write makes unknown); -1 if not one of %xmm0-15. */
static int xmm_of(unsigned r)
{
	static const unsigned first[] = { X86_REG_XMM0, X86_REG_YMM0, X86_REG_ZMM0 };

	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++)
		if (r >= first[i] && r < first[i] + NR_XMM)
			return R_XMM0 + (int)(r - first[i]);
	return -1;
}

#define UNK ST_UNK

/* The symbolic address of a memory operand; node -1 if not known (an index
 * register, a segment, %rip, an unknown base). */
static struct sval mem_addr(const struct sval reg[ST_MAX_REGS], const cs_x86_op *op)
{
	int w, g;
	struct sval v;

	if (op->mem.segment != X86_REG_INVALID || op->mem.index != X86_REG_INVALID)
		return UNK;
	g = gpr_of(op->mem.base, &w);
	if (g < 0 || w != 8 || reg[g].node < 0)
		return UNK;
	v = reg[g];
	v.add += op->mem.disp;
	return v;
}

/* Records a read of memory operand op; returns the node of the value read. */
static int mem_read(struct symtrace *t, const struct st_state *st, const cs_x86_op *op,
		    uint64_t pc)
{
	return st_ev_load(t, st, mem_addr(st->reg, op), op->size, pc);
}

static struct st_event *mem_write(struct symtrace *t, const struct st_state *st,
				  const cs_x86_op *op, struct sval src, uint64_t pc)
{
	return st_ev_store(t, st, mem_addr(st->reg, op), op->size, src, pc);
}

/* capstone register -> slot (general or xmm), for st_written(). */
static int slot_of(unsigned r)
{
	int w, g = gpr_of(r, &w);

	return g >= 0 ? g : xmm_of(r);
}

/* Every register the instruction writes becomes unknown. */
static void clobber_written(csh h, const cs_insn *in, struct sval reg[ST_MAX_REGS])
{
	int s[ST_MAX_WRITES], n = st_written(h, in, slot_of, s);

	/* cannot tell what it writes: forget everything but the stack */
	for (int i = 0; n < 0 && i < NR_REGS; i++)
		if (i != R_RSP)
			reg[i] = UNK;
	for (int i = 0; i < n; i++)
		if (s[i] >= 0)
			reg[s[i]] = UNK;
}

static bool is_store_mov(unsigned id)
{
	switch (id) {
	case X86_INS_MOV: case X86_INS_MOVQ: case X86_INS_MOVD:
	case X86_INS_MOVUPS: case X86_INS_MOVAPS: case X86_INS_MOVDQA:
	case X86_INS_MOVDQU: case X86_INS_MOVUPD: case X86_INS_MOVAPD:
	case X86_INS_MOVLPS: case X86_INS_MOVHPS: case X86_INS_MOVSD:
	case X86_INS_MOVSS: case X86_INS_MOVNTI:
		return true;
	}
	return false;
}

static void forget_written(csh h, const cs_insn *in, struct st_state *c)
{
	int s[ST_MAX_WRITES], n = st_written(h, in, slot_of, s);

	for (int g = 0; n < 0 && g < NR_GPR; g++)
		st_forget(c, g);
	for (int i = 0; i < n; i++)
		if (s[i] >= 0 && s[i] < NR_GPR)
			st_forget(c, s[i]);
}

/* Before the generic pass of step(): constants, shifts, exact divisions. */
static void track_consts(csh h, struct symtrace *t, const cs_insn *in, struct st_state *c)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = x->op_count > 0 ? &x->operands[0] : NULL;
	const cs_x86_op *o1 = x->op_count > 1 ? &x->operands[1] : NULL;
	int w0 = 0, w1 = 0;
	int g0 = o0 && o0->type == X86_OP_REG ? gpr_of(o0->reg, &w0) : -1;
	int g1 = o1 && o1->type == X86_OP_REG ? gpr_of(o1->reg, &w1) : -1;
	int8_t s0 = g0 >= 0 ? c->shift[g0] : -1, s1 = g1 >= 0 ? c->shift[g1] : -1;
	uint8_t k0 = g0 >= 0 ? c->known[g0] : 0, k1 = g1 >= 0 ? c->known[g1] : 0;
	uint64_t v0 = g0 >= 0 ? c->val[g0] : 0, v1 = g1 >= 0 ? c->val[g1] : 0;

	forget_written(h, in, c);
	if ((in->id == X86_INS_MOV || in->id == X86_INS_MOVABS) && g0 >= 0 &&
	    (w0 == 8 || w0 == 4) && o1 && o1->type == X86_OP_IMM) {
		c->known[g0] = 1;
		c->val[g0] = w0 == 4 ? (uint32_t)o1->imm : (uint64_t)o1->imm;
	} else if ((in->id == X86_INS_SAR || in->id == X86_INS_SHR) && g0 >= 0 && w0 == 8 &&
		   o1 && o1->type == X86_OP_IMM && o1->imm > 0 && o1->imm < 16) {
		c->shift[g0] = (int8_t)o1->imm;
	} else if (in->id == X86_INS_IMUL && x->op_count == 2 && g0 >= 0 && g1 >= 0 &&
		   w0 == 8 && w1 == 8) {
		int shift = -1;
		uint64_t m = 0;

		if (s0 >= 0 && k1)
			shift = s0, m = v1;
		else if (s1 >= 0 && k0)
			shift = s1, m = v0;
		if (shift >= 0)
			st_ev_div(t, c, shift, m, in->address);
	}
}

/* 1 if the instruction was an indirect tail call (leaves() cannot tell it
 * from a switch's jump: that takes the registers), else 0. */
static int step(csh h, struct symtrace *t, const cs_insn *in, struct st_state *st)
{
	struct sval *reg = st->reg;
	uint64_t fn_lo = st->fn_lo, fn_hi = st->fn_hi;
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = x->op_count > 0 ? &x->operands[0] : NULL;
	const cs_x86_op *o1 = x->op_count > 1 ? &x->operands[1] : NULL;
	int w0 = 0, w1 = 0, g0 = -1, g1 = -1;
	uint64_t pc = in->address;

	if (o0 && o0->type == X86_OP_REG)
		g0 = gpr_of(o0->reg, &w0);
	if (o1 && o1->type == X86_OP_REG)
		g1 = gpr_of(o1->reg, &w1);

	switch (in->id) {
	case X86_INS_ENDBR64:
	case X86_INS_NOP:
		return 0;
	case X86_INS_MOV:
	case X86_INS_MOVZX:
	case X86_INS_MOVSX:
	case X86_INS_MOVSXD:
		if (!o0 || !o1)
			break;
		if (o0->type == X86_OP_MEM) {
			struct sval src = (g1 >= 0 && w1 == 8) ? reg[g1] : UNK;

			struct st_event *e = mem_write(t, st, o0, src, pc);

			if (e && o1->type == X86_OP_IMM) {
				e->has_imm = 1;
				e->imm = o1->imm;
			}
			return 0;
		}
		if (g0 < 0)
			break;
		if (o1->type == X86_OP_MEM) {
			int n = mem_read(t, st, o1, pc);

			reg[g0] = n >= 0 ? (struct sval){ n, 0 } : UNK;
			return 0;
		}
		if (in->id == X86_INS_MOV && g1 >= 0 && w0 == 8 && w1 == 8) {
			reg[g0] = reg[g1];
			return 0;
		}
		reg[g0] = UNK;
		return 0;
	case X86_INS_LEA:
		if (g0 < 0 || !o1 || o1->type != X86_OP_MEM)
			break;
		reg[g0] = w0 == 8 ? mem_addr(reg, o1) : UNK;
		return 0;
	case X86_INS_ADD:
	case X86_INS_SUB:
		if (g0 >= 0 && w0 == 8 && o1 && o1->type == X86_OP_IMM) {
			if (reg[g0].node >= 0)
				reg[g0].add += in->id == X86_INS_ADD ? o1->imm : -o1->imm;
			return 0;
		}
		break;
	case X86_INS_PUSH:
		if (o0 && o0->type == X86_OP_MEM)
			mem_read(t, st, o0, pc);
		if (reg[R_RSP].node >= 0)
			reg[R_RSP].add -= 8;
		return 0;
	case X86_INS_POP:
		if (g0 >= 0)
			reg[g0] = UNK;
		if (reg[R_RSP].node >= 0)
			reg[R_RSP].add += 8;
		return 0;
	case X86_INS_CMP:
	case X86_INS_TEST:
		if (!o0 || !o1)
			break;
		if (o1->type == X86_OP_IMM) {
			int n = -1;

			if (o0->type == X86_OP_MEM)
				n = mem_read(t, st, o0, pc);
			else if (g0 >= 0 && reg[g0].node >= 0 && reg[g0].add == 0)
				n = reg[g0].node;
			if (in->id == X86_INS_CMP)
				st_ev_cmp(t, st, n, o0->size, o1->imm, pc);
			return 0;
		}
		if (o0->type == X86_OP_MEM)
			mem_read(t, st, o0, pc);
		if (o1->type == X86_OP_MEM)
			mem_read(t, st, o1, pc);
		return 0;
	case X86_INS_CALL:
	case X86_INS_JMP: {
		uint8_t clobbered[ST_MAX_REGS] = { 0 };
		uint64_t target = 0;
		int via = -1;	/* indirect: the node of the address jumped to */

		if (o0 && o0->type == X86_OP_IMM)
			target = (uint64_t)o0->imm;
		else if (o0 && o0->type == X86_OP_MEM)
			via = mem_read(t, st, o0, pc);
		else if (g0 >= 0 && w0 == 8 && !reg[g0].add)
			via = reg[g0].node;
		/* a jump inside the function is control flow we do not follow */
		if (in->id == X86_INS_JMP && target >= fn_lo && target < fn_hi)
			return 0;
		/* an indirect jump is a tail call (a virtual one: through a
		 * pointer loaded from memory) only with %rsp back at entry; else
		 * a switch, not followed */
		if (in->id == X86_INS_JMP && !target &&
		    (via < 0 || t->nodes[via].kind != N_LOAD || !st_sp_at_entry(t, st, R_RSP)))
			return 0;
		/* SysV's caller-saved registers: all but %rbx, %rsp, %rbp,
		 * %r12-%r15 */
		for (int i = 0; i < NR_REGS; i++)
			clobbered[i] = i == R_RAX || i == R_RCX || i == R_RDX || i == R_RSI ||
				       i == R_RDI || (i >= R_R8 && i <= R_R11) || i >= R_XMM0;
		st_ev_call(t, st, &st_front_x86, target, pc, clobbered);
		return in->id == X86_INS_JMP && !target;
	}
	case X86_INS_MOVUPS: case X86_INS_MOVAPS: case X86_INS_MOVDQU:
	case X86_INS_MOVDQA: case X86_INS_MOVUPD: case X86_INS_MOVAPD:
	case X86_INS_LDDQU: {
		/* all 16 bytes: register <- memory, memory <- register, or
		 * register <- register */
		int x0 = o0 && o0->type == X86_OP_REG ? xmm_of(o0->reg) : -1;
		int x1 = o1 && o1->type == X86_OP_REG ? xmm_of(o1->reg) : -1;

		if (x0 >= 0 && o1 && o1->type == X86_OP_MEM) {
			int n = mem_read(t, st, o1, pc);

			reg[x0] = n >= 0 ? (struct sval){ n, 0 } : UNK;
			return 0;
		}
		if (x1 >= 0 && o0 && o0->type == X86_OP_MEM) {
			mem_write(t, st, o0, reg[x1], pc);
			return 0;
		}
		if (x0 >= 0 && x1 >= 0) {
			reg[x0] = reg[x1];
			return 0;
		}
		break;
	}
	default:
		if (o0 && o0->type == X86_OP_MEM && is_store_mov(in->id)) {
			mem_write(t, st, o0, UNK, pc);
			return 0;
		}
		break;
	}
	/* generic: record memory reads, forget what it writes */
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM && in->id != X86_INS_LEA &&
		    !(i == 0 && is_store_mov(in->id)))
			mem_read(t, st, &x->operands[i], pc);
	clobber_written(h, in, reg);
	return 0;
}

/* x86-64's epilogues (symtrace_core.c's walk): pops, a change of %rsp, then
 * ret or a tail jmp. */

static int leaves(const cs_insn *in, uint64_t fn_lo, uint64_t fn_hi)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = x->op_count > 0 ? &x->operands[0] : NULL;
	int w;

	switch (in->id) {
	case X86_INS_RET:
		return LV_EXIT;
	case X86_INS_JMP:
		/* out of the function: a tail call */
		return o0 && o0->type == X86_OP_IMM &&
		       ((uint64_t)o0->imm < fn_lo || (uint64_t)o0->imm >= fn_hi) ?
		       LV_EXIT : LV_BODY;
	case X86_INS_POP:
		return LV_EPILOGUE;
	case X86_INS_ADD: case X86_INS_SUB: case X86_INS_LEA:
		return o0 && o0->type == X86_OP_REG && gpr_of(o0->reg, &w) == R_RSP ?
		       LV_EPILOGUE : LV_BODY;
	}
	return LV_BODY;
}

/* Control flow inside the function, for the walk's joins: a jmp or jcc
 * to a place in it; a jmp that is not a tail call never goes on. */
static void jumps(const cs_insn *in, struct st_state *st)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = x->op_count > 0 ? &x->operands[0] : NULL;
	bool jump = false;

	for (int i = 0; i < in->detail->groups_count; i++)
		jump |= in->detail->groups[i] == X86_GRP_JUMP;
	if (!jump)
		return;
	if (o0 && o0->type == X86_OP_IMM && (uint64_t)o0->imm >= st->fn_lo &&
	    (uint64_t)o0->imm < st->fn_hi)
		st->jump = (uint64_t)o0->imm;
	st->ends = in->id == X86_INS_JMP;
}

/* One instruction: constants first (they read the registers before the
 * instruction writes them), then the pass; what it does to the walk. */
static int front_step(csh h, struct symtrace *t, const cs_insn *in, struct st_state *st)
{
	track_consts(h, t, in, st);
	jumps(in, st);
	return step(h, t, in, st) ? LV_EXIT : leaves(in, st->fn_lo, st->fn_hi);
}

const struct st_front st_front_x86 = {
	.cs_arch = CS_ARCH_X86,
	.cs_mode = CS_MODE_64,
	.nregs = NR_REGS,
	.sp = R_RSP,
	/* %rdi..%r9; no x8-like result register (ARG_SRET) */
	.arg = { R_RDI, R_RSI, R_RDX, R_RCX, R_R8, R_R9, -1, -1, -1 },
	.stack_args = 8,	/* past the return address */
	.step = front_step,
};

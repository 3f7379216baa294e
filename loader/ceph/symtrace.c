// SPDX-License-Identifier: GPL-2.0
/*
 * The symbolic register pass of symtrace.h.  What it models is just enough
 * for Ceph's accessors as GCC compiles them: moves, loads, lea, add/sub of
 * constants, push/pop and sub of %rsp (so stack arguments are seen as
 * entry-%rsp offsets, through %rbp too), calls (caller-saved registers are
 * forgotten), and whole 16-byte SSE moves (an %xmm register holds the 16
 * bytes loaded from [node + off], so a memcpy GCC does in two overlapping
 * movdqu/movups pairs is a store of a known value).  Anything else that writes a register makes it unknown, so a
 * wrong guess is never produced by the pass itself, only "don't know".
 */
#include <capstone/capstone.h>
#include <errno.h>
#include <string.h>

#include "symtrace.h"

enum { R_RAX, R_RCX, R_RDX, R_RBX, R_RSP, R_RBP, R_RSI, R_RDI,
       R_R8, R_R9, R_R10, R_R11, R_R12, R_R13, R_R14, R_R15, NR_GPR };
/* %xmm0-15 follow the general registers in the pass's state; SysV saves
 * none of them across a call. */
enum { R_XMM0 = NR_GPR, NR_XMM = 16, NR_REGS = NR_GPR + NR_XMM };

static const int arg_gpr[NR_ARGS] = { R_RDI, R_RSI, R_RDX, R_RCX, R_R8, R_R9 };

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

static const struct sval UNK = { -1, 0 };

/* Hash-consed: one node per distinct value, so equal values compare equal
 * by index.  Constant time per lookup: the input decides how many. */
static int intern(struct symtrace *t, uint8_t kind, uint8_t size, int32_t base, int64_t off)
{
	uint64_t h = ((uint64_t)off * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)(uint32_t)base << 8) ^
		     ((uint64_t)kind << 4) ^ size;
	uint32_t i = (uint32_t)(h ^ (h >> 29)) & (ST_HASH - 1);

	for (;; i = (i + 1) & (ST_HASH - 1)) {
		int32_t k = t->hash[i] - 1;
		const struct st_node *n;

		if (k < 0)
			break;
		n = &t->nodes[k];
		if (n->kind == kind && n->size == size && n->base == base && n->off == off)
			return k;
	}
	/* the table is never more than half full: the loop above ends */
	if (t->nnodes >= ST_MAX_NODES) {
		t->truncated = 1;
		return -1;
	}
	t->nodes[t->nnodes] = (struct st_node){ kind, size, base, off };
	t->hash[i] = t->nnodes + 1;
	return t->nnodes++;
}

static struct st_event *event(struct symtrace *t, uint8_t type, uint64_t pc, uint32_t ncalls)
{
	struct st_event *e;

	if (t->nev >= ST_MAX_EVENTS) {
		t->truncated = 1;
		return NULL;
	}
	e = &t->ev[t->nev++];
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->pc = pc;
	e->ncalls = ncalls;
	e->base = -1;
	e->node = -1;
	e->src = UNK;
	return e;
}

/* The symbolic address of a memory operand; node -1 if not known (an index
 * register, a segment, %rip, an unknown base). */
static struct sval mem_addr(const struct sval reg[NR_REGS], const cs_x86_op *op)
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
static int mem_read(struct symtrace *t, const struct sval reg[NR_REGS], const cs_x86_op *op,
		    uint64_t pc, uint32_t ncalls)
{
	struct sval a = mem_addr(reg, op);
	struct st_event *e;
	int n;

	if (a.node < 0)
		return -1;
	n = intern(t, N_LOAD, op->size, a.node, a.add);
	e = event(t, EV_LOAD, pc, ncalls);
	if (e) {
		e->size = op->size;
		e->base = a.node;
		e->off = a.add;
		e->node = n;
	}
	return n;
}

static void mem_write(struct symtrace *t, const struct sval reg[NR_REGS], const cs_x86_op *op,
		      struct sval src, uint64_t pc, uint32_t ncalls)
{
	struct sval a = mem_addr(reg, op);
	struct st_event *e;

	if (a.node < 0)
		return;
	e = event(t, EV_STORE, pc, ncalls);
	if (e) {
		e->size = op->size;
		e->base = a.node;
		e->off = a.add;
		e->src = src;
	}
}

/* Every register the instruction writes becomes unknown. */
static void clobber_written(csh h, const cs_insn *in, struct sval reg[NR_REGS])
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	int w;

	if (cs_regs_access(h, in, rd, &nrd, wr, &nwr) != CS_ERR_OK) {
		/* cannot tell what it writes: forget everything but the stack */
		for (int i = 0; i < NR_REGS; i++)
			if (i != R_RSP)
				reg[i] = UNK;
		return;
	}
	for (int i = 0; i < nwr; i++) {
		int g = gpr_of(wr[i], &w);

		if (g < 0)
			g = xmm_of(wr[i]);
		if (g >= 0)
			reg[g] = UNK;
	}
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

/* Constants and pending right shifts per register, for EV_DIV. */
struct consts {
	uint8_t known[NR_GPR];
	uint64_t val[NR_GPR];
	int8_t shift[NR_GPR];	/* -1: none */
};

static void forget_written(csh h, const cs_insn *in, struct consts *c)
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	int w;

	if (cs_regs_access(h, in, rd, &nrd, wr, &nwr) != CS_ERR_OK) {
		memset(c->known, 0, sizeof(c->known));
		memset(c->shift, -1, sizeof(c->shift));
		return;
	}
	for (int i = 0; i < nwr; i++) {
		int g = gpr_of(wr[i], &w);

		if (g >= 0) {
			c->known[g] = 0;
			c->shift[g] = -1;
		}
	}
}

/* Before the generic pass of step(): constants, shifts, exact divisions. */
static void track_consts(csh h, struct symtrace *t, const cs_insn *in, struct consts *c,
			 uint32_t ncalls)
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
		struct st_event *e;

		if (s0 >= 0 && k1)
			shift = s0, m = v1;
		else if (s1 >= 0 && k0)
			shift = s1, m = v0;
		if (shift >= 0 && (m & 1) && (e = event(t, EV_DIV, in->address, ncalls))) {
			e->size = (uint8_t)shift;
			e->imm = (int64_t)m;
		}
	}
}

uint64_t st_exact_divisor(const struct st_event *e)
{
	uint64_t m = (uint64_t)e->imm, inv = m;

	/* Newton's iteration: each step doubles the correct low bits */
	for (int i = 0; i < 6; i++)
		inv *= 2 - m * inv;
	if (m * inv != 1 || inv > 0xffff || e->size > 15)
		return 0;
	return inv << e->size;
}

/* 1 if the instruction was an indirect tail call (leaves() cannot tell it
 * from a switch's jump: that takes the registers), else 0. */
static int step(csh h, struct symtrace *t, const cs_insn *in, struct sval reg[NR_REGS],
		uint32_t *ncalls, uint64_t fn_lo, uint64_t fn_hi)
{
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

			mem_write(t, reg, o0, src, pc, *ncalls);
			if (o1->type == X86_OP_IMM && t->nev && t->ev[t->nev - 1].pc == pc &&
			    t->ev[t->nev - 1].type == EV_STORE) {
				t->ev[t->nev - 1].has_imm = 1;
				t->ev[t->nev - 1].imm = o1->imm;
			}
			return 0;
		}
		if (g0 < 0)
			break;
		if (o1->type == X86_OP_MEM) {
			int n = mem_read(t, reg, o1, pc, *ncalls);

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
			mem_read(t, reg, o0, pc, *ncalls);
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
			struct st_event *e;

			if (o0->type == X86_OP_MEM)
				n = mem_read(t, reg, o0, pc, *ncalls);
			else if (g0 >= 0 && reg[g0].node >= 0 && reg[g0].add == 0)
				n = reg[g0].node;
			if (n >= 0 && in->id == X86_INS_CMP && (e = event(t, EV_CMP, pc, *ncalls))) {
				e->size = o0->size;
				e->node = n;
				e->imm = o1->imm;
			}
			return 0;
		}
		if (o0->type == X86_OP_MEM)
			mem_read(t, reg, o0, pc, *ncalls);
		if (o1->type == X86_OP_MEM)
			mem_read(t, reg, o1, pc, *ncalls);
		return 0;
	case X86_INS_CALL:
	case X86_INS_JMP: {
		uint64_t target = 0;
		struct st_event *e;
		int via = -1;	/* indirect: the node of the address jumped to */

		if (o0 && o0->type == X86_OP_IMM)
			target = (uint64_t)o0->imm;
		else if (o0 && o0->type == X86_OP_MEM)
			via = mem_read(t, reg, o0, pc, *ncalls);
		else if (g0 >= 0 && w0 == 8 && !reg[g0].add)
			via = reg[g0].node;
		/* a jump inside the function is control flow we do not follow */
		if (in->id == X86_INS_JMP && target >= fn_lo && target < fn_hi)
			return 0;
		/* an indirect jump is a tail call (a virtual one: through a
		 * pointer loaded from memory) only with %rsp back at entry; else
		 * a switch, not followed */
		if (in->id == X86_INS_JMP && !target &&
		    (via < 0 || t->nodes[via].kind != N_LOAD || reg[R_RSP].add ||
		     reg[R_RSP].node != st_sp(t)))
			return 0;
		if ((e = event(t, EV_CALL, pc, *ncalls))) {
			e->target = target;
			for (int k = 0; k < NR_ARGS; k++)
				e->args[k] = reg[arg_gpr[k]];
		}
		(*ncalls)++;
		for (int i = 0; i < NR_REGS; i++)
			if (i == R_RAX || i == R_RCX || i == R_RDX || i == R_RSI ||
			    i == R_RDI || (i >= R_R8 && i <= R_R11) || i >= R_XMM0)
				reg[i] = UNK;
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
			int n = mem_read(t, reg, o1, pc, *ncalls);

			reg[x0] = n >= 0 ? (struct sval){ n, 0 } : UNK;
			return 0;
		}
		if (x1 >= 0 && o0 && o0->type == X86_OP_MEM) {
			mem_write(t, reg, o0, reg[x1], pc, *ncalls);
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
			mem_write(t, reg, o0, UNK, pc, *ncalls);
			return 0;
		}
		break;
	}
	/* generic: record memory reads, forget what it writes */
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM && in->id != X86_INS_LEA &&
		    !(i == 0 && is_store_mov(in->id)))
			mem_read(t, reg, &x->operands[i], pc, *ncalls);
	clobber_written(h, in, reg);
	return 0;
}

/*
 * GCC places epilogues (pops of callee-saved registers, then ret or a tail
 * jmp) in the middle of a function, and the code after one is reached only
 * by jumps from the body, where the callee-saved registers still hold what
 * the body gave them (an argument kept in %rbx, say).  So the pass goes on
 * after an exit with the registers as they were before its epilogue began,
 * as it goes on after any jump with the state of the code before it.
 * LV_BODY: a body instruction; LV_EPILOGUE: part of an epilogue (pop,
 * or a change of %rsp); LV_EXIT: the exit itself.
 */
enum { LV_BODY, LV_EPILOGUE, LV_EXIT };

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

int symtrace_run(const uint8_t *code, size_t len, uint64_t vaddr, struct symtrace *t)
{
	struct sval reg[NR_REGS], body[NR_REGS];
	struct consts c;
	uint32_t ncalls = 0;
	uint64_t addr = vaddr;
	int tail;
	const uint8_t *p = code;
	size_t left = len;
	cs_insn *in;
	cs_err err;
	csh h;

	t->nnodes = t->nev = t->ninsns = t->truncated = 0;
	memset(t->hash, 0, sizeof(t->hash));
	err = cs_open(CS_ARCH_X86, CS_MODE_64, &h);
	if (err != CS_ERR_OK)
		return err == CS_ERR_MEM ? -ENOMEM : -ENOTSUP;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	in = cs_malloc(h);
	if (!in) {
		cs_close(&h);
		return -ENOMEM;
	}
	memset(&c, 0, sizeof(c));
	memset(c.shift, -1, sizeof(c.shift));
	for (int i = 0; i < NR_REGS; i++)
		reg[i] = UNK;
	for (int k = 0; k < NR_ARGS; k++)
		reg[arg_gpr[k]] = (struct sval){ intern(t, N_ARG, 8, -1, k), 0 };
	reg[R_RSP] = (struct sval){ intern(t, N_SP, 8, -1, 0), 0 };

	memcpy(body, reg, sizeof(body));
	while (left && cs_disasm_iter(h, &p, &left, &addr, in)) {
		if (++t->ninsns > ST_MAX_INSNS) {
			t->truncated = 1;
			break;
		}
		track_consts(h, t, in, &c, ncalls);
		tail = step(h, t, in, reg, &ncalls, vaddr, vaddr + len);
		switch (tail ? LV_EXIT : leaves(in, vaddr, vaddr + len)) {
		case LV_BODY:
			memcpy(body, reg, sizeof(body));
			break;
		case LV_EXIT:
			memcpy(reg, body, sizeof(body));
			break;
		}
	}
	cs_free(in, 1);
	cs_close(&h);
	return 0;
}

int st_arg(const struct symtrace *t, int k)
{
	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].kind == N_ARG && t->nodes[i].off == k)
			return i;
	return -1;
}

int st_sp(const struct symtrace *t)
{
	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].kind == N_SP)
			return i;
	return -1;
}

int st_load(const struct symtrace *t, int base, int64_t off, int size)
{
	if (base < 0)
		return -1;
	for (int i = 0; i < t->nnodes; i++) {
		const struct st_node *n = &t->nodes[i];

		if (n->kind == N_LOAD && n->base == base && n->off == off &&
		    (!size || n->size == size))
			return i;
	}
	return -1;
}

bool st_is_load_of(const struct symtrace *t, int n, int base, int64_t *off)
{
	if (n < 0 || n >= t->nnodes || base < 0)
		return false;
	if (t->nodes[n].kind != N_LOAD || t->nodes[n].base != base)
		return false;
	*off = t->nodes[n].off;
	return true;
}

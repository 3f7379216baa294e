// SPDX-License-Identifier: GPL-2.0
/*
 * The symbolic register pass of symtrace.h, free of any instruction set:
 * the hash-consed nodes, the events, and the walk over the instructions
 * with GCC's mid-function epilogues.  What an instruction does is its
 * front end's business (symtrace_x86.c, symtrace_arm64.c, behind
 * symtrace_core.h); anything a front end does not model makes the
 * registers it writes unknown, so a wrong guess is never produced by the
 * pass itself, only "don't know".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symtrace_core.h"

const char *const st_arch_name[NR_ST_ARCHS] = { [ST_X86_64] = "x86-64", [ST_ARM64] = "arm64" };

const struct sval ST_UNK = { -1, 0 };

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
	e->src = ST_UNK;
	return e;
}

/* A load or store of size bytes at addr (known). */
static struct st_event *mem_event(struct symtrace *t, const struct st_state *st, uint8_t type,
				  struct sval addr, int size, uint64_t pc)
{
	struct st_event *e = event(t, type, pc, st->ncalls);

	if (e) {
		e->size = (uint8_t)size;
		e->base = addr.node;
		e->off = addr.add;
	}
	return e;
}

int st_ev_load(struct symtrace *t, const struct st_state *st, struct sval addr, int size,
	       uint64_t pc)
{
	struct st_event *e;
	int n;

	if (addr.node < 0)
		return -1;
	n = intern(t, N_LOAD, (uint8_t)size, addr.node, addr.add);
	e = mem_event(t, st, EV_LOAD, addr, size, pc);
	if (e)
		e->node = n;
	return n;
}

struct st_event *st_ev_store(struct symtrace *t, const struct st_state *st, struct sval addr,
			     int size, struct sval src, uint64_t pc)
{
	struct st_event *e;

	if (addr.node < 0)
		return NULL;
	e = mem_event(t, st, EV_STORE, addr, size, pc);
	if (e)
		e->src = src;
	return e;
}

int st_written(csh h, const cs_insn *in, int (*slot_of)(unsigned reg), int out[ST_MAX_WRITES])
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;

	if (cs_regs_access(h, in, rd, &nrd, wr, &nwr) != CS_ERR_OK)
		return -ENOTSUP;
	for (int i = 0; i < nwr && i < ST_MAX_WRITES; i++)
		out[i] = slot_of(wr[i]);
	return nwr < ST_MAX_WRITES ? nwr : ST_MAX_WRITES;
}

void st_ev_cmp(struct symtrace *t, const struct st_state *st, int n, int size, int64_t imm,
	       uint64_t pc)
{
	struct st_event *e;

	if (n >= 0 && (e = event(t, EV_CMP, pc, st->ncalls))) {
		e->size = (uint8_t)size;
		e->node = n;
		e->imm = imm;
	}
}

void st_ev_call(struct symtrace *t, struct st_state *st, const struct st_front *f,
		uint64_t target, uint64_t pc, const uint8_t clobbered[ST_MAX_REGS])
{
	struct st_event *e = event(t, EV_CALL, pc, st->ncalls);

	if (e) {
		e->target = target;
		for (int k = 0; k < NR_ARGS; k++)
			e->args[k] = f->arg[k] >= 0 ? st->reg[f->arg[k]] : ST_UNK;
	}
	st->ncalls++;
	for (int i = 0; i < f->nregs; i++)
		if (clobbered[i])
			st->reg[i] = ST_UNK;
}

void st_ev_div(struct symtrace *t, const struct st_state *st, int k, uint64_t m, uint64_t pc)
{
	struct st_event *e;

	if ((m & 1) && (e = event(t, EV_DIV, pc, st->ncalls))) {
		e->size = (uint8_t)k;
		e->imm = (int64_t)m;
	}
}

void st_forget(struct st_state *st, int r)
{
	st->known[r] = 0;
	st->shift[r] = -1;
}

bool st_sp_at_entry(const struct symtrace *t, const struct st_state *st, int sp)
{
	return !st->reg[sp].add && st->reg[sp].node >= 0 && st->reg[sp].node == st_sp(t);
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

/* A forward jump inside the function: where it lands and the registers it
 * takes there; several jumps to one place keep what they agree on. */
struct st_join {
	uint64_t to;
	struct sval reg[ST_MAX_REGS];
};
#define ST_MAX_JOINS	256	/* more: the rest are not noted */

static bool same(struct sval a, struct sval b)
{
	return a.node == b.node && a.add == b.add;
}

static void note_jump(struct st_join *j, int *nj, uint64_t to, const struct sval *reg)
{
	for (int i = 0; i < *nj; i++)
		if (j[i].to == to) {
			for (int r = 0; r < ST_MAX_REGS; r++)
				if (!same(j[i].reg[r], reg[r]))
					j[i].reg[r] = ST_UNK;
			return;
		}
	if (*nj < ST_MAX_JOINS) {
		j[*nj].to = to;
		memcpy(j[*nj].reg, reg, sizeof(j[*nj].reg));
		(*nj)++;
	}
}

static const struct st_join *join_at(const struct st_join *j, int nj, uint64_t at)
{
	for (int i = 0; i < nj; i++)
		if (j[i].to == at)
			return &j[i];
	return NULL;
}

/*
 * GCC places epilogues (restores of callee-saved registers, then a return
 * or a tail jump) in the middle of a function, and the code after one is
 * reached only by jumps from the body, where the callee-saved registers
 * still hold what the body gave them (an argument kept in %rbx or x19, say).
 * So the pass goes on after an exit with the registers as they were before
 * its epilogue began, as it goes on after any jump with the state of the
 * code before it.  Better, when code that nothing falls into (after an
 * exit or an unconditional jump) is where earlier forward jumps land, it
 * starts with the registers those jumps agree on, their constants
 * forgotten: a register the code between moved (GCC reuses x19 for
 * op + 0x70 in one branch of operator<<(OSDOp)) is not taken for what it
 * holds in another.
 */
int symtrace_run(enum st_arch arch, const uint8_t *code, size_t len, uint64_t vaddr,
		 struct symtrace *t)
{
	static const struct st_front *const fronts[NR_ST_ARCHS] = {
		[ST_X86_64] = &st_front_x86, [ST_ARM64] = &st_front_arm64 };
	const struct st_front *f;
	struct st_state st;
	struct sval body[ST_MAX_REGS];
	struct st_join *joins;
	int nj = 0;
	bool ended = false;
	uint64_t addr = vaddr;
	const uint8_t *p = code;
	size_t left = len;
	cs_insn *in;
	cs_err err;
	csh h;

	if ((unsigned)arch >= NR_ST_ARCHS)
		return -EINVAL;
	f = fronts[arch];
	t->arch = (uint8_t)arch;
	t->stack_args = f->stack_args;
	t->nnodes = t->nev = t->ninsns = t->truncated = 0;
	memset(t->hash, 0, sizeof(t->hash));
	err = cs_open(f->cs_arch, f->cs_mode, &h);
	if (err != CS_ERR_OK)
		return err == CS_ERR_MEM ? -ENOMEM : -ENOTSUP;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	in = cs_malloc(h);
	joins = malloc(ST_MAX_JOINS * sizeof(*joins));
	if (!in || !joins) {
		if (in)
			cs_free(in, 1);
		free(joins);
		cs_close(&h);
		return -ENOMEM;
	}
	memset(&st, 0, sizeof(st));
	memset(st.shift, -1, sizeof(st.shift));
	st.fn_lo = vaddr;
	st.fn_hi = vaddr + len;
	for (int i = 0; i < ST_MAX_REGS; i++)
		st.reg[i] = ST_UNK;
	for (int k = 0; k <= NR_ARGS; k++)
		if (f->arg[k] >= 0)
			st.reg[f->arg[k]] = (struct sval){ intern(t, N_ARG, 8, -1, k), 0 };
	st.reg[f->sp] = (struct sval){ intern(t, N_SP, 8, -1, 0), 0 };

	memcpy(body, st.reg, sizeof(body));
	while (left) {
		const uint64_t at = addr;
		const struct st_join *j;
		int lv;

		if (++t->ninsns > ST_MAX_INSNS) {
			t->truncated = 1;
			break;
		}
		if (!cs_disasm_iter(h, &p, &left, &addr, in)) {
			ended = false;
			if (!f->insn_size || left < f->insn_size)
				break;
			p += f->insn_size;
			left -= f->insn_size;
			addr += f->insn_size;
			for (int i = 0; i < f->nregs; i++)
				if (i != f->sp) {
					st.reg[i] = ST_UNK;
					st_forget(&st, i);
				}
			continue;
		}
		if (ended && (j = join_at(joins, nj, at))) {
			memcpy(st.reg, j->reg, sizeof(st.reg));
			for (int i = 0; i < f->nregs; i++)
				st_forget(&st, i);
			memcpy(body, st.reg, sizeof(body));
		}
		st.jump = 0;
		st.ends = 0;
		lv = f->step(h, t, in, &st);
		if (st.jump > at && st.jump < st.fn_hi)
			note_jump(joins, &nj, st.jump, st.reg);
		ended = st.ends || lv == LV_EXIT;
		switch (lv) {
		case LV_BODY:
			memcpy(body, st.reg, sizeof(body));
			break;
		case LV_EXIT:
			memcpy(st.reg, body, sizeof(body));
			break;
		}
	}
	free(joins);
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

int st_sret(const struct symtrace *t)
{
	return st_arg(t, t->arch == ST_X86_64 ? ARG_0 : ARG_SRET);
}

int st_sret_arg(const struct symtrace *t, int k)
{
	return st_arg(t, t->arch == ST_X86_64 ? k + 1 : k);
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

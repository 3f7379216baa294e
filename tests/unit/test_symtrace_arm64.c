// SPDX-License-Identifier: GPL-2.0
/* symtrace's AArch64 front end (symtrace_arm64.c), one instruction form at
 * a time, on real encodings: each array holds what aarch64-linux-gnu-as
 * and ld -Ttext=0x400000 made of the instruction in its comment (objdump's
 * reading).  Each test says what the derivation's witnesses rely on:
 * which loads, stores, compares and calls the pass records, in terms of
 * the entry state (x0..x7, x8, sp), and what it must not claim to know. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "ceph/symtrace.h"

#define VA	0x400000ull

static struct symtrace *t;

static int setup(void **state)
{
	(void)state;
	t = malloc(sizeof(*t));
	return t ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(t);
	return 0;
}

static void run(const uint8_t *code, size_t len)
{
	assert_int_equal(symtrace_run(ST_ARM64, code, len, VA, t), 0);
	assert_int_equal(t->arch, ST_ARM64);
	assert_int_equal(t->truncated, 0);
	assert_int_equal(t->ninsns, (int)(len / 4));
}
#define RUN(code)	run(code, sizeof(code))

static int arg(int k)
{
	int n = st_arg(t, k);

	assert_true(n >= 0);
	return n;
}

/* Event i is a load/store of size bytes at [base + off]; returns it. */
static const struct st_event *mem_event(int i, int type, int base, int64_t off, int size)
{
	const struct st_event *e;

	assert_true(i < t->nev);
	e = &t->ev[i];
	assert_int_equal(e->type, type);
	assert_int_equal(e->base, base);
	assert_int_equal(e->off, off);
	assert_int_equal(e->size, size);
	return e;
}
#define LOAD(i, base, off, size)	mem_event(i, EV_LOAD, base, off, size)
#define STORE(i, base, off, size)	mem_event(i, EV_STORE, base, off, size)

static void is_cmp(int i, int node, int size, int64_t imm)
{
	assert_true(i < t->nev);
	assert_int_equal(t->ev[i].type, EV_CMP);
	assert_int_equal(t->ev[i].node, node);
	assert_int_equal(t->ev[i].size, size);
	assert_int_equal(t->ev[i].imm, imm);
}

static const struct st_event *is_call(int i, uint64_t target)
{
	assert_true(i < t->nev);
	assert_int_equal(t->ev[i].type, EV_CALL);
	assert_int_equal(t->ev[i].target, target);
	return &t->ev[i];
}

static const uint8_t loads[] = {
	0x3f, 0x23, 0x03, 0xd5,	/* 400000: paciasp */
	0x5f, 0x24, 0x03, 0xd5,	/* 400004: bti c */
	0x02, 0x04, 0x40, 0xf9,	/* 400008: ldr x2, [x0, #8] */
	0x23, 0x0c, 0x41, 0xf8,	/* 40000c: ldr x3, [x1, #16]! */
	0x24, 0x40, 0x40, 0xf8,	/* 400010: ldur x4, [x1, #4] */
	0x05, 0x84, 0x41, 0xf8,	/* 400014: ldr x5, [x0], #24 */
	0x06, 0x04, 0x40, 0xf9,	/* 400018: ldr x6, [x0, #8] */
	0x27, 0xfc, 0xdf, 0xc8,	/* 40001c: ldar x7, [x1] */
};
/* ldr/ldur with an immediate offset, pre-index (the base moves before the
 * access) and post-index (after it), ldar; paciasp and bti change nothing. */
static void loads_and_index(void **state)
{
	(void)state;
	RUN(loads);
	LOAD(0, arg(ARG_0), 8, 8);
	LOAD(1, arg(ARG_1), 16, 8);
	LOAD(2, arg(ARG_1), 20, 8);	/* x1 moved by 16 */
	LOAD(3, arg(ARG_0), 0, 8);	/* post-index: the old x0 */
	LOAD(4, arg(ARG_0), 32, 8);	/* then x0 moved by 24 */
	LOAD(5, arg(ARG_1), 16, 8);
	assert_int_equal(t->nev, 6);
}

static const uint8_t frame[] = {
	0xfd, 0x7b, 0xbd, 0xa9,	/* 400000: stp x29, x30, [sp, #-48]! */
	0xfd, 0x03, 0x00, 0x91,	/* 400004: mov x29, sp */
	0xe0, 0x0b, 0x00, 0xf9,	/* 400008: str x0, [sp, #16] */
	0xe9, 0x1b, 0x40, 0xf9,	/* 40000c: ldr x9, [sp, #48] */
	0xaa, 0x1f, 0x40, 0xf9,	/* 400010: ldr x10, [x29, #56] */
	0x22, 0x0c, 0x41, 0xa9,	/* 400014: ldp x2, x3, [x1, #16] */
	0x02, 0x8d, 0x00, 0x29,	/* 400018: stp w2, w3, [x8, #4] */
	0x01, 0x09, 0x00, 0xf9,	/* 40001c: str x1, [x8, #16] */
	0xfd, 0x7b, 0xc3, 0xa8,	/* 400020: ldp x29, x30, [sp], #48 */
	0xbf, 0x23, 0x03, 0xd5,	/* 400024: autiasp */
	0xc0, 0x03, 0x5f, 0xd6,	/* 400028: ret */
};
/* stp/ldp with pre- and post-index on sp, a frame pointer copied from sp,
 * AAPCS64's stack arguments from the entry sp + 0 (t->stack_args), a
 * result pointer in x8 (st_sret), 32-bit pairs. */
static void frame_and_stack_args(void **state)
{
	int sp;
	(void)state;
	RUN(frame);
	sp = st_sp(t);
	assert_true(sp >= 0);
	assert_int_equal(t->stack_args, 0);
	assert_int_equal(st_sret(t), arg(ARG_SRET));
	assert_int_equal(st_sret_arg(t, 0), arg(ARG_0));
	STORE(0, sp, -48, 8);
	STORE(1, sp, -40, 8);
	assert_int_equal(STORE(2, sp, -32, 8)->src.node, arg(ARG_0));
	LOAD(3, sp, 0, 8);		/* the first stack argument */
	LOAD(4, sp, 8, 8);		/* the second, through x29 */
	LOAD(5, arg(ARG_1), 16, 8);
	LOAD(6, arg(ARG_1), 24, 8);
	STORE(7, st_sret(t), 4, 4);
	STORE(8, st_sret(t), 8, 4);
	assert_int_equal(STORE(9, st_sret(t), 16, 8)->src.node, arg(ARG_1));
	LOAD(10, sp, -48, 8);
	LOAD(11, sp, -40, 8);
	assert_int_equal(t->nev, 12);
}

static const uint8_t widths[] = {
	0x02, 0x0c, 0x80, 0xb9,	/* 400000: ldrsw x2, [x0, #12] */
	0x03, 0x04, 0x40, 0x39,	/* 400004: ldrb w3, [x0, #1] */
	0x04, 0x04, 0x40, 0x79,	/* 400008: ldrh w4, [x0, #2] */
	0x05, 0x0c, 0x80, 0x79,	/* 40000c: ldrsh x5, [x0, #6] */
	0x9f, 0xa8, 0x00, 0x71,	/* 400010: cmp w4, #0x2a */
	0x7f, 0x1c, 0x00, 0x71,	/* 400014: cmp w3, #0x7 */
	0x42, 0x00, 0x00, 0xb4,	/* 400018: cbz x2, 400020 */
	0xbf, 0x08, 0x00, 0xb1,	/* 40001c: cmn x5, #0x2 */
	0x06, 0x06, 0x80, 0x52,	/* 400020: mov w6, #0x30 */
	0x7f, 0x00, 0x06, 0x6b,	/* 400024: cmp w3, w6 */
};
/* Sign and zero extension: the access is the memory's width, not the
 * register's; a compare sees a loaded value at the width it was loaded
 * with (cbz on a 4-byte load: 4 bytes), with an immediate, a register
 * holding a constant, or cmn (the negated immediate). */
static void widths_and_compares(void **state)
{
	int sw, b, h, sh;
	(void)state;
	RUN(widths);
	sw = LOAD(0, arg(ARG_0), 12, 4)->node;
	b = LOAD(1, arg(ARG_0), 1, 1)->node;
	h = LOAD(2, arg(ARG_0), 2, 2)->node;
	sh = LOAD(3, arg(ARG_0), 6, 2)->node;
	is_cmp(4, h, 2, 42);
	is_cmp(5, b, 1, 7);
	is_cmp(6, sw, 4, 0);
	is_cmp(7, sh, 2, -2);
	is_cmp(8, b, 1, 0x30);
	assert_int_equal(t->nev, 9);
}

static const uint8_t consts[] = {
	0x01, 0x00, 0x00, 0xf0,	/* 400000: adrp x1, 403000 */
	0x21, 0x8c, 0x04, 0x91,	/* 400004: add x1, x1, #0x123 */
	0x01, 0x04, 0x00, 0xf9,	/* 400008: str x1, [x0, #8] */
	0x02, 0x00, 0x00, 0xd0,	/* 40000c: adrp x2, 402000 */
	0x42, 0x08, 0x40, 0xf9,	/* 400010: ldr x2, [x2, #16] */
	0x02, 0x08, 0x00, 0xf9,	/* 400014: str x2, [x0, #16] */
	0x63, 0x55, 0x95, 0xd2,	/* 400018: mov x3, #0xaaab */
	0x43, 0x55, 0xb5, 0xf2,	/* 40001c: movk x3, #0xaaaa, lsl #16 */
	0x03, 0x0c, 0x00, 0xf9,	/* 400020: str x3, [x0, #24] */
	0xe4, 0xf3, 0x00, 0xb2,	/* 400024: mov x4, #0x5555555555555555 */
	0x04, 0x10, 0x00, 0xf9,	/* 400028: str x4, [x0, #32] */
	0x1f, 0x14, 0x00, 0xf9,	/* 40002c: str xzr, [x0, #40] */
	0x05, 0x08, 0x80, 0xd2,	/* 400030: mov x5, #0x40 */
	0x06, 0x00, 0x05, 0x8b,	/* 400034: add x6, x0, x5 */
	0xc7, 0x04, 0x40, 0xf9,	/* 400038: ldr x7, [x6, #8] */
	0x09, 0x68, 0x65, 0xf8,	/* 40003c: ldr x9, [x0, x5] */
	0x2a, 0x00, 0x80, 0x92,	/* 400040: mov x10, #0xfffffffffffffffe */
	0x0a, 0x18, 0x00, 0xf9,	/* 400044: str x10, [x0, #48] */
};
/* Constants: adrp + add (a global's address) stored is a known constant;
 * adrp + ldr (a global's contents) is not known and is no load of an
 * argument; movz/movk, orr with xzr, movn, xzr; a register holding a
 * constant used as an addend; a register index is not followed. */
static void constants_and_globals(void **state)
{
	const struct st_event *e;
	(void)state;
	RUN(consts);
	e = STORE(0, arg(ARG_0), 8, 8);
	assert_true(e->has_imm);
	assert_int_equal(e->imm, 0x403123);
	e = STORE(1, arg(ARG_0), 16, 8);
	assert_false(e->has_imm);
	assert_int_equal(e->src.node, -1);
	assert_int_equal(STORE(2, arg(ARG_0), 24, 8)->imm, 0xaaaaaaab);
	assert_int_equal(STORE(3, arg(ARG_0), 32, 8)->imm, 0x5555555555555555);
	e = STORE(4, arg(ARG_0), 40, 8);
	assert_true(e->has_imm);
	assert_int_equal(e->imm, 0);
	LOAD(5, arg(ARG_0), 0x48, 8);
	assert_int_equal(STORE(6, arg(ARG_0), 48, 8)->imm, -2);
	assert_int_equal(t->nev, 7);
}

static const uint8_t calls[] = {
	0xf3, 0x03, 0x00, 0xaa,	/* 400000: mov x19, x0 */
	0x01, 0x40, 0x00, 0x91,	/* 400004: add x1, x0, #0x10 */
	0x00, 0x04, 0x00, 0x94,	/* 400008: bl 401008 */
	0x62, 0x06, 0x40, 0xf9,	/* 40000c: ldr x2, [x19, #8] */
	0x23, 0x04, 0x40, 0xf9,	/* 400010: ldr x3, [x1, #8] */
	0x09, 0x10, 0x40, 0xf9,	/* 400014: ldr x9, [x0, #32] */
	0xe0, 0x03, 0x13, 0xaa,	/* 400018: mov x0, x19 */
	0x62, 0x0e, 0x40, 0xf9,	/* 40001c: ldr x2, [x19, #24] */
	0x40, 0x00, 0x3f, 0xd6,	/* 400020: blr x2 */
};
/* bl (to a PLT stub or a function: the target as encoded), blr (0:
 * indirect), the argument registers at the call, AAPCS64's caller-saved
 * registers forgotten after it and the callee-saved kept. */
static void calls_and_clobbers(void **state)
{
	const struct st_event *e;
	(void)state;
	RUN(calls);
	e = is_call(0, VA + 0x1008);
	assert_int_equal(e->args[ARG_0].node, arg(ARG_0));
	assert_int_equal(e->args[ARG_0].add, 0);
	assert_int_equal(e->args[ARG_1].node, arg(ARG_0));
	assert_int_equal(e->args[ARG_1].add, 0x10);
	assert_int_equal(e->args[ARG_2].node, arg(ARG_2));
	assert_int_equal(e->ncalls, 0);
	assert_int_equal(LOAD(1, arg(ARG_0), 8, 8)->ncalls, 1);	/* x19 kept */
	LOAD(2, arg(ARG_0), 24, 8);		/* not x1, x0: forgotten */
	e = is_call(3, 0);
	assert_int_equal(e->args[ARG_0].node, arg(ARG_0));
	assert_int_equal(e->ncalls, 1);
	assert_int_equal(t->nev, 4);
}

static const uint8_t tail[] = {
	0xfd, 0x7b, 0xbe, 0xa9,	/* 400000: stp x29, x30, [sp, #-32]! */
	0xf3, 0x0b, 0x00, 0xf9,	/* 400004: str x19, [sp, #16] */
	0xf3, 0x03, 0x00, 0xaa,	/* 400008: mov x19, x0 */
	0x81, 0x00, 0x00, 0xb4,	/* 40000c: cbz x1, 40001c */
	0xf3, 0x0b, 0x40, 0xf9,	/* 400010: ldr x19, [sp, #16] */
	0xfd, 0x7b, 0xc2, 0xa8,	/* 400014: ldp x29, x30, [sp], #32 */
	0x00, 0x10, 0x00, 0x14,	/* 400018: b 404018 */
	0x62, 0x06, 0x40, 0xf9,	/* 40001c: ldr x2, [x19, #8] */
	0xff, 0xff, 0xff, 0x17,	/* 400020: b 40001c */
};
/* A mid-function epilogue then b out of the function: a tail call with
 * the arguments of the moment; the code after it resumes with the body's
 * registers (x19 = x0 again, though the epilogue reloaded x19); b inside
 * the function and cbz are control flow, not calls. */
static void tail_call(void **state)
{
	int sp;
	(void)state;
	RUN(tail);
	sp = st_sp(t);
	STORE(0, sp, -32, 8);
	STORE(1, sp, -24, 8);
	STORE(2, sp, -16, 8);
	is_cmp(3, arg(ARG_1), 8, 0);
	LOAD(4, sp, -16, 8);
	LOAD(5, sp, -32, 8);
	LOAD(6, sp, -24, 8);
	assert_int_equal(is_call(7, VA + 0x4018)->args[ARG_0].node, arg(ARG_0));
	LOAD(8, arg(ARG_0), 8, 8);
	assert_int_equal(t->nev, 9);
}

static const uint8_t vtail[] = {
	0x10, 0x00, 0x40, 0xf9,	/* 400000: ldr x16, [x0] */
	0x10, 0x0e, 0x40, 0xf9,	/* 400004: ldr x16, [x16, #24] */
	0x00, 0x02, 0x1f, 0xd6,	/* 400008: br x16 */
};
/* br through a pointer loaded from the object's vtable with sp at entry:
 * a virtual tail call (target 0). */
static void virtual_tail_call(void **state)
{
	int vt;
	(void)state;
	RUN(vtail);
	vt = LOAD(0, arg(ARG_0), 0, 8)->node;
	LOAD(1, vt, 24, 8);
	assert_int_equal(is_call(2, 0)->args[ARG_0].node, arg(ARG_0));
	assert_int_equal(t->nev, 3);
}

static const uint8_t moves[] = {
	0xf4, 0x03, 0x01, 0xaa,	/* 400000: mov x20, x1 */
	0x95, 0x22, 0x03, 0x91,	/* 400004: add x21, x20, #0xc8 */
	0xb5, 0x06, 0x40, 0x91,	/* 400008: add x21, x21, #0x1, lsl #12 */
	0xb6, 0x22, 0x00, 0xd1,	/* 40000c: sub x22, x21, #0x8 */
	0xc3, 0x02, 0x40, 0xf9,	/* 400010: ldr x3, [x22] */
	0xf7, 0x03, 0x01, 0x2a,	/* 400014: mov w23, w1 */
	0xe4, 0x02, 0x40, 0xf9,	/* 400018: ldr x4, [x23] */
	0x00, 0x04, 0xc0, 0x3d,	/* 40001c: ldr q0, [x0, #16] */
	0x20, 0x08, 0x80, 0x3d,	/* 400020: str q0, [x1, #32] */
	0x01, 0x1c, 0xa0, 0x4e,	/* 400024: mov v1.16b, v0.16b */
	0x21, 0x10, 0x80, 0x3d,	/* 400028: str q1, [x1, #64] */
	0xff, 0x03, 0x01, 0xd1,	/* 40002c: sub sp, sp, #0x40 */
	0xe5, 0x27, 0x40, 0xf9,	/* 400030: ldr x5, [sp, #72] */
	0xff, 0x03, 0x01, 0x91,	/* 400034: add sp, sp, #0x40 */
};
/* mov between 64-bit registers copies, add/sub of an immediate (lsl #12
 * too) moves; a 32-bit mov is not a pointer; a 16-byte q load stored
 * whole, or moved first, is a copy of those bytes; a stack argument seen
 * through a moved sp. */
static void moves_and_adds(void **state)
{
	int q;
	(void)state;
	RUN(moves);
	LOAD(0, arg(ARG_1), 0x10c0, 8);
	q = LOAD(1, arg(ARG_0), 16, 16)->node;
	assert_int_equal(STORE(2, arg(ARG_1), 32, 16)->src.node, q);
	assert_int_equal(STORE(3, arg(ARG_1), 64, 16)->src.node, q);
	LOAD(4, st_sp(t), 8, 8);
	assert_int_equal(t->nev, 5);
}

static const uint8_t vsize[] = {
	0x01, 0x08, 0x50, 0xa9,	/* 400000: ldp x1, x2, [x0, #256] */
	0x41, 0x00, 0x01, 0xcb,	/* 400004: sub x1, x2, x1 */
	0x21, 0xfc, 0x43, 0x93,	/* 400008: asr x1, x1, #3 */
	0x62, 0x43, 0x99, 0xd2,	/* 40000c: mov x2, #0xca1b */
	0x62, 0x0d, 0xa5, 0xf2,	/* 400010: movk x2, #0x286b, lsl #16 */
	0xe2, 0x35, 0xd4, 0xf2,	/* 400014: movk x2, #0xa1af, lsl #32 */
	0x82, 0xd7, 0xf0, 0xf2,	/* 400018: movk x2, #0x86bc, lsl #48 */
	0x21, 0x7c, 0x02, 0x9b,	/* 40001c: mul x1, x1, x2 */
};
/* std::vector::size() of 0x98-byte elements: (end - begin) >> 3 times
 * the inverse of 19 modulo 2^64 (EV_DIV). */
static void exact_division(void **state)
{
	(void)state;
	RUN(vsize);
	LOAD(0, arg(ARG_0), 0x100, 8);
	LOAD(1, arg(ARG_0), 0x108, 8);
	assert_int_equal(t->ev[2].type, EV_DIV);
	assert_int_equal(st_exact_divisor(&t->ev[2]), 0x98);
	assert_int_equal(t->nev, 3);
}

static const uint8_t pacret[] = {
	0x3f, 0x23, 0x03, 0xd5,	/* 400000: paciasp */
	0xfd, 0x7b, 0xbe, 0xa9,	/* 400004: stp x29, x30, [sp, #-32]! */
	0xf3, 0x0b, 0x00, 0xf9,	/* 400008: str x19, [sp, #16] */
	0xf3, 0x03, 0x00, 0xaa,	/* 40000c: mov x19, x0 */
	0x06, 0x00, 0x00, 0x14,	/* 400010: b 400028 */
	0xf3, 0x0b, 0x40, 0xf9,	/* 400014: ldr x19, [sp, #16] */
	0xfd, 0x7b, 0xc2, 0xa8,	/* 400018: ldp x29, x30, [sp], #32 */
	0xbf, 0x23, 0x03, 0xd5,	/* 40001c: autiasp */
	0xc0, 0x03, 0x5f, 0xd6,	/* 400020: ret */
	0x62, 0x06, 0x40, 0xf9,	/* 400024: ldr x2, [x19, #8] */
	0x61, 0xff, 0xff, 0xb4,	/* 400028: cbz x1, 400014 */
};

/* autiasp between an epilogue's restores and its ret changes nothing: the
 * code after the exit resumes with the body's registers (x19 = x0), not
 * the reloaded ones. */
static void pac_epilogue(void **state)
{
	int sp;
	(void)state;
	RUN(pacret);
	sp = st_sp(t);
	STORE(0, sp, -32, 8);
	STORE(1, sp, -24, 8);
	STORE(2, sp, -16, 8);
	LOAD(3, sp, -16, 8);
	LOAD(4, sp, -32, 8);
	LOAD(5, sp, -24, 8);
	LOAD(6, arg(ARG_0), 8, 8);
	is_cmp(7, arg(ARG_1), 8, 0);
	assert_int_equal(t->nev, 8);
}

static const uint8_t joins[] = {
	0xf3, 0x03, 0x01, 0xaa,	/* 400000: mov x19, x1 */
	0x80, 0x00, 0x00, 0xb4,	/* 400004: cbz x0, 400014 */
	0x73, 0xc2, 0x01, 0x91,	/* 400008: add x19, x19, #0x70 */
	0x62, 0x06, 0x40, 0xf9,	/* 40000c: ldr x2, [x19, #8] */
	0x02, 0x00, 0x00, 0x14,	/* 400010: b 400018 */
	0x63, 0x1a, 0x40, 0x39,	/* 400014: ldrb w3, [x19, #6] */
	0xf4, 0x03, 0x01, 0xaa,	/* 400018: mov x20, x1 */
	0x82, 0x00, 0x00, 0xb4,	/* 40001c: cbz x2, 40002c */
	0x94, 0xc2, 0x01, 0x91,	/* 400020: add x20, x20, #0x70 */
	0x42, 0x00, 0x18, 0x36,	/* 400024: tbz w2, #3, 40002c */
	0xc0, 0x03, 0x5f, 0xd6,	/* 400028: ret */
	0x84, 0x02, 0x40, 0xf9,	/* 40002c: ldr x4, [x20] */
	0x25, 0x08, 0x40, 0xf9,	/* 400030: ldr x5, [x1, #16] */
};

/* Code nothing falls into (after b, ret) where forward jumps (cbz, tbz)
 * land starts with the registers those jumps had: x19 is x1 there, not
 * x1 + 0x70 as the code between made it (GCC's operator<<(OSDOp) on
 * arm64); two jumps that disagree on x20 leave it unknown, and agree on
 * x1. */
static void jumps_join(void **state)
{
	(void)state;
	RUN(joins);
	is_cmp(0, arg(ARG_0), 8, 0);
	LOAD(1, arg(ARG_1), 0x78, 8);
	LOAD(2, arg(ARG_1), 6, 1);
	is_cmp(3, arg(ARG_2), 8, 0);	/* x2 as the cbz found it */
	LOAD(4, arg(ARG_1), 16, 8);	/* no load through x20 before it */
	assert_int_equal(t->nev, 5);
}

static const uint8_t undecodable[] = {
	0xf3, 0x03, 0x00, 0xaa,	/* 400000: mov x19, x0 */
	0x00, 0x00, 0x00, 0x00,	/* 400004: udf #0 */
	0x62, 0x06, 0x40, 0xf9,	/* 400008: ldr x2, [x19, #8] */
	0xe3, 0x07, 0x40, 0xf9,	/* 40000c: ldr x3, [sp, #8] */
};
/* An instruction capstone does not decode is skipped, every register but
 * sp forgotten: nothing is claimed of x19 after it. */
static void undecodable_word(void **state)
{
	(void)state;
	RUN(undecodable);
	LOAD(0, st_sp(t), 8, 8);
	assert_int_equal(t->nev, 1);
}

int run_symtrace_arm64_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads_and_index),
		cmocka_unit_test(frame_and_stack_args),
		cmocka_unit_test(widths_and_compares),
		cmocka_unit_test(constants_and_globals),
		cmocka_unit_test(calls_and_clobbers),
		cmocka_unit_test(tail_call),
		cmocka_unit_test(virtual_tail_call),
		cmocka_unit_test(moves_and_adds),
		cmocka_unit_test(exact_division),
		cmocka_unit_test(pac_epilogue),
		cmocka_unit_test(jumps_join),
		cmocka_unit_test(undecodable_word),
	};
	return cmocka_run_group_tests_name("symtrace_arm64", tests, setup, teardown);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The variants of the BPF object the loader loads: the options and kernel
 * fallbacks it sets in .rodata.  Both tests that load the object by
 * variant take them from here: tests/stack/stack_depth.c and
 * tests/verifier/verify_arch.c.  Include after the skeleton.
 */
#ifndef OSDHIST_TEST_VARIANTS_H
#define OSDHIST_TEST_VARIANTS_H

#include <stdarg.h>
#include <stdbool.h>

struct variant {
	const char *name;
	bool pool, phases, op_types, slow, tai, loop;
};

static const struct variant variants[] = {
	{ "default", false, false, true, false, true, true },
	{ "no-op-types", false, false, false, false, true, true },
	{ "slowest", false, false, true, true, true, true },
	{ "-P --phases --slowest", true, true, true, true, true, true },
	{ "-P --phases --slowest, no tai, no bpf_loop", true, true, true, true, false, false },
};

#define NR_VARIANTS	(sizeof(variants) / sizeof(variants[0]))

/* v's .rodata, as loader/tracer.c sets it, into the opened skeleton */
static inline void variant_set(struct osdhist_bpf *s, const struct variant *v)
{
	s->rodata->split_pool = v->pool;
	s->rodata->phases = v->phases;
	s->rodata->start_probe = v->pool || v->phases;
	s->rodata->op_types = v->op_types;
	s->rodata->slow_k = v->slow ? SLOW_K_DEFAULT : 0;
	s->rodata->have_tai = v->tai;
	s->rodata->have_loop = v->loop;
}

/* libbpf's messages: the tests print the verifier's own */
static inline int variant_quiet(enum libbpf_print_level l, const char *f, va_list a)
{
	(void)l, (void)f, (void)a;
	return 0;
}

#endif /* OSDHIST_TEST_VARIANTS_H */

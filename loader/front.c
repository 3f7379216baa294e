// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU front rows (maps/osdhist.h): the loader alone decides which
 * key has a row.  A row is given only when it is zero on every CPU, and
 * taken back only from a process that has exited, whose ops no program
 * can still be adding: so an op is in its key's row or in the tail, never
 * lost and never in a row of another key.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "osdhist.h"
#include "front.h"

__u32 front_rows_for(size_t bytes, size_t value_size, int nmaps, int ncpus, __u32 max)
{
	size_t per_row = value_size * (size_t)(nmaps > 0 ? nmaps : 1) *
			 (size_t)(ncpus > 0 ? ncpus : 1);
	size_t n = bytes / per_row;

	return n < 1 ? 1 : n > max ? max : (__u32)n;
}

__u64 front_hist_word(const void *key)
{
	const struct hist_key *k = key;

	return osdhist_front_key(k->tgid, k->cls, k->optype, k->pool);
}

__u64 front_opc_word(const void *key)
{
	return osdhist_front_key(*(const __u32 *)key, FRONT_CLS_OPC, 0, -1);
}

int front_init(struct front *f, volatile __u64 *table, __u64 (*word)(const void *key),
	       int fd0, int fd1, __u32 key_size, __u32 n64, __u32 n32, __u32 nrows,
	       int ncpus)
{
	size_t counters = 2 * (size_t)nrows * n32;

	memset(f, 0, sizeof(*f));
	f->table = table;
	f->word = word;
	f->rows_fd[0] = fd0;
	f->rows_fd[1] = fd1;
	f->key_size = key_size;
	f->n64 = n64;
	f->n32 = n32;
	/* the kernel copies each CPU's value 8-byte aligned */
	f->value_size = (8 * n64 + 4 * n32 + 7) / 8 * 8;
	f->nrows = nrows;
	f->ncpus = ncpus;
	if (key_size > sizeof(f->cand->key))
		return -EINVAL;
	f->used = calloc(nrows, sizeof(*f->used));
	f->keyed = calloc(nrows, sizeof(*f->keyed));
	f->keys = calloc(nrows, sizeof(*f->keys));
	f->buf = malloc((size_t)ncpus * f->value_size);
	f->zeros = calloc(ncpus, f->value_size);
	f->last = calloc(counters, sizeof(*f->last));
	f->sum32 = calloc(n32 ? n32 : 1, sizeof(*f->sum32));
	f->acc = calloc(counters, sizeof(*f->acc));
	if (!f->used || !f->keyed || !f->keys || !f->buf || !f->zeros || !f->last ||
	    !f->sum32 || !f->acc) {
		front_free(f);
		return -ENOMEM;
	}
	return 0;
}

void front_free(struct front *f)
{
	free(f->used);
	free(f->keyed);
	free(f->keys);
	free(f->buf);
	free(f->zeros);
	free(f->last);
	free(f->sum32);
	free(f->acc);
	free(f->cand);
	memset(f, 0, sizeof(*f));
}

void front_fold(struct front *f, int i, __u32 row, const void *cpus, __u64 *out)
{
	size_t at = ((size_t)(i & 1) * f->nrows + row) * f->n32;
	__u32 *restrict sum = f->sum32, n32 = f->n32, n64 = f->n64;
	const char *b = cpus;

	/* restrict, and each CPU's words in a loop of their own: the
	 * compiler adds them 4 or 8 at a time (a row is 470 words a CPU) */
	memset(out, 0, n64 * sizeof(*out));
	memset(sum, 0, n32 * sizeof(*sum));
	for (int c = 0; c < f->ncpus; c++, b += f->value_size) {
		const __u64 *restrict w64 = (const __u64 *)b;
		const __u32 *restrict w32 = (const __u32 *)(b + 8 * n64);

		for (__u32 w = 0; w < n64; w++)
			out[w] += w64[w];
		for (__u32 w = 0; w < n32; w++)
			sum[w] += w32[w];	/* mod 2^32 */
	}
	for (__u32 w = 0; w < n32; w++) {
		f->acc[at + w] += (__u32)(sum[w] - f->last[at + w]);
		f->last[at + w] = sum[w];
		out[n64 + w] = f->acc[at + w];
	}
}

int front_sum(struct front *f, int i, __u32 row, __u64 *out)
{
	if (row >= f->nrows || f->rows_fd[i & 1] < 0)
		return -EINVAL;
	if (bpf_map_lookup_elem(f->rows_fd[i & 1], &row, f->buf))
		return -errno;
	front_fold(f, i, row, f->buf, out);
	return 0;
}

int front_candidate(struct front *f, const void *key, __u64 ops)
{
	if (f->in_use == f->nrows || !ops)
		return 0;	/* no row to give: nothing to keep */
	if (f->ncand == f->cand_cap) {
		size_t cap = f->cand_cap ? 2 * f->cand_cap : 16;
		void *p = realloc(f->cand, cap * sizeof(*f->cand));

		if (!p)
			return -ENOMEM;
		f->cand = p;
		f->cand_cap = cap;
	}
	memset(&f->cand[f->ncand], 0, sizeof(*f->cand));
	f->cand[f->ncand].ops = ops;
	memcpy(f->cand[f->ncand].key, key, f->key_size);
	f->ncand++;
	return 0;
}

static int busiest_first(const void *a, const void *b)
{
	const struct front_cand *x = a, *y = b;

	return (x->ops < y->ops) - (x->ops > y->ops);
}

/* The way of the table holding word (with any row), or -ENOENT. */
static long way_of(const struct front *f, __u64 word)
{
	size_t set = (size_t)osdhist_front_set(word) * FRONT_WAYS;

	for (size_t i = set; i < set + FRONT_WAYS; i++)
		if (word && (f->table[i] & ~FRONT_ROW_MASK) == word)
			return (long)i;
	return -ENOENT;
}

/* A free way of word's set, or -ENOSPC: the set is full. */
static long free_way(const struct front *f, __u64 word)
{
	size_t set = (size_t)osdhist_front_set(word) * FRONT_WAYS;

	for (size_t i = set; i < set + FRONT_WAYS; i++)
		if (!f->table[i])
			return (long)i;
	return -ENOSPC;
}

int front_promote(struct front *f)
{
	__u32 row = 0;
	int n = 0;

	qsort(f->cand, f->ncand, sizeof(*f->cand), busiest_first);
	for (size_t i = 0; f->table && i < f->ncand && f->in_use < f->nrows; i++) {
		__u64 word = f->word(f->cand[i].key);
		long way;

		if (!word || way_of(f, word) >= 0)
			continue;	/* cannot have one, or has one */
		way = free_way(f, word);
		if (way < 0)
			continue;	/* its set is full: it stays in the tail */
		while (row < f->nrows && f->used[row])
			row++;
		if (row == f->nrows)
			break;
		/* the row is zero on every CPU: never used, or retired; one
		 * store, which a program reads whole */
		__atomic_store_n(&f->table[way], word | row, __ATOMIC_RELEASE);
		memcpy(f->keys[row], f->cand[i].key, f->key_size);
		f->used[row] = f->keyed[row] = true;
		f->in_use++;
		n++;
	}
	f->ncand = 0;
	return n;
}

const void *front_key(const struct front *f, __u32 row)
{
	return row < f->nrows && f->keyed[row] ? f->keys[row] : NULL;
}

void front_retire(struct front *f, __u32 row)
{
	long way;

	if (row >= f->nrows || !f->keyed[row])
		return;
	way = way_of(f, f->word(f->keys[row]));
	if (way >= 0)
		__atomic_store_n(&f->table[way], 0, __ATOMIC_RELEASE);
	f->keyed[row] = false;
	for (int i = 0; i < 2; i++) {
		size_t at = ((size_t)i * f->nrows + row) * f->n32;

		if (f->rows_fd[i] >= 0 &&
		    bpf_map_update_elem(f->rows_fd[i], &row, f->zeros, BPF_ANY))
			return;	/* not zero: never given again */
		memset(f->last + at, 0, f->n32 * sizeof(*f->last));
		memset(f->acc + at, 0, f->n32 * sizeof(*f->acc));
	}
	f->used[row] = false;
	f->in_use--;
}

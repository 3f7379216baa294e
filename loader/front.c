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

int front_init(struct front *f, int slots_fd, int fd0, int fd1, __u32 key_size,
	       __u32 n64, __u32 n32, __u32 nrows, int ncpus)
{
	size_t counters = 2 * (size_t)nrows * n32;

	memset(f, 0, sizeof(*f));
	f->slots_fd = slots_fd;
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
	f->buf = malloc((size_t)ncpus * f->value_size);
	f->zeros = calloc(ncpus, f->value_size);
	f->last = calloc(counters, sizeof(*f->last));
	f->sum32 = calloc(n32 ? n32 : 1, sizeof(*f->sum32));
	f->acc = calloc(counters, sizeof(*f->acc));
	if (!f->used || !f->buf || !f->zeros || !f->last || !f->sum32 || !f->acc) {
		front_free(f);
		return -ENOMEM;
	}
	return 0;
}

void front_free(struct front *f)
{
	free(f->used);
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

int front_promote(struct front *f)
{
	__u32 row = 0, have;
	int n = 0;

	qsort(f->cand, f->ncand, sizeof(*f->cand), busiest_first);
	for (size_t i = 0; i < f->ncand && f->in_use < f->nrows; i++) {
		if (!bpf_map_lookup_elem(f->slots_fd, f->cand[i].key, &have))
			continue;	/* has one */
		while (row < f->nrows && f->used[row])
			row++;
		if (row == f->nrows)
			break;
		/* the row is zero on every CPU: never used, or retired */
		if (bpf_map_update_elem(f->slots_fd, f->cand[i].key, &row, BPF_NOEXIST))
			continue;
		f->used[row] = true;
		f->in_use++;
		n++;
	}
	f->ncand = 0;
	return n;
}

void front_retire(struct front *f, const void *key, __u32 row)
{
	if (row >= f->nrows || !f->used[row])
		return;
	bpf_map_delete_elem(f->slots_fd, key);
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

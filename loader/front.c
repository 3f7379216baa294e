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

__u32 front_rows_for(size_t value_size, int nmaps, int ncpus, __u32 max)
{
	size_t per_row = value_size * (size_t)(nmaps > 0 ? nmaps : 1) *
			 (size_t)(ncpus > 0 ? ncpus : 1);
	size_t n = FRONT_BYTES / per_row;

	return n < 1 ? 1 : n > max ? max : (__u32)n;
}

int front_init(struct front *f, int slots_fd, int fd0, int fd1, __u32 key_size,
	       __u32 value_size, __u32 nrows, int ncpus)
{
	memset(f, 0, sizeof(*f));
	f->slots_fd = slots_fd;
	f->rows_fd[0] = fd0;
	f->rows_fd[1] = fd1;
	f->key_size = key_size;
	f->value_size = value_size;
	f->nrows = nrows;
	f->ncpus = ncpus;
	if (key_size > sizeof(f->cand->key) || value_size % 8)
		return -EINVAL;
	f->used = calloc(nrows, sizeof(*f->used));
	f->buf = malloc((size_t)ncpus * value_size);
	f->zeros = calloc(ncpus, value_size);
	if (!f->used || !f->buf || !f->zeros) {
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
	free(f->cand);
	memset(f, 0, sizeof(*f));
}

int front_sum(struct front *f, int i, __u32 row, __u64 *out)
{
	size_t words = f->value_size / 8;

	if (row >= f->nrows || f->rows_fd[i & 1] < 0)
		return -EINVAL;
	if (bpf_map_lookup_elem(f->rows_fd[i & 1], &row, f->buf))
		return -errno;
	memcpy(out, f->buf, f->value_size);
	for (int c = 1; c < f->ncpus; c++) {
		const __u64 *v = f->buf + (size_t)c * words;

		for (size_t w = 0; w < words; w++)
			out[w] += v[w];
	}
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
	for (int i = 0; i < 2; i++)
		if (f->rows_fd[i] >= 0 &&
		    bpf_map_update_elem(f->rows_fd[i], &row, f->zeros, BPF_ANY))
			return;	/* not zero: never given again */
	f->used[row] = false;
	f->in_use--;
}

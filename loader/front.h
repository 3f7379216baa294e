/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_FRONT_H
#define OSDHIST_FRONT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/*
 * The per-CPU front rows of one kind of key (maps/osdhist.h): which keys
 * have a row, the rows summed over the CPUs, a busy tail key given a free
 * row, a dead process's row read a last time and freed.  A row's value
 * (struct front_pair, front_opc) is n64 u64 words, summed over the CPUs,
 * then n32 u32 counters, summed mod 2^32 and accumulated here (the
 * difference from the last read): read out as n64 + n32 u64 words, as
 * the tail's value (struct hist_pair, op_counts) begins.
 */
struct front {
	/* key -> row: bpf/'s front table (maps/osdhist.h), both fronts' */
	volatile __u64 *table;	/* FRONT_SETS * FRONT_WAYS words */
	__u64 (*word)(const void *key);	/* a key's word, without its row */
	int rows_fd[2];		/* per-CPU rows; [1]: the same rows' second map, or -1 */
	__u32 key_size, value_size, nrows, in_use;
	__u32 n64, n32;		/* the value's layout */
	int ncpus;		/* possible CPUs: a per-CPU value's copies */
	bool *used;		/* [nrows]: not free (a row that could not be
				 * zeroed stays used, without a key) */
	bool *keyed;		/* [nrows]: has a key, keys[row] */
	unsigned char (*keys)[32];
	void *buf;		/* one lookup: ncpus values */
	void *zeros;		/* ncpus values of zeros */
	__u32 *last, *sum32;	/* [2][nrows][n32]: the sums at the last read */
	__u64 *acc;		/* [2][nrows][n32]: the counters so far */
	/* candidates for a row, gathered over a snapshot */
	struct front_cand { __u64 ops; unsigned char key[32]; } *cand;
	size_t ncand, cand_cap;
};

/* Rows for values of value_size bytes, kept in nmaps per-CPU maps over
 * ncpus possible CPUs, within bytes of copies (at most max, at least 1). */
__u32 front_rows_for(size_t bytes, size_t value_size, int nmaps, int ncpus, __u32 max);

/* 0, or -ENOMEM; fd1 < 0: one map of rows.  value_size = 8 n64 + 4 n32.
 * word: front_hist_word (keys struct hist_key) or front_opc_word (__u32
 * tgid). */
int front_init(struct front *f, volatile __u64 *table, __u64 (*word)(const void *key),
	       int fd0, int fd1, __u32 key_size, __u32 n64, __u32 n32, __u32 nrows,
	       int ncpus);
void front_free(struct front *f);

/* out[n64 + n32] = row's value in map i (0 or 1), over the CPUs and
 * since the row was given; 0 or -errno. */
int front_sum(struct front *f, int i, __u32 row, __u64 *out);
/* ... from cpus, ncpus values as a lookup gives them (front_sum's own
 * part, without the map). */
void front_fold(struct front *f, int i, __u32 row, const void *cpus, __u64 *out);

/* A tail key that counted ops (ops: how many), for a row at the next
 * front_promote().  -ENOMEM: not kept (it stays in the tail). */
int front_candidate(struct front *f, const void *key, __u64 ops);

/* Gives free rows to the candidates, the busiest first, and forgets them;
 * returns how many got one. */
int front_promote(struct front *f);

/* The key of row, or NULL if the row is free. */
const void *front_key(const struct front *f, __u32 row);

/* A row whose process has exited, read a last time: its way in the table
 * is cleared, the row zeroed and freed. */
void front_retire(struct front *f, __u32 row);

/* Keys' words in the front table (maps/osdhist.h), 0 if they cannot have
 * a row: a struct hist_key's, a process's op-code counters' (__u32). */
__u64 front_hist_word(const void *key);
__u64 front_opc_word(const void *key);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * The heatmap's data (heatmap.h): rings of intervals per (OSD, class) and
 * the grid cut from them.  A column keeps only its occupied buckets (a few
 * dozen of the NR_BUCKETS), so --top can keep every OSD's and class's
 * last HEATMAP_COLS intervals for a host of dozens of OSDs in a few MB.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "heatmap.h"

static int slot(__u64 seq)
{
	return (int)((seq - 1) % HEATMAP_COLS);
}

void heatmap_next(struct heatmap *m, double end, double len)
{
	m->ncols++;
	m->end[slot(m->ncols)] = end;
	m->len[slot(m->ncols)] = len;
}

static struct heatmap_series *find(const struct heatmap *m, int osd, __u8 cls)
{
	for (int i = 0; i < m->ns; i++)
		if (m->s[i]->osd == osd && m->s[i]->cls == cls)
			return m->s[i];
	return NULL;
}

static struct heatmap_series *find_or_add(struct heatmap *m, int osd, __u8 cls)
{
	struct heatmap_series *s = find(m, osd, cls);

	if (s)
		return s;
	if (m->ns == m->cap) {
		int cap = m->cap ? 2 * m->cap : 16;
		void *p = realloc(m->s, cap * sizeof(*m->s));

		if (!p)
			return NULL;
		m->s = p, m->cap = cap;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->osd = osd, s->cls = cls;
	return m->s[m->ns++] = s;
}

int heatmap_set(struct heatmap *m, int osd, __u8 cls, const struct hist *h)
{
	struct heatmap_series *s;
	struct heatmap_col *c;
	int lo = 0, hi = -1;

	if (!m->ncols)
		return 0;	/* no interval yet to put it in */
	for (int i = 0; i < (int)NR_BUCKETS; i++)
		if (h->buckets[i]) {
			if (hi < 0)
				lo = i;
			hi = i;
		}
	s = find_or_add(m, osd, cls);
	if (!s)
		return -ENOMEM;
	c = &s->col[slot(m->ncols)];
	free(c->count);		/* the interval HEATMAP_COLS ago */
	*c = (struct heatmap_col){ 0 };
	s->seq[slot(m->ncols)] = m->ncols;
	if (hi < 0)
		return 0;
	c->count = malloc((hi - lo + 1) * sizeof(*c->count));
	if (!c->count)
		return -ENOMEM;
	memcpy(c->count, &h->buckets[lo], (hi - lo + 1) * sizeof(*c->count));
	c->lo = lo, c->n = hi - lo + 1;
	return 0;
}

void heatmap_free(struct heatmap *m)
{
	for (int i = 0; i < m->ns; i++) {
		for (int k = 0; k < HEATMAP_COLS; k++)
			free(m->s[i]->col[k].count);
		free(m->s[i]);
	}
	free(m->s);
	*m = (struct heatmap){ 0 };
}

/* Interval seq of s, or NULL when it had no op (or is gone from the ring). */
static const struct heatmap_col *col_of(const struct heatmap_series *s, __u64 seq)
{
	const struct heatmap_col *c = &s->col[slot(seq)];

	return s->seq[slot(seq)] == seq && c->n ? c : NULL;
}

/* A bucket's place counted so that bucket 1, 256 ns, is a multiple of
 * HIST_SUB: a group of 8 (or 16, ...) then starts at a power of two. */
static int place(int b)
{
	return b + HIST_SUB - 1;
}

int heatmap_row_first(const struct heatmap_grid *g, int r)
{
	int first = (place(g->lo) / g->group + r) * g->group - (HIST_SUB - 1);

	if (r >= g->nrows)
		return NR_BUCKETS;
	return first < 0 ? 0 : first;
}

int heatmap_grid(const struct heatmap *m, int osd, __u8 cls, int width, int height,
		 struct heatmap_grid *g)
{
	const struct heatmap_series *s = find(m, osd, cls);
	int lo = NR_BUCKETS, hi = -1;

	*g = (struct heatmap_grid){ .group = 1 };
	if (width < 1 || height < 1)
		return -EINVAL;
	g->ncols = m->ncols < (__u64)width ? (int)m->ncols : width;
	if (g->ncols > HEATMAP_COLS)
		g->ncols = HEATMAP_COLS;
	g->first = m->ncols - g->ncols + 1;
	for (int x = 0; s && x < g->ncols; x++) {
		const struct heatmap_col *c = col_of(s, g->first + x);

		if (c && c->lo < lo)
			lo = c->lo;
		if (c && c->lo + c->n - 1 > hi)
			hi = c->lo + c->n - 1;
	}
	if (hi < 0)
		return 0;	/* nrows 0: no op */
	while (place(hi) / g->group - place(lo) / g->group + 1 > height)
		g->group *= 2;
	g->lo = lo;
	g->nrows = place(hi) / g->group - place(lo) / g->group + 1;
	g->cell = calloc((size_t)g->nrows * g->ncols, sizeof(*g->cell));
	if (!g->cell)
		return -ENOMEM;
	for (int x = 0; x < g->ncols; x++) {
		const struct heatmap_col *c = col_of(s, g->first + x);

		for (int i = 0; c && i < c->n; i++) {
			int r = place(c->lo + i) / g->group - place(lo) / g->group;
			__u64 *cell = &g->cell[r * g->ncols + x];

			*cell += c->count[i];
			if (*cell > g->max)
				g->max = *cell;
		}
	}
	return 0;
}

char heatmap_shade(__u64 count, __u64 max)
{
	static const char shades[] = HEATMAP_SHADES;
	unsigned __int128 step;

	if (!count || !max)
		return shades[0];
	step = 1 + (unsigned __int128)count * (sizeof(shades) - 2 - 1) / max;
	return shades[step > sizeof(shades) - 2 ? sizeof(shades) - 2 : (size_t)step];
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_HEATMAP_H
#define OSDHIST_HEATMAP_H

/*
 * A latency heatmap (Brendan Gregg's): time across, one column per
 * snapshot interval; latency up, the histogram's buckets grouped into rows
 * to fit a height; each cell shaded by its ops.  Pure: a ring of the last
 * HEATMAP_COLS intervals' bucket counts per (OSD, class), and the grid cut
 * from it; no terminal, no clock (the caller gives each interval's end),
 * so every cell is unit-tested.  --heatmap prints it (render_heatmap.c),
 * --top draws it (top.c).
 */
#include <stdio.h>
#include <linux/types.h>
#include "osdhist.h"

#define HEATMAP_COLS	256	/* intervals kept: a wide terminal's columns */

/* One interval of one series: its buckets lo .. lo + n - 1 (the others
 * were 0); n == 0, no op. */
struct heatmap_col {
	__u16 lo, n;
	__u64 *count;
};

struct heatmap_series {
	int osd;		/* its key (report/clusters.h) */
	__u8 cls;
	__u64 seq[HEATMAP_COLS];	/* the interval each slot holds (1-based) */
	struct heatmap_col col[HEATMAP_COLS];
};

struct heatmap {
	__u64 ncols;		/* intervals so far: the newest is ncols */
	double end[HEATMAP_COLS];	/* unix seconds each interval ended */
	double len[HEATMAP_COLS];	/* ... and how long it lasted */
	struct heatmap_series **s;
	int ns, cap;
};

/* A new interval for every series, ending at end (unix s), len s long:
 * empty until heatmap_set fills a series' buckets. */
void heatmap_next(struct heatmap *m, double end, double len);
/* The newest interval's buckets of (osd, cls): h's (replaced, not added).
 * 0, or -ENOMEM (the interval stays empty for it). */
int heatmap_set(struct heatmap *m, int osd, __u8 cls, const struct hist *h);
void heatmap_free(struct heatmap *m);

/* The grid of (osd, cls) over the last ncols intervals (at most width),
 * rows of group buckets each (a power of two, the smallest that fits the
 * buckets any of those intervals holds in height rows), aligned so that a
 * row of 8 is one power of two.  Row 0 is the lowest latency. */
struct heatmap_grid {
	int ncols, nrows, group;
	__u64 first;		/* the interval of column 0 (1-based) */
	int lo;			/* bucket index of row 0's first bucket */
	__u64 max;		/* the fullest cell's ops */
	__u64 *cell;		/* nrows * ncols: cell[row * ncols + col] */
};
/* 0, or -ENOMEM; -EINVAL for width or height < 1.  nrows == 0: no op of
 * (osd, cls) in those intervals.  Free g->cell. */
int heatmap_grid(const struct heatmap *m, int osd, __u8 cls, int width, int height,
		 struct heatmap_grid *g);
/* The first bucket of row r, and the first above it (NR_BUCKETS at the
 * top): its latencies are [osdhist_bucket_lower(first), that of next). */
int heatmap_row_first(const struct heatmap_grid *g, int r);
/* A cell's shade in HEATMAP_SHADES: ' ' for none, then 9 steps of
 * count / max; any op at all shows, the fullest cells as '@'. */
#define HEATMAP_SHADES	" .:-=+*#%@"
char heatmap_shade(__u64 count, __u64 max);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_RENDER_H
#define OSDHIST_RENDER_H

/* The report model (report/report.h) as text, as JSON lines or as a table
 * on f: one snapshot each call. */
#include <stdbool.h>
#include <stdio.h>
#include "report/report.h"

void render_text(FILE *f, const struct report *r, bool timestamp, bool millis);
void render_json(FILE *f, const struct report *r);

/* The table (--table): the health line and the self-check's state, then
 * one row per OSD and class that completed ops in the interval (every
 * pool summed): ops, ops/s, mean, p50, p90, p99, p99.9, max, failed (the
 * class error's ops), the queue phase's p99, and the slowest op of the
 * OSD and class with its object name.  Columns as wide as their widest
 * cell; rows at most width columns, the object names cut to fit (a line
 * says what was cut).  Rows in the order sort says, largest first. */
enum table_sort { TABLE_BY_OSD, TABLE_BY_P99, TABLE_BY_OPS, TABLE_BY_FAILED,
		  NR_TABLE_SORTS };
extern const char *const table_sort_name[NR_TABLE_SORTS];	/* "osd" ... */
/* The sort --sort names ("osd", "p99", "ops" or "ops/s", "failed"), or
 * -EINVAL. */
int table_sort_parse(const char *name);

#define TABLE_WIDTH	120	/* what a terminal of today shows, at least */
struct table_opts {
	enum table_sort sort;
	int width;		/* columns, TABLE_WIDTH */
	bool timestamp;		/* -T */
};
void render_table(FILE *f, const struct report *r, const struct table_opts *o);

/* The latency heatmap (heatmap.h) of one OSD id and class (--heatmap):
 * every call adds r's interval to the rings it keeps and prints the grid
 * of the last intervals that fit width, height rows at most. */
struct heatmap_opts {
	int osd;		/* an OSD id: its series of every cluster summed */
	__u8 cls;
	int width, height;
};
#define HEATMAP_HEIGHT	24	/* rows of the text's grid, at most */
#define HEATMAP_FRAME_W	11	/* a row's label and its two bars */
#define HEATMAP_TEXT_COLS	(TABLE_WIDTH - HEATMAP_FRAME_W)	/* its columns */
void render_heatmap(FILE *f, const struct report *r, const struct heatmap_opts *o);
/* The grid of (osd, cls), labelled with name, within width columns:
 * a title with its last interval's end, one line per row (the highest
 * latency first, each labelled with its lowest), a time axis and the
 * shades' key.  --top draws these lines. */
struct heatmap;
void heatmap_print(FILE *f, const struct heatmap *m, int osd, __u8 cls,
		   const char *name, int width, int height);

#endif

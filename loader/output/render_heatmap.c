// SPDX-License-Identifier: GPL-2.0
/*
 * The heatmap as text (render.h): --heatmap prints it every interval, and
 * --top draws the same lines.  The grid itself is heatmap.c's.
 *
 *     osd.3 write: latency heatmap, 9 intervals to 2026-12-07 18:02:11.234 (1.00 s the last)
 *       16.8ms |      @@  |
 *       131us  |@@@@@   @@|
 *              +----------+
 *               18:02:02  18:02:11
 *     shade " .:-=+*#%@" by ops in a cell, '@' the fullest: 123 ops
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "heatmap.h"
#include "render.h"
#include "report/clusters.h"
#include "report/names.h"
#include "table.h"
#include "text_lines.h"

#define LABEL_W		(HEATMAP_FRAME_W - 3)	/* "16.8ms", ">=137s"; " |" ... "|" */

static void row_label(char out[TABLE_CELL_MAX], const struct heatmap_grid *g, int r)
{
	int b = heatmap_row_first(g, r);

	if (b == (int)NR_BUCKETS - 1) {
		char l[TABLE_CELL_MAX];

		table_lat(l, osdhist_bucket_lower(b));
		snprintf(out, TABLE_CELL_MAX, ">=%.16s", l);	/* 137s and up */
	} else {
		table_lat(out, osdhist_bucket_lower(b));
	}
}

void heatmap_print(FILE *f, const struct heatmap *m, int osd, __u8 cls,
		   const char *name, int width, int height)
{
	struct heatmap_grid g;
	char t[48], l[TABLE_CELL_MAX];
	int slot = (int)((m->ncols + HEATMAP_COLS - 1) % HEATMAP_COLS);

	if (!m->ncols) {
		fprintf(f, "%s %s: latency heatmap, waiting for the first interval\n",
			name, class_name[cls]);
		return;
	}
	if (heatmap_grid(m, osd, cls, width - HEATMAP_FRAME_W, height, &g) < 0) {
		fprintf(f, "%s %s: latency heatmap: out of memory\n", name, class_name[cls]);
		return;
	}
	text_clock(t, sizeof(t), m->end[slot], true);
	fprintf(f, "%s %s: latency heatmap, %d interval%s to %s (%.2f s the last)\n",
		name, class_name[cls], g.ncols, g.ncols == 1 ? "" : "s", t, m->len[slot]);
	if (!g.nrows) {
		fprintf(f, "no %s op of %s in these intervals\n", class_name[cls], name);
		return;
	}
	for (int r = g.nrows - 1; r >= 0; r--) {
		row_label(l, &g, r);
		fprintf(f, "%*s |", LABEL_W, l);
		for (int x = 0; x < g.ncols; x++)
			fputc(heatmap_shade(g.cell[r * g.ncols + x], g.max), f);
		fprintf(f, "|\n");
	}
	fprintf(f, "%*s +", LABEL_W, "");
	for (int x = 0; x < g.ncols; x++)
		fputc('-', f);
	fprintf(f, "+\n");
	/* the axis: the first interval's start, the last one's end, if room */
	{
		int first = (int)((g.first - 1) % HEATMAP_COLS);
		char a[32], b[32];	/* clock_text: a strftime of up to 31 */

		text_clock(a, sizeof(a), m->end[first] - m->len[first], false);
		text_clock(b, sizeof(b), m->end[slot], false);
		if (g.ncols >= 2 * 8 + 2)
			fprintf(f, "%*s  %-*s%s\n", LABEL_W, "", g.ncols - 8, a, b);
		else
			fprintf(f, "%*s  %s .. %s\n", LABEL_W, "", a, b);
	}
	fprintf(f, "shade \"%s\" by ops in a cell, '@' the fullest: %llu ops; "
		"a row is %d bucket%s\n", HEATMAP_SHADES, (unsigned long long)g.max,
		g.group, g.group == 1 ? "" : "s");
	free(g.cell);
}

void render_heatmap(FILE *f, const struct report *r, const struct heatmap_opts *o)
{
	static struct heatmap m;
	struct hist h = { 0 };
	char name[OSD_LABEL_MAX];

	/* every pool's (-P) and every cluster's osd.N summed: the class series */
	for (int i = 0; i < r->n; i++) {
		const struct series_delta *s = &r->s[i];

		if (osd_id_of(s->osd) == o->osd && s->cls == o->cls &&
		    s->optype == OPTYPE_ALL && s->phase == PHASE_TOTAL)
			for (__u32 b = 0; b < NR_BUCKETS; b++)
				h.buckets[b] += s->h.buckets[b];
	}
	heatmap_next(&m, r->time, r->interval);
	if (heatmap_set(&m, o->osd, o->cls, &h) < 0)
		fprintf(stderr, "osdhist: out of memory keeping the heatmap\n");
	snprintf(name, sizeof(name), "osd.%d", o->osd);
	heatmap_print(f, &m, o->osd, o->cls, name, o->width, o->height);
	fflush(f);
}

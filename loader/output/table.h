/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_TABLE_H
#define OSDHIST_TABLE_H

/* The table's rows (render_table in render.h, and --top, top.h): built
 * once from a report, then printed as text or drawn on a screen, so the
 * two show the same figures in the same order.  A row owns everything it
 * shows: --top keeps rows after the report's arrays, the tracer's, have
 * gone on to the next snapshot. */
#include <stdbool.h>
#include <stdio.h>
#include "report/report.h"
#include "render.h"

#define TABLE_CELL_MAX	32	/* the widest number: a u64 count, a rate */

enum table_cell { C_OSD, C_CLASS, C_OPS, C_RATE, C_MEAN, C_P50, C_P90, C_P99,
		  C_P999, C_MAX, C_FAILED, C_QP99, C_SLOWEST, NR_CELLS };

struct table_row {
	int osd;			/* its key (report/clusters.h) */
	__u8 cls;
	struct hist total, queue;	/* every pool's (-P) summed */
	double p99;
	bool has_slow;
	struct slowop slow;		/* its OSD's slowest of this class, a copy */
	char cell[NR_CELLS][TABLE_CELL_MAX];
};

/* r's rows, one per OSD and class that completed ops, filled and in the
 * order sort says, in *rows (the caller frees it; NULL when none).
 * Returns how many, or -ENOMEM. */
int table_build(const struct report *r, enum table_sort sort, struct table_row **rows);
/* Orders rows again (a key of --top): the largest first, ties by OSD. */
void table_sort(struct table_row *rows, int n, enum table_sort sort);
/* The health line, the self-check's state and its mismatches, each
 * wrapped to width. */
void table_header(FILE *f, const struct report *r, int width);
/* ns with its unit and three significant digits: 850ns, 9.99us, 12.3ms,
 * 340ms, 2.05s.  A value that rounds to 1000 goes to the next unit.  (The
 * heatmap's row labels too.) */
void table_lat(char out[TABLE_CELL_MAX], double ns);
/* The column heads, then one line per row, then a line for each thing cut
 * to fit width. */
void table_print_rows(FILE *f, const struct table_row *rows, int n, int width);

#endif

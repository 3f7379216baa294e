/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_TOP_H
#define OSDHIST_TOP_H

/* --top: the table's rows (table.h) full screen, redrawn in place at
 * every snapshot and every key, like top(1).  Keys: s cycles the sort
 * (osd, p99, ops, failed), p sorts by p99, up and down select a row,
 * Enter shows that OSD's text output (histograms, op types, slowest ops),
 * h that row's latency heatmap (c cycles its class), Esc or Backspace
 * goes back, q quits.  Reads no map: it draws what the snapshot already
 * holds. */
#include <stdbool.h>
#include "report/report.h"
#include "render.h"

/* Takes the terminal (stdin and stdout must be one; main checks).
 * Returns 0, or -ENOTTY when curses cannot (one line said on stderr). */
int top_start(enum table_sort sort, bool millis);
/* A snapshot: keeps copies of its rows, header and arrays (the report's
 * are the tracer's) and adds its interval to the heatmap, then redraws. */
void top_frame(const struct report *r);
/* After the loop's wait: reads the keys waiting on stdin and a resize,
 * redraws if they changed anything.  Returns whether q was pressed. */
bool top_input(void);
/* Gives the terminal back (endwin); safe to call twice, and from atexit. */
void top_end(void);

#endif

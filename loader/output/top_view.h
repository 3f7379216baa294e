/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_TOP_VIEW_H
#define OSDHIST_TOP_VIEW_H

/* What --top shows, as a pure state the keys move (top.c draws it and
 * maps the terminal's keys to these): which sort, which row is selected,
 * whether one OSD's text is shown and from which of its lines, or one
 * OSD's latency heatmap and of which class.  No terminal here, so the
 * rules are unit-tested. */
#include <stdbool.h>
#include "render.h"

enum top_key { TOP_SORT_NEXT, TOP_SORT_P99, TOP_UP, TOP_DOWN, TOP_PAGE_UP,
	       TOP_PAGE_DOWN, TOP_ENTER, TOP_HEAT, TOP_CLASS_NEXT, TOP_BACK, TOP_QUIT };

struct top_view {
	enum table_sort sort;
	int sel;	/* the selected row, 0 .. nrows - 1; 0 when none */
	int nrows;
	bool drill;	/* one OSD's text instead of the table */
	int scroll;	/* drill: its first line on screen */
	int nlines;	/* drill: its lines */
	int page;	/* lines on screen for the rows or the text, >= 1 */
	bool heat;	/* the selected OSD's heatmap instead of the table */
	int cls;	/* heat: its class (enum op_class); top.c sets it
			 * to the selected row's before TOP_HEAT */
	bool quit;
};

/* Applies one key; returns whether the view changed (then redraw). */
bool top_view_key(struct top_view *v, enum top_key k);
/* New rows (a snapshot) or a new height: the selection and the scroll
 * kept within them. */
void top_view_clamp(struct top_view *v);

#endif

// SPDX-License-Identifier: GPL-2.0
/* --top's keys as state changes (top_view.h): pure, no terminal. */
#include "top_view.h"

static int within(int x, int lo, int hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

void top_view_clamp(struct top_view *v)
{
	if (v->page < 1)
		v->page = 1;
	v->sel = within(v->sel, 0, v->nrows > 0 ? v->nrows - 1 : 0);
	/* the text's last page full, never scrolled past its end */
	v->scroll = within(v->scroll, 0, v->nlines > v->page ? v->nlines - v->page : 0);
}

/* Up and down move the selection in the table, the text in a drill;
 * nothing in a heatmap (its OSD stays the one chosen). */
static void move(struct top_view *v, int by)
{
	if (v->heat)
		return;
	if (v->drill)
		v->scroll += by;
	else
		v->sel += by;
}

bool top_view_key(struct top_view *v, enum top_key k)
{
	struct top_view was = *v;

	switch (k) {
	case TOP_SORT_NEXT:
		v->sort = (v->sort + 1) % NR_TABLE_SORTS;
		break;
	case TOP_SORT_P99:
		v->sort = TABLE_BY_P99;
		break;
	case TOP_UP: move(v, -1); break;
	case TOP_DOWN: move(v, 1); break;
	case TOP_PAGE_UP: move(v, -v->page); break;
	case TOP_PAGE_DOWN: move(v, v->page); break;
	case TOP_ENTER:
		if (!v->drill && !v->heat && v->nrows > 0)
			v->drill = true, v->scroll = 0;
		break;
	case TOP_HEAT:
		if (!v->drill && v->nrows > 0)
			v->heat = true;
		break;
	case TOP_CLASS_NEXT:
		if (v->heat)
			v->cls = (v->cls + 1) % NR_CLASSES;
		break;
	case TOP_BACK:
		v->drill = v->heat = false;
		break;
	case TOP_QUIT:
		v->quit = true;
		break;
	}
	top_view_clamp(v);
	return v->sort != was.sort || v->sel != was.sel || v->drill != was.drill ||
	       v->scroll != was.scroll || v->quit != was.quit || v->heat != was.heat ||
	       v->cls != was.cls;
}

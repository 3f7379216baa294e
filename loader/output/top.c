// SPDX-License-Identifier: GPL-2.0
/*
 * --top (top.h): the table's rows drawn full screen with curses.
 *
 * The report's arrays are the tracer's and change at the next snapshot
 * (the self-check reads the maps between two), while keys redraw between
 * snapshots: so a frame keeps what it shows, the rows (each owning its
 * slowest op, table.h), the header's lines, and a copy of the report's
 * arrays (memcpy, no formatting), from which a drill renders its OSD's
 * text when shown, once a snapshot: rendering every OSD's text at every
 * snapshot, in case one is drilled into, cost more than the text output.
 * The heatmap's rings (heatmap.h) take every row's buckets each snapshot.
 *
 * Terminal: a SIGWINCH handler of ours only raises a flag (ncurses then
 * installs none of its own); top_input(), after the loop's wait that the
 * signal cuts short, resizes and redraws.  Stray lines on stderr (a new
 * OSD attached) are wiped by the full repaint every snapshot.
 */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "heatmap.h"
#include "report/clusters.h"
#include "report/names.h"
#include "render.h"
#include "table.h"
#include "top.h"
#include "top_view.h"

#define TOP_ESCDELAY_MS	25	/* Esc alone vs. an arrow's sequence */

static struct {
	bool on;
	bool millis;
	struct top_view v;
	struct table_row *rows;
	int nrows;
	int sel_osd;		/* the selected row's OSD and class: kept */
	__u8 sel_cls;		/* across snapshots and sorts */
	char *head;		/* health and self-check lines */
	char *foot;		/* "no op completed", "sampled: ..." */
	struct report last;	/* the snapshot, its arrays in kept */
	void *kept;		/* NULL: none yet, or memory was short */
	char *text;		/* drill_osd's text of it, once shown */
	int drill_osd;		/* the OSD shown while drilled in */
	int heat_osd;		/* the OSD whose heatmap is shown */
	struct heatmap heat;	/* every OSD's and class's last intervals */
	int first;		/* the first row on screen */
} T;

static volatile sig_atomic_t resized;

static void on_winch(int sig)
{
	(void)sig;
	resized = 1;
}

/* A string printed by fn into memory; NULL when memory is short. */
#define MEMPRINT(out, ...) do {					\
	size_t len_;						\
	FILE *m_ = open_memstream(&(out), &len_);		\
								\
	if (m_) {						\
		__VA_ARGS__;					\
		if (fclose(m_))					\
			free(out), (out) = NULL;		\
	} else {						\
		(out) = NULL;					\
	}							\
} while (0)

static int count_lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* Line i of s (0-based) at (y, 0), cut to the screen's width. */
static void put_line(int y, const char *s, int i, int attr)
{
	const char *end;

	for (; s && *s && i > 0; s++)
		i -= *s == '\n';
	if (!s || !*s)
		return;
	end = s + strcspn(s, "\n");
	attron(attr);
	mvaddnstr(y, 0, s, (int)(end - s) < COLS ? (int)(end - s) : COLS);
	if (attr)	/* the selection across the whole line */
		for (int x = (int)(end - s); x < COLS; x++)
			mvaddch(y, x, ' ');
	attroff(attr);
}

/* The drilled OSD's text output as render_text prints it with --osd,
 * rendered from the kept snapshot the first time it is shown; NULL when
 * that snapshot holds none of it. */
static const char *drill_text(void)
{
	struct report c = T.last;
	void *kept;

	if (T.text || !T.kept || T.drill_osd < 0)	/* osd.? names no one OSD */
		return T.text;
	kept = report_keep_osd(&c, osd_id_of(T.drill_osd));
	if (kept && (c.n || c.nopc || c.nslow))
		MEMPRINT(T.text, render_text(m_, &c, false, T.millis));
	free(kept);
	return T.text;
}

static void draw_title(void)
{
	char t[256], name[OSD_LABEL_MAX];

	if (T.v.drill) {
		osd_label(name, T.drill_osd);
		snprintf(t, sizeof(t), "osdhist --top: %s   up/down/PgUp/PgDn scroll, "
			 "Esc back, q quit", name);
	} else if (T.v.heat) {
		osd_label(name, T.heat_osd);
		snprintf(t, sizeof(t), "osdhist --top: %s %s heatmap   c class, Esc back, "
			 "q quit", name, class_name[T.v.cls]);
	} else {
		snprintf(t, sizeof(t), "osdhist --top: sort %s   s sort, p p99, up/down "
			 "select, Enter drill in, q quit", table_sort_name[T.v.sort]);
	}
	put_line(0, t, 0, A_BOLD);
}

static void draw_drill(void)
{
	const char *s = drill_text();

	T.v.nlines = count_lines(s);
	T.v.page = LINES - 1;
	top_view_clamp(&T.v);
	if (!s) {
		put_line(1, "no text for this OSD in the last snapshot (it completed no op)",
			 0, 0);
		return;
	}
	for (int y = 1; y < LINES; y++)
		put_line(y, s, T.v.scroll + y - 1, 0);
}

/* The heatmap's lines below the title: its own title, the grid as high
 * as the screen leaves (HEAT_FRAME lines for the rest), the axis, the key. */
#define HEAT_FRAME	5
static void draw_heat(void)
{
	char name[OSD_LABEL_MAX], *s = NULL;

	osd_label(name, T.heat_osd);
	MEMPRINT(s, heatmap_print(m_, &T.heat, T.heat_osd, T.v.cls, name, COLS,
				  LINES - HEAT_FRAME > 1 ? LINES - HEAT_FRAME : 1));
	for (int y = 1; s && y < LINES; y++)
		put_line(y, s, y - 1, 0);
	free(s);
}

static void draw_table(void)
{
	int nhead = count_lines(T.head), y = 1, room;
	char *rows = NULL;

	for (int i = 0; i < nhead && y < LINES; i++)
		put_line(y++, T.head, i, 0);
	if (!T.nrows) {
		put_line(y, T.foot, 0, 0);
		return;
	}
	MEMPRINT(rows, table_print_rows(m_, T.rows, T.nrows, COLS));
	if (!rows)
		return;
	put_line(y++, rows, 0, A_BOLD);		/* the column heads */
	/* the rows, then what was cut and the sampled line, if room */
	room = LINES - y - (count_lines(rows) - 1 - T.nrows) - count_lines(T.foot);
	if (room > T.nrows)
		room = T.nrows;
	if (room < 1)
		room = LINES - y > 0 ? 1 : 0;
	T.v.page = room > 0 ? room : 1;
	if (T.v.sel < T.first)
		T.first = T.v.sel;
	if (T.v.sel >= T.first + room)
		T.first = T.v.sel - room + 1;
	if (T.first > T.nrows - room)
		T.first = T.nrows - room > 0 ? T.nrows - room : 0;
	for (int i = T.first; i < T.first + room && y < LINES; i++)
		put_line(y++, rows, 1 + i, i == T.v.sel ? A_REVERSE : 0);
	for (int i = 1 + T.nrows; i < count_lines(rows) && y < LINES; i++)
		put_line(y++, rows, i, 0);
	for (int i = 0; i < count_lines(T.foot) && y < LINES; i++)
		put_line(y++, T.foot, i, 0);
	free(rows);
}

static void draw(void)
{
	erase();
	draw_title();
	if (T.v.drill)
		draw_drill();
	else if (T.v.heat)
		draw_heat();
	else
		draw_table();
	refresh();
}

/* The selection follows its OSD and class through a sort or a snapshot. */
static void reselect(void)
{
	T.v.nrows = T.nrows;
	for (int i = 0; i < T.nrows; i++)
		if (T.rows[i].osd == T.sel_osd && T.rows[i].cls == T.sel_cls)
			T.v.sel = i;
	top_view_clamp(&T.v);
	if (T.nrows)
		T.sel_osd = T.rows[T.v.sel].osd, T.sel_cls = T.rows[T.v.sel].cls;
}

/* The snapshot's arrays, copied: a drill renders from them later. */
static void keep_report(const struct report *r)
{
	free(T.kept);
	free(T.text);
	T.text = NULL;
	T.last = *r;
	T.last.windows = NULL, T.last.nwindows = 0;	/* the text prints none */
	T.kept = report_keep_osd(&T.last, REPORT_EVERY_OSD);
}

/* Every row's buckets, the newest interval of its OSD's and class's ring. */
static void keep_heat(const struct report *r)
{
	heatmap_next(&T.heat, r->time, r->interval);
	for (int i = 0; i < T.nrows; i++)
		if (heatmap_set(&T.heat, T.rows[i].osd, T.rows[i].cls, &T.rows[i].total) < 0)
			break;	/* memory short: those rows' intervals stay empty */
}

void top_frame(const struct report *r)
{
	struct table_row *rows;
	int n;

	if (!T.on)
		return;
	n = table_build(r, T.v.sort, &rows);
	if (n < 0) {
		rows = NULL;
		n = 0;
	}
	free(T.rows);
	T.rows = rows;
	T.nrows = n;
	reselect();
	free(T.head);
	MEMPRINT(T.head, table_header(m_, r, COLS));
	free(T.foot);
	MEMPRINT(T.foot, {
		if (!n)
			fprintf(m_, "no op completed in the last %.2f s\n", r->interval);
		if (r->sampled)
			fprintf(m_, "sampled: ops that started in %.2f s of these %.2f s; "
				"ops and ops/s count those only\n", r->traced, r->interval);
	});
	keep_report(r);
	keep_heat(r);
	clearok(curscr, TRUE);	/* wipe whatever stderr wrote meanwhile */
	draw();
}

static int key_of(int c, enum top_key *k)
{
	switch (c) {
	case 's': *k = TOP_SORT_NEXT; return 1;
	case 'p': *k = TOP_SORT_P99; return 1;
	case KEY_UP: case 'k': *k = TOP_UP; return 1;
	case KEY_DOWN: case 'j': *k = TOP_DOWN; return 1;
	case KEY_PPAGE: *k = TOP_PAGE_UP; return 1;
	case KEY_NPAGE: case ' ': *k = TOP_PAGE_DOWN; return 1;
	case '\n': case '\r': case KEY_ENTER: *k = TOP_ENTER; return 1;
	case 'h': *k = TOP_HEAT; return 1;
	case 'c': *k = TOP_CLASS_NEXT; return 1;
	case 27: case KEY_BACKSPACE: case 127: case '\b': case KEY_LEFT:
		*k = TOP_BACK;
		return 1;
	case 'q': case 'Q': *k = TOP_QUIT; return 1;
	default: return 0;
	}
}

bool top_input(void)
{
	bool redraw = false;
	enum table_sort was = T.v.sort;
	enum top_key k;
	int c;

	if (!T.on)
		return false;
	if (resized) {
		struct winsize ws;

		resized = 0;
		if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col)
			resizeterm(ws.ws_row, ws.ws_col);
		clearok(curscr, TRUE);
		redraw = true;
	}
	while ((c = getch()) != ERR) {
		if (!key_of(c, &k))
			continue;
		if (k == TOP_ENTER && !T.v.drill && !T.v.heat && T.nrows &&
		    T.drill_osd != T.rows[T.v.sel].osd) {
			T.drill_osd = T.rows[T.v.sel].osd;
			free(T.text);
			T.text = NULL;
		}
		if (k == TOP_HEAT && !T.v.drill && !T.v.heat && T.nrows)
			T.heat_osd = T.rows[T.v.sel].osd, T.v.cls = T.rows[T.v.sel].cls;
		redraw |= top_view_key(&T.v, k);
		if (T.nrows)
			T.sel_osd = T.rows[T.v.sel].osd, T.sel_cls = T.rows[T.v.sel].cls;
	}
	if (T.v.sort != was) {
		table_sort(T.rows, T.nrows, T.v.sort);
		reselect();
	}
	if (T.v.quit)
		return true;
	if (redraw)
		draw();
	return false;
}

int top_start(enum table_sort sort, bool millis)
{
	struct sigaction sa = { .sa_handler = on_winch };

	if (T.on)
		return 0;
	sigaction(SIGWINCH, &sa, NULL);	/* before initscr: ncurses keeps ours */
	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr, "osdhist: --top cannot drive this terminal (TERM=%s): "
			"use --table\n", getenv("TERM") ? getenv("TERM") : "");
		return -ENOTTY;
	}
	T.on = true;
	atexit(top_end);
	cbreak();
	noecho();
	nonl();			/* Enter reads as '\r' */
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(TOP_ESCDELAY_MS);
	curs_set(0);
	T.v = (struct top_view){ .sort = sort, .page = 1 };
	T.millis = millis;
	T.sel_osd = -1;
	T.drill_osd = OSD_NONE;
	T.foot = strdup("waiting for the first snapshot\n");
	draw();
	return 0;
}

void top_end(void)
{
	if (!T.on)
		return;
	T.on = false;
	endwin();
	free(T.rows);
	free(T.head);
	free(T.foot);
	free(T.kept);
	free(T.text);
	heatmap_free(&T.heat);
	T.rows = NULL, T.head = T.foot = T.text = NULL, T.kept = NULL;
}

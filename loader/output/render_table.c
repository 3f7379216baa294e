// SPDX-License-Identifier: GPL-2.0
/*
 * The table (--table, render.h): per interval one row per OSD and class
 * with the figures an operator compares across OSDs, under the health line
 * and the self-check's state.  For hosts of 12 to 36 OSDs, where the text
 * output's histograms run to thousands of lines an interval; the way
 * `ceph osd perf` and `iostat -x` give one row per thing.
 *
 * Rows stay aligned whatever the numbers: every column is as wide as its
 * widest cell of the interval.  Latencies carry their unit and three
 * digits (850us, 1.23ms), so those stay four to six wide; the object
 * column, last, gets what is left of the width and its names are cut to
 * it, and a line says so.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/names.h"
#include "report/report.h"
#include "report/slowops.h"
#include "report/stats.h"
#include "report/verify_report.h"
#include "util/escape.h"
#include "render.h"
#include "table.h"
#include "text_lines.h"

#define CELL_MAX	TABLE_CELL_MAX
#define OBJECT_MIN	12	/* narrower than this, no object column */
#define KIND_MAX	48	/* an unverified OSD's reason, its first words */
#define KIND_OSDS	8	/* OSDs named per reason, then "+N" */

static const char *const head[NR_CELLS] = {
	"osd", "class", "ops", "ops/s", "mean", "p50", "p90", "p99", "p99.9",
	"max", "failed", "q_p99", "slowest",
};

_Static_assert(CELL_MAX >= OSD_LABEL_MAX, "an OSD's name fits a cell");

const char *const table_sort_name[NR_TABLE_SORTS] = {
	[TABLE_BY_OSD] = "osd", [TABLE_BY_P99] = "p99", [TABLE_BY_OPS] = "ops",
	[TABLE_BY_FAILED] = "failed",
};

int table_sort_parse(const char *name)
{
	if (!strcmp(name, "ops/s"))	/* as the issue and the column say it */
		return TABLE_BY_OPS;
	for (int i = 0; i < NR_TABLE_SORTS; i++)
		if (!strcmp(name, table_sort_name[i]))
			return i;
	return -EINVAL;
}

void table_lat(char out[CELL_MAX], double ns)
{
	static const struct { double scale; const char *unit; } u[] = {
		{ 1, "ns" }, { 1e3, "us" }, { 1e6, "ms" }, { 1e9, "s" },
	};
	int i = 0;
	double v;

	while (i < 3 && ns / u[i].scale >= 999.5)
		i++;
	v = ns / u[i].scale;
	snprintf(out, CELL_MAX, "%.*f%s", !i || v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2,
		 v, u[i].unit);
}

/* Ops that failed: osdhist puts every client op that ended in an error in
 * the class error (Ceph's op_r/op_w/op_rw count only the ops that reached
 * log_op_stats), so they are that row's ops; other rows have none. */
static __u64 failed(const struct table_row *w)
{
	return w->cls == CLASS_ERROR ? w->total.count : 0;
}

/* The row of (osd, cls), added if new; NULL: out of memory. */
static struct table_row *row_of(struct table_row **rows, int *n, int *cap, int osd, __u8 cls)
{
	struct table_row *w;

	for (int i = 0; i < *n; i++)
		if ((*rows)[i].osd == osd && (*rows)[i].cls == cls)
			return &(*rows)[i];
	if (*n == *cap) {
		int c = *cap ? 2 * *cap : 32;

		w = realloc(*rows, c * sizeof(*w));
		if (!w)
			return NULL;
		*rows = w, *cap = c;
	}
	w = &(*rows)[(*n)++];
	memset(w, 0, sizeof(*w));
	w->osd = osd, w->cls = cls;
	return w;
}

/* The class series of r, per OSD and class: those that completed ops. */
static int gather(const struct report *r, struct table_row **rows)
{
	int n = 0, cap = 0, kept = 0;

	*rows = NULL;
	for (int i = 0; i < r->n; i++) {
		const struct series_delta *s = &r->s[i];
		struct table_row *w;

		if (s->optype != OPTYPE_ALL ||
		    (s->phase != PHASE_TOTAL && s->phase != PHASE_QUEUE))
			continue;
		w = row_of(rows, &n, &cap, s->osd, s->cls);
		if (!w) {
			free(*rows);
			*rows = NULL;
			return -ENOMEM;
		}
		hist_add(s->phase == PHASE_TOTAL ? &w->total : &w->queue, &s->h);
	}
	for (int i = 0; i < n; i++) {
		struct table_row *w = &(*rows)[i];

		if (!w->total.count)
			continue;
		w->p99 = hist_quantile(&w->total, 0.99);
		/* the slowest ops are by OSD, slowest first (slowops.h) */
		for (int k = 0; k < r->nslow && !w->has_slow; k++)
			if (r->slow[k].osd == w->osd && r->slow[k].op.cls == w->cls) {
				w->slow = r->slow[k].op;
				w->has_slow = true;
			}
		(*rows)[kept++] = *w;
	}
	return kept;
}

/* OSDs by key (cluster, then id), the series no id names (osd.?,
 * osd.dup) last; then class. */
static int by_osd(const struct table_row *a, const struct table_row *b)
{
	if ((a->osd < 0) != (b->osd < 0))
		return a->osd < 0 ? 1 : -1;
	if (a->osd != b->osd)
		return (a->osd < b->osd) == (a->osd >= 0) ? -1 : 1;
	return (int)a->cls - (int)b->cls;
}

static double sort_key(const struct table_row *w, enum table_sort s)
{
	switch (s) {
	case TABLE_BY_P99: return w->p99;
	case TABLE_BY_OPS: return w->total.count;
	case TABLE_BY_FAILED: return failed(w);
	default: return 0;
	}
}

/* The largest first; ties, and --sort osd, by OSD. */
static int cmp_rows(const void *x, const void *y, void *sort)
{
	double a = sort_key(x, *(enum table_sort *)sort);
	double b = sort_key(y, *(enum table_sort *)sort);

	if (a != b)
		return a > b ? -1 : 1;
	return by_osd(x, y);
}

static void fill(struct table_row *w, const struct report *r)
{
	const struct hist *h = &w->total;
	char (*c)[CELL_MAX] = w->cell;

	osd_label(c[C_OSD], w->osd);
	snprintf(c[C_CLASS], CELL_MAX, "%s", class_name[w->cls % NR_CLASSES]);
	snprintf(c[C_OPS], CELL_MAX, "%llu", (unsigned long long)h->count);
	snprintf(c[C_RATE], CELL_MAX, "%.1f", r->interval > 0 ? h->count / r->interval : 0);
	table_lat(c[C_MEAN], (double)h->sum_ns / h->count);
	table_lat(c[C_P50], hist_quantile(h, 0.50));
	table_lat(c[C_P90], hist_quantile(h, 0.90));
	table_lat(c[C_P99], w->p99);
	table_lat(c[C_P999], hist_quantile(h, 0.999));
	table_lat(c[C_MAX], hist_max(h));
	if (w->cls == CLASS_ERROR)
		snprintf(c[C_FAILED], CELL_MAX, "%llu", (unsigned long long)failed(w));
	else
		strcpy(c[C_FAILED], "-");
	if (w->queue.count)
		table_lat(c[C_QP99], hist_quantile(&w->queue, 0.99));
	else
		strcpy(c[C_QP99], "-");
	if (w->has_slow)
		table_lat(c[C_SLOWEST], w->slow.total_ns);
	else
		strcpy(c[C_SLOWEST], "-");
}

/*
 * The slowest op's object name in at most width columns (size > width):
 * Ceph's escaping (slowops.h), then ours, since a client chose the name
 * (escape.h).  A name longer than width is cut in the middle, its end
 * kept (benchmark_data_host_1234_object55, rbd_data.ab12.00000000000f3:
 * the end tells them apart); one of which bpf/ read only the first bytes
 * ends in "..".  Returns whether the name shown is not whole.
 */
static bool object_cell(const struct slowop *o, char *out, size_t size, int width)
{
	char name[SLOW_OBJECT_MAX], esc[2 * SLOW_OBJECT_MAX];
	char *more;
	int len, head;

	if (!o) {
		snprintf(out, size, "-");
		return false;
	}
	slow_name_text(o, name);
	more = strstr(name, " (+");	/* " (+N bytes)": not read */
	if (more)
		*more = 0;
	esc_text(name, esc, sizeof(esc));
	len = strlen(esc);
	if (!more && len <= width) {
		snprintf(out, size, "%s", esc);
		return false;
	}
	if (more) {
		snprintf(out, size, "%.*s..", len < width - 2 ? len : width - 2, esc);
		return true;
	}
	head = (width - 2) / 3;
	snprintf(out, size, "%.*s..%s", head, esc, esc + len - (width - 2 - head));
	return true;
}

/* s (one line, its newline not printed) in lines of at most width
 * columns, broken at spaces, the lines after the first indented. */
static void wrap(FILE *f, const char *s, int width, int indent)
{
	const char *end = s + strcspn(s, "\n");
	int pad = 0, room = width > 16 ? width : 16;

	while (end - s > room) {
		const char *cut = s + room;

		while (cut > s && *cut != ' ')
			cut--;
		if (cut == s)	/* no space: cut the word */
			cut = s + room;
		fprintf(f, "%*s%.*s\n", pad, "", (int)(cut - s), s);
		for (s = cut; *s == ' '; s++)
			;
		pad = indent;
		room = width - pad > 16 ? width - pad : 16;	/* a narrow screen */
	}
	fprintf(f, "%*s%.*s\n", pad, "", (int)(end - s), s);
}

/* A line printed into a buffer, then wrapped (wrap_begin, wrap_end);
 * straight to f, unwrapped, if memory is short. */
struct wrapbuf {
	char *buf;
	size_t len;
	FILE *m;
};

static FILE *wrap_begin(struct wrapbuf *b, FILE *f)
{
	b->buf = NULL;
	b->m = open_memstream(&b->buf, &b->len);
	return b->m ? b->m : f;
}

static void wrap_end(struct wrapbuf *b, FILE *f, int width)
{
	if (!b->m)
		return;
	fclose(b->m);
	wrap(f, b->buf, width, 8);	/* under "health: " */
	free(b->buf);
}

/* The first words of an unverified OSD's reason, up to its ':' or ';'
 * ("timeout", "waiting for the first check"), escaped: it may quote what
 * a socket answered. */
static void reason_kind(const char *reason, char out[KIND_MAX])
{
	char k[KIND_MAX];
	size_t n = strcspn(reason, ":;");

	snprintf(k, sizeof(k), "%.*s", (int)n, reason);
	esc_text(k[0] ? k : "no reason", out, KIND_MAX);
}

/* ", 2 unverified (timeout: osd.3 osd.5; waiting for the first check:
 * osd.7)": the unverified OSDs grouped by reason. */
static void print_unverified(FILE *m, const struct report *r, int n)
{
	const char *sep = " (";

	fprintf(m, ", %d unverified", n);
	for (int i = 0; i < r->nverify; i++) {
		char kind[KIND_MAX], other[KIND_MAX], name[OSD_LABEL_MAX];
		bool seen = false;
		int listed = 0, more = 0;

		if (r->verify[i].state != VERIFY_UNVERIFIED)
			continue;
		reason_kind(r->verify[i].reason, kind);
		for (int j = 0; j < i && !seen; j++) {
			reason_kind(r->verify[j].reason, other);
			seen = r->verify[j].state == VERIFY_UNVERIFIED && !strcmp(kind, other);
		}
		if (seen)
			continue;
		fprintf(m, "%s%s:", sep, kind);
		sep = "; ";
		for (int j = i; j < r->nverify; j++) {
			if (r->verify[j].state != VERIFY_UNVERIFIED)
				continue;
			reason_kind(r->verify[j].reason, other);
			if (strcmp(kind, other))
				continue;
			if (listed++ < KIND_OSDS) {
				osd_label(name, r->verify[j].osd);
				fprintf(m, " %s", name);
			} else {
				more++;
			}
		}
		if (more)
			fprintf(m, " +%d", more);
	}
	fprintf(m, ")");
}

/* The self-check in one line: how many OSDs in each state, which are not
 * verified and why; then each mismatch as loud as the text output says
 * it. */
static void print_self_check(FILE *m, const struct report *r)
{
	int n[NR_VERIFY_STATES] = { 0 };
	const char *sep = " (";

	if (!r->verify) {
		fprintf(m, "self-check: off (--no-verify)\n");
		return;
	}
	if (!r->nverify) {
		fprintf(m, "self-check: no OSD to check yet\n");
		return;
	}
	for (int i = 0; i < r->nverify; i++)
		n[r->verify[i].state % NR_VERIFY_STATES]++;
	fprintf(m, "%sself-check against perf dump: %d verified",
		n[VERIFY_MISMATCH] ? "!! " : "", n[VERIFY_VERIFIED]);
	if (n[VERIFY_UNVERIFIED])
		print_unverified(m, r, n[VERIFY_UNVERIFIED]);
	if (n[VERIFY_MISMATCH]) {
		fprintf(m, ", %d MISMATCH", n[VERIFY_MISMATCH]);
		for (int i = 0; i < r->nverify; i++) {
			char name[OSD_LABEL_MAX];

			if (r->verify[i].state != VERIFY_MISMATCH)
				continue;
			osd_label(name, r->verify[i].osd);
			fprintf(m, "%s%s", sep, name);
			sep = " ";
		}
		fprintf(m, ")");
	}
	fprintf(m, "\n");
}

void table_header(FILE *f, const struct report *r, int width)
{
	struct wrapbuf b;

	text_health(wrap_begin(&b, f), &r->health);
	wrap_end(&b, f, width);
	print_self_check(wrap_begin(&b, f), r);
	wrap_end(&b, f, width);
	for (int i = 0; r->verify && i < r->nverify; i++) {
		char name[OSD_LABEL_MAX];

		osd_label(name, r->verify[i].osd);
		for (int k = 0; k < NR_VC; k++) {
			if (!r->verify[i].cls[k].mismatch)
				continue;
			text_mismatch(wrap_begin(&b, f), name, k, &r->verify[i].cls[k]);
			wrap_end(&b, f, width);
		}
	}
}

static void print_cells(FILE *f, const char *const *cell, const int *w)
{
	for (int c = 0; c < NR_CELLS; c++)
		fprintf(f, c <= C_CLASS ? "%s%-*s" : "%s%*s", c ? " " : "", w[c], cell[c]);
}

/* The rows under their column heads, and what was cut to fit. */
void table_print_rows(FILE *f, const struct table_row *rows, int n, int width)
{
	int w[NR_CELLS], fixed = NR_CELLS - 1, room, cut = 0;
	const char *cell[NR_CELLS];
	char *obj = malloc(width + 1 > 2 ? width + 1 : 2);

	for (int c = 0; c < NR_CELLS; c++) {
		w[c] = strlen(head[c]);
		for (int i = 0; i < n; i++)
			if ((int)strlen(rows[i].cell[c]) > w[c])
				w[c] = strlen(rows[i].cell[c]);
		fixed += w[c];
	}
	room = width - fixed - 1;
	if (!obj)	/* out of memory: no object column */
		room = 0;
	print_cells(f, head, w);
	fprintf(f, room >= OBJECT_MIN ? " object\n" : "\n");
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < NR_CELLS; c++)
			cell[c] = rows[i].cell[c];
		print_cells(f, cell, w);
		if (room >= OBJECT_MIN) {
			cut += object_cell(rows[i].has_slow ? &rows[i].slow : NULL,
					   obj, room + 1, room);
			fprintf(f, " %s", obj);
		}
		fprintf(f, "\n");
	}
	free(obj);
	if (cut)
		fprintf(f, "cut: %d object name%s, where \"..\" stands (the text output and "
			"-j show the names as read)\n", cut, cut > 1 ? "s" : "");
	if (room < OBJECT_MIN)
		fprintf(f, "cut: the object column, no room for it in %d columns\n", width);
	if (fixed > width)
		fprintf(f, "note: rows are %d columns wide, more than %d: numbers this "
			"wide do not fit\n", fixed, width);
}

int table_build(const struct report *r, enum table_sort sort, struct table_row **rows)
{
	int n = gather(r, rows);

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++)
		fill(&(*rows)[i], r);
	table_sort(*rows, n, sort);
	return n;
}

void table_sort(struct table_row *rows, int n, enum table_sort sort)
{
	if (n > 1)
		qsort_r(rows, n, sizeof(*rows), cmp_rows, &sort);
}

void render_table(FILE *f, const struct report *r, const struct table_opts *o)
{
	struct table_row *rows;
	int n;

	if (o->timestamp)
		text_timestamp(f, r->time);
	table_header(f, r, o->width);
	n = table_build(r, o->sort, &rows);
	if (n < 0)
		fprintf(stderr, "osdhist: out of memory for the table\n");
	if (n > 0)
		table_print_rows(f, rows, n, o->width);
	else if (!n)
		fprintf(f, "no op completed in the last %.2f s\n", r->interval);
	if (r->sampled)
		fprintf(f, "sampled: ops that started in %.2f s of these %.2f s (%.0f %%); "
			"ops and ops/s count those only\n", r->traced, r->interval,
			r->interval > 0 ? 100 * r->traced / r->interval : 0);
	free(rows);
	fprintf(f, "\n");
	fflush(f);
}

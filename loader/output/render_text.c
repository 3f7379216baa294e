// SPDX-License-Identifier: GPL-2.0
/* Human output: per series a summary line and a biolatency-style bar
 * histogram, then the tracer's health. */
#include <math.h>
#include <string.h>

#include "report/calls.h"
#include "util/escape.h"
#include "report/names.h"
#include "report/report.h"
#include "report/slowops.h"
#include "report/stats.h"
#include "report/verify_report.h"
#include "text_lines.h"

#define BAR_WIDTH 40
#define MAX_ROWS 64

static void print_bars(FILE *f, const struct hist *h, double unit, const char *uname)
{
	__u64 rows[MAX_ROWS] = { 0 }, top = 0;
	int first = MAX_ROWS, last = -1;

	/* Rows are powers of two of the display unit; a fine bucket goes to the
	 * row of its lower bound. */
	for (__u32 i = 0; i < NR_BUCKETS; i++) {
		double lo = osdhist_bucket_lower(i) / unit;
		int r = lo < 1 ? 0 : 1 + (int)floor(log2(lo));

		if (!h->buckets[i])
			continue;
		if (r >= MAX_ROWS)
			r = MAX_ROWS - 1;
		rows[r] += h->buckets[i];
		if (r < first)
			first = r;
		if (r > last)
			last = r;
	}
	for (int r = first; r <= last; r++)
		if (rows[r] > top)
			top = rows[r];
	fprintf(f, "%*s%-10s : count      distribution\n", 14, "", uname);
	for (int r = first; r <= last; r++) {
		unsigned long lo = r ? 1UL << (r - 1) : 0, hi = (1UL << r) - 1;
		int stars = top ? (int)(rows[r] * BAR_WIDTH / top) : 0;

		fprintf(f, "%12lu -> %-10lu : %-10llu |%-*.*s|\n", lo, hi,
			(unsigned long long)rows[r], BAR_WIDTH, stars,
			"****************************************");
	}
}

static void print_series(FILE *f, const struct series_delta *s,
			 const struct report *r, bool millis)
{
	double interval = r->interval;
	double unit = millis ? 1e6 : 1e3;
	const char *uname = millis ? "msecs" : "usecs";
	const struct hist *h = &s->h;
	char who[48];

	osd_label(who, s->osd);
	if (s->pool >= 0)
		snprintf(who + strlen(who), sizeof(who) - strlen(who), " pool %lld",
			 (long long)s->pool);
	fprintf(f, "%s %s %s: %llu ops, %.1f/s", who, class_name[s->cls],
		phase_name[s->phase], (unsigned long long)h->count,
		interval > 0 ? h->count / interval : 0);
	if (r->sampled)
		fprintf(f, " (est. %.1f/s)", r->traced > 0 ? h->count / r->traced : 0);
	fprintf(f, ", mean %.3f, p50 %.3f, p90 %.3f, p99 %.3f, p99.9 %.3f, "
		"max %.3f (%s)\n",
		h->count ? (double)h->sum_ns / h->count / unit : 0,
		hist_quantile(h, 0.50) / unit, hist_quantile(h, 0.90) / unit,
		hist_quantile(h, 0.99) / unit, hist_quantile(h, 0.999) / unit,
		hist_max(h) / unit, uname);
	print_bars(f, h, unit, uname);
}

/* One OSD's op types in the interval, all classes together: failed are
 * the messages that ended as errors. */
static void print_optype_table(FILE *f, const struct report *r, int osd,
			       bool millis)
{
	double unit = millis ? 1e6 : 1e3;
	bool head = false;
	int w = 22;	/* the op type column: as wide as its longest name */

	for (int i = 0; i < r->n; i++)
		if (r->s[i].osd == osd && r->s[i].optype != OPTYPE_ALL &&
		    (int)strlen(op_name(r->s[i].optype)) > w)
			w = strlen(op_name(r->s[i].optype));
	for (unsigned op = 0; op < NR_OPX; op++) {
		struct hist h = { 0 };
		__u64 failed = 0;

		for (int i = 0; i < r->n; i++) {
			const struct series_delta *s = &r->s[i];

			if (s->osd != osd || s->optype != op || s->phase != PHASE_TOTAL)
				continue;
			hist_add(&h, &s->h);
			if (s->cls == CLASS_ERROR)
				failed += s->h.count;
		}
		if (!h.count)
			continue;
		if (!head) {
			fprintf(f, "%-8s %-*s %10s %8s %10s %10s %10s (%s)\n",
				"", w, "op type", "count", "failed", "ops/s", "mean", "p99",
				millis ? "msecs" : "usecs");
			head = true;
		}
		fprintf(f, "%-8s %-*s %10llu %8llu %10.1f %10.3f %10.3f\n", "",
			w, op_name(op), (unsigned long long)h.count,
			(unsigned long long)failed,
			r->interval > 0 ? h.count / r->interval : 0,
			(double)h.sum_ns / h.count / unit, hist_quantile(&h, 0.99) / unit);
	}
}

/* Per OSD: the op-type table, then the ops of each op code ("read 10,
 * stat 105 (5 failed), ..."). */
#define OPCODES_WIDTH 90	/* wrap the op codes line after this column */

static void print_optypes(FILE *f, const struct report *r, bool millis)
{
	int osd = OSD_NONE, col = 0;

	for (int i = 0; i < r->nopc; i++) {
		const struct opcode_delta *d = &r->opc[i];

		if (!d->ops && !d->failed)
			continue;
		if (d->osd != osd) {
			char who[OSD_LABEL_MAX];

			if (osd != OSD_NONE)
				fprintf(f, "\n");
			osd = d->osd;
			osd_label(who, osd);
			fprintf(f, "%s op types:\n", who);
			print_optype_table(f, r, osd, millis);
			col = fprintf(f, "%-8s op codes:", "");
		} else if (col > OPCODES_WIDTH) {
			fprintf(f, ",\n");
			col = fprintf(f, "%-18s", "");
		} else {
			col += fprintf(f, ",");
		}
		col += fprintf(f, " %s %llu", op_name(d->opi), (unsigned long long)d->ops);
		if (d->failed)
			col += fprintf(f, " (%llu failed)", (unsigned long long)d->failed);
	}
	if (osd != OSD_NONE)
		fprintf(f, "\n");
}

/* Per OSD the interval's slowest ops, slowest first: names as Ceph
 * prints them (PG, osd_reqid_t, hobject_t), already plain ASCII; the
 * object last, the one column of no bounded width. */
static void print_slowops(FILE *f, const struct report *r, bool millis)
{
	double unit = millis ? 1e6 : 1e3;
	const char *u = millis ? "ms" : "us";
	int osd = OSD_NONE;

	for (int i = 0; i < r->nslow; i++) {
		const struct slowop *o = &r->slow[i].op;
		char obj[SLOW_OBJECT_MAX], who[SLOW_REQID_MAX], ops[SLOW_OPS_MAX];
		char pg[SLOW_PG_MAX], name[OSD_LABEL_MAX];

		if (r->slow[i].osd != osd) {
			osd = r->slow[i].osd;
			osd_label(name, osd);
			fprintf(f, "%s slowest ops:\n", name);
			fprintf(f, "%8s total(%s) queue(%s) %-6s %-22s %-8s %-24s %s\n", "",
				u, u, "class", "ops", "pg", "client", "object");
		}
		slow_object_text(o, obj);
		slow_reqid_text(o, who);
		slow_ops_text(o, ops);
		slow_pg_text(o, pg);
		fprintf(f, "%8s %9.1f %9.1f %-6s %-22s %-8s %-24s %s\n", "",
			o->total_ns / unit, o->queue_ns / unit, class_name[o->cls % NR_CLASSES],
			ops, pg, who, obj);
	}
}

/* One line per OSD; a mismatch on lines of its own, first and loud. */
static void print_verify(FILE *f, const struct report *r)
{
	for (int i = 0; i < r->nverify; i++) {
		const struct verify_report *v = &r->verify[i];
		char name[OSD_LABEL_MAX];

		osd_label(name, v->osd);
		for (int k = 0; k < NR_VC; k++) {
			const struct verify_class_report *c = &v->cls[k];

			if (c->mismatch)
				text_mismatch(f, name, k, c);
		}
		fprintf(f, "%sverify: %s %s", v->state == VERIFY_MISMATCH ? "!! " : "",
			name, verify_state_name[v->state]);
		if (v->state == VERIFY_UNVERIFIED) {
			fprintf(f, " (%s)\n", ESC(v->reason));
			continue;
		}
		/* What was compared: osdhist's count against the range Ceph's
		 * counter can have counted meanwhile, widened by the slack; a
		 * single number when the range is one.  (One number alone,
		 * "write 15598/op_w 15599", read as a contradiction.) */
		fprintf(f, " against perf dump, %llu checks, bound Ceph's range +-%d:",
			(unsigned long long)v->checks, VERIFY_SLACK);
		for (int k = 0; k < NR_VC; k++) {
			const struct verify_class_report *c = &v->cls[k];

			if (!c->compared)
				continue;
			fprintf(f, " %s %llu (%s %lld", class_name[verify_op_class[k]],
				(unsigned long long)c->j.ours, verify_counter[k],
				(long long)c->j.ceph_lo);
			if (c->j.ceph_hi != c->j.ceph_lo)
				fprintf(f, "..%lld", (long long)c->j.ceph_hi);
			if (c->j.excess)
				fprintf(f, "; %+lld outside the bound", (long long)c->j.excess);
			fprintf(f, ")");
		}
		fprintf(f, "\n");
	}
}

void render_text(FILE *f, const struct report *r, bool timestamp, bool millis)
{
	int shown = 0;

	if (timestamp)
		text_timestamp(f, r->time);
	for (int i = 0; i < r->n; i++) {
		if (!r->s[i].h.count || r->s[i].optype != OPTYPE_ALL)
			continue;
		print_series(f, &r->s[i], r, millis);
		shown++;
	}
	print_optypes(f, r, millis);
	print_slowops(f, r, millis);
	if (r->sampled)
		fprintf(f, "sampled: ops that started in %.2f s of these %.2f s "
			"(%.0f %%); est. = count / traced time\n", r->traced,
			r->interval, r->interval > 0 ? 100 * r->traced / r->interval : 0);
	if (!shown)
		fprintf(f, "no op completed in the last %.2f s\n", r->interval);
	print_verify(f, r);
	text_health(f, &r->health);
	fprintf(f, "\n");
	fflush(f);
}

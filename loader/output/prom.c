// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus text exposition format 0.0.4: one histogram family of op
 * latencies in seconds, then the tracer's health as counters and gauges.
 * Everything is cumulative since osdhist started (counters), so it reads the
 * `cum` histograms of the report, never the interval deltas.  Names and the
 * ceph_daemon="osd.N" label follow Ceph's own exporter (ceph_osd_op_w ...),
 * so both sit side by side and join on ceph_daemon.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/calls.h"
#include "util/escape.h"
#include "report/clusters.h"
#include "report/names.h"
#include "prom.h"
#include "report/report.h"
#include "report/slowops.h"
#include "report/stats.h"
#include "report/verify_report.h"

#define FAMILY "osdhist_op_latency_seconds"
#define OPTYPE_FAMILY "osdhist_op_type_latency_seconds"
/* a label set: osd, pool, class and the longest call name (calls.h) */
#define LABELS_MAX (96 + CALL_TEXT_MAX)

static const __u64 default_le_ns[] = {
	25000, 50000,
	100000, 250000, 500000,
	1000000, 2500000, 5000000,
	10000000, 25000000, 50000000,
	100000000, 250000000, 500000000,
	1000000000, 2500000000ULL, 5000000000ULL,
	10000000000ULL,
};

void prom_default_buckets(struct prom_buckets *b)
{
	b->n = sizeof(default_le_ns) / sizeof(default_le_ns[0]);
	memcpy(b->le_ns, default_le_ns, sizeof(default_le_ns));
}

/* prom_parse_buckets()'s failure: the phrase into why, -EINVAL. */
static int refuse(char *why, size_t whylen, const char *phrase)
{
	snprintf(why, whylen, "%s", phrase);
	return -EINVAL;
}

/* Bounds are rounded to the nearest ns, the resolution of the data. */
int prom_parse_buckets(const char *s, struct prom_buckets *b, char *why, size_t whylen)
{
	struct prom_buckets out = { 0 };
	const char *p = s;

	for (;;) {
		char *end;
		double v;

		if (out.n == PROM_MAX_BOUNDS)
			return refuse(why, whylen, "at most 64 bounds");
		errno = 0;
		v = strtod(p, &end);
		if (errno || end == p || (*end && *end != ',') || !isfinite(v))
			return refuse(why, whylen, "expected seconds separated by "
				      "commas, e.g. 0.001,0.01,0.1");
		if (v <= 0 || v > 86400)
			return refuse(why, whylen, "each bound must be above 0 and "
				      "at most 86400 seconds");
		out.le_ns[out.n] = (__u64)llround(v * 1e9);
		if (!out.le_ns[out.n])
			return refuse(why, whylen, "each bound must be at least 1 ns (1e-9)");
		if (out.n && out.le_ns[out.n] <= out.le_ns[out.n - 1])
			return refuse(why, whylen, "bounds must be strictly increasing");
		out.n++;
		if (!*end)
			break;
		p = end + 1;
	}
	*b = out;
	return 0;
}

/* ns as decimal seconds, exactly: 250000 -> 0.00025, 2500000000 -> 2.5. */
static void put_seconds(FILE *f, __u64 ns)
{
	char frac[16];
	int len;

	len = snprintf(frac, sizeof(frac), "%09llu", (unsigned long long)(ns % 1000000000));
	while (len > 0 && frac[len - 1] == '0')
		frac[--len] = 0;
	fprintf(f, "%llu%s%s", (unsigned long long)(ns / 1000000000), len ? "." : "", frac);
}

/*
 * An OSD's labels: ceph_daemon="osd.N" as Ceph's exporters name it, and
 * cluster="FSID", the label Ceph's monitoring mixin (its dashboards and
 * alerts) selects and groups clusters by; none when osdhist could not tell
 * the OSD's cluster (Prometheus reads an absent label as "").  An fsid is
 * a UUID (asok_fsid checked it): nothing to escape.
 */
static int daemon_labels(char *buf, size_t size, int osd)
{
	const char *fsid = cluster_fsid(osd_cluster_of(osd));

	if (osd >= 0 && fsid[0])
		return snprintf(buf, size, "ceph_daemon=\"osd.%d\",cluster=\"%s\"",
				osd_id_of(osd), fsid);
	if (osd >= 0)
		return snprintf(buf, size, "ceph_daemon=\"osd.%d\"", osd_id_of(osd));
	return snprintf(buf, size, "ceph_daemon=\"osd.%s\"",
			osd == OSD_DUPLICATE ? "duplicate" : "unknown");
}

/* A sample's first label, for an OSD or a series no OSD id names. */
static void put_daemon(FILE *f, const char *name, int osd)
{
	char buf[128];

	daemon_labels(buf, sizeof(buf), osd);
	fprintf(f, "%s{%s", name, buf);
}

static void labels(char *buf, size_t size, const struct series_delta *s)
{
	int n;

	/* Label values come from fixed name tables, integers and call names,
	 * which calls.c escaped to printable ASCII without " or \: nothing
	 * to escape. */
	n = daemon_labels(buf, size, s->osd);
	/* pool_id, as Ceph's exporter names it (ceph_pool_metadata{pool_id}),
	 * so a query can join on it to get the pool's name. */
	if (s->pool >= 0)
		n += snprintf(buf + n, size - n, ",pool_id=\"%lld\"", (long long)s->pool);
	if (s->optype != OPTYPE_ALL)	/* op types: total latency only */
		snprintf(buf + n, size - n, ",class=\"%s\",op=\"%s\"",
			 class_name[s->cls], op_name(s->optype));
	else
		snprintf(buf + n, size - n, ",class=\"%s\",phase=\"%s\"",
			 class_name[s->cls], phase_name[s->phase]);
}

/*
 * From the fine in-kernel buckets to the coarse exported ones.
 *
 * A fine bucket i holds the integer latencies lo_i <= v < hi_i ns
 * (osdhist_bucket_lower/upper), and a Prometheus bucket `le=B` counts the
 * observations v <= B.  A fine bucket is added to bound B only when all of
 * its values are <= B, i.e. hi_i - 1 <= B (in ns); cumulatively, so it is
 * also in every larger bound.  A fine bucket that straddles B
 * (lo_i <= B < hi_i - 1) goes only to the next larger bound.  So every
 * exported count is exact or an undercount, and what it misses are values
 * within one fine bucket below B: between B / 1.125 and B (buckets are at
 * most 12.5 % of their lower bound wide).  Quantiles computed from the
 * export can err high by that much, never low.  Values at or above 2^37 ns
 * (137 s, the open-ended last fine bucket) only reach +Inf.  +Inf and
 * _count are both the sum of all fine buckets, so they are equal and never
 * below a finite bound even in a snapshot torn by a concurrent update.
 */
static void print_hist(FILE *f, const char *fam, const struct series_delta *s,
		       const struct prom_buckets *b)
{
	const struct hist *h = &s->cum;
	char lab[LABELS_MAX];
	__u64 acc = 0, total = 0;
	__u32 i = 0;

	labels(lab, sizeof(lab), s);
	for (__u32 k = 0; k < NR_BUCKETS; k++)
		total += h->buckets[k];
	for (int j = 0; j < b->n; j++) {
		while (i < NR_BUCKETS - 1 && osdhist_bucket_upper(i) - 1 <= b->le_ns[j])
			acc += h->buckets[i++];
		fprintf(f, "%s_bucket{%s,le=\"", fam, lab);
		put_seconds(f, b->le_ns[j]);
		fprintf(f, "\"} %llu\n", (unsigned long long)acc);
	}
	fprintf(f, "%s_bucket{%s,le=\"+Inf\"} %llu\n", fam, lab, (unsigned long long)total);
	fprintf(f, "%s_sum{%s} ", fam, lab);
	put_seconds(f, h->sum_ns);
	fprintf(f, "\n%s_count{%s} %llu\n", fam, lab, (unsigned long long)total);
}

/*
 * Calls by class.method in Prometheus: a histogram a name would be 21
 * series, and an OSD process may have 65 names (64 and "call other"):
 * 1,365 series, past the budget of 1,000 an OSD with every option on (so
 * that a 1,000-OSD cluster stays within what one Prometheus holds).  So the
 * op-type histogram keeps one op="call" per class, all names summed, and
 * each name has its two op-code counters (ops, failed): at most 130 series
 * an OSD.  Text and JSON show every name's histogram.
 */
static bool is_call(unsigned op)
{
	return op == OPI_0x1401 || (op >= NR_OPCODES && op < NR_OPX);
}

static bool call_total(const struct series_delta *s)
{
	return s->optype != OPTYPE_ALL && s->phase == PHASE_TOTAL && is_call(s->optype);
}

/* The op="call" histograms of one OSD, summed by class so far. */
static void flush_calls(FILE *f, struct series_delta sum[NR_CLASSES], bool has[NR_CLASSES],
			const struct prom_buckets *b)
{
	for (int c = 0; c < NR_CLASSES; c++) {
		if (has[c])
			print_hist(f, OPTYPE_FAMILY, &sum[c], b);
		has[c] = false;
	}
}

/* The op="call" histograms: per OSD and class, the sum of its calls'.
 * The report's series come by OSD (snapshot.c's cmp_delta). */
static void print_call_hists(FILE *f, const struct report *r, const struct prom_buckets *b)
{
	static struct series_delta sum[NR_CLASSES];
	bool has[NR_CLASSES] = { false };

	for (int i = 0; i < r->n; i++) {
		const struct series_delta *s = &r->s[i];

		if (i > 0 && s->osd != r->s[i - 1].osd)
			flush_calls(f, sum, has, b);
		if (!call_total(s))
			continue;
		if (has[s->cls]) {
			hist_add(&sum[s->cls].cum, &s->cum);
			continue;
		}
		sum[s->cls] = *s;
		sum[s->cls].optype = OPI_0x1401;
		has[s->cls] = true;
	}
	flush_calls(f, sum, has, b);
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void one(FILE *f, const char *name, const char *type, const char *help,
		unsigned long long v)
{
	family(f, name, type, help);
	fprintf(f, "%s %llu\n", name, v);
}

/* BPF health counters that are not losses, by name; any other one (a
 * counter added later) is exported as osdhist_<json name>_total. */
static const struct {
	const char *name, *help;
} activity[NR_HEALTH] = {
	[H_DONE] = { "osdhist_ops_done_total",
		     "Ops recorded at their success end (log_op_stats, repop_commit)." },
	[H_ERROR_END] = { "osdhist_ops_error_ends_total",
			  "Followed ops that ended without a success end (class error or pg)." },
	[H_ENTRIES] = { "osdhist_inflight_entries_total",
			"Entries put in the in-flight map (done marks, or ops followed "
			"from enqueue_op with -P/--phases)." },
	[H_REMOVED] = { "osdhist_inflight_removed_total",
			"In-flight entries removed at their op's last reference." },
	[H_IGNORED] = { "osdhist_ignored_messages_total",
			"Messages of kinds osdhist does not follow (replica replies, "
			"recovery, ...); not a loss." },
	[H_OUTSIDE] = { "osdhist_ops_outside_total",
			"Ops not recorded because they were received outside the "
			"traced time (before osdhist, or between --sample windows); "
			"not a loss." },
};

static void print_health(FILE *f, const struct report *r)
{
	const struct health_report *h = &r->health;
	struct loader_loss ll[NR_LOADER_LOSSES];
	char name[96];

	for (int i = 0; i < NR_HEALTH; i++) {
		if (health_is_loss(i))
			continue;
		if (activity[i].name) {
			one(f, activity[i].name, "counter", activity[i].help, h->bpf[i]);
			continue;
		}
		snprintf(name, sizeof(name), "osdhist_%s_total", health_name[i]);
		fprintf(f, "# HELP %s Health counter %s (see osdhist(8)).\n"
			"# TYPE %s counter\n%s %llu\n", name, health_name[i], name,
			name, (unsigned long long)h->bpf[i]);
	}

	family(f, "osdhist_ops_lost_total", "counter",
	       "Ops osdhist did not follow, by reason (see osdhist(8)); "
	       "any increase means latencies are missing from the histograms.");
	for (int i = 0; i < NR_HEALTH; i++)
		if (health_is_loss(i))
			fprintf(f, "osdhist_ops_lost_total{reason=\"%s\"} %llu\n",
				health_name[i], (unsigned long long)h->bpf[i]);
	health_loader_losses(h, ll);
	for (int i = 0; i < NR_LOADER_LOSSES; i++)
		fprintf(f, "osdhist_ops_lost_total{reason=\"%s\"} %llu\n",
			ll[i].name, (unsigned long long)ll[i].value);

	if (h->http) {
		family(f, "osdhist_http_rejected_total", "counter",
		       "Connections and requests the /metrics endpoint refused or "
		       "dropped, by reason (limits and reasons in osdhist(8)).");
		for (int i = 0; i < NR_HTTP_REJECT; i++)
			fprintf(f, "osdhist_http_rejected_total{reason=\"%s\"} %llu\n",
				http_reject_name[i],
				(unsigned long long)h->http_rejected[i]);
	}

	one(f, "osdhist_slow_unread_total", "counter",
	    "Slowest-op sets still being written 100 ms after their interval "
	    "closed, left out of it; not a loss.", h->slow_unread);
	one(f, "osdhist_inflight_ops", "gauge",
	    "Ops in the in-flight map now.", h->inflight);
	one(f, "osdhist_inflight_capacity", "gauge",
	    "Size of the in-flight map.", h->inflight_max);
	one(f, "osdhist_hist_keys", "gauge",
	    "Histogram keys in use in the kernel map now.", h->hists);
	one(f, "osdhist_hist_keys_capacity", "gauge",
	    "Size of the kernel histogram map.", h->hists_max);
	one(f, "osdhist_front_rows", "gauge",
	    "Histogram keys with a per-CPU front row now (the rest take the "
	    "shared tail: osdhist_tail_ops_total).", h->front_rows);
	one(f, "osdhist_front_rows_capacity", "gauge",
	    "Per-CPU front rows for histogram keys, as sized for the CPU count.",
	    h->front_rows_max);
	one(f, "osdhist_traced_processes", "gauge",
	    "ceph-osd processes found now (traced or not).", h->osds);
	/* An OSD running but not traced would otherwise only be a line on
	 * stderr: the alert OsdhistOsdNotTraced reads this. */
	one(f, "osdhist_untraced_processes", "gauge",
	    "ceph-osd processes found but not traced (binary refused; stderr says why).",
	    h->untraced);
	one(f, "osdhist_attached_binaries", "gauge",
	    "ceph-osd binaries with probes attached now.", h->binaries);
	one(f, "osdhist_duplicate_osd_ids", "gauge",
	    "OSD ids claimed by more than one ceph-osd process (the health line lists them).",
	    h->dup.n);
	one(f, "osdhist_held_ops", "gauge",
	    "Ops of ceph-osd processes whose OSD id another process runs, held out of every series until one of them exits.",
	    h->held_ops);
	/* With --sample, counts cover only the traced time: rate(count) /
	 * rate(traced seconds) estimates the real ops/s. */
	family(f, "osdhist_traced_seconds_total", "counter",
	       "Seconds during which starting ops were followed (all of them unless --sample).");
	fprintf(f, "osdhist_traced_seconds_total %.3f\n", h->traced_total);
	family(f, "osdhist_last_snapshot_timestamp_seconds", "gauge",
	       "Unix time of the snapshot these values come from.");
	fprintf(f, "osdhist_last_snapshot_timestamp_seconds %.3f\n", r->time);
}

/* The oracle's verdict per OSD; the alert rules fire on the mismatch gauge. */
static void print_verify(FILE *f, const struct report *r)
{
	if (!r->nverify)
		return;
	family(f, "osdhist_verify_state", "gauge",
	       "1 for the OSD's current state against its own perf counters: "
	       "verified, unverified (no socket, timeout, ...) or mismatch.");
	for (int i = 0; i < r->nverify; i++)
		for (int s = 0; s < NR_VERIFY_STATES; s++) {
			put_daemon(f, "osdhist_verify_state", r->verify[i].osd);
			fprintf(f, ",state=\"%s\"} %d\n", verify_state_name[s],
				(int)r->verify[i].state == s);
		}
	family(f, "osdhist_verify_mismatch", "gauge",
	       "1 while osdhist's count of this class has disagreed with Ceph's "
	       "counter (op_r, op_w, op_rw, subop_w) beyond the bound for several "
	       "checks: the derived offsets may be wrong for this build.");
	for (int i = 0; i < r->nverify; i++)
		for (int k = 0; k < NR_VC; k++)
			if (r->verify[i].cls[k].compared) {
				put_daemon(f, "osdhist_verify_mismatch", r->verify[i].osd);
				fprintf(f, ",class=\"%s\"} %d\n", class_name[verify_op_class[k]],
					r->verify[i].cls[k].mismatch);
			}
	family(f, "osdhist_verify_excess_ops", "gauge",
	       "How far osdhist's count since the baseline is outside the bound "
	       "around Ceph's counter (0 inside; negative: fewer ops than Ceph).");
	for (int i = 0; i < r->nverify; i++)
		for (int k = 0; k < NR_VC; k++)
			if (r->verify[i].cls[k].compared) {
				put_daemon(f, "osdhist_verify_excess_ops", r->verify[i].osd);
				fprintf(f, ",class=\"%s\"} %lld\n", class_name[verify_op_class[k]],
					(long long)r->verify[i].cls[k].j.excess);
			}
}


/* The last interval's slowest op of each OSD and class (the slots are by
 * OSD, slowest first).  No object or client label: one per object would
 * make the series count unbounded; the text and JSON outputs name them. */
static void print_slowest(FILE *f, const struct report *r)
{
	bool seen[NR_CLASSES] = { false };
	int osd = OSD_NONE;

	if (!r->slow_k)
		return;
	family(f, "osdhist_slowest_op_seconds", "gauge",
	       "Latency of the slowest client op of the last interval, by OSD "
	       "and class (--slowest; the text and JSON outputs name its "
	       "object and client).");
	for (int i = 0; i < r->nslow; i++) {
		const struct slowop *o = &r->slow[i].op;
		unsigned c = o->cls % NR_CLASSES;

		if (r->slow[i].osd != osd) {
			osd = r->slow[i].osd;
			memset(seen, 0, sizeof(seen));
		}
		if (seen[c])
			continue;
		seen[c] = true;
		put_daemon(f, "osdhist_slowest_op_seconds", osd);
		fprintf(f, ",class=\"%s\"} ", class_name[c]);
		put_seconds(f, o->total_ns);
		fprintf(f, "\n");
	}
}

static void print_opcodes(FILE *f, const char *name, const struct report *r,
			  bool failed)
{
	for (int i = 0; i < r->nopc; i++) {
		const struct opcode_delta *d = &r->opc[i];

		put_daemon(f, name, d->osd);
		fprintf(f, ",op=\"%s\"} %llu\n", op_name(d->opi),
			(unsigned long long)(failed ? d->failed_cum : d->ops_cum));
	}
}

void render_prom(FILE *f, const struct report *r, const struct prom_buckets *b,
		 const char *version)
{
	family(f, FAMILY, "histogram",
	       "Latency of Ceph OSD ops measured by osdhist's uprobes, by OSD, "
	       "op class and phase (total: from the message's receipt, Ceph's "
	       "recv_stamp, to the end of the op, as Ceph's op_latency); bucket "
	       "counts are conservative to within 12.5 %.");
	for (int i = 0; i < r->n; i++)
		if (r->s[i].optype == OPTYPE_ALL)
			print_hist(f, FAMILY, &r->s[i], b);
	family(f, OPTYPE_FAMILY, "histogram",
	       "Total latency of Ceph OSD client ops by OSD, op class and op type "
	       "(the message's first op code that is not a guard or hint, e.g. "
	       "write for [set-alloc-hint, write]; op=\"call\" sums every class "
	       "method, which the op-code counters name); buckets as "
	       FAMILY ".");
	for (int i = 0; i < r->n; i++)
		if (r->s[i].optype != OPTYPE_ALL && r->s[i].phase == PHASE_TOTAL &&
		    !is_call(r->s[i].optype))
			print_hist(f, OPTYPE_FAMILY, &r->s[i], b);
	print_call_hists(f, r, b);
	family(f, "osdhist_op_code_ops_total", "counter",
	       "Ops of each Ceph op code (CEPH_OSD_OP_*, by Ceph's name) in the "
	       "client messages an OSD served; a message holds one or more ops.  "
	       "A class method call is named op=\"call <class>.<method>\", at most "
	       "64 names an OSD process, then \"call other\".");
	print_opcodes(f, "osdhist_op_code_ops_total", r, false);
	family(f, "osdhist_op_code_failed_total", "counter",
	       "Ops of each op code that failed: their rval < 0, or their message "
	       "ended without Ceph counting it (an error reply).");
	print_opcodes(f, "osdhist_op_code_failed_total", r, true);
	print_slowest(f, r);
	print_health(f, r);
	print_verify(f, r);
	family(f, "osdhist_build_info", "gauge", "osdhist's version; always 1.");
	fprintf(f, "osdhist_build_info{version=\"");
	esc_prom(f, version);
	fprintf(f, "\"} 1\n");
}

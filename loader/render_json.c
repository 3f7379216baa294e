// SPDX-License-Identifier: GPL-2.0
/* JSON lines: one object per series with ops in the interval, then one
 * health object.  The schema is in docs/reference.md. */
#include "report.h"
#include "stats.h"

static void print_series(FILE *f, const struct report *r, const struct series_delta *s)
{
	double time = r->time;
	const struct hist *h = &s->h;
	bool first = true;

	fprintf(f, "{\"type\":\"hist\",\"time\":%.3f,\"osd\":%d,", time, s->osd);
	if (s->pool >= 0)
		fprintf(f, "\"pool\":%lld,", (long long)s->pool);
	fprintf(f, "\"class\":\"%s\",\"phase\":\"%s\",\"count\":%llu,"
		"\"sum_ns\":%llu,\"p50_ns\":%.0f,\"p90_ns\":%.0f,\"p99_ns\":%.0f,"
		"\"p999_ns\":%.0f,\"max_ns\":%llu,\"interval_s\":%.3f,"
		"\"traced_s\":%.3f,\"ops_per_s\":%.3f,\"est_ops_per_s\":%.3f,"
		"\"buckets\":[",
		class_name[s->cls], phase_name[s->phase],
		(unsigned long long)h->count, (unsigned long long)h->sum_ns,
		hist_quantile(h, 0.50), hist_quantile(h, 0.90),
		hist_quantile(h, 0.99), hist_quantile(h, 0.999),
		(unsigned long long)hist_max(h), r->interval, r->traced,
		r->interval > 0 ? h->count / r->interval : 0,
		r->traced > 0 ? h->count / r->traced : 0);
	for (__u32 i = 0; i < NR_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		fprintf(f, "%s[%llu,%llu]", first ? "" : ",",
			(unsigned long long)osdhist_bucket_upper(i),
			(unsigned long long)h->buckets[i]);
		first = false;
	}
	fprintf(f, "]}\n");
}

static void print_health(FILE *f, const struct report *r)
{
	const struct health_report *h = &r->health;
	struct loader_loss ll[NR_LOADER_LOSSES];

	fprintf(f, "{\"type\":\"health\",\"time\":%.3f,\"interval_s\":%.3f,"
		"\"traced_s\":%.3f,\"sampled\":%s,\"window_moves\":%llu,"
		"\"window_move_s\":%.6f", r->time, r->interval, r->traced,
		r->sampled ? "true" : "false", (unsigned long long)h->window_moves,
		h->window_move_s);
	for (int i = 0; i < NR_HEALTH; i++)
		fprintf(f, ",\"%s\":%llu", health_name[i], (unsigned long long)h->bpf[i]);
	health_loader_losses(h, ll);
	for (int i = 0; i < NR_LOADER_LOSSES; i++)
		fprintf(f, ",\"%s\":%llu", ll[i].name, (unsigned long long)ll[i].value);
	fprintf(f, ",\"inflight\":%llu,\"inflight_max\":%llu,\"hist_keys\":%llu,"
		"\"hist_keys_max\":%llu,\"osds\":%d,\"binaries\":%d,\"losses\":%llu}\n",
		(unsigned long long)h->inflight, (unsigned long long)h->inflight_max,
		(unsigned long long)h->hists, (unsigned long long)h->hists_max,
		h->osds, h->binaries, (unsigned long long)health_losses(h));
}

void render_json(FILE *f, const struct report *r)
{
	for (int i = 0; i < r->n; i++)
		if (r->s[i].h.count)
			print_series(f, r, &r->s[i]);
	print_health(f, r);
	fflush(f);
}

// SPDX-License-Identifier: GPL-2.0
/* JSON lines: one object per class series with ops in the interval, one
 * per op type and per op code, then one health object.  The schema is in
 * docs/reference.md. */
#include "util/escape.h"
#include "report/names.h"
#include "report/report.h"
#include "report/slowops.h"
#include "report/stats.h"
#include "report/verify_report.h"
#include "report/clusters.h"

/* An OSD's cluster: its fsid (a UUID: nothing to escape), "" if unknown. */
#define FSID(osd) cluster_fsid(osd_cluster_of(osd))

static void print_series(FILE *f, const struct report *r, const struct series_delta *s)
{
	double time = r->time;
	const struct hist *h = &s->h;
	bool first = true;

	fprintf(f, "{\"type\":\"%s\",\"time\":%.3f,\"osd\":%d,\"fsid\":\"%s\",",
		s->optype == OPTYPE_ALL ? "hist" : "optype", time, osd_id_of(s->osd),
		FSID(s->osd));
	if (s->pool >= 0)
		fprintf(f, "\"pool\":%lld,", (long long)s->pool);
	if (s->optype != OPTYPE_ALL)
		fprintf(f, "\"op\":\"%s\",", op_name(s->optype));
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
		"\"window_move_s\":%.6f,\"windows_unlisted\":%llu", r->time,
		r->interval, r->traced, r->sampled ? "true" : "false",
		(unsigned long long)h->window_moves, h->window_move_s,
		(unsigned long long)h->windows_unlisted);
	/* which variant of bpf/ the kernel's features chose */
	if (h->variant.clock)
		fprintf(f, ",\"clock\":\"%s\",\"scan\":\"%s\",\"uprobes\":\"%s\"",
			h->variant.clock, h->variant.scan, h->variant.uprobes);
	for (int i = 0; i < NR_HEALTH; i++)
		fprintf(f, ",\"%s\":%llu", health_name[i], (unsigned long long)h->bpf[i]);
	health_loader_losses(h, ll);
	for (int i = 0; i < NR_LOADER_LOSSES; i++)
		fprintf(f, ",\"%s\":%llu", ll[i].name, (unsigned long long)ll[i].value);
	for (int i = 0; h->http && i < NR_HTTP_REJECT; i++)	/* --prometheus only */
		fprintf(f, ",\"http_rejected_%s\":%llu", http_reject_name[i],
			(unsigned long long)h->http_rejected[i]);
	for (int i = 0; i < NR_KEYMAPS; i++)
		fprintf(f, ",\"keys_%s\":%llu,\"keys_%s_max\":%llu", keymap_name[i],
			(unsigned long long)h->keys[i], keymap_name[i],
			(unsigned long long)h->keys_max[i]);
	fprintf(f, ",\"slow_unread\":%llu", (unsigned long long)h->slow_unread);
	fprintf(f, ",\"front_rows\":%u,\"front_rows_max\":%u,\"opc_rows\":%u,"
		"\"opc_rows_max\":%u", h->front_rows, h->front_rows_max, h->opc_rows,
		h->opc_rows_max);
	/* OSD ids more than one process claims (proctable.h) */
	fprintf(f, ",\"duplicate_ids\":%d,\"duplicate_id_list\":[", h->dup.n);
	for (int i = 0; i < h->dup.n && i < DUP_IDS_LISTED; i++)
		fprintf(f, "%s{\"osd\":%d,\"fsid\":\"%s\",\"processes\":%d,\"pid\":%d}",
			i ? "," : "", osd_id_of(h->dup.id[i].osd), FSID(h->dup.id[i].osd),
			h->dup.id[i].procs, h->dup.id[i].pid);
	fprintf(f, "]");
	fprintf(f, ",\"held_procs\":%d,\"held_ops\":%llu", h->held,
		(unsigned long long)h->held_ops);
	if (h->held)
		fprintf(f, ",\"held\":{\"pid\":%d,\"osd\":%d,\"fsid\":\"%s\",\"holder\":%d}",
			h->held_pid, osd_id_of(h->held_osd), FSID(h->held_osd), h->held_holder);
	fprintf(f, ",\"inflight\":%llu,\"inflight_max\":%llu,\"hist_keys\":%llu,"
		"\"hist_keys_max\":%llu,\"osds\":%d,\"binaries\":%d,\"losses\":%llu}\n",
		(unsigned long long)h->inflight, (unsigned long long)h->inflight_max,
		(unsigned long long)h->hists, (unsigned long long)h->hists_max,
		h->osds, h->binaries, (unsigned long long)health_losses(h));
}

/* The interval's slowest ops, one object each, slowest first per OSD. */
static void print_slowops(FILE *f, const struct report *r)
{
	for (int i = 0, rank = 0; i < r->nslow; i++) {
		const struct slow_entry *e = &r->slow[i];
		const struct slowop *o = &e->op;
		char obj[SLOW_OBJECT_MAX], name[SLOW_OBJECT_MAX];
		char who[SLOW_REQID_MAX], pg[SLOW_PG_MAX];
		unsigned n = o->nops < SLOW_OPS ? o->nops : SLOW_OPS;

		rank = i && e->osd == r->slow[i - 1].osd ? rank + 1 : 1;
		slow_object_text(o, obj);
		slow_name_text(o, name);
		slow_reqid_text(o, who);
		slow_pg_text(o, pg);
		fprintf(f, "{\"type\":\"slowop\",\"time\":%.3f,\"osd\":%d,\"fsid\":\"%s\",\"rank\":%d,"
			"\"total_ns\":%llu,\"queue_ns\":%llu,\"end_ns\":%llu,"
			"\"class\":\"%s\",\"op\":\"%s\",\"nops\":%u,\"ops\":[", r->time,
			osd_id_of(e->osd), FSID(e->osd), rank, (unsigned long long)o->total_ns,
			(unsigned long long)o->queue_ns, (unsigned long long)o->end_rt,
			class_name[o->cls % NR_CLASSES],
			o->optype == OPTYPE_ALL ? "all" : op_name(o->optype), o->nops);
		for (unsigned j = 0; j < n; j++)
			fprintf(f, "%s\"%s\"", j ? "," : "", op_name(o->op[j]));
		fprintf(f, "],\"pool\":%lld,\"pg\":\"%s\",\"object\":", (long long)o->pool, pg);
		esc_json(f, obj);	/* Ceph's escaping leaves " and \ */
		fprintf(f, ",\"name\":");
		esc_json(f, name);
		fprintf(f, ",\"object_len\":%u,\"nspace_len\":%u,\"key_len\":%u,"
			"\"client\":\"%s\",\"tid\":%llu}\n", o->name_len, o->ns_len,
			o->key_len, who, (unsigned long long)o->client[2]);
	}
}

/* One object per traced OSD: its state against Ceph's own counters. */
static void print_verify(FILE *f, const struct report *r)
{
	for (int i = 0; i < r->nverify; i++) {
		const struct verify_report *v = &r->verify[i];
		bool first = true;

		fprintf(f, "{\"type\":\"verify\",\"time\":%.3f,\"osd\":%d,\"fsid\":\"%s\",\"pid\":%d,"
			"\"state\":\"%s\",\"reason\":", r->time, osd_id_of(v->osd), FSID(v->osd), (int)v->pid,
			verify_state_name[v->state]);
		esc_json(f, v->reason);	/* may quote what a socket answered */
		fprintf(f, ",\"socket\":");
		esc_json(f, v->socket);	/* the process's choice */
		fprintf(f, ",\"since\":%.3f,\"checks\":%llu,\"slack\":%d,\"classes\":{",
			v->since, (unsigned long long)v->checks, VERIFY_SLACK);
		for (int k = 0; k < NR_VC; k++) {
			const struct verify_class_report *c = &v->cls[k];

			if (!c->compared)
				continue;
			fprintf(f, "%s\"%s\":{\"osdhist\":%llu,\"counter\":\"%s\","
				"\"ceph_min\":%lld,\"ceph_max\":%lld,\"excess\":%lld,"
				"\"mismatch\":%s}", first ? "" : ",",
				class_name[verify_op_class[k]], (unsigned long long)c->j.ours,
				verify_counter[k], (long long)c->j.ceph_lo,
				(long long)c->j.ceph_hi, (long long)c->j.excess,
				c->mismatch ? "true" : "false");
			first = false;
		}
		fprintf(f, "}}\n");
	}
}

void render_json(FILE *f, const struct report *r)
{
	for (int i = 0; i < r->n; i++)
		if (r->s[i].h.count &&
		    (r->s[i].optype == OPTYPE_ALL || r->s[i].phase == PHASE_TOTAL))
			print_series(f, r, &r->s[i]);
	for (int i = 0; i < r->nopc; i++) {
		const struct opcode_delta *d = &r->opc[i];

		if (!d->ops && !d->failed)
			continue;
		fprintf(f, "{\"type\":\"opcode\",\"time\":%.3f,\"osd\":%d,\"fsid\":\"%s\","
			"\"op\":\"%s\",\"ops\":%llu,\"failed\":%llu,\"ops_total\":%llu,"
			"\"failed_total\":%llu}\n", r->time, osd_id_of(d->osd), FSID(d->osd), op_name(d->opi),
			(unsigned long long)d->ops, (unsigned long long)d->failed,
			(unsigned long long)d->ops_cum, (unsigned long long)d->failed_cum);
	}
	/* --sample: the traced time in Ceph's clock, so that what a window
	 * recorded can be matched with Ceph's own op stamps */
	for (int i = 0; i < r->nwindows; i++)
		fprintf(f, "{\"type\":\"window\",\"time\":%.3f,\"open_ns\":%llu,"
			"\"close_ns\":%llu}\n", r->time,
			(unsigned long long)r->windows[i].open_rt,
			(unsigned long long)r->windows[i].close_rt);
	print_slowops(f, r);
	print_verify(f, r);
	print_health(f, r);
	fflush(f);
}

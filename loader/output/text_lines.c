// SPDX-License-Identifier: GPL-2.0
/* The lines the text output and the table both print (text_lines.h). */
#include <time.h>

#include "report/names.h"
#include "report/report.h"
#include "report/verify_report.h"
#include "text_lines.h"

/* --prometheus: what /metrics turned away, e.g. ", http rejected 3
 * (per_ip_limit=2 request_timeout=1)". */
static void print_http(FILE *f, const struct health_report *h)
{
	__u64 n = 0;
	const char *sep = " (";

	if (!h->http)
		return;
	for (int i = 0; i < NR_HTTP_REJECT; i++)
		n += h->http_rejected[i];
	fprintf(f, ", http rejected %llu", (unsigned long long)n);
	for (int i = 0; i < NR_HTTP_REJECT; i++) {
		if (!h->http_rejected[i])
			continue;
		fprintf(f, "%s%s=%llu", sep, http_reject_name[i],
			(unsigned long long)h->http_rejected[i]);
		sep = " ";
	}
	if (n)
		fprintf(f, ")");
}

/* OSD ids more than one process claims (proctable.h), e.g. ", DUPLICATE
 * OSD IDS 1 (osd.3: 2 processes, series of pid 812)". */
static void print_dup(FILE *f, const struct dup_ids *d)
{
	if (!d->n)
		return;
	fprintf(f, ", DUPLICATE OSD IDS %d (", d->n);
	for (int i = 0; i < d->n && i < DUP_IDS_LISTED; i++) {
		char name[OSD_LABEL_MAX];

		osd_label(name, d->id[i].osd);
		fprintf(f, "%s%s: %d processes, ", i ? "; " : "", name, d->id[i].procs);
		if (d->id[i].pid)
			fprintf(f, "series of pid %d", d->id[i].pid);
		else
			fprintf(f, "none traced");
	}
	fprintf(f, "%s)", d->n > DUP_IDS_LISTED ? "; ..." : "");
}

void text_health(FILE *f, const struct health_report *h)
{
	__u64 losses = health_losses(h);
	struct loader_loss ll[NR_LOADER_LOSSES];

	fprintf(f, "%shealth: %d osd, %d binary, ops %llu done + %llu error ends, "
		"in flight %llu/%llu, hist keys %llu/%llu, per-CPU rows %u/%u "
		"(tail ops %llu), ignored msgs %llu",
		losses ? "!! " : "", h->osds, h->binaries,
		(unsigned long long)h->bpf[H_DONE],
		(unsigned long long)h->bpf[H_ERROR_END],
		(unsigned long long)h->inflight, (unsigned long long)h->inflight_max,
		(unsigned long long)h->hists, (unsigned long long)h->hists_max,
		h->front_rows, h->front_rows_max, (unsigned long long)h->bpf[H_TAIL],
		(unsigned long long)h->bpf[H_IGNORED]);
	print_http(f, h);
	print_dup(f, &h->dup);
	if (h->held) {
		char name[OSD_LABEL_MAX];

		osd_label(name, h->held_osd);
		fprintf(f, ", HELD OPS %llu of %d process%s (pid %d claims %s",
			(unsigned long long)h->held_ops, h->held, h->held > 1 ? "es" : "",
			h->held_pid, name);
		if (h->held_holder)
			fprintf(f, ", which pid %d runs: held until one of them exits)",
				h->held_holder);
		else
			fprintf(f, ": held until its cluster is read)");
	}
	if (h->bpf[H_SLOW_BUSY] || h->bpf[H_SLOW_LATE] || h->slow_unread)
		fprintf(f, ", slowest ops not kept %llu (busy %llu, late %llu, unread sets %llu)",
			(unsigned long long)(h->bpf[H_SLOW_BUSY] + h->bpf[H_SLOW_LATE]),
			(unsigned long long)h->bpf[H_SLOW_BUSY],
			(unsigned long long)h->bpf[H_SLOW_LATE],
			(unsigned long long)h->slow_unread);
	if (!losses) {
		fprintf(f, "; no op lost\n");
		return;
	}
	fprintf(f, "; OPS NOT FOLLOWED:");
	for (int i = 0; i < NR_HEALTH; i++)
		if (health_is_loss(i) && h->bpf[i])
			fprintf(f, " %s=%llu", health_name[i],
				(unsigned long long)h->bpf[i]);
	health_loader_losses(h, ll);
	for (int i = 0; i < NR_LOADER_LOSSES; i++)
		if (ll[i].value)
			fprintf(f, " %s=%llu", ll[i].name, (unsigned long long)ll[i].value);
	fprintf(f, "\n");
}

void text_mismatch(FILE *f, const char *name, int k,
		   const struct verify_class_report *c)
{
	fprintf(f, "!! VERIFY MISMATCH %s class %s: osdhist counted %llu ops, "
		"Ceph's %s %lld..%lld since the baseline: the offsets osdhist "
		"derived may be wrong for this build of ceph-osd\n", name,
		class_name[verify_op_class[k]], (unsigned long long)c->j.ours,
		verify_counter[k], (long long)c->j.ceph_lo, (long long)c->j.ceph_hi);
}

void text_clock(char *out, size_t size, double t, bool date)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char hms[32];

	localtime_r(&tt, &tm);
	strftime(hms, sizeof(hms), date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm);
	if (date)
		snprintf(out, size, "%s.%03d", hms, (int)((t - (double)tt) * 1000) % 1000);
	else
		snprintf(out, size, "%s", hms);
}

void text_timestamp(FILE *f, double t)
{
	char buf[32];

	text_clock(buf, sizeof(buf), t, false);
	fprintf(f, "%s\n", buf);
}

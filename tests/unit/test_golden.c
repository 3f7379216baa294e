// SPDX-License-Identifier: GPL-2.0
/*
 * One recorded snapshot, as text, JSON, Prometheus and the table print it, byte for
 * byte against tests/unit/golden/: a change that moves the renderers (or
 * what they include) must leave what an operator sees as it was.  Runs
 * first (main.c): the call names and clusters other tests register would
 * change the names.  OSDHIST_GOLDEN_WRITE=1 writes the files instead, for a
 * change that means to change the output (review the diff).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "unit.h"
#include "fixture.h"
#include "report/report.h"
#include "report/slowops.h"
#include "report/verify_report.h"
#include "sampler.h"

#define GOLDEN_DIR	"tests/unit/golden"

static void series(struct series_delta *s, int osd, __s64 pool, __u8 cls, __u8 optype,
		   __u8 phase, __u64 base_ns, __u64 n)
{
	*s = (struct series_delta){ .osd = osd, .pool = pool, .cls = cls,
				    .optype = optype, .phase = phase };
	/* n ops over four buckets from base_ns, and as many before this
	 * interval in cum */
	for (__u64 i = 0; i < n; i++) {
		__u64 ns = base_ns << (i % 4);
		unsigned b = osdhist_bucket(ns);

		s->h.buckets[b]++;
		s->h.sum_ns += ns;
		s->cum.buckets[b] += 2;
		s->cum.sum_ns += 2 * ns;
	}
	s->h.count = n;
	s->cum.count = 2 * n;
}

static void slow(struct slow_entry *e, int osd, __u64 total_us, const char *name,
		 const char *ns)
{
	struct slowop *o = &e->op;

	*e = (struct slow_entry){ .osd = osd };
	o->total_ns = total_us * 1000;
	o->queue_ns = total_us * 400;
	o->end_rt = 1700000004123456789ULL;
	o->client[0] = 8;	/* CEPH_ENTITY_TYPE_CLIENT */
	o->client[1] = 4122;
	o->client[2] = 56;
	o->pool = o->obj_pool = 1;
	o->pg_seed = 0x7;
	o->snap = (__u64)-2;	/* head */
	o->revhash = 0xfde8916b;
	o->cls = CLASS_WRITE;
	o->optype = OPI_0x2202;
	o->nops = 2;
	o->shard = -1;
	o->op[0] = OPI_0x2202;
	o->op[1] = OPI_0x1201;
	o->name_len = strlen(name);
	memcpy(o->name, name, o->name_len);
	o->ns_len = strlen(ns);
	memcpy(o->ns, ns, o->ns_len);
}

/* The snapshot: two OSDs (one with pools), the series no OSD id names,
 * op types and codes, the self-check in each state, the slowest ops with
 * names to escape, sampling windows, and health with a loss. */
static void recorded(struct report *r)
{
	static struct series_delta s[12];
	static struct opcode_delta oc[3];
	static struct verify_report v[3];
	static struct slow_entry se[3];
	static struct window_span w[2];
	int n = 0;

	series(&s[n++], 0, -1, CLASS_READ, OPTYPE_ALL, PHASE_TOTAL, 150000, 40);
	series(&s[n++], 0, -1, CLASS_READ, OPTYPE_ALL, PHASE_QUEUE, 20000, 40);
	series(&s[n++], 0, -1, CLASS_WRITE, OPTYPE_ALL, PHASE_TOTAL, 900000, 25);
	series(&s[n++], 0, -1, CLASS_WRITE, OPTYPE_ALL, PHASE_QUEUE, 60000, 25);
	series(&s[n++], 0, -1, CLASS_WRITE, OPI_0x2202, PHASE_TOTAL, 900000, 25);
	series(&s[n++], 0, -1, CLASS_ERROR, OPTYPE_ALL, PHASE_TOTAL, 300000, 3);
	series(&s[n++], 12, 3, CLASS_SUBOP, OPTYPE_ALL, PHASE_TOTAL, 400000, 9);
	series(&s[n++], 12, 5, CLASS_RW, OPTYPE_ALL, PHASE_TOTAL, 2500000, 4);
	series(&s[n++], OSD_UNKNOWN, -1, CLASS_READ, OPTYPE_ALL, PHASE_TOTAL, 100000, 2);
	series(&s[n++], OSD_DUPLICATE, -1, CLASS_WRITE, OPTYPE_ALL, PHASE_TOTAL, 700000, 1);
	oc[0] = (struct opcode_delta){ .osd = 0, .opi = OPI_0x2202, .ops = 25, .ops_cum = 50 };
	oc[1] = (struct opcode_delta){ .osd = 0, .opi = OPI_0x1201, .ops = 40, .failed = 3,
				       .ops_cum = 80, .failed_cum = 6 };
	oc[2] = (struct opcode_delta){ .osd = 12, .opi = OPI_0x1201, .ops = 1, .ops_cum = 1 };

	v[0] = (struct verify_report){ .osd = 0, .pid = 4321, .state = VERIFY_VERIFIED,
				       .since = 1699999990, .checks = 11 };
	strcpy(v[0].socket, "/run/ceph/ceph-osd.0.asok");
	for (int c = 0; c < NR_VC; c++) {
		v[0].cls[c].compared = c != VC_SUBOP;
		v[0].cls[c].j = (struct verify_judgement){ .ours = 40 + c, .ceph_lo = 40 + c,
							   .ceph_hi = 41 + c };
		v[0].cls[c].inside = 11;
	}
	v[1] = (struct verify_report){ .osd = 12, .pid = 4400, .state = VERIFY_UNVERIFIED };
	strcpy(v[1].reason, "timeout: no answer on \"/run/x\x1b[2J.asok\" in 2 s");
	v[2] = (struct verify_report){ .osd = 13, .pid = 4500, .state = VERIFY_MISMATCH,
				       .since = 1699999980, .checks = 40 };
	v[2].cls[VC_WRITE] = (struct verify_class_report){
		.compared = true, .outside = 3, .mismatch = true,
		.j = { .ours = 900, .ceph_lo = 1000, .ceph_hi = 1004, .excess = -84 } };

	slow(&se[0], 0, 116543, "benchmark_data_vm_25190_object55", "");
	slow(&se[1], 0, 87755, "big:1/\x01" "caf\xc3\xa9", "rgw.meta");
	slow(&se[2], 12, 5000, "", "");
	se[2].op.name_len = 0;	/* rejected before Ceph decoded it */

	w[0] = (struct window_span){ 1700000000000000000ULL, 1700000001000000000ULL };
	w[1] = (struct window_span){ 1700000003000000000ULL, 1700000004000000000ULL };

	*r = (struct report){ .time = 1700000005.25, .interval = 5, .traced = 2,
			      .sampled = true, .windows = w, .nwindows = 2,
			      .s = s, .n = n, .opc = oc, .nopc = 3,
			      .verify = v, .nverify = 3, .slow = se, .nslow = 3,
			      .slow_k = 10 };
	r->health.bpf[H_DONE] = 97;
	r->health.bpf[H_ERROR_END] = 3;
	r->health.bpf[H_ENTRIES] = 97;
	r->health.bpf[H_REMOVED] = 100;
	r->health.bpf[H_READ_FAIL] = 2;
	r->health.bpf[H_TAIL] = 14;
	r->health.bpf[H_TAIL_OPC] = 3;
	r->health.traced_total = 2;
	r->health.window_moves = 4;
	r->health.window_move_s = 0.2;
	r->health.unknown_ops = 2;
	r->health.inflight = 5;
	r->health.inflight_max = 32768;
	r->health.hists = 10;
	r->health.hists_max = 16384;
	r->health.front_rows = 6;
	r->health.front_rows_max = 256;
	r->health.opc_rows = 2;
	r->health.opc_rows_max = 192;
	r->health.keys[KM_HISTS] = 10;
	r->health.keys_max[KM_HISTS] = 8192;
	r->health.osds = 4;
	r->health.untraced = 1;
	r->health.binaries = 1;
	r->health.dup = (struct dup_ids){ .n = 1, .id = { { .osd = 7, .procs = 2, .pid = 4600 } } };
	r->health.variant = (struct variant){ "tai", "bpf_loop", "multi" };
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int c;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	while ((c = getc(f)) != EOF)
		putc(c, m);
	fclose(m);
	fclose(f);
	return buf;
}

/* out against GOLDEN_DIR/name, or written there (OSDHIST_GOLDEN_WRITE). */
static void against(const char *name, char *out)
{
	char path[256];
	char *want;

	snprintf(path, sizeof(path), "%s/%s", GOLDEN_DIR, name);
	if (getenv("OSDHIST_GOLDEN_WRITE")) {
		fx_put(GOLDEN_DIR, name, out, strlen(out));
		free(out);
		return;
	}
	want = slurp(path);
	if (!want)
		fail_msg("%s: %s (run from the tree's top; OSDHIST_GOLDEN_WRITE=1 makes it)",
			 path, strerror(errno));
	if (strcmp(want, out)) {
		size_t i = 0;

		while (want[i] && want[i] == out[i])
			i++;
		fail_msg("%s differs from the renderer's output at byte %zu:\n"
			 "want: %.80s\ngot:  %.80s", path, i, want + i, out + i);
	}
	free(want);
	free(out);
}

static void golden_outputs(void **state)
{
	struct report r;

	(void)state;
	setenv("TZ", "UTC", 1);	/* -T prints local time */
	tzset();
	recorded(&r);
	against("snapshot.txt", unit_render('t', &r));
	against("snapshot-T-m.txt", unit_render('T', &r));
	against("snapshot.json", unit_render('j', &r));
	against("snapshot.prom", unit_render('p', &r));
	against("snapshot-table.txt", unit_render('b', &r));
}

int run_golden_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(golden_outputs),
	};

	return cmocka_run_group_tests_name("golden", tests, NULL, NULL);
}

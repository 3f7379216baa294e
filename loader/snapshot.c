// SPDX-License-Identifier: GPL-2.0
/*
 * One snapshot: sum the per-CPU histograms, fold them per OSD, subtract the
 * previous snapshot.  The kernel maps are cumulative and the loader never
 * clears a live key; the keys of a process that has exited are folded into
 * `retired` first and only then deleted, so nothing is counted twice or lost.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <linux/types.h>
#include "osdhist.h"
#include "bpf_handles.h"
#include "calls.h"
#include "ceph/procs.h"
#include "deadkeys.h"
#include "front.h"
#include "inflight.h"
#include "snapshot.h"
#include "stats.h"
#include "testhooks.h"
#include "tracer.h"

/* Sets *p to n elements of elem bytes; out of memory, *p stays as it was. */
static bool resize(void **p, size_t n, size_t elem)
{
	void *q = realloc(*p, n * elem);

	if (q)
		*p = q;
	return q != NULL;
}

/* The keys noted, deleted even after an error: they are in `retired`.
 * Room for as many as the map holds (deadkeys.h): a dead key that finds
 * none is read as live, neither retired nor deleted, and the next snapshot
 * retires it; its process stays in the proc table until then, for its OSD
 * id. */
static void dead_init(struct dead_keys *d, const struct bpf_mapref *map, size_t size)
{
	dead_keys_init(d, size, testhook_dead_keys(map->max_entries));
}

static void dead_delete(struct dead_keys *d, int fd, __u64 *nkeys)
{
	for (size_t i = 0; i < d->n; i++)
		bpf_map_delete_elem(fd, dead_keys_at(d, i));
	*nkeys -= d->n;
	dead_keys_free(d);
}

/* The calls map, for the op ids of the call numbers (calls.h).  With dead
 * (at the start of a snapshot), also the keys of processes that have
 * exited already: this snapshot sees all their other keys dead, so their
 * names may go once it has retired them (a process that exits later in
 * the snapshot may have keys read as live: its names stay for the next). */
static int read_calls(struct tracer *t, struct dead_keys *dead)
{
	struct snapshots *s = &t->snap;
	int fd = t->bpf.calls.fd;
	struct call_key k;
	__u32 num;

	call_xlate_clear(&s->calls);
	s->call_keys = 0;
	map_for_each_key(fd, k) {
		if (bpf_map_lookup_elem(fd, &k, &num))
			continue;	/* deleted under us */
		s->call_keys++;
		if (call_xlate_put(&s->calls, &k, num))
			return -ENOMEM;
		if (dead && !tracer_alive(t, k.tgid) && dead_keys_room(dead))
			dead_keys_add(dead, &k);
	}
	return 0;
}

/* The op id of bpf/'s op index ix of process tgid.  A call number made
 * after the calls map was read is there now: bpf/ makes the key before it
 * counts an op under it. */
static __u8 op_id(struct tracer *t, __u32 tgid, unsigned ix)
{
	__u8 id = call_xlate(&t->snap.calls, tgid, ix);

	if (id)
		return id;
	read_calls(t, NULL);
	id = call_xlate(&t->snap.calls, tgid, ix);
	if (id)
		return id;
	call_xlate_gone(&t->snap.calls, tgid, ix);	/* not read again */
	return call_xlate(&t->snap.calls, tgid, ix);
}

static struct series_acc *series_of(struct tracer *t, int osd, __s64 pool,
				    __u8 cls, __u8 optype, __u8 phase)
{
	struct series_acc *s;

	for (int i = 0; i < t->snap.nseries; i++) {
		s = &t->snap.series[i];
		if (s->osd == osd && s->pool == pool && s->cls == cls &&
		    s->optype == optype && s->phase == phase)
			return s;
	}
	if (t->snap.nseries == t->snap.series_cap) {
		int cap = t->snap.series_cap ? 2 * t->snap.series_cap : 16;

		if (!resize((void **)&t->snap.series, cap, sizeof(*t->snap.series)) ||
		    !resize((void **)&t->snap.deltas, cap, sizeof(*t->snap.deltas)))
			return NULL;
		t->snap.series_cap = cap;
	}
	s = &t->snap.series[t->snap.nseries++];
	memset(s, 0, sizeof(*s));
	s->osd = osd;
	s->pool = pool;
	s->cls = cls;
	s->optype = optype;
	s->phase = phase;
	return s;
}

/* Adds one phase of a BPF key to its series: a key of one op type feeds
 * that op type's series and, without -P (where the pool keys do), its
 * class's. */
static int fold(struct tracer *t, const struct hist_key *k, int osd,
		__u8 phase, const struct hist *h, bool alive)
{
	struct series_acc *s;

	/* one at a time: series_of() may move the array */
	if (k->optype == OPTYPE_ALL || !t->opt->pool) {
		s = series_of(t, osd, k->pool, k->cls, OPTYPE_ALL, phase);
		if (!s)
			return -ENOMEM;
		hist_add(alive ? &s->live : &s->retired, h);
	}
	if (k->optype != OPTYPE_ALL) {
		s = series_of(t, osd, -1, k->cls, k->optype, phase);
		if (!s)
			return -ENOMEM;
		hist_add(alive ? &s->live : &s->retired, h);
	}
	return 0;
}

/* The OSD of a key's process, and whether it still runs; the ops of a
 * process never identified are kept apart as OSD_UNKNOWN, and counted. */
static int osd_of_key(struct tracer *t, __u32 tgid, bool *alive)
{
	int osd = tracer_osd_of(t, tgid);

	*alive = tracer_alive(t, tgid);
	return osd == OSD_NONE ? OSD_UNKNOWN : osd;
}

/* Ops of a key's first phase (PHASE_TOTAL in hists): the sum of its
 * buckets. */
static __u64 pair_ops(const struct hist_pair *v)
{
	__u64 n = 0;

	for (__u32 b = 0; b < NR_BUCKETS; b++)
		n += v->buckets[0][b];
	return n;
}

/* One key's two phases (phase0 is the phase of val's first), from the
 * tail or summed over a front row's CPUs, into its series: live, or
 * retired when its process has exited; held apart while its process is
 * undecided (OSD_HELD). */
static int take_hist(struct tracer *t, const struct hist_key *key,
		     const struct hist_pair *val, __u8 phase0, int osd, bool alive)
{
	static struct hist h[2];
	struct hist_key k;
	int err = 0;

	for (int p = 0; p < 2; p++) {
		h[p].count = 0;
		h[p].sum_ns = val->sum_ns[p];
		for (__u32 b = 0; b < NR_BUCKETS; b++)
			h[p].count += h[p].buckets[b] = val->buckets[p][b];
	}
	if (osd == OSD_HELD) {	/* kept in the maps until decided */
		if (phase0 == PHASE_TOTAL && (key->optype == OPTYPE_ALL || !t->opt->pool))
			t->snap.held_ops += h[0].count;
		return 0;
	}
	if (osd == OSD_UNKNOWN && !alive && phase0 == PHASE_TOTAL &&
	    (key->optype == OPTYPE_ALL || !t->opt->pool))
		t->snap.unknown_ops += h[0].count;
	k = *key;
	k.optype = op_id(t, key->tgid, key->optype);
	for (int p = 0; p < 2 && !err; p++)
		err = fold(t, &k, osd, phase0 + p, &h[p], alive);
	return err;
}

/* One tail histogram map; phase0 is the phase of its values' h[0].  The
 * busy keys of live, known OSDs are candidates for a front row. */
static int read_hist_map(struct tracer *t, const struct bpf_mapref *map, __u8 phase0,
			 __u64 *nkeys, size_t *deferred)
{
	int fd = map->fd;
	static struct hist_pair val;
	struct hist_key key;
	struct dead_keys dead;
	int err = 0;

	dead_init(&dead, map, sizeof(key));

	map_for_each_key(fd, key) {
		bool alive;
		int osd;

		if (bpf_map_lookup_elem(fd, &key, &val))
			continue;	/* deleted under us */
		(*nkeys)++;
		osd = osd_of_key(t, key.tgid, &alive);
		if (osd != OSD_HELD && !alive && !dead_keys_room(&dead)) {
			alive = true;	/* retired next time */
			(*deferred)++;
		}
		err = take_hist(t, &key, &val, phase0, osd, alive);
		if (err)
			break;
		if (osd == OSD_HELD)
			continue;
		if (!alive)
			dead_keys_add(&dead, &key);
		else if (phase0 == PHASE_TOTAL && osd != OSD_UNKNOWN &&
			 front_candidate(&t->hfront, &key, pair_ops(&val)))
			err = -ENOMEM;
	}
	dead_delete(&dead, fd, nkeys);
	return err;
}

/* The histograms' front rows: each summed over the CPUs, a dead
 * process's read a last time, then freed. */
static int read_hist_front(struct tracer *t)
{
	struct front *f = &t->hfront;
	static struct hist_pair val;
	static struct { struct hist_key key; __u32 row; } gone[FRONT_ROWS_MAX];
	struct hist_key key;
	int err = 0, ngone = 0;
	__u32 row;

	map_for_each_key(f->slots_fd, key) {
		bool alive;
		int osd;

		if (bpf_map_lookup_elem(f->slots_fd, &key, &row))
			continue;
		osd = osd_of_key(t, key.tgid, &alive);
		for (int i = 0; i < (t->opt->phases ? 2 : 1) && !err; i++) {
			err = front_sum(f, i, row, (__u64 *)&val);
			if (!err)
				err = take_hist(t, &key, &val, i ? PHASE_EXECUTE : PHASE_TOTAL,
						osd, alive);
		}
		if (err)
			break;
		if (osd != OSD_HELD && !alive && ngone < FRONT_ROWS_MAX) {
			gone[ngone].key = key;
			gone[ngone++].row = row;
		}
	}
	/* after the walk: a deleted slot would send it back to the first */
	for (int i = 0; i < ngone && !err; i++)
		front_retire(f, &gone[i].key, gone[i].row);
	return err;
}

static int read_hists(struct tracer *t, __u64 nkeys[NR_KEYMAPS], size_t *deferred)
{
	int err;

	for (int i = 0; i < t->snap.nseries; i++)
		memset(&t->snap.series[i].live, 0, sizeof(t->snap.series[i].live));
	t->snap.held_ops = 0;
	err = read_hist_front(t);
	if (!err)
		err = read_hist_map(t, &t->bpf.hists, PHASE_TOTAL, &nkeys[KM_HISTS], deferred);
	if (!err)
		err = read_hist_map(t, &t->bpf.phase_hists, PHASE_EXECUTE,
				    &nkeys[KM_PHASE_HISTS], deferred);
	if (!err)
		front_promote(&t->hfront);
	return err;
}

static struct opc_acc *opc_of(struct tracer *t, int osd)
{
	for (int i = 0; i < t->snap.nopc; i++)
		if (t->snap.opc[i].osd == osd)
			return &t->snap.opc[i];
	if (t->snap.nopc == t->snap.opc_cap) {
		int cap = t->snap.opc_cap ? 2 * t->snap.opc_cap : 4;

		if (!resize((void **)&t->snap.opc, cap, sizeof(*t->snap.opc)) ||
		    !resize((void **)&t->snap.opd, cap * NR_OPX, sizeof(*t->snap.opd)))
			return NULL;
		t->snap.opc_cap = cap;
	}
	memset(&t->snap.opc[t->snap.nopc], 0, sizeof(*t->snap.opc));
	t->snap.opc[t->snap.nopc].osd = osd;
	return &t->snap.opc[t->snap.nopc++];
}

/* An OSD's counters are by op id (calls.h), bpf/'s by its op index. */
static void opc_add(struct op_counts *dst, const struct op_counts *src)
{
	for (int i = 0; i < NR_OPX; i++) {
		dst->ops[i] += src->ops[i];
		dst->failed[i] += src->failed[i];
	}
}

static void opc_add_bpf(struct tracer *t, struct op_counts *dst,
			const struct op_counts *src, __u32 tgid)
{
	for (int i = 0; i < NR_OPTYPES; i++) {
		__u8 x;

		if (!src->ops[i] && !src->failed[i])
			continue;
		x = op_id(t, tgid, i);
		dst->ops[x] += src->ops[i];
		dst->failed[x] += src->failed[i];
	}
}

/* Ops counted by code in a process's counters. */
static __u64 opc_ops(const struct op_counts *v)
{
	__u64 n = 0;

	for (int i = 0; i < NR_OPTYPES; i++)
		n += v->ops[i];
	return n;
}

/* One process's op-code counters, from the tail or a front row, into its
 * OSD's (live or retired); -ENOMEM. */
static int take_opc(struct tracer *t, __u32 tgid, const struct op_counts *val,
		    int osd, bool alive)
{
	struct opc_acc *a;

	if (osd == OSD_HELD)
		return 0;
	a = opc_of(t, osd);
	if (!a)
		return -ENOMEM;
	opc_add_bpf(t, alive ? &a->live : &a->retired, val, tgid);
	return 0;
}

/* The op-code counters' front rows, as the histograms'. */
static int read_opc_front(struct tracer *t)
{
	struct front *f = &t->ofront;
	static struct op_counts val;
	static struct { __u32 key, row; } gone[OPC_ROWS_MAX];
	int err = 0, ngone = 0;
	__u32 key, row;

	map_for_each_key(f->slots_fd, key) {
		bool alive;
		int osd;

		if (bpf_map_lookup_elem(f->slots_fd, &key, &row))
			continue;
		osd = osd_of_key(t, key, &alive);
		val.calls_next = 0;	/* the tail's: front_sum fills ops, failed */
		err = front_sum(f, 0, row, (__u64 *)&val);
		if (!err)
			err = take_opc(t, key, &val, osd, alive);
		if (err)
			break;
		if (osd != OSD_HELD && !alive && ngone < OPC_ROWS_MAX) {
			gone[ngone].key = key;
			gone[ngone++].row = row;
		}
	}
	for (int i = 0; i < ngone && !err; i++)
		front_retire(f, &gone[i].key, gone[i].row);
	return err;
}

/* The op-code counters, per OSD; those of exited processes are retired,
 * then deleted, as for the histograms. */
static int read_opcounts(struct tracer *t, __u64 *nkeys, size_t *deferred)
{
	int fd = t->bpf.opcounts.fd;
	__u32 key;
	static struct op_counts val;
	struct dead_keys dead;
	int err;

	dead_init(&dead, &t->bpf.opcounts, sizeof(key));

	for (int i = 0; i < t->snap.nopc; i++)
		memset(&t->snap.opc[i].live, 0, sizeof(t->snap.opc[i].live));
	err = read_opc_front(t);
	map_for_each_key(fd, key) {
		bool alive;
		int osd;

		if (err)
			break;
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue;
		(*nkeys)++;
		osd = osd_of_key(t, key, &alive);
		if (osd == OSD_HELD)
			continue;
		if (!alive && !dead_keys_room(&dead)) {	/* retired next time */
			alive = true;
			(*deferred)++;
		}
		err = take_opc(t, key, &val, osd, alive);
		if (!err && !alive)
			dead_keys_add(&dead, &key);
		else if (!err && osd != OSD_UNKNOWN &&
			 front_candidate(&t->ofront, &key, opc_ops(&val)))
			err = -ENOMEM;
	}
	dead_delete(&dead, fd, nkeys);
	if (!err)
		front_promote(&t->ofront);
	return err;
}

/* How long to wait for a set of the closed interval that a CPU is still
 * writing (a write begun before slow_gen moved: microseconds, unless its
 * thread was preempted), in 1 ms steps. */
#define SLOW_WAIT_MS	100

/* One process's set of interval g, once no CPU writes it; false if one
 * still did after SLOW_WAIT_MS. */
static bool read_slow_set(int fd, __u32 key, __u32 g, struct slow_sets *val)
{
	const struct timespec ms = { 0, 1000000 };

	for (int i = 0; i <= SLOW_WAIT_MS; i++) {
		if (bpf_map_lookup_elem(fd, &key, val))
			return false;	/* deleted under us */
		if (!(val->s[g & 1].lockseq & 1))
			return true;
		nanosleep(&ms, NULL);
	}
	return false;
}

/* The slowest ops of the interval that ends now: bpf/ is moved to the next
 * one first (maps/osdhist.h), then each process's set of this one is read,
 * its op indices named as the counters' are.  An exited process's key is
 * deleted once read: its sets hold nothing of later intervals. */
static int read_slowops(struct tracer *t, __u64 *nkeys)
{
	static struct slow_sets val;
	struct snapshots *s = &t->snap;
	int fd = t->bpf.slowops.fd, err = 0;
	struct dead_keys dead;
	__u32 key, g;

	s->slow.n = 0;
	*nkeys = 0;
	if (!t->opt->slowest)
		return 0;
	g = *t->bpf.slow_gen;
	__atomic_store_n(t->bpf.slow_gen, g + 1, __ATOMIC_SEQ_CST);
	dead_init(&dead, &t->bpf.slowops, sizeof(key));
	map_for_each_key(fd, key) {
		const struct slow_set *set = &val.s[g & 1];
		bool alive;
		int osd;

		(*nkeys)++;
		if (!read_slow_set(fd, key, g, &val)) {
			s->slow_unread++;
			continue;
		}
		osd = osd_of_key(t, key, &alive);
		if (osd == OSD_HELD)	/* samples, not counts: not kept */
			continue;
		for (__u32 i = 0; set->gen == g && i < set->n && i < SLOW_K_MAX && !err; i++) {
			struct slowop o = set->slot[i];

			o.optype = op_id(t, key, o.optype);
			for (int j = 0; j < SLOW_OPS; j++)
				o.op[j] = op_id(t, key, o.op[j]);
			err = slow_list_add(&s->slow, osd, &o);
		}
		if (!alive && dead_keys_room(&dead))
			dead_keys_add(&dead, &key);
	}
	dead_delete(&dead, fd, nkeys);
	slow_list_finish(&s->slow, t->opt->slowest);
	return err;
}

/* Per OSD, the op codes seen since osdhist started, in table order. */
static int opcode_deltas(struct tracer *t, bool advance)
{
	int n = 0;

	for (int i = 0; i < t->snap.nopc; i++) {
		struct opc_acc *a = &t->snap.opc[i];
		struct op_counts cum = a->retired;

		opc_add(&cum, &a->live);
		for (int c = 0; c < NR_OPX; c++) {
			struct opcode_delta *d = &t->snap.opd[n];

			if (!cum.ops[c] && !cum.failed[c])
				continue;
			d->osd = a->osd;
			d->opi = c;
			d->ops = cum.ops[c] - a->prev.ops[c];
			d->failed = cum.failed[c] - a->prev.failed[c];
			d->ops_cum = cum.ops[c];
			d->failed_cum = cum.failed[c];
			n++;
		}
		if (advance)
			a->prev = cum;
	}
	return n;
}

static void read_health(struct tracer *t, struct health_report *h)
{
	int fd = t->bpf.health.fd;
	__u64 vals[t->snap.ncpus];

	memset(h->bpf, 0, sizeof(h->bpf));
	for (__u32 i = 0; i < NR_HEALTH; i++) {
		if (bpf_map_lookup_elem(fd, &i, vals))
			continue;
		for (int c = 0; c < t->snap.ncpus; c++)
			h->bpf[i] += vals[c];
	}
	/* Without -P/--phases bpf/ counts no entry: every success end makes
	 * one done mark, or fails as done_twice. */
	if (!t->bpf.start_probe)
		h->bpf[H_ENTRIES] = h->bpf[H_DONE] - h->bpf[H_DONE_TWICE];
}

/* Entries that left the in-flight map without their op's end: LRU
 * evictions.  Entries counted before the map is scanned and removals
 * counted after it make this a lower bound, never a false alarm; the
 * true number only grows, so the highest bound seen is kept. */
static void count_evicted(struct tracer *t, struct health_report *h,
			  __u64 entries, __u64 fill)
{
	struct health_report after;

	read_health(t, &after);
	h->evicted = inflight_evicted(&t->inf, entries, after.bpf[H_REMOVED], fill);
}

int snapshots_init(struct snapshots *s)
{
	memset(s, 0, sizeof(*s));
	s->ncpus = libbpf_num_possible_cpus();
	if (s->ncpus <= 0) {
		fprintf(stderr, "osdhist: cannot count possible CPUs: %s\n",
			strerror(-s->ncpus));
		return -1;
	}
	return 0;
}

void snapshots_free(struct snapshots *s)
{
	free(s->series);
	free(s->deltas);
	free(s->opc);
	free(s->opd);
	call_xlate_free(&s->calls);
	slow_list_free(&s->slow);
	memset(s, 0, sizeof(*s));
}

static int cmp_delta(const void *a, const void *b)
{
	const struct series_delta *x = a, *y = b;

	if (x->osd != y->osd)
		return x->osd < y->osd ? -1 : 1;
	if (x->optype != y->optype)	/* class series (OPTYPE_ALL) last */
		return x->optype - y->optype;
	if (x->pool != y->pool)
		return x->pool < y->pool ? -1 : 1;
	if (x->cls != y->cls)
		return x->cls - y->cls;
	return x->phase - y->phase;
}

int tracer_snapshot(struct tracer *t, struct report *r, bool advance)
{
	struct health_report *h = &r->health;
	const struct bpf_mapref *maps[NR_KEYMAPS] = {
		&t->bpf.hists, &t->bpf.phase_hists, &t->bpf.opcounts, &t->bpf.calls,
		&t->bpf.slowops,
	};
	__u64 nkeys[NR_KEYMAPS] = { 0 };
	size_t deferred = 0;
	struct dead_keys dead_calls;
	struct timespec now;
	int err;

	/* before the maps are read: only these may be forgotten after */
	proc_table_note_exited(&t->procs);
	dead_init(&dead_calls, &t->bpf.calls, sizeof(struct call_key));
	err = read_calls(t, &dead_calls);
	if (!err)
		err = read_hists(t, nkeys, &deferred);
	if (!err)
		err = read_opcounts(t, &nkeys[KM_OPCOUNTS], &deferred);
	if (!err && advance)
		err = read_slowops(t, &t->snap.slow_keys);
	if (err) {
		dead_keys_free(&dead_calls);
		return err;
	}
	memset(h, 0, sizeof(*h));
	for (int i = 0; i < NR_KEYMAPS; i++) {
		h->keys[i] = nkeys[i];
		h->keys_max[i] = maps[i]->max_entries;
	}
	read_health(t, h);
	h->inflight = tracer_scan_inflight(t, &h->inflight_max);
	h->hists = nkeys[KM_HISTS] + nkeys[KM_PHASE_HISTS];
	h->hists_max = h->keys_max[KM_HISTS] + h->keys_max[KM_PHASE_HISTS];
	h->front_rows = t->hfront.in_use;
	h->front_rows_max = t->hfront.nrows;
	h->opc_rows = t->ofront.in_use;
	h->opc_rows_max = t->ofront.nrows;
	count_evicted(t, h, h->bpf[H_ENTRIES], h->inflight);
	h->reaped = t->inf.reaped_lost;
	sampler_health(&t->smp, h);
	h->unknown_ops = t->snap.unknown_ops;
	h->held_ops = t->snap.held_ops;
	h->binaries = binaries_traced(&t->bins);
	h->variant = t->variant;
	/* processes that exited have had their keys retired: forget them,
	 * unless some keys wait for the next snapshot (they need the OSD id),
	 * or their slowest ops wait for the end of the interval (a snapshot
	 * that does not advance does not read them) */
	/* ... and the call names of those that had exited when it began */
	h->keys[KM_CALLS] = t->snap.call_keys;
	h->keys[KM_SLOWOPS] = t->snap.slow_keys;
	h->slow_unread = t->snap.slow_unread;
	if (!deferred && (advance || !t->opt->slowest))
		proc_table_forget_exited(&t->procs);
	if (!deferred)
		dead_delete(&dead_calls, t->bpf.calls.fd, &h->keys[KM_CALLS]);
	else
		dead_keys_free(&dead_calls);
	proc_table_health(&t->procs, h);

	for (int i = 0; i < t->snap.nseries; i++) {
		struct series_acc *s = &t->snap.series[i];
		struct series_delta *d = &t->snap.deltas[i];
		struct hist cum = s->retired;

		hist_add(&cum, &s->live);
		d->osd = s->osd;
		d->pool = s->pool;
		d->cls = s->cls;
		d->optype = s->optype;
		d->phase = s->phase;
		hist_sub(&d->h, &cum, &s->prev);
		d->cum = cum;
		if (advance)
			s->prev = cum;
	}
	qsort(t->snap.deltas, t->snap.nseries, sizeof(*t->snap.deltas), cmp_delta);
	r->sampled = t->opt->sample_on > 0;
	r->traced = -1;		/* full tracing: the caller's interval */
	if (r->sampled) {
		r->traced = sampler_traced(&t->smp, advance);
		r->windows = sampler_spans(&t->smp, advance, &r->nwindows);
	}
	clock_gettime(CLOCK_REALTIME, &now);
	r->time = now.tv_sec + now.tv_nsec / 1e9;
	r->s = t->snap.deltas;
	r->n = t->snap.nseries;
	r->opc = t->snap.opd;
	r->nopc = opcode_deltas(t, advance);
	r->slow = t->snap.slow.e;
	r->nslow = t->snap.slow.n;
	r->slow_k = t->opt->slowest;
	return 0;
}

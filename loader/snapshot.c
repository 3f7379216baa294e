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
#include "report/calls.h"
#include "ceph/procs.h"
#include "util/deadkeys.h"
#include "front.h"
#include "inflight.h"
#include "snapshot.h"
#include "report/stats.h"
#include "proctable.h"
#include "util/testhooks.h"
#include "trace_config.h"

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
static int read_calls(const struct snap_parts *sp, struct dead_keys *dead)
{
	struct snapshots *s = sp->snap;
	int fd = sp->bpf->calls.fd;
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
		if (dead && !proc_table_alive(sp->procs, k.tgid) && dead_keys_room(dead))
			dead_keys_add(dead, &k);
	}
	return 0;
}

/* The op id of bpf/'s op index ix of process tgid.  A call number made
 * after the calls map was read is there now: bpf/ makes the key before it
 * counts an op under it. */
static __u8 op_id(const struct snap_parts *sp, __u32 tgid, unsigned ix)
{
	__u8 id = call_xlate(&sp->snap->calls, tgid, ix);

	if (id)
		return id;
	read_calls(sp, NULL);
	id = call_xlate(&sp->snap->calls, tgid, ix);
	if (id)
		return id;
	call_xlate_gone(&sp->snap->calls, tgid, ix);	/* not read again */
	return call_xlate(&sp->snap->calls, tgid, ix);
}

static struct series_acc *series_of(const struct snap_parts *sp, int osd, __s64 pool,
				    __u8 cls, __u8 optype, __u8 phase)
{
	struct series_acc *s;

	for (int i = 0; i < sp->snap->nseries; i++) {
		s = &sp->snap->series[i];
		if (s->osd == osd && s->pool == pool && s->cls == cls &&
		    s->optype == optype && s->phase == phase)
			return s;
	}
	if (sp->snap->nseries == sp->snap->series_cap) {
		int cap = sp->snap->series_cap ? 2 * sp->snap->series_cap : 16;

		if (!resize((void **)&sp->snap->series, cap, sizeof(*sp->snap->series)) ||
		    !resize((void **)&sp->snap->deltas, cap, sizeof(*sp->snap->deltas)))
			return NULL;
		sp->snap->series_cap = cap;
	}
	s = &sp->snap->series[sp->snap->nseries++];
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
static int fold(const struct snap_parts *sp, const struct hist_key *k, int osd,
		__u8 phase, const struct hist *h, bool alive)
{
	struct series_acc *s;

	/* one at a time: series_of() may move the array */
	if (k->optype == OPTYPE_ALL || !sp->opt->pool) {
		s = series_of(sp, osd, k->pool, k->cls, OPTYPE_ALL, phase);
		if (!s)
			return -ENOMEM;
		hist_add(alive ? &s->live : &s->retired, h);
	}
	if (k->optype != OPTYPE_ALL) {
		s = series_of(sp, osd, -1, k->cls, k->optype, phase);
		if (!s)
			return -ENOMEM;
		hist_add(alive ? &s->live : &s->retired, h);
	}
	return 0;
}

/* The OSD of a key's process, and whether it still runs; the ops of a
 * process never identified are kept apart as OSD_UNKNOWN, and counted. */
static int osd_of_key(const struct snap_parts *sp, __u32 tgid, bool *alive)
{
	int osd = proc_table_osd_of(sp->procs, tgid);

	*alive = proc_table_alive(sp->procs, tgid);
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
static int take_hist(const struct snap_parts *sp, const struct hist_key *key,
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
		if (phase0 == PHASE_TOTAL && (key->optype == OPTYPE_ALL || !sp->opt->pool))
			sp->snap->held_ops += h[0].count;
		return 0;
	}
	if (osd == OSD_UNKNOWN && !alive && phase0 == PHASE_TOTAL &&
	    (key->optype == OPTYPE_ALL || !sp->opt->pool))
		sp->snap->unknown_ops += h[0].count;
	k = *key;
	k.optype = op_id(sp, key->tgid, key->optype);
	for (int p = 0; p < 2 && !err; p++)
		err = fold(sp, &k, osd, phase0 + p, &h[p], alive);
	return err;
}

/* One tail histogram map; phase0 is the phase of its values' h[0].  The
 * busy keys of live, known OSDs are candidates for a front row. */
static int read_hist_map(const struct snap_parts *sp, const struct bpf_mapref *map,
			 __u8 phase0, __u64 *nkeys, size_t *deferred)
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
		osd = osd_of_key(sp, key.tgid, &alive);
		if (osd != OSD_HELD && !alive && !dead_keys_room(&dead)) {
			alive = true;	/* retired next time */
			(*deferred)++;
		}
		err = take_hist(sp, &key, &val, phase0, osd, alive);
		if (err)
			break;
		if (osd == OSD_HELD)
			continue;
		if (!alive)
			dead_keys_add(&dead, &key);
		else if (phase0 == PHASE_TOTAL && osd != OSD_UNKNOWN &&
			 front_candidate(sp->hfront, &key, pair_ops(&val)))
			err = -ENOMEM;
	}
	dead_delete(&dead, fd, nkeys);
	return err;
}

/* The histograms' front rows: each summed over the CPUs, a dead
 * process's read a last time, then freed. */
static int read_hist_front(const struct snap_parts *sp)
{
	struct front *f = sp->hfront;
	static struct hist_pair val;
	int err = 0;

	for (__u32 row = 0; row < f->nrows && !err; row++) {
		const struct hist_key *k = front_key(f, row);
		struct hist_key key;
		bool alive;
		int osd;

		if (!k)
			continue;
		key = *k;
		osd = osd_of_key(sp, key.tgid, &alive);
		for (int i = 0; i < (sp->opt->phases ? 2 : 1) && !err; i++) {
			err = front_sum(f, i, row, (__u64 *)&val);
			if (!err)
				err = take_hist(sp, &key, &val, i ? PHASE_EXECUTE : PHASE_TOTAL,
						osd, alive);
		}
		if (!err && osd != OSD_HELD && !alive)
			front_retire(f, row);
	}
	return err;
}

static int read_hists(const struct snap_parts *sp, __u64 nkeys[NR_KEYMAPS],
		      size_t *deferred)
{
	int err;

	for (int i = 0; i < sp->snap->nseries; i++)
		memset(&sp->snap->series[i].live, 0, sizeof(sp->snap->series[i].live));
	sp->snap->held_ops = 0;
	err = read_hist_front(sp);
	if (!err)
		err = read_hist_map(sp, &sp->bpf->hists, PHASE_TOTAL, &nkeys[KM_HISTS], deferred);
	if (!err)
		err = read_hist_map(sp, &sp->bpf->phase_hists, PHASE_EXECUTE,
				    &nkeys[KM_PHASE_HISTS], deferred);
	if (!err)
		front_promote(sp->hfront);
	return err;
}

static struct opc_acc *opc_of(const struct snap_parts *sp, int osd)
{
	for (int i = 0; i < sp->snap->nopc; i++)
		if (sp->snap->opc[i].osd == osd)
			return &sp->snap->opc[i];
	if (sp->snap->nopc == sp->snap->opc_cap) {
		int cap = sp->snap->opc_cap ? 2 * sp->snap->opc_cap : 4;

		if (!resize((void **)&sp->snap->opc, cap, sizeof(*sp->snap->opc)) ||
		    !resize((void **)&sp->snap->opd, cap * NR_OPX, sizeof(*sp->snap->opd)))
			return NULL;
		sp->snap->opc_cap = cap;
	}
	memset(&sp->snap->opc[sp->snap->nopc], 0, sizeof(*sp->snap->opc));
	sp->snap->opc[sp->snap->nopc].osd = osd;
	return &sp->snap->opc[sp->snap->nopc++];
}

/* An OSD's counters are by op id (calls.h), bpf/'s by its op index. */
static void opc_add(struct op_counts *dst, const struct op_counts *src)
{
	for (int i = 0; i < NR_OPX; i++) {
		dst->ops[i] += src->ops[i];
		dst->failed[i] += src->failed[i];
	}
}

static void opc_add_bpf(const struct snap_parts *sp, struct op_counts *dst,
			const struct op_counts *src, __u32 tgid)
{
	for (int i = 0; i < NR_OPTYPES; i++) {
		__u8 x;

		if (!src->ops[i] && !src->failed[i])
			continue;
		x = op_id(sp, tgid, i);
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
static int take_opc(const struct snap_parts *sp, __u32 tgid,
		    const struct op_counts *val, int osd, bool alive)
{
	struct opc_acc *a;

	if (osd == OSD_HELD)
		return 0;
	a = opc_of(sp, osd);
	if (!a)
		return -ENOMEM;
	opc_add_bpf(sp, alive ? &a->live : &a->retired, val, tgid);
	return 0;
}

/* The op-code counters' front rows, as the histograms'. */
static int read_opc_front(const struct snap_parts *sp)
{
	struct front *f = sp->ofront;
	static struct op_counts val;
	int err = 0;

	for (__u32 row = 0; row < f->nrows && !err; row++) {
		const __u32 *k = front_key(f, row);
		__u32 key;
		bool alive;
		int osd;

		if (!k)
			continue;
		key = *k;
		osd = osd_of_key(sp, key, &alive);
		val.calls_next = 0;	/* the tail's: front_sum fills ops, failed */
		err = front_sum(f, 0, row, (__u64 *)&val);
		if (!err)
			err = take_opc(sp, key, &val, osd, alive);
		if (!err && osd != OSD_HELD && !alive)
			front_retire(f, row);
	}
	return err;
}

/* The op-code counters, per OSD; those of exited processes are retired,
 * then deleted, as for the histograms. */
static int read_opcounts(const struct snap_parts *sp, __u64 *nkeys, size_t *deferred)
{
	int fd = sp->bpf->opcounts.fd;
	__u32 key;
	static struct op_counts val;
	struct dead_keys dead;
	int err;

	dead_init(&dead, &sp->bpf->opcounts, sizeof(key));

	for (int i = 0; i < sp->snap->nopc; i++)
		memset(&sp->snap->opc[i].live, 0, sizeof(sp->snap->opc[i].live));
	err = read_opc_front(sp);
	map_for_each_key(fd, key) {
		bool alive;
		int osd;

		if (err)
			break;
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue;
		(*nkeys)++;
		osd = osd_of_key(sp, key, &alive);
		if (osd == OSD_HELD)
			continue;
		if (!alive && !dead_keys_room(&dead)) {	/* retired next time */
			alive = true;
			(*deferred)++;
		}
		err = take_opc(sp, key, &val, osd, alive);
		if (!err && !alive)
			dead_keys_add(&dead, &key);
		else if (!err && osd != OSD_UNKNOWN &&
			 front_candidate(sp->ofront, &key, opc_ops(&val)))
			err = -ENOMEM;
	}
	dead_delete(&dead, fd, nkeys);
	if (!err)
		front_promote(sp->ofront);
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
static int read_slowops(const struct snap_parts *sp, __u64 *nkeys)
{
	static struct slow_sets val;
	struct snapshots *s = sp->snap;
	int fd = sp->bpf->slowops.fd, err = 0;
	struct dead_keys dead;
	__u32 key, g;

	s->slow.n = 0;
	*nkeys = 0;
	if (!sp->opt->slowest)
		return 0;
	g = *sp->bpf->slow_gen;
	__atomic_store_n(sp->bpf->slow_gen, g + 1, __ATOMIC_SEQ_CST);
	dead_init(&dead, &sp->bpf->slowops, sizeof(key));
	map_for_each_key(fd, key) {
		const struct slow_set *set = &val.s[g & 1];
		bool alive;
		int osd;

		(*nkeys)++;
		if (!read_slow_set(fd, key, g, &val)) {
			s->slow_unread++;
			continue;
		}
		osd = osd_of_key(sp, key, &alive);
		if (osd == OSD_HELD)	/* samples, not counts: not kept */
			continue;
		for (__u32 i = 0; set->gen == g && i < set->n && i < SLOW_K_MAX && !err; i++) {
			struct slowop o = set->slot[i];

			o.optype = op_id(sp, key, o.optype);
			for (int j = 0; j < SLOW_OPS; j++)
				o.op[j] = op_id(sp, key, o.op[j]);
			err = slow_list_add(&s->slow, osd, &o);
		}
		if (!alive && dead_keys_room(&dead))
			dead_keys_add(&dead, &key);
	}
	dead_delete(&dead, fd, nkeys);
	slow_list_finish(&s->slow, sp->opt->slowest);
	return err;
}

/* Per OSD, the op codes seen since osdhist started, in table order. */
static int opcode_deltas(const struct snap_parts *sp, bool advance)
{
	int n = 0;

	for (int i = 0; i < sp->snap->nopc; i++) {
		struct opc_acc *a = &sp->snap->opc[i];
		struct op_counts cum = a->retired;

		opc_add(&cum, &a->live);
		for (int c = 0; c < NR_OPX; c++) {
			struct opcode_delta *d = &sp->snap->opd[n];

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

static void read_health(const struct snap_parts *sp, struct health_report *h)
{
	int fd = sp->bpf->health.fd;
	__u64 vals[sp->snap->ncpus];

	memset(h->bpf, 0, sizeof(h->bpf));
	for (__u32 i = 0; i < NR_HEALTH; i++) {
		if (bpf_map_lookup_elem(fd, &i, vals))
			continue;
		for (int c = 0; c < sp->snap->ncpus; c++)
			h->bpf[i] += vals[c];
	}
	/* Without -P/--phases bpf/ counts no entry: every success end makes
	 * one done mark, or fails as done_twice. */
	if (!sp->bpf->start_probe)
		h->bpf[H_ENTRIES] = h->bpf[H_DONE] - h->bpf[H_DONE_TWICE];
}

/* Entries that left the in-flight map without their op's end: LRU
 * evictions.  Entries counted before the map is scanned and removals
 * counted after it make this a lower bound, never a false alarm; the
 * true number only grows, so the highest bound seen is kept. */
static void count_evicted(const struct snap_parts *sp, struct health_report *h,
			  __u64 entries, __u64 fill)
{
	struct health_report after;

	read_health(sp, &after);
	h->evicted = inflight_evicted(sp->inf, entries, after.bpf[H_REMOVED], fill);
}

int snapshots_init(struct snapshots *s)
{
	memset(s, 0, sizeof(*s));
	s->ncpus = libbpf_num_possible_cpus();
	if (s->ncpus <= 0) {
		fprintf(stderr, "osdhist: cannot count possible CPUs: %s\n",
			strerror(-s->ncpus));
		return s->ncpus < 0 ? s->ncpus : -EINVAL;
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

int snapshot_read(const struct snap_parts *sp, struct snap_pass *pass,
		  struct health_report *h, bool advance)
{
	const struct bpf_mapref *maps[NR_KEYMAPS] = {
		&sp->bpf->hists, &sp->bpf->phase_hists, &sp->bpf->opcounts, &sp->bpf->calls,
		&sp->bpf->slowops,
	};
	__u64 nkeys[NR_KEYMAPS] = { 0 };
	int err;

	pass->deferred = 0;
	/* before the maps are read: only these may be forgotten after */
	proc_table_note_exited(sp->procs);
	dead_init(&pass->dead_calls, &sp->bpf->calls, sizeof(struct call_key));
	err = read_calls(sp, &pass->dead_calls);
	if (!err)
		err = read_hists(sp, nkeys, &pass->deferred);
	if (!err)
		err = read_opcounts(sp, &nkeys[KM_OPCOUNTS], &pass->deferred);
	if (!err && advance)
		err = read_slowops(sp, &sp->snap->slow_keys);
	if (err) {
		dead_keys_free(&pass->dead_calls);
		return err;
	}
	memset(h, 0, sizeof(*h));
	for (int i = 0; i < NR_KEYMAPS; i++) {
		h->keys[i] = nkeys[i];
		h->keys_max[i] = maps[i]->max_entries;
	}
	read_health(sp, h);
	return 0;
}

void snapshot_report(const struct snap_parts *sp, struct snap_pass *pass,
		     struct report *r, bool advance)
{
	struct health_report *h = &r->health;
	struct timespec now;

	h->hists = h->keys[KM_HISTS] + h->keys[KM_PHASE_HISTS];
	h->hists_max = h->keys_max[KM_HISTS] + h->keys_max[KM_PHASE_HISTS];
	h->front_rows = sp->hfront->in_use;
	h->front_rows_max = sp->hfront->nrows;
	h->opc_rows = sp->ofront->in_use;
	h->opc_rows_max = sp->ofront->nrows;
	count_evicted(sp, h, h->bpf[H_ENTRIES], h->inflight);
	h->reaped = sp->inf->reaped_lost;
	h->unknown_ops = sp->snap->unknown_ops;
	h->held_ops = sp->snap->held_ops;
	/* processes that exited have had their keys retired: forget them,
	 * unless some keys wait for the next snapshot (they need the OSD id),
	 * or their slowest ops wait for the end of the interval (a snapshot
	 * that does not advance does not read them) */
	/* ... and the call names of those that had exited when it began */
	h->keys[KM_CALLS] = sp->snap->call_keys;
	h->keys[KM_SLOWOPS] = sp->snap->slow_keys;
	h->slow_unread = sp->snap->slow_unread;
	if (!pass->deferred && (advance || !sp->opt->slowest))
		proc_table_forget_exited(sp->procs);
	if (!pass->deferred)
		dead_delete(&pass->dead_calls, sp->bpf->calls.fd, &h->keys[KM_CALLS]);
	else
		dead_keys_free(&pass->dead_calls);
	proc_table_health(sp->procs, h);

	for (int i = 0; i < sp->snap->nseries; i++) {
		struct series_acc *s = &sp->snap->series[i];
		struct series_delta *d = &sp->snap->deltas[i];
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
	qsort(sp->snap->deltas, sp->snap->nseries, sizeof(*sp->snap->deltas), cmp_delta);
	clock_gettime(CLOCK_REALTIME, &now);
	r->time = now.tv_sec + now.tv_nsec / 1e9;
	r->s = sp->snap->deltas;
	r->n = sp->snap->nseries;
	r->opc = sp->snap->opd;
	r->nopc = opcode_deltas(sp, advance);
	r->slow = sp->snap->slow.e;
	r->nslow = sp->snap->slow.n;
	r->slow_k = sp->opt->slowest;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The in-flight state bpf/ keeps between an op's ends: done marks, in the
 * mark table (bpf/'s .bss, struct mark_set) or spilled into the in-flight
 * LRU map, and with -P or --phases an LRU entry per op from enqueue_op.
 * Here: how full it is, the marks and entries of processes that exited
 * (their ops will never end), and emptying it when the probes are gone.
 */
#include <stdbool.h>
#include <bpf/bpf.h>

#include <linux/types.h>
#include "osdhist.h"
#include "bpf_handles.h"
#include "util/deadkeys.h"
#include "inflight.h"
#include "ceph/procs.h"

#define ALIVE_CACHE 64

/* procs_alive() reads /proc: once per process and scan, not per mark. */
struct alive_cache {
	const char *proc_root;
	pid_t pid[ALIVE_CACHE];
	bool alive[ALIVE_CACHE];
	int n;
};

static bool alive(struct alive_cache *c, pid_t pid)
{
	bool a;

	for (int i = 0; i < c->n; i++)
		if (c->pid[i] == pid)
			return c->alive[i];
	a = procs_alive(c->proc_root, pid);
	if (c->n < ALIVE_CACHE) {
		c->pid[c->n] = pid;
		c->alive[c->n++] = a;
	}
	return a;
}

/* Nothing else writes a dead process's marks: bpf/ only takes a free way
 * or its own op's mark.  Same order of stores as bpf/'s mark_take. */
static void clear_mark(struct done_mark *m)
{
	__atomic_store_n(&m->tgid, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&m->tag, 0, __ATOMIC_SEQ_CST);
}

/* A mark whose tgid is 0 is being made or removed right now: counted, left. */
static __u64 scan_marks(struct mark_set *sets, struct alive_cache *c, __u64 *reaped)
{
	__u64 n = 0;

	for (int s = 0; s < MARK_SETS; s++)
		for (int w = 0; w < MARK_WAYS; w++) {
			struct done_mark *m = &sets[s].way[w];
			__u32 pid;

			if (!__atomic_load_n(&m->tag, __ATOMIC_SEQ_CST))
				continue;
			pid = __atomic_load_n(&m->tgid, __ATOMIC_SEQ_CST);
			if (pid && !alive(c, pid)) {
				clear_mark(m);
				++*reaped;
				continue;
			}
			n++;
		}
	return n;
}

__u64 marks_scan(struct mark_set *sets, const char *proc_root, __u64 *reaped)
{
	struct alive_cache c = { .proc_root = proc_root };

	return scan_marks(sets, &c, reaped);
}

__u64 marks_drop(struct mark_set *sets)
{
	__u64 n = 0;

	for (int s = 0; s < MARK_SETS; s++)
		for (int w = 0; w < MARK_WAYS; w++)
			if (__atomic_load_n(&sets[s].way[w].tag, __ATOMIC_SEQ_CST)) {
				clear_mark(&sets[s].way[w]);
				n++;
			}
	return n;
}

/* Entries of the LRU map; those of processes that exited are removed (a
 * done mark's op was recorded; an entry made at enqueue_op and not done is
 * an op lost with its OSD).  One that finds no room in the list is counted
 * as in flight and removed at a later scan. */
static __u64 scan_lru(const struct bpf_handles *bpf, struct inflight_counts *ic,
			  struct alive_cache *c)
{
	int fd = bpf->inflight.fd;
	struct op_key key;
	struct dead_keys dead;
	__u64 n = 0;

	dead_keys_init(&dead, sizeof(key), bpf->inflight.max_entries);
	map_for_each_key(fd, key) {
		n++;
		if (!alive(c, key.tgid) && dead_keys_room(&dead))
			dead_keys_add(&dead, &key);
	}
	for (size_t i = 0; i < dead.n; i++) {
		const struct op_key *k = dead_keys_at(&dead, i);
		struct op_state st;
		bool running = bpf_map_lookup_elem(fd, k, &st) == 0 && !st.done;

		if (bpf_map_delete_elem(fd, k) == 0) {
			ic->reaped++;
			ic->reaped_lost += running;
		}
	}
	n -= dead.n;
	dead_keys_free(&dead);
	return n;
}

__u64 inflight_scan(const struct bpf_handles *bpf, const char *proc_root,
		    struct inflight_counts *ic, __u64 *capacity)
{
	struct alive_cache c = { .proc_root = proc_root };

	/* with start_probe (-P, --phases) bpf/ makes no mark in the table */
	*capacity = bpf->inflight.max_entries +
		    (bpf->start_probe ? 0 : MARK_SETS * MARK_WAYS);
	return scan_marks(bpf->marks, &c, &ic->reaped) + scan_lru(bpf, ic, &c);
}

/* Ops followed from enqueue_op (-P, --phases) still running: entries
 * without a done mark. */
__u64 inflight_followed(const struct bpf_handles *bpf)
{
	int fd = bpf->inflight.fd;
	struct op_key key;
	struct op_state st;
	__u64 n = 0;

	map_for_each_key(fd, key)
		if (bpf_map_lookup_elem(fd, &key, &st) == 0 && !st.done)
			n++;
	return n;
}

__u64 inflight_evicted(struct inflight_counts *c, __u64 entries, __u64 removed,
		       __u64 fill)
{
	__s64 ev = (__s64)(entries - (removed + c->reaped + c->dropped + fill));

	if (ev > (__s64)c->evicted)
		c->evicted = ev;
	return c->evicted;
}

/* Only with no probe in place: nothing can make or take a mark meanwhile. */
__u64 inflight_drop(const struct bpf_handles *bpf, struct inflight_counts *ic)
{
	int fd = bpf->inflight.fd;
	struct op_key key;
	struct op_state st;
	__u64 n = 0;

	ic->dropped += marks_drop(bpf->marks);
	/* Deleting the first key each time: no iterator to invalidate. */
	while (bpf_map_get_next_key(fd, NULL, &key) == 0) {
		bool running = bpf_map_lookup_elem(fd, &key, &st) == 0 && !st.done;

		if (bpf_map_delete_elem(fd, &key))
			break;
		ic->dropped++;
		n += running;
	}
	/* bpf/'s lru_marks stays as it is: too high only costs lookups */
	return n;
}

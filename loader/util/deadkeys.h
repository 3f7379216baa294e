/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_DEADKEYS_H
#define OSDHIST_DEADKEYS_H

/*
 * The keys of exited processes met while walking a BPF map, to delete once
 * the walk is done: deleting under bpf_map_get_next_key would restart the
 * walk at the first key, and read live keys twice.  One list per walk, on
 * the walker's stack; it grows as needed (64 keys, doubling) up to room,
 * the number of keys the map can hold.  A key that finds no room (out of
 * memory; the test build's OSDHIST_TEST_DEAD_KEYS) is the caller's to
 * leave in the map for the next walk, as if its process still ran: then
 * it is counted once and deleted once, never folded in twice.
 */
#include <stdbool.h>
#include <stddef.h>

struct dead_keys {
	void *key;		/* n keys of size bytes each */
	size_t n, cap, room, size;
};

void dead_keys_init(struct dead_keys *d, size_t size, size_t room);
/* Whether one more key fits (growing the list if need be): asked before
 * the key is acted on. */
bool dead_keys_room(struct dead_keys *d);
/* Notes a key; only after dead_keys_room() said yes. */
void dead_keys_add(struct dead_keys *d, const void *key);
const void *dead_keys_at(const struct dead_keys *d, size_t i);
void dead_keys_free(struct dead_keys *d);

#endif

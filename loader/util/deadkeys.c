// SPDX-License-Identifier: GPL-2.0
/* A growing list of BPF map keys (deadkeys.h). */
#include <stdlib.h>
#include <string.h>

#include "deadkeys.h"

void dead_keys_init(struct dead_keys *d, size_t size, size_t room)
{
	*d = (struct dead_keys){ .size = size, .room = room };
}

bool dead_keys_room(struct dead_keys *d)
{
	size_t cap = d->cap ? 2 * d->cap : 64;
	void *n;

	if (d->n >= d->room)
		return false;
	if (d->n < d->cap)
		return true;
	n = realloc(d->key, cap * d->size);
	if (!n)
		return false;
	d->key = n;
	d->cap = cap;
	return true;
}

void dead_keys_add(struct dead_keys *d, const void *key)
{
	memcpy((char *)d->key + d->n++ * d->size, key, d->size);
}

const void *dead_keys_at(const struct dead_keys *d, size_t i)
{
	return (const char *)d->key + i * d->size;
}

void dead_keys_free(struct dead_keys *d)
{
	free(d->key);
	*d = (struct dead_keys){ 0 };
}

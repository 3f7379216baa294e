// SPDX-License-Identifier: GPL-2.0
/* One scan's OSD claims (claims.h): an open-addressing table of keys. */
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "report/clusters.h"

struct claim {
	int key1;	/* key + 1; 0: empty */
	int count;
};

static struct claim *tab;
static size_t cap, used;

static struct claim *find(struct claim *t, size_t size, int key)
{
	size_t i = ((unsigned)key * 2654435761u) & (size - 1);

	while (t[i].key1 && t[i].key1 != key + 1)
		i = (i + 1) & (size - 1);
	return &t[i];
}

static bool grow(void)
{
	size_t ncap = cap ? 2 * cap : 256;
	struct claim *n = calloc(ncap, sizeof(*n));

	if (!n)
		return false;
	for (size_t i = 0; i < cap; i++)
		if (tab[i].key1)
			*find(n, ncap, tab[i].key1 - 1) = tab[i];
	free(tab);
	tab = n;
	cap = ncap;
	return true;
}

void claims_reset(void)
{
	if (tab)
		memset(tab, 0, cap * sizeof(*tab));
	used = 0;
}

int claims_add(int key)
{
	struct claim *c;

	if (key < 0 || (2 * (used + 1) > cap && !grow()))
		return 0;
	c = find(tab, cap, key);
	if (!c->key1) {
		c->key1 = key + 1;
		used++;
	}
	return ++c->count;
}

static int count(int key)
{
	return cap ? find(tab, cap, key)->count : 0;
}

/* Processes of a known cluster claim id: then the unknown ones count
 * there, not on their own. */
static bool known_claims(int id)
{
	for (int cl = 1; cl < CLUSTERS_MAX; cl++)
		if (count(osd_key(cl, id)))
			return true;
	return false;
}

int claims_of(int key)
{
	int id = osd_id_of(key), n = count(key);

	return osd_cluster_of(key) ? n + count(osd_key(0, id)) : n;
}

void claims_dups(struct dup_ids *d, int (*holder_pid)(int key, void *arg), void *arg)
{
	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < cap; i++) {
		int key = tab[i].key1 - 1, n, j;

		if (!tab[i].key1)
			continue;
		if (!osd_cluster_of(key) && known_claims(osd_id_of(key)))
			continue;	/* counted with the known ones */
		n = claims_of(key);
		if (n < 2)
			continue;
		d->n++;
		/* the DUP_IDS_LISTED lowest keys, in order */
		for (j = d->n - 1 < DUP_IDS_LISTED ? d->n - 1 : DUP_IDS_LISTED;
		     j > 0 && d->id[j - 1].osd > key; j--)
			if (j < DUP_IDS_LISTED)
				d->id[j] = d->id[j - 1];
		if (j < DUP_IDS_LISTED)
			d->id[j] = (struct dup_id){ key, n > 255 ? 255 : n, holder_pid(key, arg) };
	}
}

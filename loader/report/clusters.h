/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_CLUSTERS_H
#define OSDHIST_CLUSTERS_H

/*
 * Ceph names a daemon by its cluster and its id: two clusters on one host
 * each have an osd.0, and neither is a duplicate of the other.  osdhist
 * names an OSD by one int, the key every table (series, op counters,
 * self-check, slowest ops) is keyed by: the cluster's index in this table
 * in the high bits, the OSD id in the low OSD_ID_BITS.  Index 0 is a
 * cluster osdhist could not tell (no fsid found: asok_fsid): such an OSD
 * is named by its id alone.
 */
#include <stdbool.h>

#define OSD_ID_BITS	20		/* ids up to PROCS_OSD_ID_MAX (1e6) */
#define CLUSTERS_MAX	64		/* fsids named; more are index 0 */

static inline int osd_key(int cluster, int id)
{
	return id < 0 ? id : cluster << OSD_ID_BITS | id;
}

/* The OSD id of a key; the special names (osd_id.h, < 0) stay. */
static inline int osd_id_of(int key)
{
	return key < 0 ? key : key & ((1 << OSD_ID_BITS) - 1);
}

static inline int osd_cluster_of(int key)
{
	return key < 0 ? 0 : key >> OSD_ID_BITS;
}

/* The index of fsid (a UUID, asok_fsid), added if new; 0 for "" or when
 * the table is full. */
int cluster_index(const char *fsid);

/* The fsid of index i, "" for 0. */
const char *cluster_fsid(int i);

/* More than one cluster named so far: text names each OSD's cluster. */
bool clusters_several(void);

/* Forget every cluster (unit tests). */
void clusters_reset(void);

#endif

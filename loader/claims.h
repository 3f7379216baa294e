/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_CLAIMS_H
#define OSDHIST_CLAIMS_H

/*
 * One scan's OSD claims (proctable.c): for every OSD (cluster and id,
 * clusters.h) the live processes that claim it on their command line.
 * Every claim is kept, however many processes and ids there are: the table
 * grows with them and is emptied at the start of each scan.  A process
 * whose cluster is unknown (index 0) may be any cluster's: its claim
 * counts against each known cluster's OSD of the same id.
 */
#include "report/report.h"

/* Empties the table for a new scan. */
void claims_reset(void);

/* One more process claims key; how many claim that very key now (0: out
 * of memory, not counted). */
int claims_add(int key);

/* How many processes claim key, unknown-cluster ones of its id included. */
int claims_of(int key);

/* The OSDs claimed more than once, the lowest keys first into d (d->n
 * counts them all); holder_pid(key) names the process whose ops are that
 * OSD's. */
void claims_dups(struct dup_ids *d, int (*holder_pid)(int key, void *arg), void *arg);

#endif

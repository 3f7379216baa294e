/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_PROM_H
#define OSDHIST_PROM_H

#include <stdio.h>
#include <linux/types.h>

struct report;

/* The exported bucket bounds (`le`), in ns: at most PROM_MAX_BOUNDS,
 * positive, strictly increasing; +Inf is implied. */
#define PROM_MAX_BOUNDS 64

struct prom_buckets {
	int n;
	__u64 le_ns[PROM_MAX_BOUNDS];
};

/* The Content-Type of what render_prom() writes. */
#define PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* 25 us .. 10 s in a 1-2.5-5 series: 18 bounds. */
void prom_default_buckets(struct prom_buckets *b);

/* "0.001,0.01,0.1" (seconds) -> *b.  0, or -EINVAL with why holding why
 * not (one phrase) and *b left untouched. */
int prom_parse_buckets(const char *s, struct prom_buckets *b, char *why, size_t whylen);

/* Prometheus text exposition format 0.0.4 of a report: the cumulative
 * latency histograms (s->cum) and the health counters.  A pure function
 * of its arguments; version goes into osdhist_build_info. */
void render_prom(FILE *f, const struct report *r, const struct prom_buckets *b,
		 const char *version);

#endif

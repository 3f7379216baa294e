/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_EXPORT_H
#define OSDHIST_EXPORT_H

#include <stdbool.h>

#include "prom.h"
#include "report/report.h"

/* What the outputs need of the command line (main.c fills it). */
struct export_config {
	bool prometheus;		/* --prometheus: serve /metrics */
	const char *prom_host;		/* ... on this address */
	unsigned prom_port;		/* ... and port, 0 = any free one */
	const char *textfile;		/* --textfile PATH, NULL = off */
	const struct prom_buckets *buckets;	/* --prom-buckets, in ns */
};

/* Outputs for other programs: --prometheus (HTTP /metrics) and --textfile
 * (node_exporter's textfile collector), both the exposition of prom.c.
 * export_start binds the port and checks the textfile's directory before
 * anything is loaded: 0, or a negative errno after one line on stderr. */
int export_start(const struct export_config *c);

/* Renders r once and hands it to each output; errors are reported on
 * stderr (once until they clear) and never stop the caller. */
void export_snapshot(const struct export_config *c, const struct report *r);

void export_stop(void);

/* The outputs' own counters for the health report (--prometheus: the
 * connections and requests /metrics refused, by reason).  Never blocks. */
void export_health(const struct export_config *c, struct health_report *h);

/* Replaces path with buf atomically: a temp file in the same directory,
 * fsync, rename.  0, or -errno. */
int textfile_write(const char *path, const char *buf, size_t len);

#endif

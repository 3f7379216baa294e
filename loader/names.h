/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_NAMES_H
#define OSDHIST_NAMES_H

/*
 * The printed names of bpf/'s classes, phases, op ids and health counters
 * (maps/osdhist.h), for every output and for the slowest ops' text.  Apart
 * from report.h because slowops.c prints op ids too and report.c needs
 * slowops.h: the names in either would make the two include each other.
 */
#include <linux/types.h>
#include "osdhist.h"

extern const char *const class_name[NR_CLASSES];
/* Ceph's name of an op id ("read", "omap-get-vals", ..., and calls.h's
 * "call lock.lock"). */
const char *op_name(unsigned opi);
extern const char *const phase_name[NR_PHASES];
extern const char *const health_name[NR_HEALTH];

#endif

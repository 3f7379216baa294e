/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_STATS_H
#define OSDHIST_STATS_H

#include <linux/types.h>
#include "osdhist.h"

void hist_add(struct hist *dst, const struct hist *src);
/* dst = a - b, bucket by bucket (cumulative snapshots: a >= b). */
void hist_sub(struct hist *dst, const struct hist *a, const struct hist *b);

/* Value at quantile q (0 < q <= 1) in ns, interpolated inside its bucket;
 * 0 for an empty histogram. */
double hist_quantile(const struct hist *h, double q);

/* Upper bound of the highest non-empty bucket: the max to within a bucket. */
__u64 hist_max(const struct hist *h);

#endif

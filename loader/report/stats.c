// SPDX-License-Identifier: GPL-2.0
/* Arithmetic on struct hist: sums, differences of cumulative snapshots,
 * quantiles. */
#include <math.h>
#include "stats.h"

void hist_add(struct hist *dst, const struct hist *src)
{
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	for (__u32 i = 0; i < NR_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

void hist_sub(struct hist *dst, const struct hist *a, const struct hist *b)
{
	dst->count = a->count - b->count;
	dst->sum_ns = a->sum_ns - b->sum_ns;
	for (__u32 i = 0; i < NR_BUCKETS; i++)
		dst->buckets[i] = a->buckets[i] - b->buckets[i];
}

double hist_quantile(const struct hist *h, double q)
{
	__u64 total = 0, seen = 0;
	double rank;

	for (__u32 i = 0; i < NR_BUCKETS; i++)
		total += h->buckets[i];
	if (!total)
		return 0;
	rank = q * total;
	for (__u32 i = 0; i < NR_BUCKETS; i++) {
		__u64 n = h->buckets[i];
		double lo, hi;

		if (!n || seen + n < rank) {
			seen += n;
			continue;
		}
		lo = osdhist_bucket_lower(i);
		hi = i == NR_BUCKETS - 1 ? lo * 2 : osdhist_bucket_upper(i);
		return lo + (hi - lo) * ((rank - seen) / n);
	}
	return osdhist_bucket_lower(NR_BUCKETS - 1);
}

__u64 hist_max(const struct hist *h)
{
	for (int i = (int)NR_BUCKETS - 1; i >= 0; i--)
		if (h->buckets[i])
			return i == NR_BUCKETS - 1 ? osdhist_bucket_lower(i)
						   : osdhist_bucket_upper(i);
	return 0;
}

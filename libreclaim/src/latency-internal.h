/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RECLAIM_LATENCY_INTERNAL_H
#define RECLAIM_LATENCY_INTERNAL_H

#include <stdint.h>

/* log2 buckets of microseconds: bucket k holds durations up to 2^k (0 and 1 in bucket 0) */
#define LATENCY_BUCKETS 40

struct latency_hist {
	uint64_t count[LATENCY_BUCKETS];
	uint64_t total_us;
	uint64_t dropped;      /* the kernel's: its histogram was full */
	uint64_t out_of_range; /* in a bucket past the last */
};

/*
 * Reads the text of a hist file whose key is "NAME.log2" and whose values are
 * hitcount and NAME (a sum of microseconds): every "{ NAME: ~ 2^K } hitcount: N
 * NAME: S" line (a bucket past the last counts as out of range, its sum
 * left out) and the "Dropped:" total. -EBADMSG for a line it cannot read,
 * which *@bad (if not NULL) then points to.
 */
int latency_parse_hist(const char *text, const char *name, struct latency_hist *h,
		       const char **bad);

#endif

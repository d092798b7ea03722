// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /proc/swaps and /proc/self/mountinfo (the two parts of the input), read
 * with libmount: every device is in exactly one ring, the ring of its
 * priority; a ring's size is the sum of its devices', its balance within 0..1.
 * The reading of a swapoff's progress thread (from the text, as it reads it
 * again and again) finds each device's Used as the rings do.
 */
#include "fuzz.h"
#include "swap-internal.h"

/* What the progress thread reads for each device is what reclaim_swaps_new() read. */
static void check_progress_reading(const struct reclaim_swaps *swaps, const uint8_t *data,
				   size_t size)
{
	struct fuzz_part part[2];
	size_t len;

	fuzz_split(data, size, part, 2);
	len = part[0].size;
	if (reclaim_text_length(part[0].data, &len, true) < 0)
		return;
	for (size_t i = 0; i < reclaim_swaps_count(swaps); i++) {
		const char *path = reclaim_swap_path(reclaim_swaps_get(swaps, i));
		size_t first = i;
		uint64_t used = 0;
		int r;

		/* the first of several lines of one path, as both readings take it */
		for (size_t j = 0; j < i; j++)
			if (strcmp(reclaim_swap_path(reclaim_swaps_get(swaps, j)), path) == 0) {
				first = j;
				break;
			}
		r = reclaim_swaps_text_used(part[0].data, len, path, &used);
		/* -EINVAL: a text whose header does not come first (the kernel's always does) */
		fuzz_check(r == 0 || r == -EINVAL || r == -ENOMEM, "%s: %d", path, r);
		fuzz_check(
		    r != 0 || used == reclaim_swap_used_kb(reclaim_swaps_get(swaps, first)),
		    "%s: Used %llu, the rings' %llu", path, (unsigned long long)used,
		    (unsigned long long)reclaim_swap_used_kb(reclaim_swaps_get(swaps, first)));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reclaim_swaps *swaps = NULL;
	static const char *const files[] = {"/proc/swaps", "/proc/self/mountinfo"};
	struct reclaim_ctx *ctx;
	size_t in_rings = 0;
	int r;

	fuzz_root_files(data, size, files, 2, 0444);
	ctx = fuzz_ctx();
	r = reclaim_swaps_new(ctx, &swaps);
	fuzz_check_error(ctx, r);
	for (size_t i = 0; r == 0 && i < reclaim_swaps_ring_count(swaps); i++) {
		const struct reclaim_swap_ring *ring = reclaim_swaps_ring(swaps, i);
		double balance = reclaim_swap_ring_balance(ring);
		uint64_t kb = 0;

		fuzz_check(balance >= 0 && balance <= 1, "ring %d: balance %g",
			   reclaim_swap_ring_priority(ring), balance);

		for (size_t d = 0; d < reclaim_swap_ring_count(ring); d++) {
			const struct reclaim_swap *s = reclaim_swap_ring_get(ring, d);

			fuzz_check(reclaim_swap_priority(s) == reclaim_swap_ring_priority(ring),
				   "%s in ring %d", reclaim_swap_path(s),
				   reclaim_swap_ring_priority(ring));
			(void)reclaim_swap_kind(s);
			(void)reclaim_swap_mountpoint(s);
			(void)reclaim_swap_backing_device(s);
			(void)reclaim_swap_disk(s);
			(void)reclaim_swap_rotational(s);
			kb += reclaim_swap_size_kb(s);
			in_rings++;
		}
		fuzz_check(kb == reclaim_swap_ring_size_kb(ring), "ring %d: %llu kB, devices %llu",
			   reclaim_swap_ring_priority(ring),
			   (unsigned long long)reclaim_swap_ring_size_kb(ring),
			   (unsigned long long)kb);
	}
	fuzz_check(r < 0 || in_rings == reclaim_swaps_count(swaps), "%zu in rings of %zu", in_rings,
		   reclaim_swaps_count(swaps));
	if (r == 0)
		check_progress_reading(swaps, data, size);
	reclaim_swaps_unref(swaps);
	reclaim_unref(ctx);
	return 0;
}

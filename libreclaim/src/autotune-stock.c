// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The rules of autotune for knobs every kernel has. Each takes its value
 * from the machine's facts and from a published source, and its reason
 * names both; a knob whose advice has no source that says what to do on
 * which machine has no rule (swappiness and page-cluster for swap in
 * memory, watermark_scale_factor, min_free_kbytes: see AUTOTUNE in
 * reclaimctl(8)).
 *
 * - zswap_enabled: on when every swap device is on a disk (partitions and
 *   files), from Documentation/admin-guide/mm/zswap.rst, "Overview": zswap
 *   is a compressed cache in memory in front of the swap device, which
 *   trades CPU for less swap I/O (and fewer writes to an SSD). Swap on zram
 *   is compressed memory already, and without swap zswap has nothing to
 *   cache: then the value stays as it is.
 * - numa_demotion_enabled: on with more than one memory tier (the
 *   directories of /sys/devices/virtual/memory_tiering), off with one, from
 *   Documentation/ABI/testing/sysfs-kernel-mm-numa: demotion "is intended
 *   for systems with tiered memory configurations ... instead of plain
 *   NUMA systems". Without the tiers in sysfs it stays as it is.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define ZSWAP_SOURCE	"Documentation/admin-guide/mm/zswap.rst, Overview"
#define DEMOTION_SOURCE "Documentation/ABI/testing/sysfs-kernel-mm-numa"
#define TIERS_DIR	"/sys/devices/virtual/memory_tiering"

/* The knob's value now, which a rule keeps when it has nothing to say; 0 if the kernel lacks it. */
static int64_t current(struct reclaim_ctx *ctx, const struct reclaim_knob *k)
{
	int64_t v = 0;

	if (reclaim_knob_read(ctx, k, &v) < 0)
		v = 0;
	reclaim_error_reset(ctx);
	return v;
}

static int zswap_rule(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int64_t *value,
		      FILE *out)
{
	struct reclaim_swaps *swaps = NULL;
	size_t n = 0, zram = 0, unknown = 0;
	int r = reclaim_swaps_new(ctx, &swaps);

	reclaim_error_reset(ctx);
	if (r == -ENOMEM)
		return r;
	if (r == 0)
		n = reclaim_swaps_count(swaps);
	if (n > 0)
		fputs("swap ", out);
	for (size_t i = 0; i < n; i++) {
		const struct reclaim_swap *s = reclaim_swaps_get(swaps, i);
		enum reclaim_swap_kind kind = reclaim_swap_kind(s);

		zram += kind == RECLAIM_SWAP_KIND_ZRAM;
		unknown += kind == RECLAIM_SWAP_KIND_UNKNOWN;
		fprintf(out, "%s%s (%s)", i ? ", " : "on ", reclaim_swap_path(s),
			reclaim_swap_kind_name(kind));
	}
	reclaim_swaps_unref(swaps);
	*value = current(ctx, k);
	if (n == 0)
		fputs("no swap device -> left as it is: zswap caches the pages swapped out", out);
	else if (zram)
		fputs(" -> left as it is: swap on zram is compressed memory already", out);
	else if (unknown)
		fputs(" -> left as it is: a device of unknown kind may be zram", out);
	else {
		*value = 1;
		fputs(" -> on: only disks, and zswap caches their pages compressed in memory, "
		      "trading CPU for less swap I/O",
		      out);
	}
	fputs(" (" ZSWAP_SOURCE ")", out);
	return 0;
}

/* The number of memory tiers, -ENOENT without them in sysfs. */
static int count_tiers(struct reclaim_ctx *ctx)
{
	DIR *d = reclaim_opendir(ctx, TIERS_DIR);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)))
		n += strncmp(de->d_name, "memory_tier", 11) == 0;
	closedir(d);
	return n;
}

static int demotion_rule(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int64_t *value,
			 FILE *out)
{
	int tiers = count_tiers(ctx);

	if (tiers == -ENOMEM)
		return tiers;
	*value = current(ctx, k);
	if (tiers < 1)
		fputs("no memory tiers in " TIERS_DIR " -> left as it is", out);
	else if (tiers == 1)
		*value = 0;
	else
		*value = 1;
	if (tiers == 1)
		fputs("1 memory tier -> off: demotion is for tiered memory, not plain NUMA", out);
	else if (tiers > 1)
		fprintf(out,
			"%d memory tiers -> on: reclaim moves pages to the slower tier before "
			"swapping (not where cpusets must hold strictly)",
			tiers);
	fputs(" (" DEMOTION_SOURCE ")", out);
	return 0;
}

bool reclaim_stock_has_rule(const struct reclaim_knob *k)
{
	return k == reclaim_knob_by_id(RECLAIM_KNOB_ZSWAP_ENABLED) ||
	       k == reclaim_knob_by_id(RECLAIM_KNOB_NUMA_DEMOTION_ENABLED);
}

int reclaim_stock_rule(struct reclaim_ctx *ctx, const struct reclaim_knob *k, int64_t *value,
		       char **reason)
{
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);
	int r;

	if (!out)
		return -ENOMEM;
	r = k == reclaim_knob_by_id(RECLAIM_KNOB_ZSWAP_ENABLED) ? zswap_rule(ctx, k, value, out)
								: demotion_rule(ctx, k, value, out);
	if (fclose(out) != 0 && r == 0)
		r = -ENOMEM;
	if (r < 0 || !reason)
		free(text);
	else
		*reason = text;
	return r;
}

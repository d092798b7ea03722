// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The writers of the knobs of sysfs at boot: an administrator's tmpfiles.d
 * file in /etc, one in /run, the kernel command line and reclaimctl's own
 * tmpfiles.d file are the four parts of the input. A knob has at most one
 * winning line, a valid one, its boot entry; every entry is a knob of sysfs
 * from a tmpfiles.d file or the command line. reclaimctl's file, when it
 * reads as its own, is written again from the values read and reads back
 * the same.
 */
#include "fuzz.h"

static const char *const knob_files[] = {
    "/sys/module/zswap/parameters/enabled", "/sys/module/zswap/parameters/compressor",
    "/sys/module/zswap/parameters/max_pool_percent", "/sys/kernel/mm/lru_gen/enabled",
    "/sys/kernel/mm/numa/demotion_enabled"};

static void check_conf(struct reclaim_ctx *ctx)
{
	struct reclaim_sysctl_conf *conf = NULL;
	int r = reclaim_sysctl_conf_new(ctx, &conf);

	fuzz_check(r == 0 || r == -ENOMEM, "%d: %s", r, reclaim_strerror(ctx));
	for (size_t i = 0; r == 0 && i < reclaim_sysctl_conf_count(conf); i++) {
		const struct reclaim_knob *k = reclaim_sysctl_conf_knob(conf, i);
		const char *kind = reclaim_sysctl_conf_kind(conf, i);

		fuzz_check(k && !reclaim_knob_sysctl(k), "entry %zu: not a knob of sysfs", i);
		fuzz_check(strcmp(kind, "tmpfiles") == 0 || strcmp(kind, "cmdline") == 0,
			   "entry %zu: kind %s", i, kind);
		if (reclaim_sysctl_conf_wins(conf, i))
			fuzz_check(reclaim_sysctl_conf_is_valid(conf, i) &&
				       reclaim_sysctl_conf_boot_entry(conf, k) == (ssize_t)i,
				   "entry %zu wins, invalid or not the boot entry", i);
	}
	if (r == 0)
		fuzz_check_conf(conf);
	reclaim_sysctl_conf_unref(conf);
}

static void check_persist(struct reclaim_ctx *ctx)
{
	struct reclaim_persist *p = NULL, *again = NULL;
	const struct reclaim_knob *knobs[64];
	int64_t values[64];
	size_t n;
	int r = reclaim_persist_read(ctx, &p);

	fuzz_check_error(ctx, r);
	if (r < 0)
		return;
	n = reclaim_persist_count(p);
	fuzz_check(n <= 64, "%zu values", n);
	for (size_t i = 0; i < n; i++) {
		knobs[i] = reclaim_persist_knob(p, i);
		values[i] = reclaim_persist_value(p, i);
		fuzz_check(!reclaim_knob_sysctl(knobs[i]), "%s from the tmpfiles.d file",
			   reclaim_knob_name(knobs[i]));
	}
	fuzz_root();
	r = reclaim_persist_write(ctx, knobs, values, n);
	fuzz_check(r == 0, "writing back %zu values: %s", n, reclaim_strerror(ctx));
	r = reclaim_persist_read(ctx, &again);
	fuzz_check(r == 0 && reclaim_persist_count(again) == n, "reading it back: %s",
		   reclaim_strerror(ctx));
	for (size_t i = 0; i < n; i++)
		fuzz_check(reclaim_persist_knob(again, i) == knobs[i] &&
			       reclaim_persist_value(again, i) == values[i],
			   "value %zu (%s) differs", i, reclaim_knob_name(knobs[i]));
	reclaim_persist_unref(p);
	reclaim_persist_unref(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const files[] = {"/etc/tmpfiles.d/50-admin.conf",
					    "/run/tmpfiles.d/60-run.conf", "/proc/cmdline",
					    RECLAIM_PERSIST_TMPFILES};
	struct reclaim_ctx *ctx;

	fuzz_root_files(data, size, files, 4, 0644);
	for (size_t i = 0; i < sizeof(knob_files) / sizeof(knob_files[0]); i++)
		fuzz_write(knob_files[i], "1\n", 2, 0644);
	ctx = fuzz_ctx();
	check_conf(ctx);
	check_persist(ctx);
	reclaim_unref(ctx);
	return 0;
}

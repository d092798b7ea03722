// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The sysctl.d configuration: an administrator's file in /etc/sysctl.d, one
 * in /run/sysctl.d, /etc/sysctl.conf and reclaimctl's own file are the four
 * parts of the input. A knob has at most one winning line, a valid one, and
 * it is the knob's boot entry; a line that is not valid never wins.
 */
#include "fuzz.h"

static const char *const knob_files[] = {"kswapd_threads", "max_direct_reclaimers",
					 "swap_round_robin_quota_kb", "swappiness",
					 "watermark_scale_factor"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reclaim_sysctl_conf *conf = NULL;
	static const char *const files[] = {"/etc/sysctl.d/50-admin.conf",
					    "/run/sysctl.d/60-run.conf", "/etc/sysctl.conf",
					    RECLAIM_PERSIST_FILE};
	struct reclaim_ctx *ctx;
	char path[128];
	int r;

	fuzz_root_files(data, size, files, 4, 0644);
	for (size_t i = 0; i < sizeof(knob_files) / sizeof(knob_files[0]); i++) {
		snprintf(path, sizeof(path), "/proc/sys/vm/%s", knob_files[i]);
		fuzz_write(path, "1\n", 2, 0644);
	}
	ctx = fuzz_ctx();
	r = reclaim_sysctl_conf_new(ctx, &conf);
	fuzz_check(r == 0 || r == -ENOMEM, "%d: %s", r, reclaim_strerror(ctx));
	for (size_t i = 0; r == 0 && i < reclaim_sysctl_conf_count(conf); i++) {
		const struct reclaim_knob *k = reclaim_sysctl_conf_knob(conf, i);

		fuzz_check(k, "entry %zu: no knob", i);
		fuzz_check(reclaim_sysctl_conf_file(conf, i) &&
			       reclaim_sysctl_conf_line(conf, i) > 0,
			   "entry %zu: no file or line", i);
		if (reclaim_sysctl_conf_wins(conf, i)) {
			fuzz_check(reclaim_sysctl_conf_is_valid(conf, i),
				   "entry %zu: wins, invalid", i);
			fuzz_check(reclaim_sysctl_conf_boot_entry(conf, k) == (ssize_t)i,
				   "entry %zu wins, the boot entry is %zd", i,
				   reclaim_sysctl_conf_boot_entry(conf, k));
		}
	}
	if (r == 0)
		fuzz_check_conf(conf);
	reclaim_sysctl_conf_unref(conf);
	reclaim_unref(ctx);
	return 0;
}

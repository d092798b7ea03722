// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tuned's active profile, read as part of the sysctl configuration: the
 * input is active_profile, an administrator's profile in /etc/tuned (named
 * "admin"), a shipped one in /usr/lib/tuned ("base"), a second shipped one
 * ("other") and tuned-main.conf. The profile is read or refused with one
 * line naming where; a refused profile (a problem of a profile file that
 * names no knob) leaves no entry of tuned's, and an entry of tuned's is one
 * of a knob, at a line of a profile file. A value the kernel refuses is a
 * problem of its knob's line, kept as an entry, as in a sysctl file.
 */
#include "fuzz.h"

static bool is_profile_file(const char *f)
{
	return strncmp(f, "/etc/tuned/", 11) == 0 || strncmp(f, "/usr/lib/tuned/", 15) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const files[] = {
	    "/etc/tuned/active_profile", "/etc/tuned/admin/tuned.conf",
	    "/usr/lib/tuned/base/tuned.conf", "/usr/lib/tuned/other/tuned.conf",
	    "/etc/tuned/tuned-main.conf"};
	struct reclaim_sysctl_conf *conf = NULL;
	struct reclaim_ctx *ctx;
	size_t tuned = 0, refused = 0;
	int r;

	fuzz_root_files(data, size, files, 5, 0644);
	fuzz_knob_files();
	ctx = fuzz_ctx();
	r = reclaim_sysctl_conf_new(ctx, &conf);
	fuzz_check(r == 0 || r == -ENOMEM, "%d: %s", r, reclaim_strerror(ctx));
	for (size_t i = 0; r == 0 && i < reclaim_sysctl_conf_count(conf); i++) {
		const char *file = reclaim_sysctl_conf_file(conf, i);

		if (!reclaim_sysctl_conf_is_tuned(conf, i))
			continue;
		tuned++;
		fuzz_check(reclaim_sysctl_conf_knob(conf, i) && is_profile_file(file) &&
			       reclaim_sysctl_conf_line(conf, i) > 0 &&
			       reclaim_sysctl_conf_value(conf, i) &&
			       !reclaim_sysctl_conf_is_own(conf, i),
			   "entry %zu: %s:%u", i, file, reclaim_sysctl_conf_line(conf, i));
		fuzz_check(reclaim_sysctl_conf_tuned_profile(conf), "entry %zu: no profile", i);
	}
	for (size_t i = 0; r == 0 && i < reclaim_sysctl_conf_problem_count(conf); i++) {
		const char *m = reclaim_sysctl_conf_problem_message(conf, i);

		fuzz_check(m && m[0] && !strchr(m, '\n'), "problem %zu: \"%s\"", i, m);
		refused += is_profile_file(reclaim_sysctl_conf_problem_file(conf, i)) &&
			   !reclaim_sysctl_conf_problem_knob(conf, i);
	}
	fuzz_check(r < 0 || refused == 0 || tuned == 0, "%zu entries of a refused profile", tuned);
	for (size_t i = 0; r == 0 && i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		ssize_t b = reclaim_sysctl_conf_boot_entry(conf, k);

		fuzz_check(b < 0 || (reclaim_sysctl_conf_knob(conf, (size_t)b) == k &&
				     reclaim_sysctl_conf_is_valid(conf, (size_t)b) &&
				     reclaim_sysctl_conf_wins(conf, (size_t)b)),
			   "%s: boot entry %zd", reclaim_knob_name(k), b);
	}
	reclaim_sysctl_conf_unref(conf);
	reclaim_unref(ctx);
	return 0;
}

// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `reclaimctl report` on a recording (the input): it ends (libFuzzer's
 * -timeout), exits 0 or 1, and a page it writes runs no script: every
 * string of the recording is escaped.
 */
#include <ctype.h>
#include <getopt.h>

#include "fuzz.h"

int reclaimctl_main(int argc, char **argv);

static bool has_script(const char *html)
{
	for (const char *p = html; (p = strchr(p, '<')); p++)
		if (strncasecmp(p + 1, "script", 6) == 0)
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char rec[PATH_MAX], out[PATH_MAX], *html;
	char *argv[] = {"reclaimctl", "report", rec, "-o", out, NULL};
	int r;

	fuzz_root();
	snprintf(rec, sizeof(rec), "%s/run.jsonl", fuzz_root_dir);
	snprintf(out, sizeof(out), "%s/report.html", fuzz_root_dir);
	fuzz_write("/run.jsonl", (const char *)data, size, 0644);
	fuzz_quiet_begin();
	optind = 0;
	r = reclaimctl_main(5, argv);
	fuzz_quiet_end();
	fuzz_check(r == 0 || r == 1, "exit status %d", r);
	html = fuzz_read("/report.html", NULL);
	fuzz_check(r == 0 || !html || !html[0], "exit status 1 and a report");
	fuzz_check(!html || !has_script(html), "a <script> in the report");
	free(html);
	return 0;
}

// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `reclaimctl adapt --replay` on a recording (the input), as text and as
 * JSON: it ends and exits 0 or 1, both ways alike.
 */
#include <getopt.h>

#include "fuzz.h"

int reclaimctl_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char rec[PATH_MAX];
	char *text[] = {"reclaimctl", "adapt", "--replay", rec, NULL};
	char *json[] = {"reclaimctl", "-J", "adapt", "--replay", rec, NULL};
	int r, rj;

	fuzz_root();
	snprintf(rec, sizeof(rec), "%s/run.jsonl", fuzz_root_dir);
	fuzz_write("/run.jsonl", (const char *)data, size, 0644);
	fuzz_quiet_begin();
	optind = 0;
	r = reclaimctl_main(4, text);
	optind = 0;
	rj = reclaimctl_main(5, json);
	fuzz_quiet_end();
	fuzz_check(r == 0 || r == 1, "exit status %d", r);
	fuzz_check(rj == r, "exit status %d with -J, %d without", rj, r);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What both modes of reclaimctl adapt, the live daemon (cmd-adapt.c) and
 * the replay of a recording (adapt-replay.c), do with the controller: set
 * it up from the command line and print its decisions.
 */
#include <stdlib.h>
#include <time.h>

#include "adapt.h"
#include "sampling.h"

int adapt_configure(struct cli *cli, struct reclaim_adapt *adapt, const struct adapt_options *o)
{
	for (size_t i = 0; i < o->nparams; i++)
		if (o->param_set[i] &&
		    reclaim_adapt_set_param(adapt, (enum reclaim_adapt_param)i, o->param[i]) < 0)
			return lib_fail(cli, EXIT_USAGE, "adapt");
	if (reclaim_adapt_set_bounds(adapt, o->min, o->max) < 0)
		return lib_fail(cli, EXIT_USAGE, "adapt");
	return 0;
}

void adapt_print(struct cli *cli, FILE *out, double elapsed, int64_t realtime_ns,
		 const struct reclaim_knob *knob, int64_t old, int64_t new, const char *reason,
		 bool dry_run)
{
	char time[16];

	if (cli->json) {
		cJSON *o = cJSON_CreateObject();
		char *text;

		cJSON_AddNumberToObject(o, "elapsed", round_to(elapsed, 3));
		if (realtime_ns)
			json_add_time(o, "time", realtime_ns);
		cJSON_AddStringToObject(o, "knob", reclaim_knob_name(knob));
		cJSON_AddNumberToObject(o, "old", (double)old);
		cJSON_AddNumberToObject(o, "new", (double)new);
		cJSON_AddStringToObject(o, "reason", reason);
		if (dry_run)
			cJSON_AddBoolToObject(o, "dry_run", true);
		text = cJSON_PrintUnformatted(o);
		if (!text)
			abort();
		fprintf(out, "%s\n", text);
		free(text);
		cJSON_Delete(o);
	} else if (realtime_ns) {
		format_local(time, sizeof(time), realtime_ns, false);
		fprintf(out, "%s %s %lld -> %lld%s: %s\n", time, reclaim_knob_name(knob),
			(long long)old, (long long)new, dry_run ? " (dry run)" : "", reason);
	} else {
		fprintf(out, "%+8.1f s  %s %lld -> %lld: %s\n", elapsed, reclaim_knob_name(knob),
			(long long)old, (long long)new, reason);
	}
	if (out == stdout)
		flush_stdout();
	else
		fflush(out);
}

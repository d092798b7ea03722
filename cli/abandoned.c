// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abandoned.h"

/* What puts a dead holder's knobs back. */
static const char *remedy(const char *holder)
{
	return strcmp(holder, "adapt") == 0 ? "reclaimctl adapt --reset"
					    : "reclaimctl restore, or the next sweep";
}

static void add_held(struct reclaim_lease *l, const char *holder, struct abandoned **list,
		     size_t *n)
{
	for (size_t i = 0; i < reclaim_lease_count(l); i++) {
		if (reclaim_lease_state(l, i) != RECLAIM_LEASE_HELD)
			continue;
		*list = realloc(*list, (*n + 1) * sizeof(**list));
		if (!*list)
			abort();
		(*list)[(*n)++] =
		    (struct abandoned){holder, reclaim_lease_pid(l), reclaim_lease_knob(l, i),
				       reclaim_lease_before(l, i), reclaim_lease_now(l, i)};
	}
}

size_t abandoned_knobs(struct cli *cli, struct abandoned **list)
{
	const char *holder;
	size_t n = 0;

	*list = NULL;
	for (size_t h = 0; (holder = reclaim_lease_holder_name(h)) != NULL; h++) {
		struct reclaim_lease *l = NULL;

		/* none, or one that cannot be read: adapt --reset and sweep say why */
		if (reclaim_lease_load(cli->ctx, holder, &l) == 0 && !reclaim_lease_alive(l) &&
		    reclaim_lease_inspect(l) == 0)
			add_held(l, holder, list, &n);
		reclaim_lease_unref(l);
	}
	return n;
}

void abandoned_print(const struct abandoned *a)
{
	printf("%s is %" PRId64 ", left by %s (PID %ld), which died; before it: %" PRId64
	       "; to put it back: %s\n",
	       reclaim_knob_sysctl(a->knob), a->now, a->holder, (long)a->pid, a->before,
	       remedy(a->holder));
}

cJSON *abandoned_json(const struct abandoned *a)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "holder", a->holder);
	cJSON_AddNumberToObject(o, "pid", a->pid);
	cJSON_AddStringToObject(o, "knob", reclaim_knob_name(a->knob));
	cJSON_AddNumberToObject(o, "value", (double)a->now);
	cJSON_AddNumberToObject(o, "before", (double)a->before);
	cJSON_AddStringToObject(o, "remedy", remedy(a->holder));
	return o;
}

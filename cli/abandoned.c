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

/*
 * The lease of @holder if that holder died, its knobs read and decided; NULL
 * for none, a live one, or one that cannot be read (adapt --reset and sweep
 * say why).
 */
static struct reclaim_lease *load_dead(struct cli *cli, const char *holder)
{
	struct reclaim_lease *l = NULL;

	if (reclaim_lease_load(cli->ctx, holder, &l) == 0 && !reclaim_lease_alive(l) &&
	    reclaim_lease_inspect(l) == 0)
		return l;
	return reclaim_lease_unref(l);
}

size_t abandoned_knobs(struct cli *cli, struct abandoned **list)
{
	const char *holder;
	size_t n = 0;

	*list = NULL;
	for (size_t h = 0; (holder = reclaim_lease_holder_name(h)) != NULL; h++) {
		struct reclaim_lease *l = load_dead(cli, holder);

		if (l)
			add_held(l, holder, list, &n);
		reclaim_lease_unref(l);
	}
	return n;
}

/* Removes the state file of each dead holder that holds no knob any more. */
static void drop_settled(struct cli *cli)
{
	const char *holder;

	for (size_t h = 0; (holder = reclaim_lease_holder_name(h)) != NULL; h++) {
		struct reclaim_lease *l = load_dead(cli, holder);
		bool held = false;

		for (size_t i = 0; l && i < reclaim_lease_count(l); i++)
			held |= reclaim_lease_state(l, i) == RECLAIM_LEASE_HELD;
		if (l && !held)
			(void)reclaim_lease_drop(l);
		reclaim_lease_unref(l);
	}
}

void abandoned_settle(struct cli *cli, const char *cmd, const struct abandoned *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct abandoned *a = &list[i];
		int64_t now;

		if (reclaim_knob_read(cli->ctx, a->knob, &now) == 0 && now == a->before)
			fprintf(stderr,
				"reclaimctl: %s: %s is back at %s, where %s (PID %ld) had "
				"left it at %s when it died\n",
				cmd, reclaim_knob_label(a->knob), KNOB_TEXT(a->knob, now),
				a->holder, (long)a->pid, KNOB_TEXT(a->knob, a->now));
	}
	if (n > 0)
		drop_settled(cli);
}

void abandoned_print(const struct abandoned *a)
{
	printf("%s is %s, left by %s (PID %ld), which died; before it: %s; to put it back: %s\n",
	       reclaim_knob_label(a->knob), KNOB_TEXT(a->knob, a->now), a->holder, (long)a->pid,
	       KNOB_TEXT(a->knob, a->before), remedy(a->holder));
}

cJSON *abandoned_json(const struct abandoned *a)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "holder", a->holder);
	cJSON_AddNumberToObject(o, "pid", a->pid);
	cJSON_AddStringToObject(o, "knob", reclaim_knob_name(a->knob));
	cJSON_AddItemToObject(o, "value", json_knob_value(a->knob, a->now));
	cJSON_AddItemToObject(o, "before", json_knob_value(a->knob, a->before));
	cJSON_AddStringToObject(o, "remedy", remedy(a->holder));
	return o;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* status-tables.c: status's knobs (get's JSON too), nodes, zones, counters and pressure. */
#ifndef RECLAIMCTL_STATUS_TABLES_H
#define RECLAIMCTL_STATUS_TABLES_H

#include "reclaimctl.h"
#include "snapshot.h"

extern const struct coltable knobs_columns, nodes_columns, zones_columns, counters_columns,
    pressure_columns;

/*
 * Knob @k's row of the knobs' table, with its @value, which NULL says the
 * kernel lacks (@known) or is unknown; in the JSON, which get has too.
 */
void knobs_fill_row(struct table *t, const struct reclaim_knob *k, const int64_t *value,
		    bool known);

void status_print_knobs(struct cli *cli, const struct snapshot *s);
void status_print_nodes(struct cli *cli, const struct snapshot *s);
void status_print_zones(struct cli *cli, const struct snapshot *s);
void status_print_counters(struct cli *cli, const struct snapshot *s);
void status_print_pressure(struct cli *cli, const struct snapshot *s);

/* The JSON of status's "knobs", "nodes" (without their vmstat), "vmstat" and "pressure". */
cJSON *status_json_knobs(struct cli *cli, const struct snapshot *s);
cJSON *status_json_nodes(struct cli *cli, const struct snapshot *s);
cJSON *status_json_counters(struct cli *cli, const struct snapshot *s);
cJSON *status_json_pressure(struct cli *cli, const struct snapshot *s);

#endif

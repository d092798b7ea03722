// SPDX-License-Identifier: GPL-2.0-or-later
#include "model.h"
#include "reclaimctl.h"

cJSON *json_knob(const struct reclaim_knob *k, int64_t value)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "value", (double)value);
	cJSON_AddNumberToObject(o, "min", (double)reclaim_knob_min(k));
	cJSON_AddNumberToObject(o, "max", (double)reclaim_knob_max(k));
	cJSON_AddStringToObject(o, "path", reclaim_knob_path(k));
	if (reclaim_knob_default(k) >= 0)
		cJSON_AddNumberToObject(o, "default", (double)reclaim_knob_default(k));
	else
		cJSON_AddNullToObject(o, "default");
	if (reclaim_knob_unit(k) == RECLAIM_UNIT_KB)
		cJSON_AddStringToObject(o, "unit", "KiB");
	else
		cJSON_AddNullToObject(o, "unit");
	return o;
}

cJSON *json_kswapd(const struct reclaim_kswapd *k)
{
	cJSON *o = cJSON_CreateObject();
	const unsigned int *cpus;
	char state[2] = {reclaim_kswapd_state(k), '\0'};
	size_t n;

	cJSON_AddNumberToObject(o, "pid", reclaim_kswapd_pid(k));
	cJSON_AddStringToObject(o, "name", reclaim_kswapd_name(k));
	cJSON_AddNumberToObject(o, "node", reclaim_kswapd_node(k));
	cJSON_AddNumberToObject(o, "index", reclaim_kswapd_index(k));
	cJSON_AddStringToObject(o, "state", state);
	cJSON_AddNumberToObject(o, "cpu_seconds", reclaim_kswapd_cpu_seconds(k));
	cJSON_AddNumberToObject(o, "last_cpu", reclaim_kswapd_last_cpu(k));
	cpus = reclaim_kswapd_allowed_cpus(k, &n);
	cJSON_AddItemToObject(o, "allowed_cpus", json_cpus(cpus, n));
	return o;
}

cJSON *json_vmstat(const struct reclaim_vmstat *vs)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < reclaim_vmstat_count(vs); i++)
		cJSON_AddNumberToObject(o, reclaim_vmstat_name(vs, i),
					(double)reclaim_vmstat_value(vs, i));
	return o;
}

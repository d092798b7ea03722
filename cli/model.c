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

cJSON *json_vmstat(const struct reclaim_vmstat *vs)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < reclaim_vmstat_count(vs); i++)
		cJSON_AddNumberToObject(o, reclaim_vmstat_name(vs, i),
					(double)reclaim_vmstat_value(vs, i));
	return o;
}

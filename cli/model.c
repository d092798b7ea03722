// SPDX-License-Identifier: GPL-2.0-or-later
#include "model.h"
#include "reclaimctl.h"

cJSON *json_vmstat(const struct reclaim_vmstat *vs)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < reclaim_vmstat_count(vs); i++)
		cJSON_AddNumberToObject(o, reclaim_vmstat_name(vs, i),
					(double)reclaim_vmstat_value(vs, i));
	return o;
}

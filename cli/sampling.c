// SPDX-License-Identifier: GPL-2.0-or-later
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reclaimctl.h"
#include "sampling.h"

bool row_shows(enum reclaim_figure f, int node)
{
	return node < 0 || reclaim_figure_per_node(f);
}

static void kswapd_threads(struct row *r, const struct reclaim_sample *prev,
			   const struct reclaim_sample *cur, int node)
{
	double max = 0;

	for (size_t i = 0; i < reclaim_sample_kswapd_count(cur); i++) {
		double pct;

		if (node >= 0 && reclaim_sample_kswapd_node(cur, i) != node)
			continue;
		pct = reclaim_sample_kswapd_cpu_percent(prev, cur, i);
		r->threads++;
		if (!r->busiest || pct > max) {
			max = pct;
			r->busiest = reclaim_sample_kswapd_name(cur, i);
		}
	}
}

void row_compute(struct row *r, const struct reclaim_sample *prev, const struct reclaim_sample *cur,
		 int node)
{
	memset(r, 0, sizeof(*r));
	r->interval = reclaim_sample_interval(prev, cur);
	for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++)
		if (row_shows(f, node))
			r->has[f] = reclaim_figure_value(prev, cur, node, f, &r->value[f]) == 0;
	kswapd_threads(r, prev, cur, node);
	if (node >= 0)
		r->has_busy =
		    reclaim_sample_node_cpu_busy(prev, cur, node, &r->cpus, &r->cpu_busy) == 0;
}

double round_to(double v, int digits)
{
	double f = pow(10.0, digits);

	return round(v * f) / f;
}

cJSON *json_number_or_null(bool has, double v)
{
	return has ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* What a row adds after figure @f: the thread count before the CPU figures, the busiest's name. */
static void add_thread_keys(cJSON *o, const struct row *r, int node, enum reclaim_figure f,
			    const struct reclaim_sample *cur)
{
	if (f == RECLAIM_FIGURE_KSWAPD_CPU - 1)
		cJSON_AddNumberToObject(
		    o, "kswapd_threads",
		    (double)(r ? r->threads : reclaim_sample_kswapd_count(cur)));
	if (f != RECLAIM_FIGURE_KSWAPD_BUSIEST)
		return;
	if (r && r->busiest)
		cJSON_AddStringToObject(o, "kswapd_busiest", r->busiest);
	else
		cJSON_AddNullToObject(o, "kswapd_busiest");
	if (r && node >= 0 && r->has_busy) {
		cJSON_AddNumberToObject(o, "cpus", r->cpus);
		cJSON_AddNumberToObject(o, "cpu_busy_percent", round_to(r->cpu_busy, 2));
	}
}

void row_add_json(cJSON *o, const struct row *r, int node, const struct reclaim_sample *cur)
{
	if (node >= 0)
		cJSON_AddNumberToObject(o, "node", node);
	for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++) {
		const char *key = reclaim_figure_text(f, RECLAIM_FIGURE_KEY);
		bool has = r && r->has[f];
		double v = r ? r->value[f] : 0;

		if (!row_shows(f, node))
			continue;
		/* the first sample's PSI is a gauge of its own: known without an interval */
		if (!r && reclaim_figure_kind(f) == RECLAIM_FIGURE_PRESSURE && cur)
			has = reclaim_figure_value(cur, cur, node, f, &v) == 0;
		cJSON_AddItemToObject(o, key, json_number_or_null(has, round_to(v, 2)));
		add_thread_keys(o, r, node, f, cur);
	}
}

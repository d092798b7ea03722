// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The catalogue of figures: every measurement reclaimctl shows, records,
 * sums up, exports and adapts to, as data. One entry says where a figure
 * comes from (vmstat counters, a kswapd thread's CPU time, PSI), how it is
 * derived from two samples, and how every consumer names it. Adding a
 * figure is adding an entry here (and its enum value in reclaim.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "internal.h"

struct figure {
	enum reclaim_figure_kind kind;
	/* vmstat counters, a name ending in '_' for a family; the second: older kernels' name */
	const char *sources[2];
	const char *family_label; /* Prometheus label of a family's members */
	bool per_node;		  /* also in a node's vmstat */
	int width, digits;
	const char *text[_RECLAIM_FIGURE_TEXT_MAX];
};

#define TEXTS(key, label, unit, total_key, total_unit, column, group, heading, metric, help)       \
	.text = {                                                                                  \
	    [RECLAIM_FIGURE_KEY] = key,                                                            \
	    [RECLAIM_FIGURE_LABEL] = label,                                                        \
	    [RECLAIM_FIGURE_UNIT] = unit,                                                          \
	    [RECLAIM_FIGURE_TOTAL_KEY] = total_key,                                                \
	    [RECLAIM_FIGURE_TOTAL_UNIT] = total_unit,                                              \
	    [RECLAIM_FIGURE_COLUMN] = column,                                                      \
	    [RECLAIM_FIGURE_GROUP] = group,                                                        \
	    [RECLAIM_FIGURE_HEADING] = heading,                                                    \
	    [RECLAIM_FIGURE_METRIC] = metric,                                                      \
	    [RECLAIM_FIGURE_HELP] = help,                                                          \
	}

static const struct figure figures[_RECLAIM_FIGURE_MAX] = {
    [RECLAIM_FIGURE_PGSCAN_KSWAPD] = {RECLAIM_FIGURE_RATE,
				      {"pgscan_kswapd"},
				      NULL,
				      false,
				      8,
				      0,
				      TEXTS("pgscan_kswapd", "Pages scanned by kswapd", "pages/s",
					    "pgscan_kswapd", "pages", "SCAN_KSWAPD", "pgscan/s",
					    "kswapd", "reclaim_vmstat_pgscan_kswapd_total",
					    "Pages scanned by kswapd")},
    [RECLAIM_FIGURE_PGSCAN_DIRECT] = {RECLAIM_FIGURE_RATE,
				      {"pgscan_direct"},
				      NULL,
				      false,
				      8,
				      0,
				      TEXTS("pgscan_direct", "Pages scanned by direct reclaim",
					    "pages/s", "pgscan_direct", "pages", "SCAN_DIRECT",
					    "pgscan/s", "direct",
					    "reclaim_vmstat_pgscan_direct_total",
					    "Pages scanned by direct reclaim")},
    [RECLAIM_FIGURE_PGSTEAL_KSWAPD] = {RECLAIM_FIGURE_RATE,
				       {"pgsteal_kswapd"},
				       NULL,
				       false,
				       8,
				       0,
				       TEXTS("pgsteal_kswapd", "Pages reclaimed by kswapd",
					     "pages/s", "pgsteal_kswapd", "pages", "STEAL_KSWAPD",
					     "pgsteal/s", "kswapd",
					     "reclaim_vmstat_pgsteal_kswapd_total",
					     "Pages reclaimed by kswapd")},
    [RECLAIM_FIGURE_PGSTEAL_DIRECT] = {RECLAIM_FIGURE_RATE,
				       {"pgsteal_direct"},
				       NULL,
				       false,
				       8,
				       0,
				       TEXTS("pgsteal_direct", "Pages reclaimed by direct reclaim",
					     "pages/s", "pgsteal_direct", "pages", "STEAL_DIRECT",
					     "pgsteal/s", "direct",
					     "reclaim_vmstat_pgsteal_direct_total",
					     "Pages reclaimed by direct reclaim")},
    [RECLAIM_FIGURE_ALLOCSTALL] = {RECLAIM_FIGURE_RATE,
				   {"allocstall_"},
				   "zone",
				   false,
				   6,
				   0,
				   TEXTS("allocstall", "Direct reclaims (allocstall)", "reclaims/s",
					 "allocstall", "reclaims", "DIRECT", "direct/s", "stall",
					 "reclaim_vmstat_allocstall_total",
					 "Allocations that entered direct reclaim, by zone")},
    [RECLAIM_FIGURE_THROTTLED] = {RECLAIM_FIGURE_RATE,
				  {"direct_reclaim_throttled"},
				  NULL,
				  false,
				  6,
				  0,
				  TEXTS("direct_reclaim_throttled", "Throttled direct reclaims",
					"waits/s", "direct_reclaim_throttled", "waits", "THROTTLED",
					"direct/s", "thrtl",
					"reclaim_vmstat_direct_reclaim_throttled_total",
					"Times a task waited because of vm.max_direct_reclaimers "
					"(the reclaim throttle)")},
    /* node_exporter's vmstat collector exports these two by default */
    [RECLAIM_FIGURE_PSWPIN] = {RECLAIM_FIGURE_RATE,
			       {"pswpin"},
			       NULL,
			       false,
			       7,
			       0,
			       TEXTS("pswpin", "Pages swapped in", "pages/s", "pswpin", "pages",
				     "SWAPIN", "swap/s", "in", "node_vmstat_pswpin",
				     "Pages swapped in")},
    [RECLAIM_FIGURE_PSWPOUT] = {RECLAIM_FIGURE_RATE,
				{"pswpout"},
				NULL,
				false,
				7,
				0,
				TEXTS("pswpout", "Pages swapped out", "pages/s", "pswpout", "pages",
				      "SWAPOUT", "swap/s", "out", "node_vmstat_pswpout",
				      "Pages swapped out")},
    /* anon + file since Linux 5.9, one counter before */
    [RECLAIM_FIGURE_REFAULT] = {RECLAIM_FIGURE_RATE,
				{"workingset_refault_", "workingset_refault"},
				"type",
				true,
				8,
				0,
				TEXTS("workingset_refault", "Refaults", "pages/s",
				      "workingset_refault", "pages", "REFAULT", "", "refault",
				      "reclaim_vmstat_workingset_refault_total",
				      "Refaults of recently evicted pages, anon or file")},
    [RECLAIM_FIGURE_KSWAPD_CPU] = {RECLAIM_FIGURE_CPU_SUM,
				   {NULL},
				   NULL,
				   true,
				   6,
				   2,
				   TEXTS("kswapd_cpu_percent", "kswapd CPU time, all threads",
					 "% of one CPU", "kswapd_cpu_seconds", "s", "KSWAPD_CPU",
					 "kswapd %cpu", "sum", "reclaim_kswapd_cpu_seconds_total",
					 "CPU time of the kswapd threads, summed")},
    [RECLAIM_FIGURE_KSWAPD_BUSIEST] =
	{RECLAIM_FIGURE_CPU_MAX,
	 {NULL},
	 NULL,
	 true,
	 6,
	 2,
	 TEXTS("kswapd_busiest_cpu_percent", "kswapd CPU time, busiest thread",
	       "% of one CPU", "kswapd_busiest_cpu_seconds", "s", "KSWAPD_MAX", "kswapd %cpu",
	       "max", "reclaim_kswapd_cpu_seconds_total", "CPU time of the busiest kswapd thread")},
    /* node_exporter's pressure collector exports PSI */
    [RECLAIM_FIGURE_PSI_SOME] = {RECLAIM_FIGURE_PRESSURE,
				 {NULL},
				 NULL,
				 false,
				 6,
				 2,
				 TEXTS("psi_some_avg10", "PSI some: a task stalled", "%",
				       "psi_some_seconds", "s", "PSI_SOME", "psi avg10", "some",
				       "node_pressure_memory_waiting_seconds_total",
				       "Time at least one task stalled on memory")},
    [RECLAIM_FIGURE_PSI_FULL] = {RECLAIM_FIGURE_PRESSURE,
				 {NULL},
				 NULL,
				 false,
				 6,
				 2,
				 TEXTS("psi_full_avg10", "PSI full: all tasks stalled", "%",
				       "psi_full_seconds", "s", "PSI_FULL", "psi avg10", "full",
				       "node_pressure_memory_stalled_seconds_total",
				       "Time all non-idle tasks stalled on memory")},
};

static bool valid(enum reclaim_figure f)
{
	return (unsigned int)f < _RECLAIM_FIGURE_MAX;
}

RECLAIM_EXPORT size_t reclaim_figure_count(void)
{
	return _RECLAIM_FIGURE_MAX;
}

RECLAIM_EXPORT const char *reclaim_figure_text(enum reclaim_figure f, enum reclaim_figure_text what)
{
	assert_return(valid(f) && (unsigned int)what < _RECLAIM_FIGURE_TEXT_MAX, NULL);
	return figures[f].text[what];
}

RECLAIM_EXPORT enum reclaim_figure_kind reclaim_figure_kind(enum reclaim_figure f)
{
	assert_return(valid(f), RECLAIM_FIGURE_RATE);
	return figures[f].kind;
}

RECLAIM_EXPORT const char *reclaim_figure_source(enum reclaim_figure f, size_t idx)
{
	assert_return(valid(f), NULL);
	return idx < ARRAY_SIZE(figures[f].sources) ? figures[f].sources[idx] : NULL;
}

RECLAIM_EXPORT const char *reclaim_figure_family_label(enum reclaim_figure f)
{
	assert_return(valid(f), NULL);
	return figures[f].family_label;
}

RECLAIM_EXPORT bool reclaim_figure_per_node(enum reclaim_figure f)
{
	assert_return(valid(f), false);
	return figures[f].per_node;
}

RECLAIM_EXPORT int reclaim_figure_width(enum reclaim_figure f)
{
	assert_return(valid(f), 0);
	return figures[f].width;
}

RECLAIM_EXPORT int reclaim_figure_digits(enum reclaim_figure f)
{
	assert_return(valid(f), 0);
	return figures[f].digits;
}

RECLAIM_EXPORT bool reclaim_figure_by_node_exporter(enum reclaim_figure f)
{
	assert_return(valid(f), false);
	return strncmp(figures[f].text[RECLAIM_FIGURE_METRIC], "node_", 5) == 0;
}

RECLAIM_EXPORT int reclaim_figure_find(const char *key)
{
	assert_return(key, -EINVAL);
	for (int f = 0; f < _RECLAIM_FIGURE_MAX; f++)
		if (strcmp(figures[f].text[RECLAIM_FIGURE_KEY], key) == 0 ||
		    strcmp(figures[f].text[RECLAIM_FIGURE_TOTAL_KEY], key) == 0)
			return f;
	return -ENOENT;
}

static bool source_matches(const char *source, const char *name)
{
	size_t len = strlen(source);

	return source[len - 1] == '_' ? strncmp(name, source, len) == 0 && name[len]
				      : strcmp(name, source) == 0;
}

RECLAIM_EXPORT int reclaim_figure_of_counter(const char *name)
{
	assert_return(name, -EINVAL);
	for (int f = 0; f < _RECLAIM_FIGURE_MAX; f++)
		for (size_t i = 0; i < ARRAY_SIZE(figures[f].sources) && figures[f].sources[i]; i++)
			if (source_matches(figures[f].sources[i], name))
				return f;
	return -ENOENT;
}

/* ---- the one computation: a figure between two samples ---- */

static int counter_rate(const struct reclaim_sample *prev, const struct reclaim_sample *cur,
			int node, enum reclaim_figure f, double *v)
{
	int r = -ENOENT;

	if (node >= 0 && !figures[f].per_node)
		return -ENOENT;
	for (size_t i = 0; r < 0 && i < ARRAY_SIZE(figures[f].sources) && figures[f].sources[i];
	     i++)
		r = node < 0 ? reclaim_sample_rate(prev, cur, figures[f].sources[i], v)
			     : reclaim_sample_node_rate(prev, cur, node, figures[f].sources[i], v);
	return r;
}

static int kswapd_cpu(const struct reclaim_sample *prev, const struct reclaim_sample *cur, int node,
		      bool max, double *v)
{
	*v = 0;
	for (size_t i = 0; i < reclaim_sample_kswapd_count(cur); i++) {
		double pct;

		if (node >= 0 && reclaim_sample_kswapd_node(cur, i) != node)
			continue;
		pct = reclaim_sample_kswapd_cpu_percent(prev, cur, i);
		*v = max ? (pct > *v ? pct : *v) : *v + pct;
	}
	return 0;
}

/* PSI's avg10 of @cur; a sample without it (a recording's): the stalled share of the interval. */
static int pressure(const struct reclaim_sample *prev, const struct reclaim_sample *cur, int node,
		    enum reclaim_pressure_kind kind, double *v)
{
	const struct reclaim_pressure *a = reclaim_sample_pressure(prev);
	const struct reclaim_pressure *b = reclaim_sample_pressure(cur);
	double secs = reclaim_sample_interval(prev, cur);

	if (node >= 0 || !b || !reclaim_pressure_has(b, kind))
		return -ENOENT;
	*v = reclaim_pressure_avg10(b, kind);
	if (!isnan(*v))
		return 0;
	if (!a || !reclaim_pressure_has(a, kind) || !(secs > 0))
		return -ENOENT;
	*v = (double)reclaim_counter_delta(reclaim_pressure_total_us(a, kind),
					   reclaim_pressure_total_us(b, kind)) /
	     1e4 / secs;
	return 0;
}

RECLAIM_EXPORT int reclaim_figure_value(const struct reclaim_sample *prev,
					const struct reclaim_sample *cur, int node,
					enum reclaim_figure f, double *value)
{
	assert_return(prev && cur && valid(f) && value, -EINVAL);
	switch (figures[f].kind) {
	case RECLAIM_FIGURE_RATE:
		return counter_rate(prev, cur, node, f, value);
	case RECLAIM_FIGURE_CPU_SUM:
	case RECLAIM_FIGURE_CPU_MAX:
		return kswapd_cpu(prev, cur, node, figures[f].kind == RECLAIM_FIGURE_CPU_MAX,
				  value);
	case RECLAIM_FIGURE_PRESSURE:
		return pressure(prev, cur, node,
				f == RECLAIM_FIGURE_PSI_SOME ? RECLAIM_PRESSURE_SOME
							     : RECLAIM_PRESSURE_FULL,
				value);
	}
	return -EINVAL;
}

/* ---- totals over a run ---- */

struct thread_time {
	char name[32];
	double seconds;
};

struct reclaim_totals {
	int refcount;
	double seconds;
	bool has[_RECLAIM_FIGURE_MAX];
	double total[_RECLAIM_FIGURE_MAX];
	/* each kswapd thread's CPU time, by name: a restarted thread is the same one */
	size_t nthreads;
	struct thread_time *threads;
};

RECLAIM_EXPORT int reclaim_totals_new(struct reclaim_ctx *ctx, struct reclaim_totals **ret)
{
	struct reclaim_totals *t;

	assert_return(ctx && ret, -EINVAL);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->refcount = 1;
	/* no kswapd thread, or none that ran: 0 s */
	t->has[RECLAIM_FIGURE_KSWAPD_CPU] = t->has[RECLAIM_FIGURE_KSWAPD_BUSIEST] = true;
	*ret = t;
	return 0;
}

RECLAIM_EXPORT struct reclaim_totals *reclaim_totals_ref(struct reclaim_totals *t)
{
	if (t)
		t->refcount++;
	return t;
}

RECLAIM_EXPORT struct reclaim_totals *reclaim_totals_unref(struct reclaim_totals *t)
{
	if (t && --t->refcount == 0) {
		free(t->threads);
		free(t);
	}
	return NULL;
}

/* CPU seconds thread @idx of @cur used since @prev: all of it for a pid @prev lacks. */
static double thread_delta(const struct reclaim_sample *prev, const struct reclaim_sample *cur,
			   size_t idx)
{
	double now = reclaim_sample_kswapd_cpu_seconds(cur, idx), before = 0;
	pid_t pid = reclaim_sample_kswapd_pid(cur, idx);

	for (size_t i = 0; i < reclaim_sample_kswapd_count(prev); i++)
		if (reclaim_sample_kswapd_pid(prev, i) == pid)
			before = reclaim_sample_kswapd_cpu_seconds(prev, i);
	return now > before ? now - before : 0;
}

static int thread_add(struct reclaim_totals *t, const char *name, double seconds)
{
	struct thread_time *v;

	for (size_t i = 0; i < t->nthreads; i++)
		if (strcmp(t->threads[i].name, name) == 0) {
			t->threads[i].seconds += seconds;
			return 0;
		}
	v = realloc(t->threads, (t->nthreads + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->threads = v;
	v = &v[t->nthreads++];
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->seconds = seconds;
	return 0;
}

static int add_threads(struct reclaim_totals *t, const struct reclaim_sample *prev,
		       const struct reclaim_sample *cur)
{
	for (size_t i = 0; i < reclaim_sample_kswapd_count(cur); i++) {
		double d = thread_delta(prev, cur, i);
		int r;

		if (!(d > 0))
			continue;
		t->total[RECLAIM_FIGURE_KSWAPD_CPU] += d;
		r = thread_add(t, reclaim_sample_kswapd_name(cur, i), d);
		if (r < 0)
			return r;
	}
	return 0;
}

static void add_pressure(struct reclaim_totals *t, const struct reclaim_sample *prev,
			 const struct reclaim_sample *cur, enum reclaim_figure f,
			 enum reclaim_pressure_kind kind)
{
	const struct reclaim_pressure *a = reclaim_sample_pressure(prev);
	const struct reclaim_pressure *b = reclaim_sample_pressure(cur);

	if (!a || !b || !reclaim_pressure_has(a, kind) || !reclaim_pressure_has(b, kind))
		return;
	t->has[f] = true;
	t->total[f] += (double)reclaim_counter_delta(reclaim_pressure_total_us(a, kind),
						     reclaim_pressure_total_us(b, kind)) /
		       1e6;
}

static void add_counters(struct reclaim_totals *t, const struct reclaim_sample *prev,
			 const struct reclaim_sample *cur, enum reclaim_figure f)
{
	for (size_t i = 0; i < ARRAY_SIZE(figures[f].sources) && figures[f].sources[i]; i++) {
		uint64_t d;

		if (reclaim_sample_delta(prev, cur, -1, figures[f].sources[i], &d) == 0) {
			t->has[f] = true;
			t->total[f] += (double)d;
			return;
		}
	}
}

RECLAIM_EXPORT int reclaim_totals_add(struct reclaim_totals *t, const struct reclaim_sample *prev,
				      const struct reclaim_sample *cur)
{
	assert_return(t && prev && cur, -EINVAL);
	t->seconds += reclaim_sample_interval(prev, cur);
	for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++)
		if (figures[f].kind == RECLAIM_FIGURE_RATE)
			add_counters(t, prev, cur, f);
	add_pressure(t, prev, cur, RECLAIM_FIGURE_PSI_SOME, RECLAIM_PRESSURE_SOME);
	add_pressure(t, prev, cur, RECLAIM_FIGURE_PSI_FULL, RECLAIM_PRESSURE_FULL);
	return add_threads(t, prev, cur);
}

RECLAIM_EXPORT int reclaim_totals_get(const struct reclaim_totals *t, enum reclaim_figure f,
				      double *total)
{
	assert_return(t && valid(f) && total, -EINVAL);
	if (!t->has[f])
		return -ENOENT;
	*total = t->total[f];
	if (f == RECLAIM_FIGURE_KSWAPD_BUSIEST)
		for (size_t i = 0; i < t->nthreads; i++)
			if (t->threads[i].seconds > *total)
				*total = t->threads[i].seconds;
	return 0;
}

RECLAIM_EXPORT double reclaim_totals_seconds(const struct reclaim_totals *t)
{
	assert_return(t, 0.0);
	return t->seconds;
}

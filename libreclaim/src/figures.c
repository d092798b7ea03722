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
#include "latency-internal.h"

struct figure {
	enum reclaim_figure_kind kind;
	/* vmstat counters, a name ending in '_' for a family; the second: older kernels' name */
	const char *sources[2];
	const char *family_label; /* Prometheus label of a family's members */
	bool per_node;		  /* also in a node's vmstat */
	int width, digits;	  /* monitor's column; the decimals of the total */
	/* RECLAIM_FIGURE_LATENCY: of which waits, and the rank (1000: the longest) */
	enum reclaim_latency_kind latency;
	unsigned permille;
	const char *text[_RECLAIM_FIGURE_TEXT_MAX];
};

/*
 * node_exporter exports pswpin and pswpout (its vmstat collector) and PSI
 * (its pressure collector) by default: those metrics are its names.
 */
static const struct figure figures[_RECLAIM_FIGURE_MAX] = {
    [RECLAIM_FIGURE_PGSCAN_KSWAPD] =
	{
	    .kind = RECLAIM_FIGURE_RATE,
	    .sources = {"pgscan_kswapd"},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 8,
	    .digits = 0,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "pgscan_kswapd",
		    [RECLAIM_FIGURE_LABEL] = "Pages scanned by kswapd",
		    [RECLAIM_FIGURE_UNIT] = "pages/s",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "pgscan_kswapd",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "pages",
		    [RECLAIM_FIGURE_COLUMN] = "SCAN_KSWAPD",
		    [RECLAIM_FIGURE_GROUP] = "pgscan/s",
		    [RECLAIM_FIGURE_HEADING] = "kswapd",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_vmstat_pgscan_kswapd_total",
		    [RECLAIM_FIGURE_HELP] = "Pages scanned by kswapd",
		    [RECLAIM_FIGURE_ORIGIN] = "/proc/vmstat pgscan_kswapd",
		},
	},
    [RECLAIM_FIGURE_PGSCAN_DIRECT] =
	{
	    .kind = RECLAIM_FIGURE_RATE,
	    .sources = {"pgscan_direct"},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 8,
	    .digits = 0,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "pgscan_direct",
		    [RECLAIM_FIGURE_LABEL] = "Pages scanned by direct reclaim",
		    [RECLAIM_FIGURE_UNIT] = "pages/s",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "pgscan_direct",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "pages",
		    [RECLAIM_FIGURE_COLUMN] = "SCAN_DIRECT",
		    [RECLAIM_FIGURE_GROUP] = "pgscan/s",
		    [RECLAIM_FIGURE_HEADING] = "direct",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_vmstat_pgscan_direct_total",
		    [RECLAIM_FIGURE_HELP] = "Pages scanned by direct reclaim",
		    [RECLAIM_FIGURE_ORIGIN] = "/proc/vmstat pgscan_direct",
		},
	},
    [RECLAIM_FIGURE_PGSTEAL_KSWAPD] =
	{
	    .kind = RECLAIM_FIGURE_RATE,
	    .sources = {"pgsteal_kswapd"},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 8,
	    .digits = 0,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "pgsteal_kswapd",
		    [RECLAIM_FIGURE_LABEL] = "Pages reclaimed by kswapd",
		    [RECLAIM_FIGURE_UNIT] = "pages/s",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "pgsteal_kswapd",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "pages",
		    [RECLAIM_FIGURE_COLUMN] = "STEAL_KSWAPD",
		    [RECLAIM_FIGURE_GROUP] = "pgsteal/s",
		    [RECLAIM_FIGURE_HEADING] = "kswapd",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_vmstat_pgsteal_kswapd_total",
		    [RECLAIM_FIGURE_HELP] = "Pages reclaimed by kswapd",
		    [RECLAIM_FIGURE_ORIGIN] = "/proc/vmstat pgsteal_kswapd",
		},
	},
    [RECLAIM_FIGURE_PGSTEAL_DIRECT] =
	{
	    .kind = RECLAIM_FIGURE_RATE,
	    .sources = {"pgsteal_direct"},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 8,
	    .digits = 0,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "pgsteal_direct",
		    [RECLAIM_FIGURE_LABEL] = "Pages reclaimed by direct reclaim",
		    [RECLAIM_FIGURE_UNIT] = "pages/s",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "pgsteal_direct",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "pages",
		    [RECLAIM_FIGURE_COLUMN] = "STEAL_DIRECT",
		    [RECLAIM_FIGURE_GROUP] = "pgsteal/s",
		    [RECLAIM_FIGURE_HEADING] = "direct",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_vmstat_pgsteal_direct_total",
		    [RECLAIM_FIGURE_HELP] = "Pages reclaimed by direct reclaim",
		    [RECLAIM_FIGURE_ORIGIN] = "/proc/vmstat pgsteal_direct",
		},
	},
    [RECLAIM_FIGURE_ALLOCSTALL] =
	{
	    .kind = RECLAIM_FIGURE_RATE,
	    .sources = {"allocstall_"},
	    .family_label = "zone",
	    .per_node = false,
	    .width = 6,
	    .digits = 0,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "allocstall",
		    [RECLAIM_FIGURE_LABEL] = "Direct reclaims (allocstall)",
		    [RECLAIM_FIGURE_UNIT] = "reclaims/s",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "allocstall",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "reclaims",
		    [RECLAIM_FIGURE_COLUMN] = "DIRECT",
		    [RECLAIM_FIGURE_GROUP] = "direct/s",
		    [RECLAIM_FIGURE_HEADING] = "stall",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_vmstat_allocstall_total",
		    [RECLAIM_FIGURE_HELP] = "Allocations that entered direct reclaim, by zone",
		    [RECLAIM_FIGURE_ORIGIN] = "/proc/vmstat allocstall_*",
		},
	},
    [RECLAIM_FIGURE_THROTTLED] =
	{
	    .kind = RECLAIM_FIGURE_RATE,
	    .sources = {"direct_reclaim_throttled"},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 6,
	    .digits = 0,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "direct_reclaim_throttled",
		    [RECLAIM_FIGURE_LABEL] = "Throttled direct reclaims",
		    [RECLAIM_FIGURE_UNIT] = "waits/s",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "direct_reclaim_throttled",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "waits",
		    [RECLAIM_FIGURE_COLUMN] = "THROTTLED",
		    [RECLAIM_FIGURE_GROUP] = "direct/s",
		    [RECLAIM_FIGURE_HEADING] = "thrtl",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_vmstat_direct_reclaim_throttled_total",
		    [RECLAIM_FIGURE_HELP] =
			"Times a task waited because of vm.max_direct_reclaimers (the reclaim throttle)",
		    [RECLAIM_FIGURE_ORIGIN] = "/proc/vmstat direct_reclaim_throttled",
		},
	},
    [RECLAIM_FIGURE_PSWPIN] =
	{
	    .kind = RECLAIM_FIGURE_RATE,
	    .sources = {"pswpin"},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 7,
	    .digits = 0,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "pswpin",
		    [RECLAIM_FIGURE_LABEL] = "Pages swapped in",
		    [RECLAIM_FIGURE_UNIT] = "pages/s",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "pswpin",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "pages",
		    [RECLAIM_FIGURE_COLUMN] = "SWAPIN",
		    [RECLAIM_FIGURE_GROUP] = "swap/s",
		    [RECLAIM_FIGURE_HEADING] = "in",
		    [RECLAIM_FIGURE_METRIC] = "node_vmstat_pswpin",
		    [RECLAIM_FIGURE_HELP] = "Pages swapped in",
		    [RECLAIM_FIGURE_ORIGIN] = "/proc/vmstat pswpin",
		},
	},
    [RECLAIM_FIGURE_PSWPOUT] =
	{
	    .kind = RECLAIM_FIGURE_RATE,
	    .sources = {"pswpout"},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 7,
	    .digits = 0,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "pswpout",
		    [RECLAIM_FIGURE_LABEL] = "Pages swapped out",
		    [RECLAIM_FIGURE_UNIT] = "pages/s",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "pswpout",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "pages",
		    [RECLAIM_FIGURE_COLUMN] = "SWAPOUT",
		    [RECLAIM_FIGURE_GROUP] = "swap/s",
		    [RECLAIM_FIGURE_HEADING] = "out",
		    [RECLAIM_FIGURE_METRIC] = "node_vmstat_pswpout",
		    [RECLAIM_FIGURE_HELP] = "Pages swapped out",
		    [RECLAIM_FIGURE_ORIGIN] = "/proc/vmstat pswpout",
		},
	},
    [RECLAIM_FIGURE_REFAULT] =
	{
	    .kind = RECLAIM_FIGURE_RATE,
	    .sources = {"workingset_refault_", "workingset_refault"},
	    .family_label = "type",
	    .per_node = true,
	    .width = 8,
	    .digits = 0,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "workingset_refault",
		    [RECLAIM_FIGURE_LABEL] = "Refaults",
		    [RECLAIM_FIGURE_UNIT] = "pages/s",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "workingset_refault",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "pages",
		    [RECLAIM_FIGURE_COLUMN] = "REFAULT",
		    [RECLAIM_FIGURE_GROUP] = "",
		    [RECLAIM_FIGURE_HEADING] = "refault",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_vmstat_workingset_refault_total",
		    [RECLAIM_FIGURE_HELP] = "Refaults of recently evicted pages, anon or file",
		    [RECLAIM_FIGURE_ORIGIN] =
			"/proc/vmstat workingset_refault_* (workingset_refault before Linux 5.9)",
		},
	},
    [RECLAIM_FIGURE_KSWAPD_CPU] =
	{
	    .kind = RECLAIM_FIGURE_CPU_SUM,
	    .sources = {NULL},
	    .family_label = NULL,
	    .per_node = true,
	    .width = 6,
	    .digits = 2,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "kswapd_cpu_percent",
		    [RECLAIM_FIGURE_LABEL] = "kswapd CPU time, all threads",
		    [RECLAIM_FIGURE_UNIT] = "% of one CPU",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "kswapd_cpu_seconds",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "s",
		    [RECLAIM_FIGURE_COLUMN] = "KSWAPD_CPU",
		    [RECLAIM_FIGURE_GROUP] = "kswapd %cpu",
		    [RECLAIM_FIGURE_HEADING] = "sum",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_kswapd_cpu_seconds_total",
		    [RECLAIM_FIGURE_HELP] = "CPU time of the kswapd threads, summed",
		    [RECLAIM_FIGURE_ORIGIN] =
			"/proc/PID/stat of the kswapd threads (utime + stime)",
		},
	},
    [RECLAIM_FIGURE_KSWAPD_BUSIEST] =
	{
	    .kind = RECLAIM_FIGURE_CPU_MAX,
	    .sources = {NULL},
	    .family_label = NULL,
	    .per_node = true,
	    .width = 6,
	    .digits = 2,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "kswapd_busiest_cpu_percent",
		    [RECLAIM_FIGURE_LABEL] = "kswapd CPU time, busiest thread",
		    [RECLAIM_FIGURE_UNIT] = "% of one CPU",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "kswapd_busiest_cpu_seconds",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "s",
		    [RECLAIM_FIGURE_COLUMN] = "KSWAPD_MAX",
		    [RECLAIM_FIGURE_GROUP] = "kswapd %cpu",
		    [RECLAIM_FIGURE_HEADING] = "max",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_kswapd_cpu_seconds_total",
		    [RECLAIM_FIGURE_HELP] = "CPU time of the busiest kswapd thread",
		    [RECLAIM_FIGURE_ORIGIN] =
			"/proc/PID/stat of the kswapd threads (utime + stime)",
		},
	},
    [RECLAIM_FIGURE_PSI_SOME] =
	{
	    .kind = RECLAIM_FIGURE_PRESSURE,
	    .sources = {NULL},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 6,
	    .digits = 2,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "psi_some_avg10",
		    [RECLAIM_FIGURE_LABEL] = "PSI some: a task stalled",
		    [RECLAIM_FIGURE_UNIT] = "%",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "psi_some_seconds",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "s",
		    [RECLAIM_FIGURE_COLUMN] = "PSI_SOME",
		    [RECLAIM_FIGURE_GROUP] = "psi avg10",
		    [RECLAIM_FIGURE_HEADING] = "some",
		    [RECLAIM_FIGURE_METRIC] = "node_pressure_memory_waiting_seconds_total",
		    [RECLAIM_FIGURE_HELP] = "Time at least one task stalled on memory",
		    [RECLAIM_FIGURE_ORIGIN] = "/proc/pressure/memory some",
		},
	},
    [RECLAIM_FIGURE_PSI_FULL] =
	{
	    .kind = RECLAIM_FIGURE_PRESSURE,
	    .sources = {NULL},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 6,
	    .digits = 2,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "psi_full_avg10",
		    [RECLAIM_FIGURE_LABEL] = "PSI full: all tasks stalled",
		    [RECLAIM_FIGURE_UNIT] = "%",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "psi_full_seconds",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "s",
		    [RECLAIM_FIGURE_COLUMN] = "PSI_FULL",
		    [RECLAIM_FIGURE_GROUP] = "psi avg10",
		    [RECLAIM_FIGURE_HEADING] = "full",
		    [RECLAIM_FIGURE_METRIC] = "node_pressure_memory_stalled_seconds_total",
		    [RECLAIM_FIGURE_HELP] = "Time all non-idle tasks stalled on memory",
		    [RECLAIM_FIGURE_ORIGIN] = "/proc/pressure/memory full",
		},
	},
    [RECLAIM_FIGURE_DIRECT_P99] =
	{
	    .kind = RECLAIM_FIGURE_LATENCY,
	    .sources = {NULL},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 8,
	    .digits = 0,
	    .latency = RECLAIM_LATENCY_DIRECT,
	    .permille = 990,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "direct_p99_us",
		    [RECLAIM_FIGURE_LABEL] = "Direct reclaim duration, 99th percentile",
		    [RECLAIM_FIGURE_UNIT] = "us",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "direct_p99_us",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "us",
		    [RECLAIM_FIGURE_COLUMN] = "DIRECT_P99",
		    [RECLAIM_FIGURE_GROUP] = "direct us",
		    [RECLAIM_FIGURE_HEADING] = "p99",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_direct_reclaim_seconds",
		    [RECLAIM_FIGURE_HELP] = "How long direct reclaims took since the tracing started",
		    [RECLAIM_FIGURE_ORIGIN] = "tracefs: vmscan:mm_vmscan_direct_reclaim_begin to _end, in the kernel's log2 buckets (--latency)",
		},
	},
    [RECLAIM_FIGURE_DIRECT_MAX] =
	{
	    .kind = RECLAIM_FIGURE_LATENCY,
	    .sources = {NULL},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 8,
	    .digits = 0,
	    .latency = RECLAIM_LATENCY_DIRECT,
	    .permille = 1000,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "direct_max_us",
		    [RECLAIM_FIGURE_LABEL] = "Longest direct reclaim",
		    [RECLAIM_FIGURE_UNIT] = "us",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "direct_max_us",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "us",
		    [RECLAIM_FIGURE_COLUMN] = "DIRECT_MAX",
		    [RECLAIM_FIGURE_GROUP] = "direct us",
		    [RECLAIM_FIGURE_HEADING] = "max",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_direct_reclaim_longest_seconds",
		    [RECLAIM_FIGURE_HELP] = "The longest direct reclaim since the tracing started",
		    [RECLAIM_FIGURE_ORIGIN] = "tracefs: vmscan:mm_vmscan_direct_reclaim_begin to _end, in the kernel's log2 buckets (--latency)",
		},
	},
    [RECLAIM_FIGURE_THROTTLE_P99] =
	{
	    .kind = RECLAIM_FIGURE_LATENCY,
	    .sources = {NULL},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 8,
	    .digits = 0,
	    .latency = RECLAIM_LATENCY_THROTTLE,
	    .permille = 990,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "throttle_p99_us",
		    [RECLAIM_FIGURE_LABEL] = "Wait at the throttle, 99th percentile",
		    [RECLAIM_FIGURE_UNIT] = "us",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "throttle_p99_us",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "us",
		    [RECLAIM_FIGURE_COLUMN] = "THROTTLE_P99",
		    [RECLAIM_FIGURE_GROUP] = "thrtl us",
		    [RECLAIM_FIGURE_HEADING] = "p99",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_throttle_wait_seconds",
		    [RECLAIM_FIGURE_HELP] = "How long tasks waited at vm.max_direct_reclaimers (the reclaim throttle) since the tracing started",
		    [RECLAIM_FIGURE_ORIGIN] = "tracefs: the throttle's wait events (patched kernels), in the kernel's log2 buckets (--latency)",
		},
	},
    /* vm.rst (watermark_scale_factor): a high rate of it means kswapd wakes too late */
    [RECLAIM_FIGURE_LOW_WMARK_HIT] =
	{
	    .kind = RECLAIM_FIGURE_RATE,
	    .sources = {"kswapd_low_wmark_hit_quickly"},
	    .family_label = NULL,
	    .per_node = false,
	    .width = 8,
	    .digits = 0,
	    .text =
		{
		    [RECLAIM_FIGURE_KEY] = "kswapd_low_wmark_hit_quickly",
		    [RECLAIM_FIGURE_LABEL] = "kswapd woken within 0.1 s of going to sleep",
		    [RECLAIM_FIGURE_UNIT] = "times/s",
		    [RECLAIM_FIGURE_TOTAL_KEY] = "kswapd_low_wmark_hit_quickly",
		    [RECLAIM_FIGURE_TOTAL_UNIT] = "times",
		    [RECLAIM_FIGURE_COLUMN] = "LOW_WMARK_HIT",
		    [RECLAIM_FIGURE_GROUP] = "kswapd/s",
		    [RECLAIM_FIGURE_HEADING] = "early",
		    [RECLAIM_FIGURE_METRIC] = "reclaim_vmstat_kswapd_low_wmark_hit_quickly_total",
		    [RECLAIM_FIGURE_HELP] = "Times kswapd, a node balanced, was woken again in the first 0.1 s of its sleep (the low watermark hit quickly)",
		    [RECLAIM_FIGURE_ORIGIN] = "/proc/vmstat kswapd_low_wmark_hit_quickly",
		},
	},
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

RECLAIM_EXPORT int reclaim_figure_latency(enum reclaim_figure f, enum reclaim_latency_kind *kind,
					  unsigned *permille)
{
	assert_return(valid(f), -EINVAL);
	if (figures[f].kind != RECLAIM_FIGURE_LATENCY)
		return -EINVAL;
	if (kind)
		*kind = figures[f].latency;
	if (permille)
		*permille = figures[f].permille;
	return 0;
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

RECLAIM_EXPORT int reclaim_figure_of_counter(const char *name)
{
	assert_return(name, -EINVAL);
	for (int f = 0; f < _RECLAIM_FIGURE_MAX; f++)
		for (size_t i = 0; i < ARRAY_SIZE(figures[f].sources) && figures[f].sources[i]; i++)
			if (reclaim_counter_matches(figures[f].sources[i], name))
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

/* Latency figure @f of waits counted in @h, the longest @max: its percentile, or the longest. */
static double latency_rank(enum reclaim_figure f, const struct latency_hist *h, uint64_t max)
{
	return (double)(figures[f].permille == 1000
			    ? max
			    : latency_percentile_capped(h, figures[f].permille, max));
}

/* The figure's percentile of the waits between the samples; 0 when there were none. */
static int latency(const struct reclaim_sample *prev, const struct reclaim_sample *cur, int node,
		   enum reclaim_figure f, double *v)
{
	const struct latency_total *a = sample_latency(prev, figures[f].latency);
	const struct latency_total *b = sample_latency(cur, figures[f].latency);
	struct latency_hist h;
	uint64_t max;

	if (node >= 0 || !a || !b)
		return -ENOENT;
	latency_between(a, b, &h, &max);
	*v = latency_rank(f, &h, max);
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
	case RECLAIM_FIGURE_LATENCY:
		return latency(prev, cur, node, f, value);
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
	/* the waits of each interval, merged; the longest of any */
	struct latency_total latency[LATENCY_KINDS];
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
		double d = reclaim_sample_kswapd_cpu_delta(prev, cur, i);
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

static void add_latency(struct reclaim_totals *t, const struct reclaim_sample *prev,
			const struct reclaim_sample *cur)
{
	for (size_t k = 0; k < LATENCY_KINDS; k++) {
		const struct latency_total *a = sample_latency(prev, k);
		const struct latency_total *b = sample_latency(cur, k);
		struct latency_total *sum = &t->latency[k];
		struct latency_hist h;
		uint64_t max;

		if (!a || !b)
			continue;
		latency_between(a, b, &h, &max);
		latency_hist_add(&sum->hist, &h);
		sum->max_us = max > sum->max_us ? max : sum->max_us;
		sum->has = true;
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
	add_latency(t, prev, cur);
	return add_threads(t, prev, cur);
}

static int totals_latency(const struct reclaim_totals *t, enum reclaim_figure f, double *total)
{
	const struct latency_total *sum = &t->latency[figures[f].latency];

	if (!sum->has)
		return -ENOENT;
	*total = latency_rank(f, &sum->hist, sum->max_us);
	return 0;
}

RECLAIM_EXPORT int reclaim_totals_get(const struct reclaim_totals *t, enum reclaim_figure f,
				      double *total)
{
	assert_return(t && valid(f) && total, -EINVAL);
	if (figures[f].kind == RECLAIM_FIGURE_LATENCY)
		return totals_latency(t, f, total);
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

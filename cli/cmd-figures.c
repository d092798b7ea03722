// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl figures: the catalogue of what reclaimctl measures, as the
 * library defines it: the keys of monitor --json, of recordings and of
 * sweep's summary, their units, where each is read, its Prometheus series.
 */
#include <getopt.h>
#include <stdlib.h>

#include "reclaimctl.h"

enum {
	F_KEY,
	F_UNIT,
	F_TOTAL,
	F_TOTAL_UNIT,
	F_KIND,
	F_NODE,
	F_COLUMN,
	F_METRIC,
	F_ORIGIN,
	F_LABEL,
};

static const struct colinfo figure_cols[] = {
    [F_KEY] = {"KEY", 0, 0, "key of the value (monitor --json, recordings)", "key", CJ_STRING},
    [F_UNIT] = {"UNIT", 0, 0, "unit of the value", "unit", CJ_STRING},
    [F_TOTAL] = {"TOTAL", 0, 0, "key of the total over a run (sweep's summary, report)",
		 "total_key", CJ_STRING},
    [F_TOTAL_UNIT] = {"TOTAL_UNIT", 0, 0, "unit of the total", "total_unit", CJ_STRING},
    [F_KIND] = {"KIND", 0, 0, "how it is derived: rate, cpu-sum, cpu-max, pressure, latency",
		"kind", CJ_STRING},
    [F_NODE] = {"NODE", 0, 0, "also measured per NUMA node (monitor --per-node)", "per_node",
		CJ_BOOL},
    [F_COLUMN] = {"COLUMN", 0, 0, "its column in sweep's table", "column", CJ_STRING},
    [F_METRIC] = {"METRIC", 0, 0, "the Prometheus series of its source", "metric", CJ_STRING},
    [F_ORIGIN] = {"ORIGIN", 0, COL_TRUNC, "where the kernel shows it", "origin", CJ_STRING},
    [F_LABEL] = {"LABEL", 0, COL_TRUNC, "what it is", "label", CJ_STRING},
};

static const struct coltable figure_columns =
    COLTABLE("figures", figure_cols, "KEY,UNIT,TOTAL,TOTAL_UNIT,LABEL", "figures[]");

static const char *kind_name(enum reclaim_figure_kind kind)
{
	static const char *const names[] = {
	    [RECLAIM_FIGURE_RATE] = "rate",	  [RECLAIM_FIGURE_CPU_SUM] = "cpu-sum",
	    [RECLAIM_FIGURE_CPU_MAX] = "cpu-max", [RECLAIM_FIGURE_PRESSURE] = "pressure",
	    [RECLAIM_FIGURE_LATENCY] = "latency",
	};

	return (size_t)kind < ARRAY_LEN(names) ? names[kind] : "?";
}

/* The texts of figure @f's string columns, by column id. */
static const char *figure_text(enum reclaim_figure f, int col)
{
	static const enum reclaim_figure_text text_of[] = {
	    [F_KEY] = RECLAIM_FIGURE_KEY,	  [F_UNIT] = RECLAIM_FIGURE_UNIT,
	    [F_TOTAL] = RECLAIM_FIGURE_TOTAL_KEY, [F_TOTAL_UNIT] = RECLAIM_FIGURE_TOTAL_UNIT,
	    [F_COLUMN] = RECLAIM_FIGURE_COLUMN,	  [F_METRIC] = RECLAIM_FIGURE_METRIC,
	    [F_ORIGIN] = RECLAIM_FIGURE_ORIGIN,	  [F_LABEL] = RECLAIM_FIGURE_LABEL,
	};

	if (col == F_KIND)
		return kind_name(reclaim_figure_kind(f));
	return reclaim_figure_text(f, text_of[col]);
}

static void fill_row(struct table *t, enum reclaim_figure f)
{
	cJSON *src = cJSON_CreateArray();

	table_row(t);
	for (int col = 0; col < (int)ARRAY_LEN(figure_cols); col++) {
		if (col == F_NODE)
			table_set_bool(t, col, reclaim_figure_per_node(f));
		else
			table_set_str(t, col, figure_text(f, col));
	}
	for (size_t i = 0; reclaim_figure_source(f, i); i++)
		cJSON_AddItemToArray(src, cJSON_CreateString(reclaim_figure_source(f, i)));
	table_json_add(t, "vmstat", src);
	table_json_add(t, "exporter",
		       cJSON_CreateString(reclaim_figure_by_node_exporter(f) ? "node_exporter"
									     : "reclaimctl"));
}

static void figures_print(struct cli *cli)
{
	struct table *t = table_new(cli, &figure_columns);

	for (enum reclaim_figure f = 0; f < reclaim_figure_count(); f++)
		fill_row(t, f);
	if (cli->json) {
		cJSON *root = json_document();

		cJSON_AddItemToObject(root, "figures", table_json_array(t));
		json_print(root);
		cJSON_Delete(root);
	} else {
		table_print(t);
	}
	table_free(t);
}

static void figures_help(FILE *out)
{
	fputs("Lists the figures reclaimctl measures, as libreclaim defines them: the key\n"
	      "of each in monitor --json and in recordings and its unit, the key of its\n"
	      "total over a run in sweep's summary and the report, how it is derived,\n"
	      "where the kernel shows it and the Prometheus series of that source.\n"
	      "\nOptions:\n"
	      "  -J, --json   JSON output\n"
	      "  -h, --help   this help\n",
	      out);
}

static int run_figures(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {COMMON_LONG_OPTIONS, TABLE_LONG_OPTIONS, {0}};
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS, opts,
				NULL)) != -1) {
		bool done;

		r = common_option(cli, &cmd_figures, c, argv, &done);
		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("figures: unexpected argument '%s'", argv[optind]);
	r = table_check(cli, "figures", &figure_columns);
	if (r)
		return r;
	figures_print(cli);
	return EXIT_SUCCESS;
}

const struct command cmd_figures = {
    .name = "figures",
    .run = run_figures,
    .args = "[-o LIST] [--output-all] [-n] [-r] [--json]",
    .summary = "List the figures monitor, record, report and sweep measure",
    .help = figures_help,
    .tables = (const struct coltable *const[]){&figure_columns, NULL},
};

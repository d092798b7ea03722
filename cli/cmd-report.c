// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl report: recorded runs (reclaimctl record), read by
 * recording/reader.c, as the page of recording/report-html.c.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reclaimctl.h"
#include "report.h"

static void report_help(FILE *out)
{
	fputs("Turns files written by 'reclaimctl record' into one self-contained HTML\n"
	      "page (no scripts, nothing loaded from elsewhere): a summary table with one\n"
	      "column per run (totals and averages of pages scanned by kswapd and\n"
	      "directly, direct reclaims, throttled waits, swap, kswapd CPU, PSI; the\n"
	      "command's exit status and wall time) and SVG charts over time, one per run\n"
	      "side by side on the same scale, with knob changes marked.\n"
	      "\nOptions:\n"
	      "      --html FILE     the HTML file to write ('-': standard output)\n"
	      "  -h, --help          this help\n",
	      out);
}

/* Figures a recording has neither the values nor the sources of: said, and shown as "—". */
static void warn_missing(const struct run *run)
{
	char *missing = run_missing(run, NULL);

	if (missing)
		warnmsg("report: %s: neither recorded nor computable from its counters: %s",
			run->file, missing);
	free(missing);
}

enum { OPT_HTML = OPT_COMMAND, OPT_OUTPUT };

static int run_report(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"html", required_argument, NULL, OPT_HTML},
	    {"output", required_argument, NULL, OPT_OUTPUT},
	    COMMON_LONG_OPTIONS,
	    {0},
	};
	const char *output = NULL;
	struct run *runs;
	size_t n = 0;
	double tmax = 0;
	int c, r = 0;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS "o:", opts, NULL)) != -1) {
		bool done;

		if (c == 'o' || c == OPT_OUTPUT)
			deprecated_option("report", c == 'o' ? "-o" : "--output", "--html FILE");
		if (c == 'o' || c == OPT_OUTPUT || c == OPT_HTML) {
			output = optarg;
			continue;
		}
		r = common_option(cli, &cmd_report, c, argv, &done);
		if (done)
			return r;
	}
	if (cli->json)
		return usage_error(
		    "report: no --json: it writes an HTML page (the records are JSON)");
	if (optind >= argc)
		return usage_error("report: needs at least one record FILE");
	if (!output)
		return usage_error("report: needs --html FILE");
	runs = calloc((size_t)(argc - optind), sizeof(*runs));
	if (!runs)
		abort();
	/* the charts' time axis, from the files' ends, so that each run is read once */
	for (int i = optind; i < argc; i++)
		tmax = fmax(tmax, run_last_elapsed(argv[i]));
	for (int i = optind; i < argc && r == 0; i++) {
		r = report_read(cli, argv[i], &runs[n++], tmax);
		if (r == 0)
			warn_missing(&runs[n - 1]);
	}
	if (r == 0)
		r = write_report(output, runs, n, NULL);
	for (size_t i = 0; i < n; i++)
		run_free(&runs[i]);
	free(runs);
	return r;
}

const struct command cmd_report = {
    .name = "report",
    .run = run_report,
    .args = "FILE... --html OUTPUT",
    .summary = "Render recorded runs as one HTML page with charts",
    .help = report_help,
};

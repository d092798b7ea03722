// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl record: the recorder (recording/recorder.c) from the command
 * line, into a file or standard output, until a duration, the command's
 * end or Ctrl-C.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "sampling.h"

static void record_help(FILE *out)
{
	fputs("Samples, every interval, what monitor shows plus the raw reclaim counters,\n"
	      "each kswapd thread's CPU time, PSI totals and the knobs' values into FILE,\n"
	      "one JSON object per line (see RECORD FILE FORMAT in reclaimctl(8)). A knob\n"
	      "that changes during the recording is written as an event. With a COMMAND,\n"
	      "records while it runs and stores its exit status and wall time. Ends at\n"
	      "the end of the duration, when the command exits, or on Ctrl-C. Turn the\n"
	      "file into an HTML page with 'reclaimctl report'.\n"
	      "\nOptions:\n"
	      "      --file FILE           the file to write ('-': standard output)\n"
	      "  -i, --interval SECONDS    time between samples (default 1)\n"
	      "  -d, --duration DURATION   stop after this long (90, 90s, 5m, 1h); with a\n"
	      "                            command: end it (SIGTERM) then\n"
	      "      --latency             also how long reclaim made tasks wait (as\n"
	      "                            'reclaimctl latency' traces it; needs root)\n"
	      "  -h, --help                this help\n",
	      out);
}

enum { OPT_FILE = OPT_COMMAND, OPT_OUTPUT, OPT_LATENCY };

static int parse_options(struct cli *cli, struct record_run *rec, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"file", required_argument, NULL, OPT_FILE},
	    {"output", required_argument, NULL, OPT_OUTPUT},
	    {"interval", required_argument, NULL, 'i'},
	    {"duration", required_argument, NULL, 'd'},
	    {"latency", no_argument, NULL, OPT_LATENCY},
	    COMMON_LONG_OPTIONS,
	    {0},
	};
	int c;

	while ((c = getopt_long(argc, argv, "+" COMMON_SHORT_OPTIONS "o:i:d:", opts, NULL)) != -1) {
		bool done;
		int r;

		switch (c) {
		case 'o':
		case OPT_OUTPUT:
			deprecated_option("record", c == 'o' ? "-o" : "--output", "--file FILE");
			/* fall through */
		case OPT_FILE:
			rec->output = optarg;
			break;
		case OPT_LATENCY:
			rec->latency = true;
			break;
		case 'i':
			r = parse_interval("record", optarg, &rec->interval);
			if (r)
				return r;
			break;
		case 'd':
			if (!parse_seconds(optarg, true, &rec->duration))
				return usage_error("record: --duration: not a duration (90, 90s, "
						   "5m, 1h): '%s'",
						   optarg);
			break;
		default:
			r = common_option(cli, &cmd_record, c, argv, &done);
			if (done)
				return r ? r : -1;
		}
	}
	/* its file is JSON lines already: there is no document to print */
	if (cli->json)
		return usage_error("record: no --json: the record file is JSON, one object a line");
	if (!rec->output)
		return usage_error("record: needs --file FILE");
	if (optind < argc)
		rec->command = argv + optind;
	return 0;
}

static int run_record(struct cli *cli, int argc, char **argv)
{
	struct record_run rec = {.interval = 1.0, .command_output = -1};
	int r;

	r = parse_options(cli, &rec, argc, argv);
	if (r)
		return r < 0 ? 0 : r;
	drift_note(cli);
	record_catch_signals();
	/* a reader of standard output that goes ends the recording through its
	 * write error, so that the tracefs instance goes too */
	if (rec.latency)
		signal(SIGPIPE, SIG_IGN);
	r = record_run(cli, &rec);
	record_restore_signals();
	if (r == 0 && strcmp(rec.output, "-") != 0)
		fprintf(stderr, "reclaimctl: recorded %ld samples to %s\n", rec.samples,
			rec.output);
	return r;
}

const struct command cmd_record = {
    .name = "record",
    .run = run_record,
    .args = "[-i SECONDS] [-d DURATION] [--latency] --file FILE [-- COMMAND...]",
    .summary = "Record rates, kswapd CPU, pressure and knobs into a file",
    .help = record_help,
    .reads_knobs = true,
};

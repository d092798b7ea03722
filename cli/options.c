// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A command's command line: its --help (with its tables' columns), the
 * options every command takes, one-line option errors, and options put
 * before the operands for commands whose operands may start with '-'.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "reclaimctl.h"

int show_help(const struct command *cmd)
{
	printf("Usage: reclaimctl [global options] %s %s\n\n%s.\n", cmd->name, cmd->args,
	       cmd->summary);
	if (cmd->help)
		cmd->help(stdout);
	if (cmd->tables) {
		size_t n = 0;
		bool sizes = false;

		while (cmd->tables[n])
			sizes |= table_has_sizes(cmd->tables[n++]);
		printf(
		    "\nTable options:\n"
		    "  -o, --output LIST   the columns to show, comma-separated; +LIST adds them\n"
		    "                      to the default ones\n"
		    "      --output-all    every column\n"
		    "  -n, --noheadings    no header line, nor titles or lines around the tables\n"
		    "  -r, --raw           unaligned: one space between columns, blanks escaped\n"
		    "  -P, --pairs         KEY=\"value\" pairs, as lsblk -P (no titles either)\n");
		if (sizes)
			printf("  -b, --bytes         sizes in bytes, not 4.0G\n");
		for (size_t i = 0; i < n; i++) {
			char title[96];

			if (n == 1)
				snprintf(title, sizeof(title), "Available output columns");
			else
				snprintf(title, sizeof(title), "Columns of %s %s", cmd->name,
					 cmd->tables[i]->name);
			table_help(stdout, cmd->tables[i], title);
		}
	}
	printf("\nGlobal options: --sysroot DIR, --json, --color[=WHEN]; see reclaimctl --help.\n");
	return 0;
}

int option_error(const char *where, int opt, char **argv)
{
	const char *arg = argv[optind - 1];
	const char *prefix = where ? where : "", *sep = where ? ": " : "";

	if (opt == ':')
		return usage_error("%s%soption '%s' needs a value", prefix, sep, arg);
	/* -n was --dry-run's short option once: say so rather than leave a guess. */
	if (optopt == 'n' && arg[0] == '-' && arg[1] != '-')
		return usage_error("%s%sunknown option '-n' (-n is --noheadings, for tables; "
				   "--dry-run and --values have no short option)",
				   prefix, sep);
	/* For an unknown short option in a cluster (-Jx), optopt names it. */
	if (optopt && arg[0] == '-' && arg[1] != '-')
		return usage_error("%s%sunknown option '-%c'", prefix, sep, optopt);
	return usage_error("%s%sunknown option '%s'", prefix, sep, arg);
}

void deprecated_option(const char *cmd, const char *old, const char *now)
{
	warnmsg("%s: %s is deprecated and goes in the next release: use %s (-o is the "
		"columns of a table in every command)",
		cmd, old, now);
}

void drift_note(struct cli *cli)
{
	if (cli->cmd && cli->cmd->reads_knobs)
		(void)reclaim_history_note_drift(cli->ctx);
}

/* lsblk's exclusive output formats: -J, -P, -r. */
static int formats_check(const struct cli *cli, const struct command *cmd)
{
	if (cli->out.pairs && cli->out.raw)
		return usage_error("%s: -P and -r exclude each other", cmd->name);
	if (cli->out.pairs && cli->json)
		return usage_error("%s: -P and --json exclude each other", cmd->name);
	return 0;
}

int common_option(struct cli *cli, const struct command *cmd, int opt, char **argv, bool *done)
{
	int r;

	*done = true;
	if (table_option(cli, opt, optarg)) {
		r = formats_check(cli, cmd);
		*done = r != 0;
		return r;
	}
	switch (opt) {
	case 'h':
		return show_help(cmd);
	case 'J':
		cli->json = true;
		r = formats_check(cli, cmd);
		*done = r != 0;
		return r;
	default:
		return option_error(cmd->name, opt, argv);
	}
}

/* "0-3,8,10-11", as the kernel writes CPU lists. */
static bool is_option(const char *arg)
{
	return arg[0] == '-' && arg[1] && !(arg[1] >= '0' && arg[1] <= '9');
}

/* -o LIST and --output LIST: the option's value is the next word (-nro LIST too). */
static bool value_follows(const char *arg)
{
	if (strcmp(arg, "--output") == 0)
		return true;
	return arg[1] != '-' && strchr(arg, 'o') == arg + strlen(arg) - 1;
}

/*
 * "set throttle -1" must reach the range check, not getopt: returns a new
 * argv with the options (and -o's value) first, then "--" and the operands
 * in their order.
 */
char **options_first(int argc, char **argv, int *new_argc)
{
	char **v = calloc((size_t)argc + 2, sizeof(*v));
	bool *is_opt = calloc((size_t)argc + 1, sizeof(*is_opt));
	int n = 1, i;

	if (!v || !is_opt)
		abort();
	v[0] = argv[0];
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (!is_option(argv[i]))
			continue;
		is_opt[i] = true;
		if (value_follows(argv[i]) && i + 1 < argc)
			is_opt[++i] = true;
	}
	for (int j = 1; j < i; j++)
		if (is_opt[j])
			v[n++] = argv[j];
	v[n++] = "--";
	for (int j = 1; j < argc; j++)
		if (!is_opt[j] && j != i)
			v[n++] = argv[j];
	free(is_opt);
	*new_argc = n;
	return v;
}

int run_options_first(struct cli *cli, int argc, char **argv,
		      int (*main)(struct cli *cli, int argc, char **argv))
{
	int r;

	argv = options_first(argc, argv, &argc);
	r = main(cli, argc, argv);
	free(argv);
	return r;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reclaimctl.h"

/* One command a line. */
/* clang-format off */
static const struct command *const commands[] = {
    &cmd_status,
    &cmd_get,
    &cmd_set,
    &cmd_threads,
    &cmd_swap,
    &cmd_autotune,
    &cmd_preset,
    &cmd_restore,
    &cmd_history,
    &cmd_check,
    &cmd_verify,
    &cmd_boot,
    &cmd_adapt,
    &cmd_monitor,
    &cmd_stalls,
    &cmd_latency,
    &cmd_record,
    &cmd_report,
    &cmd_sweep,
    &cmd_figures,
};
/* clang-format on */

const struct command *const *command_table(size_t *n)
{
	*n = sizeof(commands) / sizeof(commands[0]);
	return commands;
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static int usage(void)
{
	printf("Usage: reclaimctl [options] COMMAND [ARGS]\n\n"
	       "See and tune Linux memory reclaim: kswapd threads per NUMA node, the\n"
	       "direct-reclaim throttle and swap round-robin quota, reclaim counters.\n\n"
	       "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		printf("  %-9s %s\n", commands[i]->name, commands[i]->summary);
	printf("  %-9s %s\n", "help", "Show the help of a command");
	printf("\nOptions:\n"
	       "      --sysroot DIR  read and write the system files under DIR\n"
	       "  -J, --json         JSON output (where the command has it)\n"
	       "      --color[=WHEN] color the headers: auto (the default: on a terminal,\n"
	       "                     unless NO_COLOR is set or TERM=dumb), always, never\n"
	       "      --no-color     the same as --color=never\n"
	       "  -h, --help         this help\n"
	       "  -V, --version      print the versions of reclaimctl and libreclaim\n"
	       "\nExit status: 0 success, 1 failure, 2 usage error.\n"
	       "See reclaimctl(8) for more.\n");
	return EXIT_SUCCESS;
}

static int run_help(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		return usage();
	cmd = find_command(argv[1]);
	if (!cmd)
		return usage_error("help: unknown command '%s'", argv[1]);
	return show_help(cmd);
}

/*
 * A binary run from its build tree has no installed presets: the build puts
 * a link to the source tree's beside it. RECLAIMCTL_PRESET_DIR still wins.
 */
static void build_tree_presets(void)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 32);

	if (n <= 0 || getenv("RECLAIMCTL_PRESET_DIR"))
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	strcpy(slash + 1, "reclaimctl-source-presets");
	if (access(exe, F_OK) == 0)
		setenv("RECLAIMCTL_PRESET_DIR", exe, 0);
}

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

/* As util-linux: auto colors a terminal unless NO_COLOR is set or TERM is dumb. */
static bool want_color(enum color_mode mode)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (mode != COLOR_AUTO)
		return mode == COLOR_ALWAYS;
	if ((nc && nc[0]) || (term && strcmp(term, "dumb") == 0))
		return false;
	return isatty(STDOUT_FILENO);
}

static int parse_color(const char *when, enum color_mode *mode)
{
	if (!when || strcmp(when, "auto") == 0)
		*mode = COLOR_AUTO;
	else if (strcmp(when, "always") == 0)
		*mode = COLOR_ALWAYS;
	else if (strcmp(when, "never") == 0)
		*mode = COLOR_NEVER;
	else
		return usage_error("--color: '%s' is not auto, always or never", when);
	return 0;
}

/*
 * --sysroot and --color may also follow the command, as with systemctl:
 * take them out of argv wherever they stand (before a "--").
 */
static int take_global_options(int *argc, char **argv, const char **sysroot, enum color_mode *color)
{
	int n = 1, i, r;

	for (i = 1; i < *argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--no-color") == 0) {
			*color = COLOR_NEVER;
		} else if (strcmp(argv[i], "--color") == 0 ||
			   strncmp(argv[i], "--color=", 8) == 0) {
			r = parse_color(argv[i][7] ? argv[i] + 8 : NULL, color);
			if (r)
				return r;
		} else if (strncmp(argv[i], "--sysroot=", 10) == 0) {
			*sysroot = argv[i] + 10;
		} else if (strcmp(argv[i], "--sysroot") == 0) {
			if (i + 1 >= *argc)
				return usage_error("option '--sysroot' needs a value");
			*sysroot = argv[++i];
		} else {
			argv[n++] = argv[i];
		}
	}
	while (i < *argc)
		argv[n++] = argv[i++];
	argv[n] = NULL;
	*argc = n;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"json", no_argument, NULL, 'J'},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {0},
	};
	struct cli cli = {0};
	const struct command *cmd;
	const char *sysroot = NULL;
	enum color_mode color = COLOR_AUTO;
	int c, r;

	r = take_global_options(&argc, argv, &sysroot, &color);
	if (r)
		return r;
	opterr = 0;
	/* "+": options after the command belong to the command. */
	while ((c = getopt_long(argc, argv, "+:JhV", opts, NULL)) != -1) {
		switch (c) {
		case 'J':
			cli.json = true;
			break;
		case 'h':
			return usage();
		case 'V':
			/* the library's own: the one installed, not the one built against */
			printf("reclaimctl %s\nlibreclaim %s\n", RECLAIMCTL_VERSION,
			       reclaim_version());
			return EXIT_SUCCESS;
		default:
			return option_error(NULL, c, argv);
		}
	}
	if (optind >= argc)
		return usage_error("no command given (see reclaimctl --help)");
	if (strcmp(argv[optind], "help") == 0)
		return run_help(argc - optind, argv + optind);
	cmd = find_command(argv[optind]);
	if (!cmd)
		return usage_error("unknown command '%s' (see reclaimctl --help)", argv[optind]);
	if (sysroot && access(sysroot, F_OK) != 0)
		return usage_error("--sysroot %s: no such directory", sysroot);

	build_tree_presets();
	r = reclaim_new(&cli.ctx, sysroot);
	if (r < 0)
		return fail(EXIT_FAILURE, "cannot create the library context: %s", strerror(-r));
	cli.color = want_color(color);
	argc -= optind;
	argv += optind;
	optind = 0; /* reset getopt for the command's own options */
	cli.cmd = cmd;
	r = cmd->run(&cli, argc, argv);
	reclaim_unref(cli.ctx);
	/* a command that failed said why already (sweep: "cannot write to standard output") */
	if (r == 0 && (r = stdout_error()) != 0)
		return fail(EXIT_FAILURE, "write error on standard output: %s", strerror(r));
	return r;
}

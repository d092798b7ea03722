// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What reclaimctl-autotune.service runs at boot: the preset named in
 * /etc/reclaimctl/reclaimctl.conf, through the common apply path, with
 * structured journal entries.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "journal.h"
#include "reclaimctl.h"

#define CONFIG	       "/etc/reclaimctl/reclaimctl.conf"
#define DEFAULT_PRESET "balanced"

static void boot_help(FILE *out)
{
	fputs("Applies the preset named in " CONFIG " (\"preset = NAME\";\n"
	      "without the file, " DEFAULT_PRESET "; \"off\" does nothing), as the boot unit\n"
	      "reclaimctl-autotune.service does, and logs each changed knob to the journal.\n"
	      "\nOptions:\n"
	      "  -n, --dry-run  show what would change without writing it\n"
	      "  -J, --json     JSON output\n"
	      "  -h, --help     this help\n",
	      out);
}

static char *trim(char *s)
{
	char *end;

	s += strspn(s, " \t");
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

/* One "preset = NAME" line, a comment or blank; else an error message in @err. */
static int config_line(char *line, size_t n, char **preset, char **err)
{
	char *eq, *key, *value;

	line = trim(line);
	if (*line == '\0' || *line == '#')
		return 0;
	eq = strchr(line, '=');
	if (!eq)
		return asprintf(err, "%s:%zu: expected \"preset = NAME\"", CONFIG, n), -EINVAL;
	*eq = '\0';
	key = trim(line);
	value = trim(eq + 1);
	if (strcmp(key, "preset") != 0)
		return asprintf(err, "%s:%zu: unknown setting '%s' (known: preset)", CONFIG, n,
				key),
		       -EINVAL;
	if (*value == '\0')
		return asprintf(err, "%s:%zu: preset needs a name (or off)", CONFIG, n), -EINVAL;
	free(*preset);
	*preset = strdup(value);
	return *preset ? 0 : -ENOMEM;
}

/* The preset to apply: the configured one, or the default without a config file. */
static int read_config(struct cli *cli, char **preset, char **err)
{
	const char *root = reclaim_get_sysroot(cli->ctx);
	char *path = NULL, *line = NULL;
	size_t size = 0, n = 0;
	FILE *f;
	int r = 0;

	*preset = NULL;
	if (asprintf(&path, "%s%s", strcmp(root, "/") == 0 ? "" : root, CONFIG) < 0)
		return -ENOMEM;
	f = fopen(path, "re");
	free(path);
	if (!f && errno != ENOENT)
		return asprintf(err, "cannot read %s: %s", CONFIG, strerror(errno)), -errno;
	while (f && r == 0 && getline(&line, &size, f) >= 0)
		r = config_line(line, ++n, preset, err);
	free(line);
	if (f)
		fclose(f);
	if (r == 0 && !*preset && !(*preset = strdup(DEFAULT_PRESET)))
		r = -ENOMEM;
	if (r == -ENOMEM && !*err)
		*err = strdup("out of memory");
	return r;
}

/* Says @msg on standard error (unless that is the journal already) and in the journal. */
static int boot_fail(const char *preset, const char *msg)
{
	if (!journal_is_stderr())
		fail(EXIT_FAILURE, "%s", msg);
	if (preset)
		journal_failed(preset, "Cannot apply preset %s: %s", preset, msg);
	else
		journal_failed(NULL, "%s", msg);
	return EXIT_FAILURE;
}

static int apply_preset(struct cli *cli, const char *name, bool dry_run)
{
	struct apply_request req = {.dry_run = dry_run};
	struct apply_result res = {0};
	struct reclaim_preset *p = NULL;
	int r;

	if (reclaim_preset_load(cli->ctx, name, &p) < 0)
		return boot_fail(name, reclaim_strerror(cli->ctx));
	r = apply_add_preset(cli, p, &res);
	if (r == 0)
		r = apply_run(cli, &req, &res);
	reclaim_preset_unref(p);
	if (r) {
		boot_fail(name, res.error);
		apply_free(&res);
		return r;
	}
	if (cli->json) {
		cJSON *root = apply_json(&req, &res);

		cJSON_AddStringToObject(root, "preset", name);
		json_print(root);
		cJSON_Delete(root);
	} else if (!journal_is_stderr()) {
		apply_print(cli, &req, &res);
	}
	if (!dry_run) {
		journal_entries(name, &res);
		journal_applied(name, &res);
	}
	apply_free(&res);
	return EXIT_SUCCESS;
}

static void json_print_empty_apply(struct cli *cli)
{
	struct apply_request req = {0};
	struct apply_result res = {0};

	apply_print(cli, &req, &res);
}

static int run_boot(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    COMMON_LONG_OPTIONS, {"dry-run", no_argument, NULL, 'n'}, {0}};
	bool dry_run = false;
	char *preset = NULL, *err = NULL;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS "n", opts, NULL)) != -1) {
		bool done;

		if (c == 'n') {
			dry_run = true;
			continue;
		}
		r = common_option(cli, &cmd_boot, c, argv, &done);
		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("boot: unexpected argument '%s'", argv[optind]);
	journal_use(strcmp(reclaim_get_sysroot(cli->ctx), "/") == 0 && !dry_run);
	if (read_config(cli, &preset, &err) < 0) {
		r = boot_fail(NULL, err ? err : "out of memory");
	} else if (strcmp(preset, "off") == 0) {
		if (cli->json)
			json_print_empty_apply(cli);
		else if (!journal_is_stderr())
			printf("autotune is off (preset = off in %s): nothing changed\n", CONFIG);
		journal_info(NULL, "Autotune is off in %s: no knob changed", CONFIG);
		r = EXIT_SUCCESS;
	} else {
		r = apply_preset(cli, preset, dry_run);
	}
	free(preset);
	free(err);
	return r;
}

const struct command cmd_boot = {
    .name = "boot",
    .run = run_boot,
    .args = "[--dry-run] [--json]",
    .summary = "Apply the configured preset, as the boot unit does",
    .help = boot_help,
};

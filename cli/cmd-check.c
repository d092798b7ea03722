// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check: whether the kernel has the knobs of the patches, the knobs that
 * sysctl files set besides reclaimctl, which line wins at boot, and what is
 * wrong with the lines that name a knob. The exit status is a set of bits.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abandoned.h"
#include "apply.h"
#include "reclaimctl.h"
#include "verify.h"

/* Exit status bits, documented in reclaimctl(8); 1 and 2 as for every command. */
enum {
	CHECK_KERNEL = 4,      /* the running kernel lacks knobs of the patches */
	CHECK_CONFLICT = 8,    /* a knob is set outside reclaimctl's file */
	CHECK_OVERRIDDEN = 16, /* a persisted value does not decide its knob at boot */
	CHECK_PROBLEM = 32,    /* a malformed line, a foreign persisted file, ... */
	CHECK_ABANDONED = 64,  /* a sweep or adapt that died left knobs at its values */
	CHECK_DRIFTED = 128,   /* another writer changed a knob reclaimctl is responsible for */
};

struct problem {
	const char *file;
	unsigned int line; /* 0: the whole file */
	const struct reclaim_knob *knob;
	char *message;
};

struct findings {
	struct reclaim_sysctl_conf *conf;
	struct problem *problems;
	size_t nproblems;
	struct abandoned *abandoned;
	size_t nabandoned;
	size_t own;		       /* values in reclaimctl's file */
	bool kernel;		       /* the root has /proc/sys/vm: the kernel's knobs are known */
	char *missing;		       /* the patched knobs it lacks, "vm.a, vm.b"; NULL if none */
	struct reclaim_eval *boot;     /* what reclaimctl boot would do now; NULL if it fails */
	struct reclaim_verify *verify; /* the knobs reclaimctl answers for; NULL if it fails */
	size_t ndrifted;
};

static void add_problem(struct findings *f, const char *file, unsigned int line,
			const struct reclaim_knob *knob, char *message)
{
	f->problems = realloc(f->problems, (f->nproblems + 1) * sizeof(*f->problems));
	if (!f->problems || !message)
		abort();
	f->problems[f->nproblems++] =
	    (struct problem){.file = file, .line = line, .knob = knob, .message = message};
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

__attribute__((format(printf, 1, 2))) static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		abort();
	return s;
}

/* What the boot unit would do: the engine's evaluation of "reclaimctl boot". */
static void predict_boot(struct cli *cli, struct findings *f)
{
	struct reclaim_request *req = NULL;

	if (reclaim_request_new(cli->ctx, RECLAIM_REQUEST_BOOT, 0, &req) < 0 ||
	    reclaim_request_evaluate(req, &f->boot) < 0)
		add_problem(f, "reclaimctl boot", 0, NULL,
			    xasprintf("cannot tell what the boot unit will do: %s",
				      reclaim_strerror(cli->ctx)));
	reclaim_request_unref(req);
}

static bool is_tuned_file(const char *file)
{
	return strncmp(file, "/etc/tuned/", 11) == 0 || strncmp(file, "/usr/lib/tuned/", 15) == 0;
}

/* The library's problems with a knob, the persisted file's format, knobs this kernel lacks. */
static void collect(struct cli *cli, struct findings *f)
{
	struct reclaim_sysctl_conf *c = f->conf;
	struct reclaim_persist *p = NULL;
	bool kernel = reclaim_has_sysctls(cli->ctx) == 1;

	f->kernel = kernel;
	for (size_t k = 0; kernel && k < reclaim_knob_count(); k++) {
		const struct reclaim_knob *knob = reclaim_knob_get(k);
		char *list;

		if (!reclaim_knob_needs_patch(knob) || reclaim_knob_supported(cli->ctx, knob) != 0)
			continue;
		list = xasprintf("%s%s%s", f->missing ? f->missing : "", f->missing ? ", " : "",
				 reclaim_knob_sysctl(knob));
		free(f->missing);
		f->missing = list;
	}

	/*
	 * A file that cannot be read may set a knob; a bad line naming none is
	 * not ours, unless it is in tuned's profile, which tuned then refuses.
	 */
	for (size_t i = 0; i < reclaim_sysctl_conf_problem_count(c); i++)
		if (reclaim_sysctl_conf_problem_knob(c, i) ||
		    reclaim_sysctl_conf_problem_line(c, i) == 0 ||
		    is_tuned_file(reclaim_sysctl_conf_problem_file(c, i)))
			add_problem(f, reclaim_sysctl_conf_problem_file(c, i),
				    reclaim_sysctl_conf_problem_line(c, i),
				    reclaim_sysctl_conf_problem_knob(c, i),
				    xstrdup(reclaim_sysctl_conf_problem_message(c, i)));
	if (reclaim_persist_read(cli->ctx, &p) < 0) {
		const char *msg = reclaim_strerror(cli->ctx), *file = RECLAIM_PERSIST_FILE;

		/* "FILE is not reclaimctl's: line 5 is ..." */
		if (strncmp(msg, RECLAIM_PERSIST_TMPFILES " is ",
			    strlen(RECLAIM_PERSIST_TMPFILES " is ")) == 0)
			file = RECLAIM_PERSIST_TMPFILES;
		if (strncmp(msg, file, strlen(file)) == 0 &&
		    strncmp(msg + strlen(file), " is ", 4) == 0)
			msg += strlen(file) + 4;
		add_problem(f, file, 0, NULL,
			    xasprintf("%s; --persist will neither change nor remove it", msg));
	}
	reclaim_persist_unref(p);
	predict_boot(cli, f);
	for (size_t i = 0; i < reclaim_sysctl_conf_count(c); i++) {
		const struct reclaim_knob *k = reclaim_sysctl_conf_knob(c, i);

		if (!reclaim_sysctl_conf_is_own(c, i) || !reclaim_sysctl_conf_value(c, i))
			continue;
		f->own++;
		if (!kernel || reclaim_knob_supported(cli->ctx, k) != 0)
			continue;
		add_problem(
		    f, reclaim_sysctl_conf_file(c, i), reclaim_sysctl_conf_line(c, i), k,
		    xasprintf(
			"this kernel has no %s: the persisted value is skipped at "
			"boot%s",
			reclaim_knob_label(k),
			reclaim_knob_needs_patch(k)
			    ? " (the knob needs reclaimctl's kernel patches (KNOBS in reclaimctl(8)))"
			    : ""));
	}
}

static bool is_conflict(const struct findings *f, const struct reclaim_knob *k)
{
	return reclaim_sysctl_conf_admin_entry(f->conf, k) >= 0;
}

/* reclaimctl's file sets @k, and another line decides it at boot. */
static bool is_overridden(const struct findings *f, const struct reclaim_knob *k)
{
	return reclaim_sysctl_conf_overridden(f->conf, k);
}

enum { E_KNOB, E_VALUE, E_BOOT, E_FILE, E_PATH, E_LINE, E_KEY };

static const struct colinfo entry_cols[] = {
    [E_KNOB] = {"KNOB", 0, 0, "knob the line sets", "knob", CJ_STRING},
    [E_VALUE] = {"VALUE", 0, 0, "value as written; - for a -KEY line", "value", CJ_STRING},
    [E_BOOT] = {"BOOT", 0, 0, "wins, overridden, invalid or not set (-KEY) at boot", "wins",
		CJ_BOOL},
    [E_FILE] = {"FILE", 0, 0, "FILE:LINE, with (reclaimctl), (tuned PROFILE), (glob KEY) or (-KEY)",
		NULL, CJ_NONE},
    [E_PATH] = {"PATH", 0, 0, "the sysctl.d file (or tuned.conf) alone", "file", CJ_STRING},
    [E_LINE] = {"LINE", 0, COL_RIGHT, "line in it", "line", CJ_NUMBER},
    [E_KEY] = {"KEY", 0, 0, "key as written (a glob, a -KEY)", "key", CJ_STRING},
};

static const struct coltable entries_columns =
    COLTABLE("check", entry_cols, "KNOB,VALUE,BOOT,FILE", "entries[]");

static char *entry_where(const struct reclaim_sysctl_conf *c, size_t i)
{
	const char *file = reclaim_sysctl_conf_file(c, i), *key = reclaim_sysctl_conf_key(c, i);
	unsigned int line = reclaim_sysctl_conf_line(c, i);

	if (!reclaim_sysctl_conf_value(c, i))
		return xasprintf("%s:%u (-%s)", file, line, key);
	if (reclaim_sysctl_conf_is_glob(c, i))
		return xasprintf("%s:%u (glob %s)", file, line, key);
	if (reclaim_sysctl_conf_is_tuned(c, i))
		return xasprintf("%s:%u (tuned %s)", file, line,
				 reclaim_sysctl_conf_tuned_profile(c));
	if (strcmp(reclaim_sysctl_conf_kind(c, i), "cmdline") == 0)
		return xasprintf("%s (kernel command line)", file);
	return xasprintf("%s:%u%s", file, line,
			 reclaim_sysctl_conf_is_own(c, i) ? " (reclaimctl)" : "");
}

static const char *entry_state(const struct reclaim_sysctl_conf *c, size_t i)
{
	if (!reclaim_sysctl_conf_is_valid(c, i))
		return "invalid";
	if (!reclaim_sysctl_conf_wins(c, i))
		return "overridden";
	return reclaim_sysctl_conf_value(c, i) ? "wins" : "not set";
}

/* In the JSON's order of keys; BOOT is a word in the table and "wins" in the JSON. */
static void fill_entry(struct table *t, const struct reclaim_sysctl_conf *c, size_t i)
{
	char *where = entry_where(c, i);

	table_row(t);
	table_set_str(t, E_KNOB, reclaim_knob_name(reclaim_sysctl_conf_knob(c, i)));
	table_set_str(t, E_PATH, reclaim_sysctl_conf_file(c, i));
	table_set_int(t, E_LINE, reclaim_sysctl_conf_line(c, i));
	table_set_str(t, E_KEY, reclaim_sysctl_conf_key(c, i));
	table_set_str(t, E_VALUE, reclaim_sysctl_conf_value(c, i));
	table_json_add(t, "glob", cJSON_CreateBool(reclaim_sysctl_conf_is_glob(c, i)));
	table_set_value(t, E_BOOT, entry_state(c, i),
			cJSON_CreateBool(reclaim_sysctl_conf_wins(c, i)));
	table_json_add(t, "valid", cJSON_CreateBool(reclaim_sysctl_conf_is_valid(c, i)));
	table_json_add(t, "reclaimctl", cJSON_CreateBool(reclaim_sysctl_conf_is_own(c, i)));
	table_json_add(t, "tuned", cJSON_CreateBool(reclaim_sysctl_conf_is_tuned(c, i)));
	table_json_add(t, "kind", cJSON_CreateString(reclaim_sysctl_conf_kind(c, i)));
	table_set(t, E_FILE, where);
	free(where);
}

/* The lines of each knob, in the knobs' order. */
static void fill_entries(struct table *t, const struct findings *f)
{
	for (size_t k = 0; k < reclaim_knob_count(); k++)
		for (size_t i = 0; i < reclaim_sysctl_conf_count(f->conf); i++)
			if (reclaim_sysctl_conf_knob(f->conf, i) == reclaim_knob_get(k))
				fill_entry(t, f->conf, i);
}

static void print_json(struct cli *cli, const struct findings *f)
{
	struct table *t = table_new_json(cli, &entries_columns);
	cJSON *root = json_document(), *conflicts, *overridden, *problems, *missing, *abandoned;

	fill_entries(t, f);
	cJSON_AddItemToObject(root, "entries", table_json_array(t));
	table_free(t);
	if (reclaim_sysctl_conf_tuned_profile(f->conf)) {
		cJSON *tuned = cJSON_AddObjectToObject(root, "tuned");

		cJSON_AddStringToObject(tuned, "profile",
					reclaim_sysctl_conf_tuned_profile(f->conf));
		cJSON_AddBoolToObject(tuned, "reapply_sysctl",
				      reclaim_sysctl_conf_tuned_reapplies(f->conf));
	} else {
		cJSON_AddNullToObject(root, "tuned");
	}
	conflicts = cJSON_AddArrayToObject(root, "conflicts");
	overridden = cJSON_AddArrayToObject(root, "overridden");
	problems = cJSON_AddArrayToObject(root, "problems");
	abandoned = cJSON_AddArrayToObject(root, "abandoned");
	for (size_t i = 0; i < f->nabandoned; i++)
		cJSON_AddItemToArray(abandoned, abandoned_json(&f->abandoned[i]));
	cJSON_AddItemToObject(root, "drifted",
			      f->verify ? verify_json_drifted(cli, f->verify) : cJSON_CreateNull());
	if (!f->kernel) {
		cJSON_AddNullToObject(root, "kernel_lacks");
	} else {
		missing = cJSON_AddArrayToObject(root, "kernel_lacks");
		for (size_t k = 0; k < reclaim_knob_count(); k++) {
			const struct reclaim_knob *knob = reclaim_knob_get(k);

			if (f->missing && reclaim_knob_needs_patch(knob) &&
			    strstr(f->missing, reclaim_knob_sysctl(knob)))
				cJSON_AddItemToArray(missing,
						     cJSON_CreateString(reclaim_knob_name(knob)));
		}
	}

	for (size_t k = 0; k < reclaim_knob_count(); k++) {
		const struct reclaim_knob *knob = reclaim_knob_get(k);

		if (is_conflict(f, knob))
			cJSON_AddItemToArray(conflicts,
					     cJSON_CreateString(reclaim_knob_name(knob)));
		if (is_overridden(f, knob))
			cJSON_AddItemToArray(overridden,
					     cJSON_CreateString(reclaim_knob_name(knob)));
	}
	for (size_t i = 0; i < f->nproblems; i++) {
		const struct problem *p = &f->problems[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "file", p->file);
		if (p->line)
			cJSON_AddNumberToObject(o, "line", p->line);
		else
			cJSON_AddNullToObject(o, "line");
		if (p->knob)
			cJSON_AddStringToObject(o, "knob", reclaim_knob_name(p->knob));
		else
			cJSON_AddNullToObject(o, "knob");
		cJSON_AddStringToObject(o, "message", p->message);
		cJSON_AddItemToArray(problems, o);
	}
	if (f->boot) {
		struct plan_options o = {.dry_run = true};
		cJSON *boot = plan_json(f->boot, &o);

		cJSON_DeleteItemFromObject(boot, "schema");
		cJSON_AddItemToObject(root, "boot", boot);
	} else {
		cJSON_AddNullToObject(root, "boot");
	}
	json_print(root);
	cJSON_Delete(root);
}

static void print_entries(struct cli *cli, const struct findings *f)
{
	struct table *t = table_new(cli, &entries_columns);

	const char *tuned = reclaim_sysctl_conf_tuned_profile(f->conf);
	bool sysfs = false;

	for (size_t i = 0; i < reclaim_sysctl_conf_count(f->conf); i++)
		sysfs |= !reclaim_knob_sysctl(reclaim_sysctl_conf_knob(f->conf, i));
	heading(cli, sysfs   ? "Set at boot: sysctl files, tuned's profile, the kernel command "
			       "line, tmpfiles.d files"
		     : tuned ? "Set in sysctl files and by tuned's profile"
			     : "Set in sysctl files, in the order applied at boot");
	fill_entries(t, f);
	table_print(t);
	table_free(t);
}

static void print_problems(struct cli *cli, const struct findings *f)
{
	heading(cli, "Problems");
	for (size_t i = 0; i < f->nproblems; i++) {
		const struct problem *p = &f->problems[i];

		if (p->line)
			printf("%s:%u: %s\n", p->file, p->line, p->message);
		else
			printf("%s: %s\n", p->file, p->message);
	}
}

/* The closing lines: conflicts, persisted values overridden, problems. */
static void print_summary(const struct findings *f)
{
	const struct reclaim_sysctl_conf *c = f->conf;
	size_t n = 0;

	for (size_t k = 0; k < reclaim_knob_count(); k++)
		n += is_conflict(f, reclaim_knob_get(k));
	if (n > 0) {
		printf("%zu knob%s set outside reclaimctl's file (an apply leaves %s alone unless "
		       "--force):",
		       n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
		for (size_t k = 0, i = 0; k < reclaim_knob_count(); k++)
			if (is_conflict(f, reclaim_knob_get(k)))
				printf("%s %s", i++ ? "," : "",
				       reclaim_knob_name(reclaim_knob_get(k)));
		printf("\n");
	}
	for (size_t k = 0; k < reclaim_knob_count(); k++) {
		const struct reclaim_knob *knob = reclaim_knob_get(k);
		ssize_t boot = reclaim_sysctl_conf_boot_entry(c, knob);

		if (!is_overridden(f, knob))
			continue;
		if (reclaim_sysctl_conf_value(c, (size_t)boot))
			printf("reclaimctl's persisted %s is overridden at boot by %s:%u (%s)\n",
			       reclaim_knob_name(knob), reclaim_sysctl_conf_file(c, (size_t)boot),
			       reclaim_sysctl_conf_line(c, (size_t)boot),
			       reclaim_sysctl_conf_value(c, (size_t)boot));
		else
			printf("reclaimctl's persisted %s is not applied at boot: %s:%u excludes "
			       "it\n",
			       reclaim_knob_name(knob), reclaim_sysctl_conf_file(c, (size_t)boot),
			       reclaim_sysctl_conf_line(c, (size_t)boot));
	}
	if (f->nproblems > 0)
		printf("%zu problem%s\n", f->nproblems, f->nproblems == 1 ? "" : "s");
	for (size_t i = 0; i < f->nabandoned; i++)
		abandoned_print(&f->abandoned[i]);
	if (f->verify)
		verify_print_drifted(f->verify);
}

/* What boot would do, as "reclaimctl boot --dry-run" says it. */
static void print_boot(struct cli *cli, const struct findings *f)
{
	struct plan_options o = {.dry_run = true};
	const char *preset;
	char *title;

	if (!f->boot)
		return;
	preset = reclaim_eval_preset(f->boot);
	separator(cli);
	if (strcmp(preset, RECLAIM_BOOT_PRESET_OFF) == 0) {
		heading(cli, "At boot");
		printf("autotune is off (preset = " RECLAIM_BOOT_PRESET_OFF
		       " in " RECLAIM_BOOT_CONFIG "): the boot unit changes nothing\n");
		return;
	}
	title = xasprintf("At boot (reclaimctl-autotune.service, preset %s)", preset);
	heading(cli, title);
	free(title);
	plan_print_text(f->boot, &o);
	plan_print_summary(f->boot, &o);
}

static void print_kernel(const struct findings *f)
{
	if (!f->kernel)
		printf("kernel: unknown (no " RECLAIM_SYSCTL_DIR " under the root)\n");
	else if (f->missing)
		printf(
		    "kernel: lacks %s (it needs reclaimctl's kernel patches (KNOBS in reclaimctl(8)))\n",
		    f->missing);
	else
		printf("kernel: has the knobs of the patches\n");
}

/* The exit status: the bits of what was found. */
static int status_bits(const struct findings *f)
{
	int bits = f->missing ? CHECK_KERNEL : 0;

	for (size_t k = 0; k < reclaim_knob_count(); k++) {
		bits |= is_conflict(f, reclaim_knob_get(k)) ? CHECK_CONFLICT : 0;
		bits |= is_overridden(f, reclaim_knob_get(k)) ? CHECK_OVERRIDDEN : 0;
	}
	bits |= f->nabandoned > 0 ? CHECK_ABANDONED : 0;
	bits |= f->ndrifted > 0 ? CHECK_DRIFTED : 0;
	return bits | (f->nproblems > 0 ? CHECK_PROBLEM : 0);
}

static void check_help(FILE *out)
{
	fputs("Says whether the kernel has the knobs of the patches, then lists every\n"
	      "knob of reclaimctl that a sysctl file sets, with the file and\n"
	      "line, the value and which line wins at boot, read as systemd-sysctl does:\n"
	      "/etc/sysctl.d, /run/sysctl.d, /usr/local/lib/sysctl.d, /usr/lib/sysctl.d,\n"
	      "/lib/sysctl.d, then /etc/sysctl.conf, and the [sysctl] values of tuned's\n"
	      "active profile (/etc/tuned/active_profile, with its include= chain),\n"
	      "which tuned writes after the files (and then, with reapply_sysctl, the\n"
	      "files of /etc/sysctl.d, /run/sysctl.d and /etc/sysctl.conf again). For\n"
	      "the knobs of sysfs, the 'w' lines of the tmpfiles.d files (the same\n"
	      "directories, the first line for a file wins, as systemd-tmpfiles reads\n"
	      "them) and the module parameters on the kernel command line (zswap.*=). A\n"
	      "knob set outside reclaimctl's own files (" RECLAIM_PERSIST_FILE " and\n"
	      "the like-named one of tmpfiles.d) is a conflict; a value persisted there\n"
	      "that another line overrides is reported too. Also reported: lines naming\n"
	      "a knob that are not valid, a tuned profile tuned would refuse, and\n"
	      "persisted knobs this kernel lacks.\n"
	      "Last, what the boot unit would do now (reclaimctl boot --dry-run).\n"
	      "Exit status: 0 nothing found, else the sum of: 4 the kernel lacks knobs\n"
	      "of the patches, 8 conflicts, 16 a persisted value overridden at boot,\n"
	      "32 problems, 64 knobs left by a sweep or adapt that died, 128 knobs\n"
	      "another writer changed since reclaimctl set them (see reclaimctl verify;\n"
	      "1: check itself failed, 2: usage error).\n"
	      "\nOptions:\n"
	      "  -J, --json   JSON output\n"
	      "  -h, --help   this help\n",
	      out);
}

static int run_check(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {COMMON_LONG_OPTIONS, TABLE_LONG_OPTIONS, {0}};
	struct findings f = {0};
	size_t entries;
	int bits;
	int c, r;

	while ((c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS TABLE_SHORT_OPTIONS, opts,
				NULL)) != -1) {
		bool done;

		r = common_option(cli, &cmd_check, c, argv, &done);

		if (done)
			return r;
	}
	if (optind < argc)
		return usage_error("check: unexpected argument '%s'", argv[optind]);
	r = table_check(cli, "check", &entries_columns);
	if (r)
		return r;
	if (reclaim_sysctl_conf_new(cli->ctx, &f.conf) < 0)
		return lib_fail(cli, EXIT_FAILURE, NULL);
	collect(cli, &f);
	f.nabandoned = abandoned_knobs(cli, &f.abandoned);
	if (reclaim_verify_new(cli->ctx, &f.verify) == 0) {
		for (size_t i = 0; i < reclaim_verify_count(f.verify); i++)
			f.ndrifted += reclaim_verify_state(f.verify, i) == RECLAIM_VERIFY_DRIFTED;
	} else {
		add_problem(
		    &f, RECLAIM_HISTORY_FILE, 0, NULL,
		    xasprintf("cannot tell which knobs drifted: %s", reclaim_strerror(cli->ctx)));
	}
	entries = reclaim_sysctl_conf_count(f.conf);
	bits = status_bits(&f);
	if (!cli->json)
		print_kernel(&f);
	if (!cli->json && reclaim_sysctl_conf_tuned_profile(f.conf))
		printf("tuned: active profile %s (%s)\n", reclaim_sysctl_conf_tuned_profile(f.conf),
		       reclaim_sysctl_conf_tuned_reapplies(f.conf)
			   ? "reapply_sysctl: the lines of /etc/sysctl.d, /run/sysctl.d and "
			     "/etc/sysctl.conf win over it"
			   : "reapply_sysctl = 0: it wins over every sysctl file");
	if (cli->json) {
		print_json(cli, &f);
	} else if (!(bits & ~CHECK_KERNEL) && f.own == 0) {
		printf(
		    "no conflicts: no sysctl file%s, tmpfiles.d line nor kernel parameter sets a "
		    "knob of reclaimctl\n",
		    reclaim_sysctl_conf_tuned_profile(f.conf) ? ", tuned's profile" : "");
	} else if (!(bits & ~CHECK_KERNEL)) {
		printf("no conflicts: the %zu value%s persisted with --persist win%s at boot\n",
		       f.own, f.own == 1 ? "" : "s", f.own == 1 ? "s" : "");
	} else {
		if (entries > 0) {
			print_entries(cli, &f);
			separator(cli);
		}
		if (f.nproblems > 0) {
			print_problems(cli, &f);
			separator(cli);
		}
		print_summary(&f);
	}
	if (!cli->json)
		print_boot(cli, &f);
	for (size_t i = 0; i < f.nproblems; i++)
		free(f.problems[i].message);
	free(f.problems);
	free(f.abandoned);
	reclaim_sysctl_conf_unref(f.conf);
	reclaim_eval_unref(f.boot);
	reclaim_verify_unref(f.verify);
	free(f.missing);
	return bits;
}

const struct command cmd_check = {
    .name = "check",
    .run = run_check,
    .args = "[-o LIST] [--output-all] [-n] [-r] [--json]",
    .summary = "Check the kernel's knobs and the sysctl files that set them",
    .help = check_help,
    .tables = (const struct coltable *const[]){&entries_columns, NULL},
    .reads_knobs = true,
};

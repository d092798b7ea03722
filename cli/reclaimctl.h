/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RECLAIMCTL_H
#define RECLAIMCTL_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>
#include <reclaim.h>

#define EXIT_USAGE 2

/* Bumped only when a key is renamed or removed; new keys keep the schema. */
#define JSON_SCHEMA 1

struct cli {
	struct reclaim_ctx *ctx;
	bool json;
	bool color;
};

struct command {
	const char *name;
	int (*run)(struct cli *cli, int argc, char **argv);
	const char *args;
	const char *summary;
	void (*help)(FILE *out);
};

extern const struct command cmd_status, cmd_get, cmd_set, cmd_threads;
extern const struct command cmd_swap;
extern const struct command cmd_monitor, cmd_stalls, cmd_record, cmd_report;
extern const struct command cmd_autotune, cmd_preset, cmd_restore, cmd_boot, cmd_check;
extern const struct command cmd_history, cmd_adapt;

/* output.c */
__attribute__((format(printf, 1, 2))) void warnmsg(const char *fmt, ...);
/* Prints "reclaimctl: MESSAGE" and returns @code, for "return fail(1, ...)". */
__attribute__((format(printf, 2, 3))) int fail(int code, const char *fmt, ...);
/* A usage error: one line, exit status 2. */
__attribute__((format(printf, 1, 2))) int usage_error(const char *fmt, ...);
/* The library's last error, prefixed with @what when given. */
int lib_fail(struct cli *cli, int code, const char *what);

char *format_cpulist(const unsigned int *cpus, size_t n);
void format_kb(char *buf, size_t size, uint64_t kb);
void heading(struct cli *cli, const char *title);

struct table;
struct table *table_new(struct cli *cli, const char *const *headers, size_t ncols);
/* Columns whose header starts with '>' are right-aligned (the '>' is not printed). */
void table_add(struct table *t, ...); /* ncols strings */
void table_print(struct table *t, FILE *out);
void table_free(struct table *t);

void json_print(cJSON *root);
cJSON *json_cpus(const unsigned int *cpus, size_t n);
cJSON *json_document(void);

/* model.c: library objects as JSON, shared by the commands. */
cJSON *json_knob(const struct reclaim_knob *k, int64_t value);
cJSON *json_kswapd(const struct reclaim_kswapd *k);
cJSON *json_vmstat(const struct reclaim_vmstat *vs);

/* cmd-threads.c: the thread table, also part of status. */
void threads_table(struct cli *cli, const struct reclaim_kswapd_list *list, FILE *out);

/* Prints the command's help to stdout; returns 0 for "return show_help(...)". */
int show_help(const struct command *cmd);
/*
 * The common tail of a command's getopt loop: --help, --json, and one-line
 * errors for unknown options (getopt's own messages are off: opterr = 0).
 */
int common_option(struct cli *cli, const struct command *cmd, int opt, char **argv, bool *done);
/* A one-line usage error for getopt's '?' or ':' (the option is argv[optind - 1]). */
int option_error(const char *where, int opt, char **argv);

#define COMMON_LONG_OPTIONS                                                                        \
	{"help", no_argument, NULL, 'h'},                                                          \
	{                                                                                          \
		"json", no_argument, NULL, 'J'                                                     \
	}
#define COMMON_SHORT_OPTIONS ":hJ"

/*
 * output.c: "set throttle -1" must reach the range check, not getopt: a new
 * argv (free() it) with the options first, then "--" and the operands.
 */
char **options_first(int argc, char **argv, int *new_argc);
/* Runs @main on the argv of options_first(): a command whose operands may start with '-'. */
int run_options_first(struct cli *cli, int argc, char **argv,
		      int (*main)(struct cli *cli, int argc, char **argv));

/* cmd-swap.c: the swap rings, also part of status. */
/* For the tables: control characters as the kernel escapes them (\011), the rest as is; free() it.
 */
char *printable(const char *s);
/* Reads vm.swap_round_robin_quota_kb: 0 (*has false if the kernel lacks it) or an exit status. */
int swap_quota_read(struct cli *cli, int64_t *quota, bool *has);
/* Adds "round_robin_quota_kb" and "rings" (null without @swaps) to @obj. */
void json_add_swap(cJSON *obj, const struct reclaim_swaps *swaps, const int64_t *quota);
/*
 * The quota line, then the rings and devices tables; @quota_missing says why
 * @quota is NULL (NULL: the kernel lacks it), @missing why @swaps is.
 */
void swap_print(struct cli *cli, const struct reclaim_swaps *swaps, const int64_t *quota,
		const char *quota_missing, const char *missing);

/* snapshot.c: Everything status reports, read once. Parts the kernel lacks stay NULL. */
struct snapshot {
	struct reclaim_topology *topo;
	struct reclaim_kswapd_list *kswapd;
	struct reclaim_vmstat *vmstat;
	struct reclaim_pressure *pressure;
	char *pressure_missing;
	struct reclaim_swaps *swaps; /* NULL without /proc/swaps */
	char *swaps_missing;
	bool *has_knob; /* indexed like the knob table */
	int64_t *knob_value;
	/* false for a root without sysctls (a dump): nothing is known of the knobs */
	bool sysctls;
};

/* Reads everything; 0 or an exit status (the error already printed). */
int snapshot_read(struct cli *cli, struct snapshot *s);
void snapshot_free(struct snapshot *s);

/* prometheus.c: status --prometheus; to stdout, or to DIR/reclaimctl.prom when @textfile_dir. */
int prometheus_status(struct cli *cli, const struct snapshot *s, const char *textfile_dir);

#endif

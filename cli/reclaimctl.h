/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RECLAIMCTL_H
#define RECLAIMCTL_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>
#include <reclaim.h>

#define EXIT_USAGE 2

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Bumped only when a key is renamed, removed or changes its type; new keys
 * keep the schema. 2: times are RFC 3339 strings, with an "epoch" key.
 */
#define JSON_SCHEMA 2

struct outopts {
	const char *columns; /* -o LIST; "+LIST" adds to the defaults */
	bool all, noheadings, raw, bytes, pairs;
};

struct cli {
	struct reclaim_ctx *ctx;
	const struct command *cmd;
	bool json;
	bool color;
	struct outopts out;
};

struct coltable;

struct command {
	const char *name;
	int (*run)(struct cli *cli, int argc, char **argv);
	const char *args;
	const char *summary;
	void (*help)(FILE *out);
	/* The tables it prints, for --help's column lists; NULL-terminated. */
	const struct coltable *const *tables;
	/*
	 * It reads knobs: another writer's value on a knob reclaimctl changed
	 * goes into the history once its command line is valid (drift_note(),
	 * or reclaim_verify_new() where the command judges the knobs anyway).
	 */
	bool reads_knobs;
};

extern const struct command cmd_status, cmd_get, cmd_set, cmd_threads;
extern const struct command cmd_swap;
extern const struct command cmd_monitor, cmd_stalls, cmd_latency, cmd_record, cmd_report;
extern const struct command cmd_autotune, cmd_preset, cmd_restore, cmd_boot, cmd_check;
extern const struct command cmd_history, cmd_adapt, cmd_sweep, cmd_figures, cmd_verify;
/* reclaimctl.c: every command, in the order of --help. */
const struct command *const *command_table(size_t *n);

/* output.c */
__attribute__((format(printf, 1, 2))) void warnmsg(const char *fmt, ...);
/*
 * 0, or the errno of a write to standard output that failed (EPIPE: its
 * reader is gone); flushes it first. For the commands that hold knobs
 * while they print, with SIGPIPE ignored.
 */
int stdout_error(void);
/* fflush(stdout), keeping the errno of a failure for stdout_error(). */
void flush_stdout(void);
/* Prints "reclaimctl: MESSAGE" and returns @code, for "return fail(1, ...)". */
__attribute__((format(printf, 2, 3))) int fail(int code, const char *fmt, ...);
/* A usage error: one line, exit status 2. */
__attribute__((format(printf, 1, 2))) int usage_error(const char *fmt, ...);
/* "unknown knob 'NAME' (known: ...)", a usage error. */
int unknown_knob(const char *name);
/* The library's last error, prefixed with @what when given. */
int lib_fail(struct cli *cli, int code, const char *what);

char *format_cpulist(const unsigned int *cpus, size_t n);
void format_kb(char *buf, size_t size, uint64_t kb);
/* A title above a part of the output; nothing with -n or -P, which are for scripts. */
void heading(struct cli *cli, const char *title);
/* The blank line between two parts; nothing with -n or -P. */
void separator(struct cli *cli);
/* -n or -P: the tables alone, without titles, blank lines or lines around them. */
bool script_output(const struct cli *cli);
/*
 * A line in the place of a table ("no kswapd threads found"): on standard
 * output, or with -n or -P on standard error, so that a script reads rows only.
 */
__attribute__((format(printf, 2, 3))) void note(const struct cli *cli, const char *fmt, ...);

/*
 * table.c: the tables, drawn by libsmartcols from column tables (struct
 * colinfo, as util-linux's commands have them). A command parses -o, -n,
 * -r, -b with table_option(), checks the column list against its table with
 * table_check() before it reads or changes anything, then fills rows by
 * column id: cells of columns not shown are dropped. The same setters build
 * the JSON rows, each column under its key and of its type, for --json.
 */
enum {
	COL_RIGHT = 1 << 0, /* right-aligned (numbers) */
	COL_TRUNC = 1 << 1, /* may be cut on a narrow terminal */
	COL_SIZE = 1 << 2,  /* a size: 4.0G, or bytes with --bytes */
};

/*
 * What the JSON row holds for the column: a typed setter of another type
 * aborts. A type without a key makes the column the row's value itself.
 */
enum col_json {
	CJ_NONE,
	CJ_STRING,
	CJ_NUMBER,
	CJ_BOOL,
	CJ_ARRAY,
	/* a number, or a word where none fits (history's "undoes": "all") */
	CJ_NUMBER_OR_STRING,
	/* a knob's value, as json_knob_value() has it: a number, true or false, a string */
	CJ_KNOB_VALUE,
};

struct colinfo {
	const char *name;
	double whint; /* 0: as wide as its cells; below 1: a share of the terminal (COL_TRUNC) */
	unsigned int flags;
	const char *help;
	const char *json; /* the key in the JSON row, or NULL */
	enum col_json json_type;
};

struct coltable {
	const char *name; /* "threads", "rings": names the table in --help and messages */
	const struct colinfo *cols;
	size_t ncols;
	const char *defaults;  /* the columns shown without -o, comma-separated */
	const char *json_rows; /* where the rows are in the command's --json ("kswapd[]") */
};

#define COLTABLE(tname, array, defs, rows)                                                         \
	{                                                                                          \
		.name = tname, .cols = array, .ncols = ARRAY_LEN(array), .defaults = defs,         \
		.json_rows = rows                                                                  \
	}

/* Long options without a short one. */
enum {
	OPT_OUTPUT_ALL = 0x100,
	OPT_DRY_RUN,
	OPT_VALUES,
	OPT_COMMAND /* a command's own from here */
};
#define TABLE_LONG_OPTIONS                                                                         \
	{"output", required_argument, NULL, 'o'},                                                  \
	    {"output-all", no_argument, NULL, OPT_OUTPUT_ALL},                                     \
	    {"noheadings", no_argument, NULL, 'n'}, {"raw", no_argument, NULL, 'r'},               \
	    {"bytes", no_argument, NULL, 'b'},                                                     \
	{                                                                                          \
		"pairs", no_argument, NULL, 'P'                                                    \
	}
#define TABLE_SHORT_OPTIONS "o:nrbP"

/* -o, --output-all, -n, -r, -b, -P: true when @opt was one of them. */
bool table_option(struct cli *cli, int opt, const char *arg);
/* Whether any of -o and --output-all was given, which need one table. */
bool table_columns_given(const struct cli *cli);
/* A usage error when a table option was given to @what (a subcommand without a table), or 0. */
int table_options_refuse(const struct cli *cli, const char *what);
/* Whether a column of @ct is a size (COL_SIZE), for -b. */
bool table_has_sizes(const struct coltable *ct);
/* A usage error (exit status 2) for a column @ct lacks, or -b for a table without sizes, or 0. */
int table_check(struct cli *cli, const char *cmd, const struct coltable *ct);

struct table;
/* Whether column @id is printed. */
bool table_shows(const struct table *t, int id);
/* -b: sizes in bytes. */
bool table_bytes(const struct table *t);
struct table *table_new(struct cli *cli, const struct coltable *ct);
/* A table for its JSON rows alone: no cells, whatever -o says (it is for another table). */
struct table *table_new_json(struct cli *cli, const struct coltable *ct);
void table_row(struct table *t);
/* The cell of column @id, which has no JSON, in the last row: NULL is printed "-". */
void table_set(struct table *t, int id, const char *text);
__attribute__((format(printf, 3, 4))) void table_setf(struct table *t, int id, const char *fmt,
						      ...);
/*
 * The cell and the JSON value of column @id in the last row. NULL strings
 * are "-" and null; the JSON has no value for a column without a key.
 */
void table_set_str(struct table *t, int id, const char *s);
/* A knob's value as the kernel shows it, and in the JSON by its type (json_knob_value()). */
void table_set_knob(struct table *t, int id, const struct reclaim_knob *k, int64_t v);
void table_set_int(struct table *t, int id, int64_t v);
void table_set_uint(struct table *t, int id, uint64_t v);
/* @v with @decimals in the table, as is in the JSON. */
void table_set_fixed(struct table *t, int id, double v, int decimals);
/* KiB: 4.0G, or bytes with --bytes; KiB in the JSON. */
void table_set_size(struct table *t, int id, uint64_t kb);
/* "yes" or "no". */
void table_set_bool(struct table *t, int id, bool v);
/* Local time to the second; json_time()'s RFC 3339 in the JSON. */
void table_set_time(struct table *t, int id, int64_t ns);
/* @text, and @json (taken; NULL: null) where the two differ: it must be of the column's type. */
void table_set_value(struct table *t, int id, const char *text, cJSON *json);
/* The cell of a column without JSON that names the row in a "{}" table. */
void table_set_key(struct table *t, int id, const char *key);
/* A key of the JSON row that no column has (taken @v). */
void table_json_add(struct table *t, const char *key, cJSON *v);
/* The last row is null in the JSON, shown all the same. */
void table_row_null(struct table *t);
/* A null row named @key in the JSON alone. */
void table_json_null(struct table *t, const char *key);
/* The JSON rows since the last call, as an array or by their keys. */
cJSON *table_json_array(struct table *t);
cJSON *table_json_object(struct table *t);
size_t table_rows(const struct table *t);
void table_print(struct table *t);
/* The table as printed, to cut into lines; free() it. */
char *table_to_string(struct table *t);
bool table_has_header(const struct table *t);
void table_free(struct table *t);
/* "Columns:" and one line each, as lsblk --help lists them. */
void table_help(FILE *out, const struct coltable *ct, const char *title);

void json_print(cJSON *root);
cJSON *json_cpus(const unsigned int *cpus, size_t n);
cJSON *json_document(void);
/* @v as the kernel shows it, for a printf argument: valid to the end of the enclosing block. */
#define KNOB_TEXT(k, v)                                                                            \
	reclaim_knob_format((k), (v), (char[RECLAIM_KNOB_TEXT_MAX]){0}, RECLAIM_KNOB_TEXT_MAX)
/*
 * A knob's value in JSON, by its type: a number (an integer, a bit mask),
 * true or false (a boolean), a string (a choice, its name).
 */
cJSON *json_knob_value(const struct reclaim_knob *k, int64_t v);
/* The knob's sysctl name, or null for a knob of sysfs. */
cJSON *json_knob_sysctl(const struct reclaim_knob *k);

/*
 * Every time of the JSON output: RFC 3339 in local time with its offset and
 * milliseconds, "2026-12-05T05:30:00.123+00:00" (TIME_TEXT_MAX with the NUL),
 * and the same instant as seconds since the epoch, to the millisecond, for
 * arithmetic ("epoch").
 */
#define TIME_TEXT_MAX 32
void format_time(char *buf, size_t size, int64_t ns);
/* The local time as tables and lines show it: "2026-12-05 09:10:00", or "09:10:00" */
void format_local(char *buf, size_t size, int64_t ns, bool date);
double epoch_of(int64_t ns);
cJSON *json_time(int64_t ns);
/* @key: the time as text, then "epoch": the same as a number. */
void json_add_time(cJSON *o, const char *key, int64_t ns);

/* options.c: a command's command line. */
/* Prints the command's help to stdout; returns 0 for "return show_help(...)". */
int show_help(const struct command *cmd);
/*
 * The common tail of a command's getopt loop: --help, --json, and one-line
 * errors for unknown options (getopt's own messages are off: opterr = 0).
 */
int common_option(struct cli *cli, const struct command *cmd, int opt, char **argv, bool *done);
/*
 * An option kept for one release under its old name: one line on stderr,
 * "CMD: OLD is deprecated, use NOW (...)".
 */
void deprecated_option(const char *cmd, const char *old, const char *now);
/*
 * The command line is valid: for a command that reads knobs, another
 * writer's value on a knob reclaimctl changed goes into the history as an
 * "outside" entry. Never for --help or a usage error.
 */
void drift_note(struct cli *cli);
/* A one-line usage error for getopt's '?' or ':' (the option is argv[optind - 1]). */
int option_error(const char *where, int opt, char **argv);

#define COMMON_LONG_OPTIONS                                                                        \
	{"help", no_argument, NULL, 'h'},                                                          \
	{                                                                                          \
		"json", no_argument, NULL, 'J'                                                     \
	}
#define COMMON_SHORT_OPTIONS ":hJ"

/*
 * "set throttle -1" must reach the range check, not getopt: a new
 * argv (free() it) with the options first, then "--" and the operands.
 */
char **options_first(int argc, char **argv, int *new_argc);
/* Runs @main on the argv of options_first(): a command whose operands may start with '-'. */
int run_options_first(struct cli *cli, int argc, char **argv,
		      int (*main)(struct cli *cli, int argc, char **argv));

/* For the tables: control characters as the kernel escapes them (\011), the rest as is; free() it.
 */
char *printable(const char *s);

#endif

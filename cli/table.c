// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libsmartcols.h>

#include "json-rows.h"
#include "reclaimctl.h"

#define MAX_SHOWN 64

struct table {
	struct cli *cli;
	const struct coltable *ct;
	struct libscols_table *tb;
	struct libscols_line *line;
	int ids[MAX_SHOWN]; /* the column shown at each position */
	size_t nshown, nrows;
	struct json_rows *json;
};

bool table_option(struct cli *cli, int opt, const char *arg)
{
	switch (opt) {
	case 'o':
		cli->out.columns = arg;
		return true;
	case OPT_OUTPUT_ALL:
		cli->out.all = true;
		return true;
	case 'n':
		cli->out.noheadings = true;
		return true;
	case 'r':
		cli->out.raw = true;
		return true;
	case 'b':
		cli->out.bytes = true;
		return true;
	case 'P':
		cli->out.pairs = true;
		return true;
	default:
		return false;
	}
}

bool table_columns_given(const struct cli *cli)
{
	return cli->out.columns || cli->out.all;
}

int table_options_refuse(const struct cli *cli, const char *what)
{
	const struct outopts *o = &cli->out;

	if (!o->columns && !o->all && !o->noheadings && !o->raw && !o->bytes && !o->pairs)
		return 0;
	return usage_error("%s prints no table: -o, --output-all, -n, -r, -b and -P are not for it",
			   what);
}

static int column_id(const struct coltable *ct, const char *name, size_t len)
{
	for (size_t i = 0; i < ct->ncols; i++)
		if (strlen(ct->cols[i].name) == len &&
		    strncasecmp(ct->cols[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

/* Appends the columns of @list to @ids: 0, or -1 with the unknown name in @bad. */
static int parse_list(const struct coltable *ct, const char *list, int *ids, size_t *n, char *bad,
		      size_t badsize)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");
		int id = column_id(ct, p, len);

		if (len == 0) {
			bad[0] = '\0';
			return -1;
		}
		if (id < 0 || *n >= MAX_SHOWN) {
			snprintf(bad, badsize, "%.*s", (int)(len < 64 ? len : 64), p);
			return -1;
		}
		ids[(*n)++] = id;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int resolve(const struct cli *cli, const struct coltable *ct, int *ids, size_t *n, char *bad,
		   size_t badsize)
{
	const char *list = cli->out.columns;

	*n = 0;
	if (cli->out.all) {
		for (size_t i = 0; i < ct->ncols && i < MAX_SHOWN; i++)
			ids[(*n)++] = (int)i;
		return 0;
	}
	if (!list || list[0] == '+') {
		if (parse_list(ct, ct->defaults, ids, n, bad, badsize) < 0)
			abort(); /* a column table's own defaults */
		if (!list)
			return 0;
		list++;
	}
	if (!list[0]) {
		bad[0] = '\0';
		return -1;
	}
	return parse_list(ct, list, ids, n, bad, badsize);
}

bool table_has_sizes(const struct coltable *ct)
{
	for (size_t i = 0; i < ct->ncols; i++)
		if (ct->cols[i].flags & COL_SIZE)
			return true;
	return false;
}

int table_check(struct cli *cli, const char *cmd, const struct coltable *ct)
{
	int ids[MAX_SHOWN];
	char bad[80];
	size_t n;

	if (cli->out.bytes && !table_has_sizes(ct))
		return usage_error("%s: -b: the %s table has no sizes", cmd, ct->name);
	if (resolve(cli, ct, ids, &n, bad, sizeof(bad)) == 0)
		return 0;
	if (!bad[0])
		return usage_error("%s: -o '%s': a column name is missing", cmd, cli->out.columns);
	return usage_error("%s: unknown column '%s' (see reclaimctl %s --help)", cmd, bad, cmd);
}

struct table *table_new_json(struct cli *cli, const struct coltable *ct)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t || !(t->tb = scols_new_table()))
		abort();
	t->cli = cli;
	t->ct = ct;
	t->json = json_rows_new(ct);
	return t;
}

struct table *table_new(struct cli *cli, const struct coltable *ct)
{
	struct table *t = table_new_json(cli, ct);
	char bad[80];

	if (resolve(cli, ct, t->ids, &t->nshown, bad, sizeof(bad)) < 0)
		abort(); /* table_check() came first */
	scols_table_enable_raw(t->tb, cli->out.raw);
	/* KEY="value", as lsblk -P: USE% is USE_PCT, a name a shell can take */
	scols_table_enable_export(t->tb, cli->out.pairs);
	scols_table_enable_shellvar(t->tb, cli->out.pairs);
	scols_table_enable_noheadings(t->tb, cli->out.noheadings);
	scols_table_enable_colors(t->tb, cli->color);
	for (size_t i = 0; i < t->nshown; i++) {
		const struct colinfo *c = &ct->cols[t->ids[i]];
		int flags = (c->flags & COL_RIGHT ? SCOLS_FL_RIGHT : 0) |
			    (c->flags & COL_TRUNC ? SCOLS_FL_TRUNC : 0);
		struct libscols_column *cl =
		    scols_table_new_column(t->tb, c->name, c->whint, flags);

		if (!cl)
			abort();
		if (cli->color)
			scols_cell_set_color(scols_column_get_header(cl), "bold");
	}
	return t;
}

void table_row(struct table *t)
{
	t->line = scols_table_new_line(t->tb, NULL);
	if (!t->line)
		abort();
	t->nrows++;
	json_rows_start(t->json);
}

void table_row_null(struct table *t)
{
	json_rows_nullify(t->json);
}

void table_json_null(struct table *t, const char *key)
{
	json_rows_add_null(t->json, key);
}

bool table_bytes(const struct table *t)
{
	return t->cli->out.bytes;
}

bool table_shows(const struct table *t, int id)
{
	for (size_t i = 0; i < t->nshown; i++)
		if (t->ids[i] == id)
			return true;
	return false;
}

static void set_cell(struct table *t, int id, const char *text)
{
	for (size_t i = 0; i < t->nshown; i++)
		if (t->ids[i] == id && scols_line_set_data(t->line, i, text ? text : "-") < 0)
			abort();
}

/* The text alone is for a column without JSON: the others' setters give both. */
static void text_only(const struct table *t, int id)
{
	if (t->ct->cols[id].json_type != CJ_NONE)
		abort();
}

void table_set(struct table *t, int id, const char *text)
{
	text_only(t, id);
	set_cell(t, id, text);
}

void table_setf(struct table *t, int id, const char *fmt, ...)
{
	va_list ap;
	char *s;

	text_only(t, id);
	if (!table_shows(t, id))
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	set_cell(t, id, s);
	free(s);
}

/* For a typed setter: its type is the column's, or the column has no JSON. */
static void json_expect(const struct table *t, int id, enum col_json type)
{
	enum col_json want = t->ct->cols[id].json_type;

	if (want != CJ_NONE && want != type)
		abort();
}

void table_set_value(struct table *t, int id, const char *text, cJSON *json)
{
	set_cell(t, id, text);
	json_rows_set(t->json, id, json ? json : cJSON_CreateNull());
}

void table_set_str(struct table *t, int id, const char *s)
{
	json_expect(t, id, CJ_STRING);
	table_set_value(t, id, s, s ? cJSON_CreateString(s) : NULL);
}

void table_set_int(struct table *t, int id, int64_t v)
{
	char buf[24];

	json_expect(t, id, CJ_NUMBER);
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	table_set_value(t, id, buf, cJSON_CreateNumber((double)v));
}

void table_set_knob(struct table *t, int id, const struct reclaim_knob *k, int64_t v)
{
	char buf[RECLAIM_KNOB_TEXT_MAX];

	json_expect(t, id, CJ_KNOB_VALUE);
	table_set_value(t, id, reclaim_knob_format(k, v, buf, sizeof(buf)), json_knob_value(k, v));
}

void table_set_uint(struct table *t, int id, uint64_t v)
{
	char buf[24];

	json_expect(t, id, CJ_NUMBER);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	table_set_value(t, id, buf, cJSON_CreateNumber((double)v));
}

void table_set_size(struct table *t, int id, uint64_t kb)
{
	char buf[32];

	json_expect(t, id, CJ_NUMBER);
	if (t->cli->out.bytes)
		snprintf(buf, sizeof(buf), "%" PRIu64, kb * 1024);
	else
		format_kb(buf, sizeof(buf), kb);
	table_set_value(t, id, buf, cJSON_CreateNumber((double)kb));
}

void table_set_fixed(struct table *t, int id, double v, int decimals)
{
	char buf[48];

	json_expect(t, id, CJ_NUMBER);
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	table_set_value(t, id, buf, cJSON_CreateNumber(v));
}

void table_set_bool(struct table *t, int id, bool v)
{
	json_expect(t, id, CJ_BOOL);
	table_set_value(t, id, v ? "yes" : "no", cJSON_CreateBool(v));
}

void table_set_time(struct table *t, int id, int64_t ns)
{
	char buf[32];

	json_expect(t, id, CJ_STRING);
	format_local(buf, sizeof(buf), ns, true);
	table_set_value(t, id, buf, json_time(ns));
}

void table_set_key(struct table *t, int id, const char *key)
{
	table_set(t, id, key);
	json_rows_name(t->json, key);
}

void table_json_add(struct table *t, const char *key, cJSON *v)
{
	json_rows_add(t->json, key, v);
}

cJSON *table_json_array(struct table *t)
{
	return json_rows_array(t->json);
}

cJSON *table_json_object(struct table *t)
{
	return json_rows_object(t->json);
}

size_t table_rows(const struct table *t)
{
	return t->nrows;
}

void table_print(struct table *t)
{
	flush_stdout();
	scols_print_table(t->tb);
}

char *table_to_string(struct table *t)
{
	char *s = NULL;

	if (scols_print_table_to_string(t->tb, &s) < 0 || !s)
		abort();
	return s;
}

bool table_has_header(const struct table *t)
{
	return !t->cli->out.noheadings && !t->cli->out.pairs;
}

void table_free(struct table *t)
{
	if (!t)
		return;
	scols_unref_table(t->tb);
	json_rows_free(t->json);
	free(t);
}

void table_help(FILE *out, const struct coltable *ct, const char *title)
{
	fprintf(out, "\n%s:\n", title);
	for (size_t i = 0; i < ct->ncols; i++)
		fprintf(out, " %14s  %s\n", ct->cols[i].name, ct->cols[i].help);
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libsmartcols.h>

#include "reclaimctl.h"

#define MAX_SHOWN 64

struct table {
	struct cli *cli;
	const struct coltable *ct;
	struct libscols_table *tb;
	struct libscols_line *line;
	int ids[MAX_SHOWN]; /* the column shown at each position */
	size_t nshown, nrows;
	/* The JSON rows not taken yet: each a row object, null or a column's value. */
	cJSON **json;
	char **keys; /* each row's name in a "{}" table, or NULL */
	size_t njson, cap;
	bool row_null; /* the current row is null in the JSON */
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

	if (!o->columns && !o->all && !o->noheadings && !o->raw && !o->bytes)
		return 0;
	return usage_error("%s prints no table: -o, --output-all, -n, -r and -b are not for it",
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

int table_check(struct cli *cli, const char *cmd, const struct coltable *ct)
{
	int ids[MAX_SHOWN];
	char bad[80];
	size_t n;

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
	return t;
}

struct table *table_new(struct cli *cli, const struct coltable *ct)
{
	struct table *t = table_new_json(cli, ct);
	char bad[80];

	if (resolve(cli, ct, t->ids, &t->nshown, bad, sizeof(bad)) < 0)
		abort(); /* table_check() came first */
	scols_table_enable_raw(t->tb, cli->out.raw);
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

static char *dup_key(const char *key)
{
	char *s = strdup(key);

	if (!s)
		abort();
	return s;
}

static void json_push(struct table *t, cJSON *row, const char *key)
{
	if (t->njson == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->json = realloc(t->json, t->cap * sizeof(*t->json));
		t->keys = realloc(t->keys, t->cap * sizeof(*t->keys));
		if (!t->json || !t->keys)
			abort();
	}
	t->keys[t->njson] = key ? dup_key(key) : NULL;
	t->json[t->njson++] = row;
}

void table_row(struct table *t)
{
	t->line = scols_table_new_line(t->tb, NULL);
	if (!t->line)
		abort();
	t->nrows++;
	t->row_null = false;
	json_push(t, cJSON_CreateObject(), NULL);
}

void table_row_null(struct table *t)
{
	cJSON_Delete(t->json[t->njson - 1]);
	t->json[t->njson - 1] = cJSON_CreateNull();
	t->row_null = true;
}

void table_json_null(struct table *t, const char *key)
{
	json_push(t, cJSON_CreateNull(), key);
}

static bool table_shows(const struct table *t, int id)
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

static bool json_type_is(const cJSON *v, enum col_json type)
{
	switch (type) {
	case CJ_STRING:
		return cJSON_IsString(v);
	case CJ_NUMBER:
		return cJSON_IsNumber(v);
	case CJ_BOOL:
		return cJSON_IsBool(v);
	case CJ_ARRAY:
		return cJSON_IsArray(v);
	case CJ_NUMBER_OR_STRING:
		return cJSON_IsNumber(v) || cJSON_IsString(v);
	default:
		return false;
	}
}

/* The object holding the last part of a dotted @key ("reclaim.count"), made on the way. */
static cJSON *json_parent(cJSON *row, const char *key, const char **last, bool make)
{
	const char *dot;

	while ((dot = strchr(key, '.'))) {
		char part[64];
		cJSON *sub;

		snprintf(part, sizeof(part), "%.*s", (int)(dot - key), key);
		sub = cJSON_GetObjectItemCaseSensitive(row, part);
		if (!sub && make)
			sub = cJSON_AddObjectToObject(row, part);
		if (!cJSON_IsObject(sub))
			return NULL;
		row = sub;
		key = dot + 1;
	}
	*last = key;
	return row;
}

static void json_add(cJSON *row, const char *key, cJSON *v)
{
	const char *last;
	cJSON *parent = json_parent(row, key, &last, true);

	if (!parent || cJSON_HasObjectItem(parent, last))
		abort(); /* a key set twice */
	cJSON_AddItemToObject(parent, last, v);
}

/*
 * Column @id's value in the JSON row: a programming error (abort) when it is
 * not of the column's type (null is any type's "unknown"). A column with a
 * type and no key is the row's value itself ("vmstat{}": name to number).
 */
static void json_set(struct table *t, int id, cJSON *v)
{
	const struct colinfo *c = &t->ct->cols[id];
	cJSON **row = &t->json[t->njson - 1];

	if (!v)
		abort();
	if (c->json_type == CJ_NONE || t->row_null) {
		cJSON_Delete(v);
		return;
	}
	if (!cJSON_IsNull(v) && !json_type_is(v, c->json_type))
		abort();
	if (c->json) {
		json_add(*row, c->json, v);
		return;
	}
	if (!cJSON_IsObject(*row) || (*row)->child)
		abort();
	cJSON_Delete(*row);
	*row = v;
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
	json_set(t, id, json ? json : cJSON_CreateNull());
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
	time_t sec = (time_t)(ns / 1000000000);
	struct tm tm;
	char buf[32];

	json_expect(t, id, CJ_NUMBER);
	if (!localtime_r(&sec, &tm) || strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(buf, sizeof(buf), "?");
	table_set_value(t, id, buf, cJSON_CreateNumber((double)ns / 1e9));
}

void table_set_key(struct table *t, int id, const char *key)
{
	if (t->ct->cols[id].json_type != CJ_NONE || t->keys[t->njson - 1])
		abort();
	table_set(t, id, key);
	t->keys[t->njson - 1] = dup_key(key);
}

void table_json_add(struct table *t, const char *key, cJSON *v)
{
	for (size_t i = 0; i < t->ct->ncols; i++)
		if (t->ct->cols[i].json && strcmp(t->ct->cols[i].json, key) == 0)
			abort(); /* a column's key: its setter adds it */
	if (t->row_null)
		cJSON_Delete(v);
	else
		json_add(t->json[t->njson - 1], key, v);
}

/* Every column with a key is in every row object: the JSON has what the table has. */
static void json_check_row(const struct table *t, const cJSON *row)
{
	for (size_t i = 0; i < t->ct->ncols && cJSON_IsObject(row); i++) {
		const struct colinfo *c = &t->ct->cols[i];
		const char *last;
		cJSON *parent;

		if (c->json_type == CJ_NONE)
			continue;
		if (!c->json)
			abort(); /* the row's value was never set */
		parent = json_parent((cJSON *)row, c->json, &last, false);
		if (!parent || !cJSON_HasObjectItem(parent, last))
			abort();
	}
}

cJSON *table_json_array(struct table *t)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < t->njson; i++) {
		json_check_row(t, t->json[i]);
		cJSON_AddItemToArray(a, t->json[i]);
		free(t->keys[i]);
	}
	t->njson = 0;
	return a;
}

cJSON *table_json_object(struct table *t)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < t->njson; i++) {
		if (!t->keys[i])
			abort(); /* a row without table_set_key() */
		json_check_row(t, t->json[i]);
		cJSON_AddItemToObject(o, t->keys[i], t->json[i]);
		free(t->keys[i]);
	}
	t->njson = 0;
	return o;
}

size_t table_rows(const struct table *t)
{
	return t->nrows;
}

void table_print(struct table *t)
{
	fflush(stdout);
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
	return !t->cli->out.noheadings;
}

void table_free(struct table *t)
{
	if (!t)
		return;
	scols_unref_table(t->tb);
	for (size_t i = 0; i < t->njson; i++) {
		cJSON_Delete(t->json[i]);
		free(t->keys[i]);
	}
	free(t->json);
	free(t->keys);
	free(t);
}

void table_help(FILE *out, const struct coltable *ct, const char *title)
{
	fprintf(out, "\n%s:\n", title);
	for (size_t i = 0; i < ct->ncols; i++)
		fprintf(out, " %14s  %s\n", ct->cols[i].name, ct->cols[i].help);
}

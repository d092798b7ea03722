// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A table's JSON rows (table.c): each column's value under its key, of the
 * type its colinfo says; a value of another type, a key set twice or a
 * column left out aborts, as a programming error.
 */
#include <stdlib.h>
#include <string.h>

#include "json-rows.h"

struct json_rows {
	const struct coltable *ct;
	/* The rows not taken yet: each a row object, null or a column's value. */
	cJSON **rows;
	char **keys; /* each row's name in a "{}" table, or NULL */
	size_t n, cap;
	bool null; /* the last row is null */
};

struct json_rows *json_rows_new(const struct coltable *ct)
{
	struct json_rows *r = calloc(1, sizeof(*r));

	if (!r)
		abort();
	r->ct = ct;
	return r;
}

void json_rows_free(struct json_rows *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		cJSON_Delete(r->rows[i]);
		free(r->keys[i]);
	}
	free(r->rows);
	free(r->keys);
	free(r);
}

static char *dup_key(const char *key)
{
	char *s = strdup(key);

	if (!s)
		abort();
	return s;
}

static void push(struct json_rows *r, cJSON *row, const char *key)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->rows = realloc(r->rows, r->cap * sizeof(*r->rows));
		r->keys = realloc(r->keys, r->cap * sizeof(*r->keys));
		if (!r->rows || !r->keys)
			abort();
	}
	r->keys[r->n] = key ? dup_key(key) : NULL;
	r->rows[r->n++] = row;
	r->null = cJSON_IsNull(row);
}

void json_rows_start(struct json_rows *r)
{
	push(r, cJSON_CreateObject(), NULL);
}

void json_rows_add_null(struct json_rows *r, const char *key)
{
	push(r, cJSON_CreateNull(), key);
}

void json_rows_nullify(struct json_rows *r)
{
	cJSON_Delete(r->rows[r->n - 1]);
	r->rows[r->n - 1] = cJSON_CreateNull();
	r->null = true;
}

void json_rows_name(struct json_rows *r, const char *key)
{
	if (r->keys[r->n - 1])
		abort();
	r->keys[r->n - 1] = dup_key(key);
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
	case CJ_KNOB_VALUE:
		return cJSON_IsNumber(v) || cJSON_IsString(v) || cJSON_IsBool(v);
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
void json_rows_set(struct json_rows *r, int id, cJSON *v)
{
	const struct colinfo *c = &r->ct->cols[id];
	cJSON **row = &r->rows[r->n - 1];

	if (!v)
		abort();
	if (c->json_type == CJ_NONE || r->null) {
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

void json_rows_add(struct json_rows *r, const char *key, cJSON *v)
{
	for (size_t i = 0; i < r->ct->ncols; i++)
		if (r->ct->cols[i].json && strcmp(r->ct->cols[i].json, key) == 0)
			abort(); /* a column's key: its setter adds it */
	if (r->null)
		cJSON_Delete(v);
	else
		json_add(r->rows[r->n - 1], key, v);
}

/* Every column with a key is in every row object: the JSON has what the table has. */
static void check_row(const struct json_rows *r, const cJSON *row)
{
	for (size_t i = 0; i < r->ct->ncols && cJSON_IsObject(row); i++) {
		const struct colinfo *c = &r->ct->cols[i];
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

cJSON *json_rows_array(struct json_rows *r)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < r->n; i++) {
		check_row(r, r->rows[i]);
		cJSON_AddItemToArray(a, r->rows[i]);
		free(r->keys[i]);
	}
	r->n = 0;
	return a;
}

cJSON *json_rows_object(struct json_rows *r)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < r->n; i++) {
		if (!r->keys[i])
			abort(); /* a row without a name */
		check_row(r, r->rows[i]);
		cJSON_AddItemToObject(o, r->keys[i], r->rows[i]);
		free(r->keys[i]);
	}
	r->n = 0;
	return o;
}

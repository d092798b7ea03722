/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json-rows.c: the JSON rows of a table, for table.c. */
#ifndef RECLAIMCTL_JSON_ROWS_H
#define RECLAIMCTL_JSON_ROWS_H

#include "reclaimctl.h"

struct json_rows;
struct json_rows *json_rows_new(const struct coltable *ct);
void json_rows_free(struct json_rows *r);
/* A new row object; a null row named @key. */
void json_rows_start(struct json_rows *r);
void json_rows_add_null(struct json_rows *r, const char *key);
/* The last row is null: its values are dropped. */
void json_rows_nullify(struct json_rows *r);
/* The last row's name in a "{}" table. */
void json_rows_name(struct json_rows *r, const char *key);
/* Column @id's value in the last row (taken). */
void json_rows_set(struct json_rows *r, int id, cJSON *v);
/* A key of no column in the last row (taken @v). */
void json_rows_add(struct json_rows *r, const char *key, cJSON *v);
/* The rows so far, checked and taken: as an array, or by their names. */
cJSON *json_rows_array(struct json_rows *r);
cJSON *json_rows_object(struct json_rows *r);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Prints the column tables of every command as JSON, for check-columns.py:
 * {"threads": [{"table": "threads", "rows": "kswapd[]", "defaults": "...",
 *   "columns": [{"name": "PID", "help": "...", "json": "pid", "type": "number"}]}]}
 * Built from the command line's own sources, so it reads the tables that run.
 */
#include "reclaimctl.h"

static const char *const types[] = {
    [CJ_NONE] = NULL,
    [CJ_STRING] = "string",
    [CJ_NUMBER] = "number",
    [CJ_BOOL] = "bool",
    [CJ_ARRAY] = "array",
    [CJ_NUMBER_OR_STRING] = "number|string",
    [CJ_KNOB_VALUE] = "number|bool|string",
};

static cJSON *dump_table(const struct coltable *ct)
{
	cJSON *o = cJSON_CreateObject(), *cols = cJSON_CreateArray();

	cJSON_AddStringToObject(o, "table", ct->name);
	cJSON_AddStringToObject(o, "rows", ct->json_rows);
	cJSON_AddStringToObject(o, "defaults", ct->defaults);
	for (size_t i = 0; i < ct->ncols; i++) {
		const struct colinfo *c = &ct->cols[i];
		cJSON *col = cJSON_CreateObject();

		cJSON_AddStringToObject(col, "name", c->name);
		cJSON_AddStringToObject(col, "help", c->help);
		cJSON_AddItemToObject(col, "json",
				      c->json ? cJSON_CreateString(c->json) : cJSON_CreateNull());
		cJSON_AddItemToObject(col, "type",
				      types[c->json_type] ? cJSON_CreateString(types[c->json_type])
							  : cJSON_CreateNull());
		cJSON_AddItemToArray(cols, col);
	}
	cJSON_AddItemToObject(o, "columns", cols);
	return o;
}

int main(void)
{
	size_t n;
	const struct command *const *commands = command_table(&n);
	cJSON *root = cJSON_CreateObject();

	for (size_t i = 0; i < n; i++) {
		cJSON *a;

		if (!commands[i]->tables)
			continue;
		a = cJSON_AddArrayToObject(root, commands[i]->name);
		for (size_t j = 0; commands[i]->tables[j]; j++)
			cJSON_AddItemToArray(a, dump_table(commands[i]->tables[j]));
	}
	json_print(root);
	cJSON_Delete(root);
	return 0;
}

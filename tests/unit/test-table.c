// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl's tables (cli/table.c): one fill gives the cells and the JSON
 * rows, and a setter that does not fit the column's JSON type aborts.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* before cmocka.h, whose fail() is a macro */
#include "reclaimctl.h"

#include <cmocka.h>

enum { T_PID, T_NAME, T_SIZE, T_COUNT, T_DELAY, T_ON, T_NOTE };

static const struct colinfo cols[] = {
    [T_PID] = {"PID", 0, COL_RIGHT, "pid", "pid", CJ_NUMBER},
    [T_NAME] = {"NAME", 0, 0, "name", "name", CJ_STRING},
    [T_SIZE] = {"SIZE", 0, COL_RIGHT | COL_SIZE, "size", "size_kb", CJ_NUMBER},
    [T_COUNT] = {"COUNT", 0, COL_RIGHT, "count", "reclaim.count", CJ_NUMBER},
    [T_DELAY] = {"DELAY", 0, COL_RIGHT, "delay", "reclaim.delay_ms", CJ_NUMBER},
    [T_ON] = {"ON", 0, 0, "on", "on", CJ_BOOL},
    [T_NOTE] = {"NOTE", 0, 0, "note", NULL, CJ_NONE},
};

static const struct coltable columns = COLTABLE("test", cols, "PID,NAME,SIZE,ON,NOTE", "rows[]");

enum { V_NAME, V_VALUE };

static const struct colinfo value_cols[] = {
    [V_NAME] = {"NAME", 0, 0, "name", NULL, CJ_NONE},
    [V_VALUE] = {"VALUE", 0, COL_RIGHT, "value", NULL, CJ_NUMBER},
};

static const struct coltable value_columns = COLTABLE("values", value_cols, "NAME,VALUE", "x{}");

static void fill(struct table *t, int pid, const char *name)
{
	table_row(t);
	table_set_int(t, T_PID, pid);
	table_set_str(t, T_NAME, name);
	table_set_size(t, T_SIZE, 4 * 1024 * 1024);
	table_set_uint(t, T_COUNT, 7);
	table_set_fixed(t, T_DELAY, 1.25, 1);
	table_set_bool(t, T_ON, pid > 1);
	table_set(t, T_NOTE, NULL);
}

static char *json_text(cJSON *v)
{
	char *s = cJSON_PrintUnformatted(v);

	cJSON_Delete(v);
	return s;
}

static void test_one_fill_gives_cells_and_json(void **state)
{
	struct cli cli = {.out = {.columns = "+COUNT,DELAY"}};
	struct table *t = table_new(&cli, &columns);
	char *text, *json;

	(void)state;
	fill(t, 1, "one");
	fill(t, 2, NULL);
	text = table_to_string(t);
	assert_string_equal(text, "PID NAME SIZE ON  NOTE COUNT DELAY\n"
				  "  1 one  4.0G no  -        7   1.2\n"
				  "  2 -    4.0G yes -        7   1.2");
	json = json_text(table_json_array(t));
	/* the keys in the order of the setters, the dotted ones in their object */
	assert_string_equal(json, "[{\"pid\":1,\"name\":\"one\",\"size_kb\":4194304,"
				  "\"reclaim\":{\"count\":7,\"delay_ms\":1.25},\"on\":false},"
				  "{\"pid\":2,\"name\":null,\"size_kb\":4194304,"
				  "\"reclaim\":{\"count\":7,\"delay_ms\":1.25},\"on\":true}]");
	free(text);
	free(json);
	table_free(t);
}

static void test_keyed_rows(void **state)
{
	struct cli cli = {0};
	struct table *t = table_new_json(&cli, &value_columns);
	char *json;

	(void)state;
	table_row(t);
	table_set_key(t, V_NAME, "a");
	table_set_uint(t, V_VALUE, 3);
	table_json_null(t, "b");
	table_row(t);
	table_row_null(t);
	table_set_key(t, V_NAME, "c");
	table_set_value(t, V_VALUE, "unknown", NULL);
	json = json_text(table_json_object(t));
	assert_string_equal(json, "{\"a\":3,\"b\":null,\"c\":null}");
	free(json);
	table_free(t);
}

/* Runs @f in a child: true when it aborted. */
static bool aborts(void (*f)(void))
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		fclose(stderr);
		f();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static struct table *one_row(void)
{
	static struct cli cli;
	struct table *t = table_new(&cli, &columns);

	table_row(t);
	return t;
}

static void string_for_number(void)
{
	table_set_str(one_row(), T_PID, "1");
}

static void text_for_number(void)
{
	table_set(one_row(), T_PID, "1");
}

static void value_of_another_type(void)
{
	table_set_value(one_row(), T_ON, "yes", cJSON_CreateString("yes"));
}

static void key_of_a_column(void)
{
	table_json_add(one_row(), "name", cJSON_CreateString("x"));
}

static void column_set_twice(void)
{
	struct table *t = one_row();

	table_set_int(t, T_PID, 1);
	table_set_int(t, T_PID, 2);
}

static void column_left_out(void)
{
	struct table *t = one_row();

	fill(t, 1, "one");
	table_row(t);
	table_set_int(t, T_PID, 2);
	cJSON_Delete(table_json_array(t));
}

static void well_filled(void)
{
	struct table *t = one_row();

	table_set_value(t, T_ON, "-", NULL);
	table_set_value(t, T_NOTE, "text", cJSON_CreateString("dropped"));
}

static void test_what_does_not_fit_aborts(void **state)
{
	(void)state;
	assert_true(aborts(string_for_number));
	assert_true(aborts(text_for_number));
	assert_true(aborts(value_of_another_type));
	assert_true(aborts(key_of_a_column));
	assert_true(aborts(column_set_twice));
	assert_true(aborts(column_left_out));
	assert_false(aborts(well_filled));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_fill_gives_cells_and_json),
	    cmocka_unit_test(test_keyed_rows),
	    cmocka_unit_test(test_what_does_not_fit_aborts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

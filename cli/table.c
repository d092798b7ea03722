// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

struct table *table_new(struct cli *cli, const struct coltable *ct)
{
	struct table *t = calloc(1, sizeof(*t));
	char bad[80];

	if (!t || !(t->tb = scols_new_table()))
		abort();
	t->cli = cli;
	t->ct = ct;
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

void table_row(struct table *t)
{
	t->line = scols_table_new_line(t->tb, NULL);
	if (!t->line)
		abort();
	t->nrows++;
}

static bool table_shows(const struct table *t, int id)
{
	for (size_t i = 0; i < t->nshown; i++)
		if (t->ids[i] == id)
			return true;
	return false;
}

void table_set(struct table *t, int id, const char *text)
{
	for (size_t i = 0; i < t->nshown; i++)
		if (t->ids[i] == id && scols_line_set_data(t->line, i, text ? text : "-") < 0)
			abort();
}

void table_setf(struct table *t, int id, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (!table_shows(t, id))
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	table_set(t, id, s);
	free(s);
}

void table_set_size(struct table *t, int id, uint64_t kb)
{
	char buf[32];

	if (t->cli->out.bytes)
		snprintf(buf, sizeof(buf), "%" PRIu64, kb * 1024);
	else
		format_kb(buf, sizeof(buf), kb);
	table_set(t, id, buf);
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
	free(t);
}

void table_help(FILE *out, const struct coltable *ct, const char *title)
{
	fprintf(out, "\n%s:\n", title);
	for (size_t i = 0; i < ct->ncols; i++)
		fprintf(out, " %14s  %s\n", ct->cols[i].name, ct->cols[i].help);
}

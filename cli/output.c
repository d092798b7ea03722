// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "reclaimctl.h"

/* One line: control characters from arguments or files are printed as \ooo (printable()). */
__attribute__((format(printf, 1, 0))) static void vmsg(const char *fmt, va_list ap)
{
	char *msg = NULL, *shown;

	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	shown = printable(msg);
	fprintf(stderr, "reclaimctl: %s\n", shown);
	free(shown);
	free(msg);
}

void warnmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

int fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	return code;
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int lib_fail(struct cli *cli, int code, const char *what)
{
	if (what)
		return fail(code, "%s: %s", what, reclaim_strerror(cli->ctx));
	return fail(code, "%s", reclaim_strerror(cli->ctx));
}

int show_help(const struct command *cmd)
{
	printf("Usage: reclaimctl [global options] %s %s\n\n%s.\n", cmd->name, cmd->args,
	       cmd->summary);
	if (cmd->help)
		cmd->help(stdout);
	printf("\nGlobal options: --sysroot DIR, --json, --no-color; see reclaimctl --help.\n");
	return 0;
}

int option_error(const char *where, int opt, char **argv)
{
	const char *arg = argv[optind - 1];
	const char *prefix = where ? where : "", *sep = where ? ": " : "";

	if (opt == ':')
		return usage_error("%s%soption '%s' needs a value", prefix, sep, arg);
	/* For an unknown short option in a cluster (-Jx), optopt names it. */
	if (optopt && arg[0] == '-' && arg[1] != '-')
		return usage_error("%s%sunknown option '-%c'", prefix, sep, optopt);
	return usage_error("%s%sunknown option '%s'", prefix, sep, arg);
}

int common_option(struct cli *cli, const struct command *cmd, int opt, char **argv, bool *done)
{
	*done = true;
	switch (opt) {
	case 'h':
		return show_help(cmd);
	case 'J':
		cli->json = true;
		*done = false;
		return 0;
	default:
		return option_error(cmd->name, opt, argv);
	}
}

/* "0-3,8,10-11", as the kernel writes CPU lists. */
char *format_cpulist(const unsigned int *cpus, size_t n)
{
	size_t size = 16 + n * 12, len = 0;
	char *s = malloc(size);

	if (!s)
		abort();
	s[0] = '\0';
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j == i)
			len +=
			    (size_t)snprintf(s + len, size - len, "%s%u", len ? "," : "", cpus[i]);
		else
			len += (size_t)snprintf(s + len, size - len, "%s%u-%u", len ? "," : "",
						cpus[i], cpus[j]);
		i = j + 1;
	}
	return s;
}

/* Sizes as util-linux prints them: 1024-based, one decimal below 10. */
void format_kb(char *buf, size_t size, uint64_t kb)
{
	static const char units[] = "KMGTPE";
	double v = (double)kb;
	int u = 0;

	while (v >= 1024.0 && units[u + 1]) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%" PRIu64 "K", kb);
	else if (v < 10.0)
		snprintf(buf, size, "%.1f%c", v, units[u]);
	else
		snprintf(buf, size, "%.0f%c", v, units[u]);
}

void heading(struct cli *cli, const char *title)
{
	if (cli->color)
		printf("\033[1m%s\033[0m\n", title);
	else
		printf("%s\n", title);
}

struct table {
	struct cli *cli;
	const char *const *headers;
	size_t ncols, nrows;
	char **cells;
};

struct table *table_new(struct cli *cli, const char *const *headers, size_t ncols)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	t->cli = cli;
	t->headers = headers;
	t->ncols = ncols;
	return t;
}

void table_add(struct table *t, ...)
{
	va_list ap;

	t->cells = realloc(t->cells, (t->nrows + 1) * t->ncols * sizeof(*t->cells));
	if (!t->cells)
		abort();
	va_start(ap, t);
	for (size_t c = 0; c < t->ncols; c++) {
		const char *s = va_arg(ap, const char *);

		t->cells[t->nrows * t->ncols + c] = strdup(s ? s : "-");
		if (!t->cells[t->nrows * t->ncols + c])
			abort();
	}
	va_end(ap);
	t->nrows++;
}

static const char *header_text(const char *h)
{
	return h[0] == '>' ? h + 1 : h;
}

static void print_cell(FILE *out, const char *s, size_t width, bool right, bool last)
{
	if (right)
		fprintf(out, "%*s", (int)width, s);
	else if (last)
		fputs(s, out);
	else
		fprintf(out, "%-*s", (int)width, s);
}

void table_print(struct table *t, FILE *out)
{
	size_t *width = calloc(t->ncols, sizeof(*width));

	if (!width)
		abort();
	for (size_t c = 0; c < t->ncols; c++) {
		width[c] = strlen(header_text(t->headers[c]));
		for (size_t r = 0; r < t->nrows; r++) {
			size_t w = strlen(t->cells[r * t->ncols + c]);

			if (w > width[c])
				width[c] = w;
		}
	}
	if (t->cli->color)
		fputs("\033[1m", out);
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			fputc(' ', out);
		print_cell(out, header_text(t->headers[c]), width[c], t->headers[c][0] == '>',
			   c + 1 == t->ncols);
	}
	if (t->cli->color)
		fputs("\033[0m", out);
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *cell = t->cells[r * t->ncols + c];

			/* An empty last cell leaves no blank at the end of the line. */
			if (c + 1 == t->ncols && !cell[0] && t->headers[c][0] != '>')
				break;
			if (c)
				fputc(' ', out);
			print_cell(out, cell, width[c], t->headers[c][0] == '>', c + 1 == t->ncols);
		}
		fputc('\n', out);
	}
	free(width);
}

void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}

void json_print(cJSON *root)
{
	char *s = cJSON_Print(root);

	if (!s)
		abort();
	puts(s);
	free(s);
}

cJSON *json_cpus(const unsigned int *cpus, size_t n)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(cpus[i]));
	return a;
}

cJSON *json_document(void)
{
	cJSON *root = cJSON_CreateObject();

	cJSON_AddNumberToObject(root, "schema", JSON_SCHEMA);
	return root;
}

/*
 * "set throttle -1" must reach the range check, not getopt: returns a new
 * argv with the options first, then "--" and the operands in their order.
 */
char **options_first(int argc, char **argv, int *new_argc)
{
	char **v = calloc((size_t)argc + 2, sizeof(*v));
	int n = 1, i;
	bool operands = false;

	if (!v)
		abort();
	v[0] = argv[0];
	for (i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1] && !(argv[i][1] >= '0' && argv[i][1] <= '9') &&
		    !operands) {
			if (strcmp(argv[i], "--") == 0)
				operands = true;
			else
				v[n++] = argv[i];
		}
	v[n++] = "--";
	operands = false;
	for (i = 1; i < argc; i++) {
		bool is_opt =
		    argv[i][0] == '-' && argv[i][1] && !(argv[i][1] >= '0' && argv[i][1] <= '9');

		if (!operands && strcmp(argv[i], "--") == 0)
			operands = true;
		else if (operands || !is_opt)
			v[n++] = argv[i];
	}
	*new_argc = n;
	return v;
}

int run_options_first(struct cli *cli, int argc, char **argv,
		      int (*main)(struct cli *cli, int argc, char **argv))
{
	int r;

	argv = options_first(argc, argv, &argc);
	r = main(cli, argc, argv);
	free(argv);
	return r;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Messages, formats and JSON printing that every command uses. */
#include <errno.h>
#include <poll.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

bool script_output(const struct cli *cli)
{
	return cli->out.noheadings || cli->out.pairs;
}

void separator(struct cli *cli)
{
	if (!script_output(cli))
		putchar('\n');
}

void heading(struct cli *cli, const char *title)
{
	if (script_output(cli))
		return;
	if (cli->color)
		printf("\033[1m%s\033[0m\n", title);
	else
		printf("%s\n", title);
}

void note(const struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (script_output(cli)) {
		vmsg(fmt, ap);
	} else {
		vprintf(fmt, ap);
		putchar('\n');
	}
	va_end(ap);
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

/* Whole milliseconds, rounded down, before and after the epoch alike. */
static int64_t ms_of(int64_t ns)
{
	return ns / 1000000 - (ns % 1000000 < 0);
}

void format_time(char *buf, size_t size, int64_t ns)
{
	int64_t ms = ms_of(ns);
	time_t sec = (time_t)(ms / 1000 - (ms % 1000 < 0));
	struct tm tm;
	char date[24], zone[8];

	if (!localtime_r(&sec, &tm) ||
	    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm) == 0 ||
	    strftime(zone, sizeof(zone), "%z", &tm) != 5) {
		snprintf(buf, size, "?");
		return;
	}
	/* %z is +hhmm: RFC 3339 has +hh:mm */
	snprintf(buf, size, "%s.%03d%.3s:%s", date, (int)(ms - (int64_t)sec * 1000), zone,
		 zone + 3);
}

void format_local(char *buf, size_t size, int64_t ns, bool date)
{
	time_t sec = (time_t)(ns / 1000000000);
	struct tm tm;

	if (!localtime_r(&sec, &tm) ||
	    strftime(buf, size, date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm) == 0)
		snprintf(buf, size, "?");
}

double epoch_of(int64_t ns)
{
	return (double)ms_of(ns) / 1e3;
}

cJSON *json_time(int64_t ns)
{
	char buf[TIME_TEXT_MAX];

	format_time(buf, sizeof(buf), ns);
	return cJSON_CreateString(buf);
}

void json_add_time(cJSON *o, const char *key, int64_t ns)
{
	cJSON_AddItemToObject(o, key, json_time(ns));
	cJSON_AddNumberToObject(o, "epoch", epoch_of(ns));
}

cJSON *json_knob_value(const struct reclaim_knob *k, int64_t v)
{
	char text[RECLAIM_KNOB_TEXT_MAX];

	/* a value outside the range (a damaged record) stays a number */
	if (v < reclaim_knob_min(k) || v > reclaim_knob_max(k))
		return cJSON_CreateNumber((double)v);
	switch (reclaim_knob_type(k)) {
	case RECLAIM_KNOB_TYPE_BOOL:
		return cJSON_CreateBool(v != 0);
	case RECLAIM_KNOB_TYPE_CHOICE:
		return cJSON_CreateString(reclaim_knob_format(k, v, text, sizeof(text)));
	default:
		return cJSON_CreateNumber((double)v);
	}
}

cJSON *json_knob_sysctl(const struct reclaim_knob *k)
{
	return reclaim_knob_sysctl(k) ? cJSON_CreateString(reclaim_knob_sysctl(k))
				      : cJSON_CreateNull();
}

cJSON *json_document(void)
{
	cJSON *root = cJSON_CreateObject();

	cJSON_AddNumberToObject(root, "schema", JSON_SCHEMA);
	return root;
}

char *printable(const char *s)
{
	char *out = malloc(strlen(s) * 4 + 1), *p = out;

	if (!out)
		abort();
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			p += sprintf(p, "\\%03o", (unsigned char)*s);
		else
			*p++ = *s;
	}
	*p = '\0';
	return out;
}

int unknown_knob(const char *name)
{
	char list[512] = "";
	size_t len = 0;

	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);

		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "",
					reclaim_knob_alias(k) ? reclaim_knob_alias(k)
							      : reclaim_knob_name(k));
	}
	return usage_error("unknown knob '%s' (known: %s)", name, list);
}

/* The first error of standard output, with the errno of the write that failed. */
static int stdout_err;

void flush_stdout(void)
{
	if (fflush(stdout) == EOF && stdout_err == 0)
		stdout_err = errno ? errno : EIO;
}

int stdout_error(void)
{
	struct pollfd p = {.fd = STDOUT_FILENO};

	flush_stdout();
	/*
	 * A write that failed inside printf() left no errno that lasts: a pipe
	 * whose reader is gone still says so (POLLERR on its write end).
	 */
	if (stdout_err == 0 && ferror(stdout))
		stdout_err = poll(&p, 1, 0) == 1 && (p.revents & POLLERR) ? EPIPE : EIO;
	return stdout_err;
}

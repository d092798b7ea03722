// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <math.h>
#include <string.h>

#include "internal.h"

struct psi_line {
	bool present;
	double avg10, avg60, avg300;
	uint64_t total_us;
};

struct reclaim_pressure {
	int refcount;
	struct psi_line line[2];
};

/* The kernel's averages are shares of time: "nan", "inf" or 120 are no such thing. */
static bool percent(double v)
{
	return isfinite(v) && v >= 0 && v <= 100;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=0", then the same for "full". */
int reclaim_pressure_parse(const char *text, struct reclaim_pressure **ret)
{
	struct reclaim_pressure *p = calloc(1, sizeof(*p));
	const char *line = text;

	if (!p)
		return -ENOMEM;
	p->refcount = 1;
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char kind[8], copy[160], total[21];
		struct psi_line l = {.present = true};
		int k, end = 0;

		/*
		 * sscanf() on a copy of the line: on the whole rest of the text it
		 * would measure that text for every line (quadratic in its size).
		 */
		if (len >= sizeof(copy))
			goto fail;
		memcpy(copy, line, len);
		copy[len] = '\0';
		if (sscanf(copy, "%7s avg10=%lf avg60=%lf avg300=%lf total=%20[0-9]%n", kind,
			   &l.avg10, &l.avg60, &l.avg300, total, &end) != 5 ||
		    copy[end] != '\0' || !percent(l.avg10) || !percent(l.avg60) ||
		    !percent(l.avg300) || reclaim_parse_u64(total, &l.total_us) < 0)
			goto fail;
		if (strcmp(kind, "some") == 0)
			k = RECLAIM_PRESSURE_SOME;
		else if (strcmp(kind, "full") == 0)
			k = RECLAIM_PRESSURE_FULL;
		else
			goto fail;
		p->line[k] = l;
		line = nl ? nl + 1 : NULL;
	}
	if (!p->line[RECLAIM_PRESSURE_SOME].present)
		goto fail;
	*ret = p;
	return 0;
fail:
	free(p);
	return -EINVAL;
}

RECLAIM_EXPORT int reclaim_pressure_new(struct reclaim_ctx *ctx, struct reclaim_pressure **ret)
{
	static const char path[] = "/proc/pressure/memory";
	_cleanup_free_ char *text = NULL;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	r = reclaim_read_file(ctx, path, &text, NULL);
	/* With psi=0 on the command line the file exists but reads fail with EOPNOTSUPP. */
	if (r == -ENOENT || r == -EOPNOTSUPP)
		return reclaim_error(ctx, ENOENT,
				     "%s: this kernel has no pressure stall information", path);
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read %s: %s", path, reclaim_read_strerror(r));
	r = reclaim_pressure_parse(text, ret);
	if (r == -EINVAL)
		return reclaim_error(ctx, EINVAL, "%s: malformed", path);
	return r;
}

RECLAIM_EXPORT struct reclaim_pressure *reclaim_pressure_ref(struct reclaim_pressure *p)
{
	if (p)
		p->refcount++;
	return p;
}

RECLAIM_EXPORT struct reclaim_pressure *reclaim_pressure_unref(struct reclaim_pressure *p)
{
	if (p && --p->refcount == 0)
		free(p);
	return NULL;
}

/* A recording's PSI line: an empty object first (@p NULL), then each kind set. */
int reclaim_pressure_set(struct reclaim_pressure **p, enum reclaim_pressure_kind kind, double avg10,
			 uint64_t total_us)
{
	if (kind != RECLAIM_PRESSURE_SOME && kind != RECLAIM_PRESSURE_FULL)
		return -EINVAL;
	if (!isnan(avg10) && !percent(avg10))
		return -EINVAL;
	if (!*p) {
		*p = calloc(1, sizeof(**p));
		if (!*p)
			return -ENOMEM;
		(*p)->refcount = 1;
	}
	(*p)->line[kind] = (struct psi_line){.present = true, .avg10 = avg10, .total_us = total_us};
	return 0;
}

static const struct psi_line *psi(const struct reclaim_pressure *p, enum reclaim_pressure_kind k)
{
	static const struct psi_line none;

	if (!p || (k != RECLAIM_PRESSURE_SOME && k != RECLAIM_PRESSURE_FULL))
		return &none;
	return &p->line[k];
}

RECLAIM_EXPORT bool reclaim_pressure_has(const struct reclaim_pressure *p,
					 enum reclaim_pressure_kind k)
{
	return psi(p, k)->present;
}

RECLAIM_EXPORT double reclaim_pressure_avg10(const struct reclaim_pressure *p,
					     enum reclaim_pressure_kind k)
{
	return psi(p, k)->avg10;
}

RECLAIM_EXPORT double reclaim_pressure_avg60(const struct reclaim_pressure *p,
					     enum reclaim_pressure_kind k)
{
	return psi(p, k)->avg60;
}

RECLAIM_EXPORT double reclaim_pressure_avg300(const struct reclaim_pressure *p,
					      enum reclaim_pressure_kind k)
{
	return psi(p, k)->avg300;
}

RECLAIM_EXPORT uint64_t reclaim_pressure_total_us(const struct reclaim_pressure *p,
						  enum reclaim_pressure_kind k)
{
	return psi(p, k)->total_us;
}

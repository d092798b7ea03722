// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An autotune plan: the value of every knob that has a rule (autotune.c),
 * each with its reason, marked skipped where the running kernel lacks the
 * knob; and a priority for every swap device (autotune-swap.c). Computing
 * it reads nothing but which knobs the kernel has; applying it is the
 * caller's business.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

struct plan_knob {
	const struct reclaim_knob *knob;
	bool skipped;
	int64_t value;
	char *reason;
};

struct plan_swap {
	struct reclaim_swap *swap;
	int priority; /* -ENODATA: none proposed */
	char *reason;
};

struct reclaim_plan {
	int refcount;
	struct plan_knob *knobs;
	size_t count;
	struct reclaim_swaps *swaps; /* keeps the devices valid */
	struct plan_swap *devices;
	size_t ndevices;
};

static void plan_free(struct reclaim_plan *p)
{
	for (size_t i = 0; i < p->count; i++)
		free(p->knobs[i].reason);
	for (size_t i = 0; i < p->ndevices; i++)
		free(p->devices[i].reason);
	free(p->knobs);
	free(p->devices);
	reclaim_swaps_unref(p->swaps);
	free(p);
}

static int plan_knobs(struct reclaim_ctx *ctx, const struct reclaim_topology *topo,
		      struct reclaim_plan *p)
{
	p->knobs = calloc(reclaim_knob_count(), sizeof(*p->knobs));
	if (!p->knobs)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		struct plan_knob *e = &p->knobs[p->count];
		int r;

		if (!reclaim_knob_has_recommendation(k))
			continue;
		e->knob = k;
		p->count++;
		r = reclaim_knob_recommend(ctx, k, topo, &e->value, &e->reason);
		if (r < 0)
			return r;
		r = reclaim_knob_supported(ctx, k);
		if (r < 0)
			return r;
		e->skipped = r == 0;
	}
	return 0;
}

static int plan_swaps(struct reclaim_ctx *ctx, const struct reclaim_swaps *swaps,
		      struct reclaim_plan *p)
{
	size_t n = reclaim_swaps_count(swaps);

	p->swaps = reclaim_swaps_ref((struct reclaim_swaps *)swaps);
	p->devices = calloc(n + 1, sizeof(*p->devices));
	if (!p->devices)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct plan_swap *e = &p->devices[p->ndevices++];

		e->swap = reclaim_swaps_get(swaps, i);
		if (reclaim_autotune_swap(e->swap, &e->priority, &e->reason) < 0)
			return reclaim_error(ctx, ENOMEM, "out of memory");
	}
	return 0;
}

RECLAIM_EXPORT int reclaim_plan_new(struct reclaim_ctx *ctx, const struct reclaim_topology *topo,
				    const struct reclaim_swaps *swaps, struct reclaim_plan **ret)
{
	struct reclaim_plan *p;
	int r;

	assert_return(ctx && topo && ret, -EINVAL);
	reclaim_error_reset(ctx);
	p = calloc(1, sizeof(*p));
	if (!p)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	p->refcount = 1;
	r = plan_knobs(ctx, topo, p);
	if (r == 0 && swaps)
		r = plan_swaps(ctx, swaps, p);
	if (r < 0) {
		plan_free(p);
		return r;
	}
	*ret = p;
	return 0;
}

RECLAIM_EXPORT struct reclaim_plan *reclaim_plan_ref(struct reclaim_plan *p)
{
	if (p)
		p->refcount++;
	return p;
}

RECLAIM_EXPORT struct reclaim_plan *reclaim_plan_unref(struct reclaim_plan *p)
{
	if (p && --p->refcount == 0)
		plan_free(p);
	return NULL;
}

RECLAIM_EXPORT size_t reclaim_plan_count(const struct reclaim_plan *p)
{
	assert_return(p, 0);
	return p->count;
}

RECLAIM_EXPORT const struct reclaim_knob *reclaim_plan_knob(const struct reclaim_plan *p,
							    size_t idx)
{
	assert_return(p && idx < p->count, NULL);
	return p->knobs[idx].knob;
}

RECLAIM_EXPORT bool reclaim_plan_skipped(const struct reclaim_plan *p, size_t idx)
{
	assert_return(p && idx < p->count, true);
	return p->knobs[idx].skipped;
}

RECLAIM_EXPORT int64_t reclaim_plan_value(const struct reclaim_plan *p, size_t idx)
{
	assert_return(p && idx < p->count, 0);
	return p->knobs[idx].value;
}

RECLAIM_EXPORT const char *reclaim_plan_reason(const struct reclaim_plan *p, size_t idx)
{
	assert_return(p && idx < p->count, NULL);
	return p->knobs[idx].reason;
}

RECLAIM_EXPORT ssize_t reclaim_plan_find(const struct reclaim_plan *p,
					 const struct reclaim_knob *knob)
{
	assert_return(p && knob, -1);
	for (size_t i = 0; i < p->count; i++)
		if (p->knobs[i].knob == knob)
			return (ssize_t)i;
	return -1;
}

RECLAIM_EXPORT size_t reclaim_plan_swap_count(const struct reclaim_plan *p)
{
	assert_return(p, 0);
	return p->ndevices;
}

RECLAIM_EXPORT struct reclaim_swap *reclaim_plan_swap(const struct reclaim_plan *p, size_t idx)
{
	assert_return(p && idx < p->ndevices, NULL);
	return p->devices[idx].swap;
}

RECLAIM_EXPORT int reclaim_plan_swap_priority(const struct reclaim_plan *p, size_t idx)
{
	assert_return(p && idx < p->ndevices, -EINVAL);
	return p->devices[idx].priority;
}

RECLAIM_EXPORT const char *reclaim_plan_swap_reason(const struct reclaim_plan *p, size_t idx)
{
	assert_return(p && idx < p->ndevices, NULL);
	return p->devices[idx].reason;
}

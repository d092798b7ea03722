// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The adaptive controller: from one sample of figures at a time it decides
 * whether kswapd is the bottleneck and moves one of two knobs a step:
 * kswapd_threads (patched kernels) when kswapd is saturated, and
 * watermark_scale_factor (every kernel) when kswapd wakes too late. It does
 * no I/O: the caller measures (live, or from a recording) and writes.
 *
 * A thread more needs the busiest node's threads saturated and direct
 * reclaim persisting for a whole window. A higher watermark needs, over a
 * window of reclaim, direct reclaims and kswapd's premature sleeps
 * (kswapd_low_wmark_hit_quickly) at their thresholds while kswapd is not
 * saturated: Documentation/admin-guide/sysctl/vm.rst (watermark_scale_factor)
 * reads a high rate of either as a free-page buffer too small for the
 * allocation bursts. A step back needs every node quiet for a longer
 * window; the watermark goes back first (it holds memory from every task,
 * an idle thread holds none). The thresholds up and down differ
 * (hysteresis), and after each change of either knob a cooldown passes
 * before the next, so that the controller cannot oscillate.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "internal.h"

#define MAX_NODES 64 /* nodes a reason names; figures of more are folded in */

struct param_info {
	const char *name;
	double def, min, max;
	const char *description;
};

static const struct param_info params[] = {
    [RECLAIM_ADAPT_UP_CPU] = {"up-cpu", 90, 1, 100,
			      "CPU use of each kswapd thread of a node, in % of one CPU, at "
			      "or above which the node's kswapd is saturated"},
    [RECLAIM_ADAPT_UP_DIRECT] = {"up-direct", 10, 0, 1e12,
				 "direct reclaims and throttled waits per second at or above "
				 "which direct reclaim persists"},
    [RECLAIM_ADAPT_UP_WINDOW] = {"up-window", 30, 0, 86400,
				 "seconds both must last before a step up"},
    [RECLAIM_ADAPT_DOWN_CPU] = {"down-cpu", 40, 0, 100,
				"CPU use of each kswapd thread, on every node, below which "
				"reclaim is quiet"},
    [RECLAIM_ADAPT_DOWN_DIRECT] = {"down-direct", 1, 0, 1e12,
				   "direct reclaims and throttled waits per second below which "
				   "reclaim is quiet"},
    [RECLAIM_ADAPT_DOWN_PSI] = {"down-psi", 10, 0, 100,
				"memory pressure (PSI some, avg10, in %) below which reclaim "
				"is quiet"},
    [RECLAIM_ADAPT_DOWN_WINDOW] = {"down-window", 120, 0, 86400,
				   "seconds of quiet before a step down"},
    [RECLAIM_ADAPT_COOLDOWN] = {"cooldown", 60, 0, 86400,
				"seconds after a change before the next one"},
    [RECLAIM_ADAPT_BUSY_CPU] = {"busy-cpu", 90, 1, 100,
				"share of the CPU time a node's kswapd threads leave, in %, "
				"that other work takes, at or above which no thread is added"},
    [RECLAIM_ADAPT_WMARK_HITS] = {"wmark-hits", 1, 0, 1e12,
				  "times per second kswapd goes to sleep and is woken again soon "
				  "(kswapd_low_wmark_hit_quickly) at or above which, with direct "
				  "reclaim at up-direct, kswapd wakes too late"},
    [RECLAIM_ADAPT_WMARK_STEP] = {"wmark-step", 10, 1, 3000,
				  "watermark_scale_factor's step (in 0.01% of memory)"},
    [RECLAIM_ADAPT_WMARK_MAX] = {"wmark-max", 100, 1, 3000,
				 "watermark_scale_factor at most (in 0.01% of memory)"},
};

struct node_figures {
	int id;
	unsigned threads;
	double cpu_sum; /* % of one CPU, all its kswapd threads */
	unsigned ncpus; /* 0: not known (or a node without CPUs) */
	double busy;	/* % of its CPUs busy, anything included */
	bool has_busy;
};

#define NFIGURES (RECLAIM_ADAPT_LOW_WMARK_HITS + 1)

struct reclaim_adapt_sample {
	int refcount;
	struct reclaim_ctx *ctx;
	double interval;
	bool has[NFIGURES];
	double figure[NFIGURES];
	size_t nnodes;
	struct node_figures nodes[MAX_NODES];
	bool has_knob, has_watermark;
	int64_t knob, watermark;
};

/* A knob the controller moves: the value it set, and the one before its last change. */
struct setting {
	enum reclaim_knob_id knob;
	int64_t now, before;
};

struct reclaim_adapt {
	int refcount;
	struct reclaim_ctx *ctx;
	double param[ARRAY_SIZE(params)];
	struct setting threads; /* now 0: the kernel has no kswapd_threads */
	int64_t min, max;
	bool watermark_on; /* the watermark actuator (reclaim_adapt_add_watermark()) */
	struct setting wmark;
	int64_t wmark_min;	 /* its max is the parameter wmark-max */
	struct setting *changed; /* the knob of the last change; NULL: none yet */
	bool handed_off;
	double up_held, down_held, since_change;
	double up_cpu_sum, up_direct_sum; /* integrals over the up window */
	double down_direct_sum;
	/* the window of "woke too late": integrals while reclaim goes on, kswapd not saturated */
	double late_held, late_direct_sum, late_hits_sum, late_cpu_sum, late_p99;
	/* the highest direct reclaim p99 (us) of an interval of each window; < 0: none traced */
	double up_p99, down_p99;
	char reason[512];
};

/* ---- parameters ---- */

RECLAIM_EXPORT size_t reclaim_adapt_param_count(void)
{
	return ARRAY_SIZE(params);
}

RECLAIM_EXPORT const char *reclaim_adapt_param_name(enum reclaim_adapt_param p)
{
	return (size_t)p < ARRAY_SIZE(params) ? params[p].name : NULL;
}

RECLAIM_EXPORT const char *reclaim_adapt_param_description(enum reclaim_adapt_param p)
{
	return (size_t)p < ARRAY_SIZE(params) ? params[p].description : NULL;
}

RECLAIM_EXPORT double reclaim_adapt_param_default(enum reclaim_adapt_param p)
{
	return (size_t)p < ARRAY_SIZE(params) ? params[p].def : NAN;
}

RECLAIM_EXPORT int reclaim_adapt_param_find(const char *name)
{
	assert_return(name, -EINVAL);
	for (size_t i = 0; i < ARRAY_SIZE(params); i++)
		if (strcmp(params[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

/* ---- the controller ---- */

RECLAIM_EXPORT int64_t reclaim_adapt_max_for_cpus(size_t ncpus)
{
	int64_t max = reclaim_knob_max(reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS));
	int64_t quarter = (int64_t)(ncpus / RECLAIM_CPUS_PER_KSWAPD_MIN);

	/* more threads than a quarter of a node's CPUs would take them from its tasks */
	if (quarter < 1)
		return 1;
	return quarter < max ? quarter : max;
}

RECLAIM_EXPORT int64_t reclaim_adapt_default_max(const struct reclaim_topology *topo)
{
	size_t smallest = 0;

	assert_return(topo, -EINVAL);
	for (size_t i = 0; i < reclaim_topology_node_count(topo); i++) {
		const struct reclaim_node *n = reclaim_topology_node(topo, i);
		size_t ncpus;

		if (!reclaim_node_has_memory(n) || !reclaim_node_has_cpu(n))
			continue;
		reclaim_node_cpus(n, &ncpus);
		if (ncpus && (!smallest || ncpus < smallest))
			smallest = ncpus;
	}
	return reclaim_adapt_max_for_cpus(smallest);
}

RECLAIM_EXPORT int reclaim_adapt_new(struct reclaim_ctx *ctx, const struct reclaim_topology *topo,
				     int64_t threads, struct reclaim_adapt **ret)
{
	const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS);
	struct reclaim_adapt *a;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	if (threads && (threads < reclaim_knob_min(k) || threads > reclaim_knob_max(k)))
		return reclaim_error(ctx, ERANGE, "kswapd_threads %lld is outside %lld-%lld",
				     (long long)threads, (long long)reclaim_knob_min(k),
				     (long long)reclaim_knob_max(k));
	a = calloc(1, sizeof(*a));
	if (!a)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	a->refcount = 1;
	a->ctx = reclaim_ref(ctx);
	for (size_t i = 0; i < ARRAY_SIZE(params); i++)
		a->param[i] = params[i].def;
	a->threads.knob = RECLAIM_KNOB_KSWAPD_THREADS;
	a->wmark.knob = RECLAIM_KNOB_WATERMARK_SCALE_FACTOR;
	a->threads.now = a->threads.before = a->min = threads;
	a->max = !threads ? 0 : topo ? reclaim_adapt_default_max(topo) : 1;
	if (a->max < threads)
		a->max = threads;
	/* no change yet: the cooldown does not hold the first one back */
	a->since_change = INFINITY;
	a->up_p99 = a->down_p99 = a->late_p99 = -1;
	if (threads)
		snprintf(a->reason, sizeof(a->reason), "started at %lld threads",
			 (long long)threads);
	else
		snprintf(a->reason, sizeof(a->reason), "started without kswapd_threads");
	*ret = a;
	return 0;
}

RECLAIM_EXPORT struct reclaim_adapt *reclaim_adapt_ref(struct reclaim_adapt *a)
{
	if (a)
		a->refcount++;
	return a;
}

RECLAIM_EXPORT struct reclaim_adapt *reclaim_adapt_unref(struct reclaim_adapt *a)
{
	if (a && --a->refcount == 0) {
		reclaim_unref(a->ctx);
		free(a);
	}
	return NULL;
}

RECLAIM_EXPORT int reclaim_adapt_set_param(struct reclaim_adapt *a, enum reclaim_adapt_param p,
					   double v)
{
	assert_return(a, -EINVAL);
	assert_return((size_t)p < ARRAY_SIZE(params), -EINVAL);
	reclaim_error_reset(a->ctx);
	if (!isfinite(v) || v < params[p].min || v > params[p].max)
		return reclaim_error(a->ctx, ERANGE, "%s must be between %g and %g", params[p].name,
				     params[p].min, params[p].max);
	a->param[p] = v;
	return 0;
}

RECLAIM_EXPORT double reclaim_adapt_get_param(const struct reclaim_adapt *a,
					      enum reclaim_adapt_param p)
{
	assert_return(a && (size_t)p < ARRAY_SIZE(params), NAN);
	return a->param[p];
}

/* The bounds must hold the starting value: the controller never jumps into them. */
static int check_bounds(struct reclaim_adapt *a, int64_t min, int64_t max)
{
	const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS);

	if (!a->threads.now)
		return reclaim_error(
		    a->ctx, EOPNOTSUPP,
		    "the kernel has no vm.kswapd_threads: no bounds of threads apply");
	if (min < reclaim_knob_min(k) || max > reclaim_knob_max(k))
		return reclaim_error(a->ctx, ERANGE, "the bounds must be within %lld-%lld",
				     (long long)reclaim_knob_min(k),
				     (long long)reclaim_knob_max(k));
	if (min > max)
		return reclaim_error(a->ctx, ERANGE, "--min %lld is above --max %lld",
				     (long long)min, (long long)max);
	if (a->threads.now < min || a->threads.now > max)
		return reclaim_error(a->ctx, ERANGE,
				     "kswapd_threads is %lld, outside the bounds %lld-%lld",
				     (long long)a->threads.now, (long long)min, (long long)max);
	return 0;
}

RECLAIM_EXPORT int reclaim_adapt_set_min(struct reclaim_adapt *a, int64_t min)
{
	int r;

	assert_return(a, -EINVAL);
	reclaim_error_reset(a->ctx);
	r = check_bounds(a, min, a->max);
	if (r == 0)
		a->min = min;
	return r;
}

RECLAIM_EXPORT int reclaim_adapt_set_max(struct reclaim_adapt *a, int64_t max)
{
	int r;

	assert_return(a, -EINVAL);
	reclaim_error_reset(a->ctx);
	r = check_bounds(a, a->min, max);
	if (r == 0)
		a->max = max;
	return r;
}

RECLAIM_EXPORT int reclaim_adapt_set_bounds(struct reclaim_adapt *a, int64_t min, int64_t max)
{
	int r = 0;

	assert_return(a && min >= 0 && max >= 0, -EINVAL);
	if (max)
		r = reclaim_adapt_set_max(a, max);
	/* a min above the default most threads raises it; a max given does not move */
	else if (min > a->max)
		r = reclaim_adapt_set_max(a, min);
	if (r == 0 && min)
		r = reclaim_adapt_set_min(a, min);
	return r;
}

RECLAIM_EXPORT int64_t reclaim_adapt_min(const struct reclaim_adapt *a)
{
	assert_return(a, -EINVAL);
	return a->min;
}

RECLAIM_EXPORT int64_t reclaim_adapt_max(const struct reclaim_adapt *a)
{
	assert_return(a, -EINVAL);
	return a->max;
}

RECLAIM_EXPORT int64_t reclaim_adapt_threads(const struct reclaim_adapt *a)
{
	assert_return(a, -EINVAL);
	return a->threads.now;
}

RECLAIM_EXPORT const char *reclaim_adapt_reason(const struct reclaim_adapt *a)
{
	assert_return(a, NULL);
	return a->reason;
}

RECLAIM_EXPORT bool reclaim_adapt_handed_off(const struct reclaim_adapt *a)
{
	return a && a->handed_off;
}

static void late_reset(struct reclaim_adapt *a)
{
	a->late_held = a->late_direct_sum = a->late_hits_sum = a->late_cpu_sum = 0;
	a->late_p99 = -1;
}

static void windows_reset(struct reclaim_adapt *a)
{
	a->up_held = a->down_held = 0;
	a->up_cpu_sum = a->up_direct_sum = a->down_direct_sum = 0;
	a->up_p99 = a->down_p99 = -1;
	late_reset(a);
}

RECLAIM_EXPORT int reclaim_adapt_resume(struct reclaim_adapt *a, int64_t threads)
{
	const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS);

	assert_return(a, -EINVAL);
	reclaim_error_reset(a->ctx);
	if ((threads || a->max) && (threads < reclaim_knob_min(k) || threads > reclaim_knob_max(k)))
		return reclaim_error(a->ctx, ERANGE, "kswapd_threads %lld is outside %lld-%lld",
				     (long long)threads, (long long)reclaim_knob_min(k),
				     (long long)reclaim_knob_max(k));
	/* someone else's value may be outside the bounds: no step goes further out */
	a->threads.now = a->threads.before = threads;
	a->handed_off = false;
	windows_reset(a);
	a->since_change = 0;
	snprintf(a->reason, sizeof(a->reason), "resumed at %lld threads", (long long)threads);
	return 0;
}

RECLAIM_EXPORT int reclaim_adapt_rollback(struct reclaim_adapt *a)
{
	assert_return(a, -EINVAL);
	if (a->changed)
		a->changed->now = a->changed->before;
	return 0;
}

static int check_watermark(struct reclaim_adapt *a, int64_t value)
{
	return reclaim_knob_check(a->ctx, reclaim_knob_by_id(RECLAIM_KNOB_WATERMARK_SCALE_FACTOR),
				  value);
}

RECLAIM_EXPORT int reclaim_adapt_add_watermark(struct reclaim_adapt *a, int64_t value)
{
	int r;

	assert_return(a, -EINVAL);
	reclaim_error_reset(a->ctx);
	r = check_watermark(a, value);
	if (r < 0)
		return r;
	a->watermark_on = true;
	a->wmark.now = a->wmark.before = a->wmark_min = value;
	return 0;
}

RECLAIM_EXPORT int64_t reclaim_adapt_watermark(const struct reclaim_adapt *a)
{
	assert_return(a, -EINVAL);
	return a->watermark_on ? a->wmark.now : -ENODATA;
}

RECLAIM_EXPORT const struct reclaim_knob *reclaim_adapt_changed(const struct reclaim_adapt *a)
{
	assert_return(a, NULL);
	return a->changed ? reclaim_knob_by_id(a->changed->knob) : NULL;
}

RECLAIM_EXPORT int reclaim_adapt_resume_watermark(struct reclaim_adapt *a, int64_t value)
{
	int r;

	assert_return(a, -EINVAL);
	reclaim_error_reset(a->ctx);
	if (!a->watermark_on)
		return reclaim_error(a->ctx, ENODATA, "adapt does not move watermark_scale_factor");
	r = check_watermark(a, value);
	if (r < 0)
		return r;
	a->wmark.now = a->wmark.before = value;
	a->handed_off = false;
	windows_reset(a);
	a->since_change = 0;
	return 0;
}

/* ---- samples ---- */

RECLAIM_EXPORT int reclaim_adapt_sample_new(struct reclaim_ctx *ctx,
					    struct reclaim_adapt_sample **ret)
{
	struct reclaim_adapt_sample *s;

	assert_return(ctx && ret, -EINVAL);
	s = calloc(1, sizeof(*s));
	if (!s)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	s->refcount = 1;
	s->ctx = reclaim_ref(ctx);
	*ret = s;
	return 0;
}

RECLAIM_EXPORT struct reclaim_adapt_sample *reclaim_adapt_sample_ref(struct reclaim_adapt_sample *s)
{
	if (s)
		s->refcount++;
	return s;
}

RECLAIM_EXPORT struct reclaim_adapt_sample *
reclaim_adapt_sample_unref(struct reclaim_adapt_sample *s)
{
	if (s && --s->refcount == 0) {
		reclaim_unref(s->ctx);
		free(s);
	}
	return NULL;
}

RECLAIM_EXPORT int reclaim_adapt_sample_reset(struct reclaim_adapt_sample *s, double interval)
{
	struct reclaim_ctx *ctx;
	int refcount;

	assert_return(s, -EINVAL);
	assert_return(isfinite(interval), -EINVAL);
	ctx = s->ctx;
	refcount = s->refcount;
	memset(s, 0, sizeof(*s));
	s->refcount = refcount;
	s->ctx = ctx;
	s->interval = interval > 0 ? interval : 0;
	return 0;
}

static bool valid_figure(double v)
{
	return isfinite(v) && v >= 0;
}

RECLAIM_EXPORT int reclaim_adapt_sample_set(struct reclaim_adapt_sample *s,
					    enum reclaim_adapt_figure f, double v)
{
	assert_return(s, -EINVAL);
	assert_return((size_t)f < ARRAY_SIZE(s->figure), -EINVAL);
	assert_return(valid_figure(v), -EINVAL);
	s->figure[f] = v;
	s->has[f] = true;
	return 0;
}

static struct node_figures *node_of(struct reclaim_adapt_sample *s, int id)
{
	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].id == id)
			return &s->nodes[i];
	if (s->nnodes == MAX_NODES)
		return NULL;
	s->nodes[s->nnodes] = (struct node_figures){.id = id};
	return &s->nodes[s->nnodes++];
}

RECLAIM_EXPORT int reclaim_adapt_sample_add_thread(struct reclaim_adapt_sample *s, int node,
						   double cpu_percent)
{
	struct node_figures *n;

	assert_return(s && node >= 0, -EINVAL);
	assert_return(valid_figure(cpu_percent), -EINVAL);
	n = node_of(s, node);
	if (!n)
		return -E2BIG;
	n->threads++;
	n->cpu_sum += cpu_percent;
	return 0;
}

RECLAIM_EXPORT int reclaim_adapt_sample_set_node_cpus(struct reclaim_adapt_sample *s, int node,
						      unsigned int ncpus, double busy_percent)
{
	struct node_figures *n;

	assert_return(s && node >= 0 && ncpus > 0, -EINVAL);
	assert_return(valid_figure(busy_percent) && busy_percent <= 100, -EINVAL);
	n = node_of(s, node);
	if (!n)
		return -E2BIG;
	n->ncpus = ncpus;
	n->busy = busy_percent;
	n->has_busy = true;
	return 0;
}

RECLAIM_EXPORT int reclaim_adapt_sample_set_knob(struct reclaim_adapt_sample *s, int64_t value)
{
	assert_return(s, -EINVAL);
	s->knob = value;
	s->has_knob = true;
	return 0;
}

RECLAIM_EXPORT int reclaim_adapt_sample_set_watermark(struct reclaim_adapt_sample *s, int64_t value)
{
	assert_return(s, -EINVAL);
	s->watermark = value;
	s->has_watermark = true;
	return 0;
}

/* ---- the step ---- */

static double figure(const struct reclaim_adapt_sample *s, enum reclaim_adapt_figure f)
{
	return s->has[f] ? s->figure[f] : 0;
}

/* Direct reclaims and throttled waits: tasks that had to reclaim themselves. */
static double direct_rate(const struct reclaim_adapt_sample *s)
{
	return figure(s, RECLAIM_ADAPT_ALLOCSTALL) + figure(s, RECLAIM_ADAPT_THROTTLED);
}

static double per_thread(const struct node_figures *n)
{
	return n->threads ? n->cpu_sum / n->threads : 0;
}

static const struct node_figures *busiest(const struct reclaim_adapt_sample *s)
{
	const struct node_figures *best = NULL;

	for (size_t i = 0; i < s->nnodes; i++)
		if (s->nodes[i].threads && (!best || per_thread(&s->nodes[i]) > per_thread(best)))
			best = &s->nodes[i];
	return best;
}

/*
 * % of the CPU time its kswapd threads leave on the node that other work
 * takes; -1 if not known. Of the node's whole capacity it could never reach
 * busy-cpu on a small node: 4 CPUs all busy, one of them with kswapd, are
 * only 76% busy with other work, yet there is no idle CPU for a new thread.
 */
static double other_work(const struct node_figures *n)
{
	double capacity, left, other;

	if (!n->has_busy || !n->ncpus)
		return -1;
	capacity = 100.0 * n->ncpus;
	left = capacity - n->cpu_sum;
	if (left <= 0)
		return 0; /* kswapd has it all: no other work */
	other = (n->busy * n->ncpus - n->cpu_sum) / left * 100.0;
	return other > 0 ? other : 0;
}

/* "4100" -> "4,100": the figures in reasons are read by people. */
static void thousands(char *buf, size_t size, double v)
{
	char digits[32];
	size_t len, out = 0;

	snprintf(digits, sizeof(digits), "%.0f", v < 0 ? 0 : v);
	len = strlen(digits);
	for (size_t i = 0; i < len && out + 2 < size; i++) {
		if (i && (len - i) % 3 == 0)
			buf[out++] = ',';
		buf[out++] = digits[i];
	}
	buf[out] = '\0';
}

/* ", direct reclaim p99 up to 16,384 us" when traced, else "". */
static const char *p99_note(char *buf, size_t size, double us)
{
	char n[32];

	buf[0] = '\0';
	if (us < 0)
		return buf;
	thousands(n, sizeof(n), us);
	snprintf(buf, size, ", direct reclaim p99 up to %s us", n);
	return buf;
}

static void say(struct reclaim_adapt *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void say(struct reclaim_adapt *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->reason, sizeof(a->reason), fmt, ap);
	va_end(ap);
}

static const char *plural(int64_t n)
{
	return n == 1 ? "" : "s";
}

static enum reclaim_adapt_verdict change(struct reclaim_adapt *a, struct setting *k, int64_t to)
{
	k->before = k->now;
	k->now = to;
	a->changed = k;
	a->since_change = 0;
	windows_reset(a);
	return RECLAIM_ADAPT_CHANGE;
}

static bool cooling(const struct reclaim_adapt *a)
{
	return a->since_change < a->param[RECLAIM_ADAPT_COOLDOWN];
}

static enum reclaim_adapt_verdict step_up(struct reclaim_adapt *a, const struct node_figures *n)
{
	double window = a->up_held;
	char direct[32], p99[64];
	double other = other_work(n);

	thousands(direct, sizeof(direct), a->up_direct_sum / window);
	p99_note(p99, sizeof(p99), a->up_p99);
	if (!a->threads.now) {
		say(a,
		    "kswapd saturated: node %d's kswapd at %.0f%% CPU for %.0f s, %s direct "
		    "reclaims/s%s; the kernel has no vm.kswapd_threads to add a thread, and an "
		    "earlier wake-up would not help a busy kswapd",
		    n->id, a->up_cpu_sum / window, window, direct, p99);
		return RECLAIM_ADAPT_KEEP;
	}
	if (a->threads.now >= a->max) {
		say(a,
		    "kswapd saturated: node %d: kswapd threads at %.0f%% CPU each for %.0f s, %s "
		    "direct reclaims/s%s, but %lld thread%s is the most allowed",
		    n->id, a->up_cpu_sum / window, window, direct, p99, (long long)a->max,
		    plural(a->max));
		return RECLAIM_ADAPT_KEEP;
	}
	if (other >= a->param[RECLAIM_ADAPT_BUSY_CPU]) {
		say(a,
		    "kswapd saturated: node %d: kswapd threads at %.0f%% CPU each, but its CPUs are %.0f%% busy "
		    "with other work: another thread would only take CPU from it",
		    n->id, a->up_cpu_sum / window, other);
		return RECLAIM_ADAPT_KEEP;
	}
	if (cooling(a)) {
		say(a,
		    "kswapd saturated: node %d: kswapd threads at %.0f%% CPU each, %s direct "
		    "reclaims/s%s; waiting "
		    "for the cooldown (%.0f of %.0f s)",
		    n->id, a->up_cpu_sum / window, direct, p99, a->since_change,
		    a->param[RECLAIM_ADAPT_COOLDOWN]);
		return RECLAIM_ADAPT_KEEP;
	}
	say(a,
	    "kswapd saturated: node %d: kswapd threads at %.0f%% CPU each for %.0f s, %s direct "
	    "reclaims/s%s -> %lld threads",
	    n->id, a->up_cpu_sum / window, window, direct, p99, (long long)a->threads.now + 1);
	return change(a, &a->threads, a->threads.now + 1);
}

/* Over the window: "N kswapd wake-ups within 0.1 s/s and D direct reclaims/s for W s, ..." */
static void late_figures(const struct reclaim_adapt *a, char *buf, size_t size)
{
	char direct[32], hits[32], p99[64];
	double window = a->late_held;

	thousands(direct, sizeof(direct), a->late_direct_sum / window);
	thousands(hits, sizeof(hits), a->late_hits_sum / window);
	p99_note(p99, sizeof(p99), a->late_p99);
	snprintf(
	    buf, size,
	    "kswapd woke too late: %s early wake-ups/s (kswapd_low_wmark_hit_quickly) and %s "
	    "direct reclaims/s%s for %.0f s, kswapd threads at %.0f%% CPU each (not saturated)",
	    hits, direct, p99, window, a->late_cpu_sum / window);
}

static enum reclaim_adapt_verdict raise_watermark(struct reclaim_adapt *a)
{
	int64_t max = (int64_t)a->param[RECLAIM_ADAPT_WMARK_MAX];
	int64_t to = a->wmark.now + (int64_t)a->param[RECLAIM_ADAPT_WMARK_STEP];
	char figures[224];

	late_figures(a, figures, sizeof(figures));
	if (a->wmark.now >= max) {
		say(a, "%s, but watermark_scale_factor %lld is the most allowed (wmark-max)",
		    figures, (long long)a->wmark.now);
		late_reset(a);
		return RECLAIM_ADAPT_KEEP;
	}
	if (cooling(a)) {
		say(a, "%s; waiting for the cooldown (%.0f of %.0f s)", figures, a->since_change,
		    a->param[RECLAIM_ADAPT_COOLDOWN]);
		return RECLAIM_ADAPT_KEEP;
	}
	say(a, "%s -> watermark_scale_factor %lld", figures, (long long)(to < max ? to : max));
	return change(a, &a->wmark, to < max ? to : max);
}

static enum reclaim_adapt_verdict step_down(struct reclaim_adapt *a)
{
	char direct[32], p99[64];

	thousands(direct, sizeof(direct), a->down_direct_sum / a->down_held);
	if (a->watermark_on && a->wmark.now > a->wmark_min) {
		int64_t step = (int64_t)a->param[RECLAIM_ADAPT_WMARK_STEP];
		int64_t to =
		    a->wmark.now - step > a->wmark_min ? a->wmark.now - step : a->wmark_min;

		say(a,
		    "quiet: kswapd threads below %.0f%% CPU each and %s direct reclaims/s%s for "
		    "%.0f s -> watermark_scale_factor %lld",
		    a->param[RECLAIM_ADAPT_DOWN_CPU], direct,
		    p99_note(p99, sizeof(p99), a->down_p99), a->down_held, (long long)to);
		return change(a, &a->wmark, to);
	}
	say(a,
	    "quiet: kswapd threads below %.0f%% CPU each and %s direct reclaims/s%s for %.0f s "
	    "-> %lld thread%s",
	    a->param[RECLAIM_ADAPT_DOWN_CPU], direct, p99_note(p99, sizeof(p99), a->down_p99),
	    a->down_held, (long long)a->threads.now - 1, plural(a->threads.now - 1));
	return change(a, &a->threads, a->threads.now - 1);
}

static void watching(struct reclaim_adapt *a, const struct reclaim_adapt_sample *s,
		     const struct node_figures *n)
{
	char threads[32] = "", direct[32], p99[64], wmark[96] = "", hits[32];

	/* on a kernel without the knob there is no number of threads to say */
	if (a->threads.now)
		snprintf(threads, sizeof(threads), "%lld thread%s: ", (long long)a->threads.now,
			 plural(a->threads.now));
	thousands(direct, sizeof(direct), direct_rate(s));
	p99_note(p99, sizeof(p99),
		 s->has[RECLAIM_ADAPT_DIRECT_P99] ? s->figure[RECLAIM_ADAPT_DIRECT_P99] : -1);
	if (a->watermark_on) {
		thousands(hits, sizeof(hits), figure(s, RECLAIM_ADAPT_LOW_WMARK_HITS));
		snprintf(wmark, sizeof(wmark),
			 "; watermark_scale_factor %lld, %s early kswapd wake-ups/s",
			 (long long)a->wmark.now, hits);
	}
	if (n)
		say(a, "%snode %d's kswapd threads at %.0f%% CPU each, %s direct reclaims/s%s%s",
		    threads, n->id, per_thread(n), direct, p99, wmark);
	else
		say(a, "%sno kswapd thread seen, %s direct reclaims/s%s%s", threads, direct, p99,
		    wmark);
}

/* Someone else wrote k, which is now seen: the controller steps aside once and for all. */
static bool hand_off(struct reclaim_adapt *a, struct setting *k, int64_t seen, const char *what)
{
	a->handed_off = true;
	a->changed = k;
	say(a,
	    "%s is %lld, not the %lld adapt set: someone else changed it; adapt leaves %s alone "
	    "until SIGHUP or a restart",
	    reclaim_knob_name(reclaim_knob_by_id(k->knob)), (long long)seen, (long long)k->now,
	    what);
	k->now = seen;
	return true;
}

static bool external_change(struct reclaim_adapt *a, const struct reclaim_adapt_sample *s)
{
	if (a->watermark_on && s->has_watermark && s->watermark != a->wmark.now)
		return hand_off(a, &a->wmark, s->watermark, "both knobs");
	if (a->threads.now && s->has_knob && s->knob != a->threads.now)
		return hand_off(a, &a->threads, s->knob, "it");
	return false;
}

/*
 * The window of "woke too late": it runs while reclaim goes on (a direct
 * reclaim or an early wake-up in each sample) without kswapd saturated, and
 * is judged on its averages once it is up-window long; one that falls short
 * starts again.
 */
static bool late_window(struct reclaim_adapt *a, const struct reclaim_adapt_sample *s,
			const struct node_figures *hot, double direct, double p99, bool saturated)
{
	double dt = s->interval, hits = figure(s, RECLAIM_ADAPT_LOW_WMARK_HITS);
	double window = a->param[RECLAIM_ADAPT_UP_WINDOW];

	if (!a->watermark_on || !s->has[RECLAIM_ADAPT_LOW_WMARK_HITS] || saturated ||
	    (direct <= 0 && hits <= 0)) {
		late_reset(a);
		return false;
	}
	a->late_held += dt;
	a->late_direct_sum += direct * dt;
	a->late_hits_sum += hits * dt;
	a->late_cpu_sum += (hot ? per_thread(hot) : 0) * dt;
	a->late_p99 = p99 > a->late_p99 ? p99 : a->late_p99;
	if (a->late_held < window)
		return false;
	if (a->late_direct_sum / a->late_held >= a->param[RECLAIM_ADAPT_UP_DIRECT] &&
	    a->late_hits_sum / a->late_held >= a->param[RECLAIM_ADAPT_WMARK_HITS])
		return true;
	late_reset(a);
	return false;
}

static bool can_step_down(const struct reclaim_adapt *a)
{
	return a->threads.now > a->min || (a->watermark_on && a->wmark.now > a->wmark_min);
}

RECLAIM_EXPORT int reclaim_adapt_step(struct reclaim_adapt *a, const struct reclaim_adapt_sample *s)
{
	const struct node_figures *hot;
	double cpu_max = 0, direct, dt, p99;
	bool saturated, up, late, quiet;

	assert_return(a && s, -EINVAL);
	if (a->handed_off)
		return RECLAIM_ADAPT_KEEP;
	if (external_change(a, s))
		return RECLAIM_ADAPT_HANDOFF;
	dt = s->interval;
	if (dt <= 0) {
		snprintf(a->reason, sizeof(a->reason),
			 "%lld thread%s: first sample, nothing to compare yet",
			 (long long)a->threads.now, plural(a->threads.now));
		return RECLAIM_ADAPT_KEEP;
	}
	a->since_change += dt;
	hot = busiest(s);
	for (size_t i = 0; i < s->nnodes; i++)
		if (per_thread(&s->nodes[i]) > cpu_max)
			cpu_max = per_thread(&s->nodes[i]);
	direct = direct_rate(s);

	saturated = hot && per_thread(hot) >= a->param[RECLAIM_ADAPT_UP_CPU];
	up = saturated && direct >= a->param[RECLAIM_ADAPT_UP_DIRECT];
	p99 = s->has[RECLAIM_ADAPT_DIRECT_P99] ? s->figure[RECLAIM_ADAPT_DIRECT_P99] : -1;
	late = late_window(a, s, hot, direct, p99, saturated);
	if (up) {
		a->up_held += dt;
		a->up_cpu_sum += per_thread(hot) * dt;
		a->up_direct_sum += direct * dt;
		a->up_p99 = p99 > a->up_p99 ? p99 : a->up_p99;
	} else {
		a->up_held = a->up_cpu_sum = a->up_direct_sum = 0;
		a->up_p99 = -1;
	}
	quiet = cpu_max < a->param[RECLAIM_ADAPT_DOWN_CPU] &&
		direct < a->param[RECLAIM_ADAPT_DOWN_DIRECT] &&
		(!s->has[RECLAIM_ADAPT_PSI_SOME] ||
		 s->figure[RECLAIM_ADAPT_PSI_SOME] < a->param[RECLAIM_ADAPT_DOWN_PSI]);
	if (quiet) {
		a->down_held += dt;
		a->down_direct_sum += direct * dt;
		a->down_p99 = p99 > a->down_p99 ? p99 : a->down_p99;
	} else {
		a->down_held = a->down_direct_sum = 0;
		a->down_p99 = -1;
	}

	if (up && a->up_held >= a->param[RECLAIM_ADAPT_UP_WINDOW])
		return step_up(a, hot);
	if (late)
		return raise_watermark(a);
	if (quiet && can_step_down(a) && a->down_held >= a->param[RECLAIM_ADAPT_DOWN_WINDOW] &&
	    !cooling(a))
		return step_down(a);
	watching(a, s, hot);
	return RECLAIM_ADAPT_KEEP;
}

/* ---- figures from two samples of a sampler ---- */

/* The controller's figure of each of the catalogue's it takes, + 1; 0: one it does not take. */
static const int adapt_figure[_RECLAIM_FIGURE_MAX] = {
    [RECLAIM_FIGURE_ALLOCSTALL] = RECLAIM_ADAPT_ALLOCSTALL + 1,
    [RECLAIM_FIGURE_THROTTLED] = RECLAIM_ADAPT_THROTTLED + 1,
    [RECLAIM_FIGURE_PGSCAN_KSWAPD] = RECLAIM_ADAPT_PGSCAN_KSWAPD + 1,
    [RECLAIM_FIGURE_PGSCAN_DIRECT] = RECLAIM_ADAPT_PGSCAN_DIRECT + 1,
    [RECLAIM_FIGURE_PGSTEAL_KSWAPD] = RECLAIM_ADAPT_PGSTEAL_KSWAPD + 1,
    [RECLAIM_FIGURE_PGSTEAL_DIRECT] = RECLAIM_ADAPT_PGSTEAL_DIRECT + 1,
    [RECLAIM_FIGURE_PSI_SOME] = RECLAIM_ADAPT_PSI_SOME + 1,
    [RECLAIM_FIGURE_PSI_FULL] = RECLAIM_ADAPT_PSI_FULL + 1,
    [RECLAIM_FIGURE_DIRECT_P99] = RECLAIM_ADAPT_DIRECT_P99 + 1,
    [RECLAIM_FIGURE_LOW_WMARK_HIT] = RECLAIM_ADAPT_LOW_WMARK_HITS + 1,
};

RECLAIM_EXPORT bool reclaim_adapt_uses_figure(enum reclaim_figure f)
{
	assert_return((unsigned int)f < _RECLAIM_FIGURE_MAX, false);
	/* the threads' CPU use comes per thread: reclaim_adapt_sample_add_thread() */
	return adapt_figure[f] || f == RECLAIM_FIGURE_KSWAPD_CPU;
}

RECLAIM_EXPORT int reclaim_adapt_sample_set_figure(struct reclaim_adapt_sample *s,
						   enum reclaim_figure f, double value)
{
	assert_return(s && (unsigned int)f < _RECLAIM_FIGURE_MAX, -EINVAL);
	if (!adapt_figure[f])
		return -EOPNOTSUPP;
	return reclaim_adapt_sample_set(s, (enum reclaim_adapt_figure)(adapt_figure[f] - 1), value);
}

static int fill_threads(struct reclaim_adapt_sample *s, const struct reclaim_sample *prev,
			const struct reclaim_sample *cur)
{
	for (size_t i = 0; i < reclaim_sample_kswapd_count(cur); i++) {
		int node = reclaim_sample_kswapd_node(cur, i);
		double cpu = reclaim_sample_kswapd_cpu_percent(prev, cur, i);
		unsigned int ncpus;
		double busy;
		int r;

		if (node < 0)
			continue;
		r = reclaim_adapt_sample_add_thread(s, node, valid_figure(cpu) ? cpu : 0);
		if (r < 0)
			return r;
		if (reclaim_sample_node_cpu_busy(prev, cur, node, &ncpus, &busy) == 0) {
			r = reclaim_adapt_sample_set_node_cpus(s, node, ncpus, busy);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

RECLAIM_EXPORT int reclaim_adapt_sample_fill(struct reclaim_adapt_sample *s,
					     const struct reclaim_sample *prev,
					     const struct reclaim_sample *cur)
{
	int r;

	assert_return(s && cur, -EINVAL);
	r = reclaim_adapt_sample_reset(s, prev ? reclaim_sample_interval(prev, cur) : 0);
	if (r < 0 || !prev)
		return r;
	for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++) {
		double v;

		if (adapt_figure[f] && reclaim_figure_value(prev, cur, -1, f, &v) == 0 &&
		    valid_figure(v))
			reclaim_adapt_sample_set_figure(s, f, v);
	}
	return fill_threads(s, prev, cur);
}

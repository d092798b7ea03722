// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The change engine: a request (set, a preset, the autotune plan, the boot
 * preset, a restore, the adaptive controller) is evaluated into one entry
 * per knob (current value, target, action, reason, source) without writing;
 * applying evaluates again under the writers' lock and hands the entries to
 * be set to one transaction (change.c), which also records the history.
 * Every preview and every apply of reclaimctl is one of these evaluations,
 * so no preview can disagree with its apply.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "history-internal.h"
#include "sources-internal.h"
#include "swap-internal.h"
#include "sysctl-internal.h"

struct request_value {
	const struct reclaim_knob *knob;
	int64_t value;
	bool is_auto; /* SET: worked out at evaluation */
	char *reason;
};

struct reclaim_request {
	int refcount;
	struct reclaim_ctx *ctx;
	enum reclaim_request_kind kind;
	unsigned int flags;
	struct request_value *values;
	size_t count;
	struct reclaim_preset *preset;
	struct reclaim_plan *plan;
	char *source; /* SET and ADAPT: NULL for the kind's own */
	/* SET and ADAPT: the change to record the writes in; RESTORE: the one to undo */
	unsigned long change;
	/* The knob the last evaluation failed on, or NULL: for the deprecated
	 * reclaim_change_apply() */
	const struct reclaim_knob *failed_knob;
};

struct eval_entry {
	const struct reclaim_knob *knob;
	bool has_old;
	int64_t old_value, new_value;
	enum reclaim_action action;
	char *reason, *source;
	bool computed; /* the reason explains a value worked out for this machine */
	bool foreign;  /* a restore leaves it: another writer changed it since */
	bool adopted;  /* set to the value another writer left: recorded as ours */
};

/* A restore's swap device: back to its priority (live) and its /etc/fstab pri=. */
struct eval_swap {
	char *device, *reason;
	bool active;		  /* in /proc/swaps: the live priority can be put back */
	int old_prio, new_prio;	  /* live: now, and the target */
	int fstab_now, fstab_new; /* pri=: HISTORY_FSTAB_UNTOUCHED for new: left alone */
};

struct reclaim_eval {
	int refcount;
	struct reclaim_ctx *ctx;
	enum reclaim_request_kind kind;
	struct eval_entry *entries;
	size_t count;
	bool applied, persist_changes;
	ssize_t verified_nodes;
	char *preset_name, *preset_path;
	struct reclaim_plan *plan;
	struct reclaim_persist *unpersisted;
	/*
	 * with --persist: the persisted files' texts now and after the apply (a
	 * set's from its evaluation, a restore's from its preview), shown by a
	 * preview alone (persist_previewed)
	 */
	bool persist, persist_previewed;
	char *persist_before[PERSIST_NFILES], *persist_after[PERSIST_NFILES];
	unsigned long undoes;
	unsigned long change; /* the change the apply recorded */
	struct eval_swap *swaps;
	size_t nswaps;
	/* read during the evaluation */
	struct reclaim_sysctl_conf *conf;
	struct reclaim_topology *topo;
	struct reclaim_history *history; /* when a value is unchanged: see adopted() */
	bool history_read;
};

static const char *const command_names[] = {
    [RECLAIM_REQUEST_SET] = "set",	     [RECLAIM_REQUEST_PRESET] = "preset",
    [RECLAIM_REQUEST_AUTOTUNE] = "autotune", [RECLAIM_REQUEST_BOOT] = "boot",
    [RECLAIM_REQUEST_RESTORE] = "restore",   [RECLAIM_REQUEST_RESTORE_BOOT] = "restore-boot",
    [RECLAIM_REQUEST_ADAPT] = "adapt",
};

/* ---- requests ---- */

RECLAIM_EXPORT int reclaim_request_new(struct reclaim_ctx *ctx, enum reclaim_request_kind kind,
				       unsigned int flags, struct reclaim_request **ret)
{
	struct reclaim_request *req;

	assert_return(ctx && ret, -EINVAL);
	assert_return(kind <= RECLAIM_REQUEST_ADAPT, -EINVAL);
	assert_return((flags & ~(RECLAIM_REQUEST_FORCE | RECLAIM_REQUEST_PERSIST |
				 RECLAIM_REQUEST_STRICT)) == 0,
		      -EINVAL);
	req = calloc(1, sizeof(*req));
	if (!req)
		return reclaim_error(ctx, ENOMEM, "out of memory");
	req->refcount = 1;
	req->ctx = reclaim_ref(ctx);
	req->kind = kind;
	req->flags = flags;
	*ret = req;
	return 0;
}

RECLAIM_EXPORT struct reclaim_request *reclaim_request_ref(struct reclaim_request *req)
{
	if (req)
		req->refcount++;
	return req;
}

RECLAIM_EXPORT struct reclaim_request *reclaim_request_unref(struct reclaim_request *req)
{
	if (req && --req->refcount == 0) {
		for (size_t i = 0; i < req->count; i++)
			free(req->values[i].reason);
		free(req->values);
		reclaim_preset_unref(req->preset);
		reclaim_plan_unref(req->plan);
		free(req->source);
		reclaim_unref(req->ctx);
		free(req);
	}
	return NULL;
}

static int add_value(struct reclaim_request *req, const struct reclaim_knob *k, int64_t value,
		     bool is_auto, const char *reason)
{
	struct request_value *v;
	char *copy = NULL;

	if (reason && !(copy = strdup(reason)))
		return reclaim_error(req->ctx, ENOMEM, "out of memory");
	for (size_t i = 0; i < req->count; i++)
		if (req->values[i].knob == k) {
			free(req->values[i].reason);
			req->values[i] = (struct request_value){k, value, is_auto, copy};
			return 0;
		}
	v = realloc(req->values, (req->count + 1) * sizeof(*v));
	if (!v) {
		free(copy);
		return reclaim_error(req->ctx, ENOMEM, "out of memory");
	}
	req->values = v;
	v[req->count++] = (struct request_value){k, value, is_auto, copy};
	return 0;
}

RECLAIM_EXPORT int reclaim_request_add(struct reclaim_request *req, const struct reclaim_knob *k,
				       int64_t value, const char *reason)
{
	int r;

	assert_return(req && k, -EINVAL);
	assert_return(req->kind == RECLAIM_REQUEST_SET || req->kind == RECLAIM_REQUEST_ADAPT,
		      -EINVAL);
	r = reclaim_knob_check(req->ctx, k, value);
	if (r < 0)
		return r;
	return add_value(req, k, value, false, reason);
}

RECLAIM_EXPORT int reclaim_request_add_auto(struct reclaim_request *req,
					    const struct reclaim_knob *k)
{
	assert_return(req && k, -EINVAL);
	assert_return(req->kind == RECLAIM_REQUEST_SET, -EINVAL);
	if (!reclaim_knob_has_recommendation(k))
		return reclaim_error(req->ctx, EOPNOTSUPP, "%s has no automatic value",
				     reclaim_knob_name(k));
	return add_value(req, k, 0, true, NULL);
}

RECLAIM_EXPORT int reclaim_request_set_source(struct reclaim_request *req, const char *source)
{
	size_t len;
	char *copy;

	assert_return(req && source, -EINVAL);
	assert_return(req->kind == RECLAIM_REQUEST_SET || req->kind == RECLAIM_REQUEST_ADAPT,
		      -EINVAL);
	len = strlen(source);
	if (len == 0 || len > 64 ||
	    strspn(source,
		   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:/+") != len)
		return reclaim_error(req->ctx, EINVAL,
				     "'%s' is no source: 1 to 64 letters, digits and _-.:/+",
				     source);
	copy = strdup(source);
	if (!copy)
		return reclaim_error(req->ctx, ENOMEM, "out of memory");
	free(req->source);
	req->source = copy;
	return 0;
}

RECLAIM_EXPORT int reclaim_request_set_change(struct reclaim_request *req, unsigned long change)
{
	assert_return(req && change > 0, -EINVAL);
	assert_return(req->kind == RECLAIM_REQUEST_SET || req->kind == RECLAIM_REQUEST_ADAPT ||
			  req->kind == RECLAIM_REQUEST_RESTORE,
		      -EINVAL);
	req->change = change;
	return 0;
}

RECLAIM_EXPORT int reclaim_request_set_preset(struct reclaim_request *req,
					      struct reclaim_preset *preset)
{
	assert_return(req && preset && req->kind == RECLAIM_REQUEST_PRESET, -EINVAL);
	reclaim_preset_unref(req->preset);
	req->preset = reclaim_preset_ref(preset);
	return 0;
}

RECLAIM_EXPORT int reclaim_request_set_plan(struct reclaim_request *req, struct reclaim_plan *plan)
{
	assert_return(req && plan && req->kind == RECLAIM_REQUEST_AUTOTUNE, -EINVAL);
	reclaim_plan_unref(req->plan);
	req->plan = reclaim_plan_ref(plan);
	return 0;
}

/* ---- evaluations ---- */

static void eval_free(struct reclaim_eval *e)
{
	for (size_t i = 0; i < e->count; i++) {
		free(e->entries[i].reason);
		free(e->entries[i].source);
	}
	free(e->entries);
	for (size_t i = 0; i < e->nswaps; i++) {
		free(e->swaps[i].device);
		free(e->swaps[i].reason);
	}
	free(e->swaps);
	free(e->preset_name);
	free(e->preset_path);
	for (size_t i = 0; i < PERSIST_NFILES; i++) {
		free(e->persist_before[i]);
		free(e->persist_after[i]);
	}
	reclaim_plan_unref(e->plan);
	reclaim_persist_unref(e->unpersisted);
	reclaim_sysctl_conf_unref(e->conf);
	reclaim_topology_unref(e->topo);
	reclaim_history_unref(e->history);
	reclaim_unref(e->ctx);
	free(e);
}

RECLAIM_EXPORT struct reclaim_eval *reclaim_eval_ref(struct reclaim_eval *e)
{
	if (e)
		e->refcount++;
	return e;
}

RECLAIM_EXPORT struct reclaim_eval *reclaim_eval_unref(struct reclaim_eval *e)
{
	if (e && --e->refcount == 0)
		eval_free(e);
	return NULL;
}

__attribute__((format(printf, 2, 3))) static char *format(struct reclaim_ctx *ctx, const char *fmt,
							  ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0) {
		reclaim_error(ctx, ENOMEM, "out of memory");
		return NULL;
	}
	return s;
}

/* A new entry with its target; the action is decided by decide(). */
static struct eval_entry *add_entry(struct reclaim_eval *e, const struct reclaim_knob *k,
				    int64_t value, char *reason, char *source)
{
	struct eval_entry *n;

	if (!reason || !source)
		goto oom;
	n = realloc(e->entries, (e->count + 1) * sizeof(*n));
	if (!n)
		goto oom;
	e->entries = n;
	n = &e->entries[e->count++];
	*n = (struct eval_entry){.knob = k, .new_value = value, .reason = reason, .source = source};
	return n;
oom:
	free(reason);
	free(source);
	reclaim_error(e->ctx, ENOMEM, "out of memory");
	return NULL;
}

static int skip(struct eval_entry *n, char *why)
{
	if (!why)
		return -ENOMEM;
	free(n->reason);
	n->reason = why;
	n->action = RECLAIM_ACTION_SKIPPED;
	return 0;
}

/* The kernel lacks @k: why, in the words the rest of reclaimctl uses. */
static char *lacks(struct reclaim_eval *e, const struct reclaim_knob *k)
{
	if (reclaim_has_sysctls(e->ctx) != 1)
		return format(e->ctx,
			      "no " RECLAIM_SYSCTL_DIR " under this root: the kernel's knobs "
			      "are unknown");
	if (reclaim_knob_needs_patch(k))
		return format(
		    e->ctx,
		    "the running kernel lacks %s: it needs reclaimctl's kernel patches (KNOBS in reclaimctl(8))",
		    reclaim_knob_sysctl(k));
	return format(e->ctx, "the running kernel lacks %s", reclaim_knob_label(k));
}

/* Another source sets @k: "FILE:LINE sets KEY = VALUE"; NULL if none does. */
static char *set_elsewhere(struct reclaim_eval *e, const struct reclaim_knob *k)
{
	struct knob_source src;
	char *why;

	if (reclaim_knob_foreign_source(e->ctx, e->conf, k, &src) <= 0)
		return NULL;
	if (src.profile)
		why = format(e->ctx,
			     "tuned's profile %s sets %s = %s at %s; use --force to override it",
			     src.profile, src.key, src.value, src.where);
	else
		why = format(e->ctx, "%s sets %s = %s; use --force to override it", src.where,
			     src.key, src.value);
	reclaim_knob_source_clear(&src);
	return why;
}

/*
 * At boot, a value persisted with --persist outranks the preset: the line of
 * reclaimctl's own file that decides the knob at boot, as systemd-sysctl
 * (systemd-tmpfiles, for a knob of sysfs) has applied it before the boot
 * unit runs.
 */
static char *persisted_at_boot(struct reclaim_eval *e, const struct reclaim_knob *k)
{
	ssize_t at = e->conf ? reclaim_sysctl_conf_boot_entry(e->conf, k) : -1;

	if (at < 0 || !reclaim_sysctl_conf_is_own(e->conf, (size_t)at) ||
	    !reclaim_sysctl_conf_value(e->conf, (size_t)at))
		return NULL;
	return format(e->ctx, "%s = %s is persisted in %s:%u, which %s applies at boot: kept",
		      reclaim_knob_label(k), reclaim_sysctl_conf_value(e->conf, (size_t)at),
		      reclaim_sysctl_conf_file(e->conf, (size_t)at),
		      reclaim_sysctl_conf_line(e->conf, (size_t)at),
		      reclaim_knob_sysctl(k) ? "systemd-sysctl" : "systemd-tmpfiles");
}

static int topology(struct reclaim_eval *e)
{
	return e->topo ? 0 : reclaim_topology_new(e->ctx, &e->topo);
}

/*
 * kswapd_threads at its value already, but a node with memory runs fewer
 * (a thread that failed to start on hotplug): writing it again starts them.
 * The node that is short, or NULL; a failure to look is no answer.
 */
static char *threads_short(struct reclaim_eval *e, int64_t want)
{
	struct reclaim_kswapd_list *list = NULL;
	struct kswapd_check check;
	char *why = NULL;

	if (topology(e) < 0 || reclaim_kswapd_list_new(e->ctx, &list) < 0)
		return NULL;
	reclaim_kswapd_check(e->topo, list, want, &check);
	/* No kswapd found at all: a root without the processes (a dump), not a short node. */
	if (check.bad && reclaim_kswapd_list_count(list) > 0)
		why = format(e->ctx,
			     "node %d runs %zu kswapd thread%s, not %" PRId64
			     ": writing the value again starts or stops them",
			     check.first_node, check.first_got, check.first_got == 1 ? "" : "s",
			     want);
	reclaim_kswapd_list_unref(list);
	return why;
}

/*
 * A set, preset or autotune to the value another writer left since
 * reclaimctl last changed @k: recorded all the same, so that verify, status
 * and check take the value as intended from now on instead of as drift.
 * The reason, or NULL when @k is not drifted (or there is no history).
 */
static char *adopted(struct reclaim_eval *e, const struct reclaim_knob *k, int64_t value)
{
	int64_t ours;

	if (e->kind != RECLAIM_REQUEST_SET && e->kind != RECLAIM_REQUEST_PRESET &&
	    e->kind != RECLAIM_REQUEST_AUTOTUNE)
		return NULL;
	if (!e->history_read) {
		e->history_read = true;
		/* A damaged history fails the apply, which says so */
		if (reclaim_history_load(e->ctx, &e->history) < 0)
			e->history = NULL;
	}
	if (!e->history || reclaim_history_applied(e->history, k, &ours) < 0 || ours == value)
		return NULL;
	return format(e->ctx,
		      "another writer set it since reclaimctl set %s: recorded, verify takes %s as "
		      "intended",
		      KNOB_TEXT(k, ours), KNOB_TEXT(k, value));
}

static bool restoring(enum reclaim_request_kind kind)
{
	return kind == RECLAIM_REQUEST_RESTORE || kind == RECLAIM_REQUEST_RESTORE_BOOT;
}

/*
 * The action of entry @n: the precedence, in one place. A knob the kernel
 * lacks is skipped; so is one another sysctl file sets (unless --force), and
 * at boot one persisted with --persist. STRICT turns a skip into a failure.
 */
static int decide(struct reclaim_eval *e, const struct reclaim_request *req, struct eval_entry *n)
{
	bool strict = req->flags & RECLAIM_REQUEST_STRICT;
	bool restore = restoring(req->kind);
	char *why;
	int r;

	/* Read already (a restore chose its target by the value): supported, then. */
	r = n->has_old ? 1 : reclaim_knob_supported(e->ctx, n->knob);
	if (r < 0)
		return r;
	if (r == 0 && !strict && !restore) {
		/* What the rule would give still matters: on a dump, it is the answer. */
		why = lacks(e, n->knob);
		if (why && n->computed) {
			char *both = format(e->ctx, "%s; on a %s: %s", why,
					    reclaim_knob_needs_patch(n->knob) ? "patched kernel"
									      : "kernel with it",
					    n->reason);

			free(why);
			why = both;
		}
		return skip(n, why);
	}
	/* With STRICT (and for a restore), a missing knob fails here with the library's message. */
	if (!n->has_old) {
		r = reclaim_knob_read(e->ctx, n->knob, &n->old_value);
		if (r < 0)
			return r;
		n->has_old = true;
	}
	n->action = n->old_value == n->new_value ? RECLAIM_ACTION_UNCHANGED : RECLAIM_ACTION_SET;
	if (n->action == RECLAIM_ACTION_UNCHANGED && reclaim_knob_is_threads(n->knob) &&
	    (why = threads_short(e, n->new_value)) != NULL) {
		free(n->reason);
		n->reason = why;
		n->action = RECLAIM_ACTION_SET;
	}
	if (n->action == RECLAIM_ACTION_UNCHANGED &&
	    (why = adopted(e, n->knob, n->new_value)) != NULL) {
		free(n->reason);
		n->reason = why;
		n->action = RECLAIM_ACTION_SET;
		n->adopted = true;
	}
	if (restore && n->foreign)
		n->action = RECLAIM_ACTION_SKIPPED;
	if (restore)
		return 0; /* puts back what was there: overrides no file */
	why = (req->flags & RECLAIM_REQUEST_FORCE) ? NULL : set_elsewhere(e, n->knob);
	if (!why && req->kind == RECLAIM_REQUEST_BOOT)
		why = persisted_at_boot(e, n->knob);
	if (!why)
		return 0;
	if (strict) {
		r = reclaim_error(e->ctx, EEXIST, "%s left alone: %s", reclaim_knob_label(n->knob),
				  why);
		free(why);
		return r;
	}
	return skip(n, why);
}

/* "auto" for @k on this machine: the value and its reason. */
static int auto_value(struct reclaim_eval *e, const struct reclaim_knob *k, int64_t *value,
		      char **reason)
{
	int r = topology(e);

	if (r == 0)
		r = reclaim_knob_recommend(e->ctx, k, e->topo, value, reason);
	return r;
}

static int eval_set(struct reclaim_eval *e, const struct reclaim_request *req)
{
	const char *source = req->source			  ? req->source
			     : req->kind == RECLAIM_REQUEST_ADAPT ? "adapt"
								  : "value";

	for (size_t i = 0; i < req->count; i++) {
		const struct request_value *v = &req->values[i];
		int64_t value = v->value;
		char *reason = NULL;
		int r;

		if (v->is_auto) {
			r = auto_value(e, v->knob, &value, &reason);
			if (r < 0)
				return r;
		} else {
			reason = v->reason ? strdup(v->reason) : format(e->ctx, "the value given");
		}
		if (!add_entry(e, v->knob, value, reason, strdup(v->is_auto ? "auto" : source)))
			return -ENOMEM;
		e->entries[e->count - 1].computed = v->is_auto;
	}
	return 0;
}

static int eval_preset(struct reclaim_eval *e, const struct reclaim_preset *p)
{
	_cleanup_free_ char *source = format(e->ctx, "preset:%s", reclaim_preset_name(p));

	if (!source)
		return -ENOMEM;
	e->preset_name = strdup(reclaim_preset_name(p));
	e->preset_path = strdup(reclaim_preset_path(p));
	if (!e->preset_name || !e->preset_path)
		return reclaim_error(e->ctx, ENOMEM, "out of memory");
	for (size_t i = 0; i < reclaim_preset_count(p); i++) {
		const struct reclaim_knob *k = reclaim_preset_knob(p, i);
		int64_t value = reclaim_preset_value(p, i);
		char *reason = NULL;
		int r;

		if (reclaim_preset_is_auto(p, i)) {
			r = auto_value(e, k, &value, &reason);
			if (r < 0) {
				char detail[512];

				snprintf(detail, sizeof(detail), "%s", reclaim_strerror(e->ctx));
				return reclaim_error(
				    e->ctx, -r, "%s:%u: auto for %s: %s", reclaim_preset_path(p),
				    reclaim_preset_line(p, i), reclaim_knob_name(k), detail);
			}
		} else {
			reason = format(e->ctx, "from %s:%u", reclaim_preset_path(p),
					reclaim_preset_line(p, i));
		}
		if (!add_entry(e, k, value, reason, strdup(source)))
			return -ENOMEM;
		e->entries[e->count - 1].computed = reclaim_preset_is_auto(p, i);
	}
	return 0;
}

static int eval_autotune(struct reclaim_eval *e, const struct reclaim_request *req)
{
	struct reclaim_plan *plan = reclaim_plan_ref(req->plan);
	int r = 0;

	if (!plan) {
		struct reclaim_swaps *swaps = NULL;

		r = topology(e);
		if (r == 0) {
			r = reclaim_swaps_new(e->ctx, &swaps);
			if (r == -ENOENT)
				r = 0; /* no /proc/swaps: a plan without swap proposals */
		}
		if (r == 0)
			r = reclaim_plan_new(e->ctx, e->topo, swaps, &plan);
		reclaim_swaps_unref(swaps);
		if (r < 0)
			return r;
	}
	e->plan = plan;
	for (size_t i = 0; i < reclaim_plan_count(plan); i++)
		if (!add_entry(e, reclaim_plan_knob(plan, i), reclaim_plan_value(plan, i),
			       strdup(reclaim_plan_reason(plan, i)), strdup("autotune")))
			return -ENOMEM;
		else
			e->entries[e->count - 1].computed = true;
	return 0;
}

static int eval_boot(struct reclaim_eval *e)
{
	struct reclaim_preset *p = NULL;
	char *name = NULL;
	int r;

	r = reclaim_boot_preset(e->ctx, &name);
	if (r < 0)
		return r;
	if (strcmp(name, RECLAIM_BOOT_PRESET_OFF) == 0) {
		e->preset_name = name;
		return 0;
	}
	r = reclaim_preset_load(e->ctx, name, &p);
	free(name);
	if (r < 0)
		return r;
	r = eval_preset(e, p);
	reclaim_preset_unref(p);
	return r;
}

/*
 * Whether a knob now at @now is still the change's: at the value before it
 * (@first, the old value of its first record in the change), or at the new
 * value of its last record @end (the rule of leases); and, @end being
 * interrupted, at the value before that write, which may not have happened.
 */
static bool still_ours(const struct history_record *first, const struct history_record *end,
		       int64_t now)
{
	return reclaim_lease_decide(first->old_value, end->new_value, now) !=
		   RECLAIM_LEASE_CHANGED ||
	       (end->interrupted && now == end->old_value);
}

/* The live priority of @device in *prio; false if it is not active (or /proc/swaps unreadable). */
static bool swap_now(struct reclaim_eval *e, const char *device, int *prio)
{
	struct reclaim_swaps *swaps = NULL;
	struct reclaim_swap *d;

	if (reclaim_swaps_new(e->ctx, &swaps) < 0)
		return false;
	d = reclaim_swaps_find(swaps, device);
	if (d)
		*prio = reclaim_swap_priority(d);
	reclaim_swaps_unref(swaps);
	return d != NULL;
}

/* The pri= of @device's /etc/fstab entry now: HISTORY_FSTAB_NO_PRI for none; -errno. */
static int fstab_now(struct reclaim_eval *e, const char *device, int *prio)
{
	struct reclaim_fstab *f = NULL;
	ssize_t at;
	int r = reclaim_fstab_new(e->ctx, &f);

	if (r < 0)
		return r;
	at = reclaim_fstab_find(f, device);
	r = at < 0 ? reclaim_error(e->ctx, ENOENT,
				   "%s has no entry in /etc/fstab any more: its pri= cannot be put "
				   "back",
				   device)
		   : reclaim_fstab_priority(f, (size_t)at, prio);
	if (r == 0)
		*prio = HISTORY_FSTAB_NO_PRI;
	reclaim_fstab_unref(f);
	return r < 0 ? r : 0;
}

/*
 * A swap device back to @prio (live, if it is still at @expect: else
 * another writer's) and its pri= to @fstab (HISTORY_FSTAB_UNTOUCHED: left).
 */
static int add_swap(struct reclaim_eval *e, const char *device, int prio, int expect, int fstab,
		    char *reason)
{
	struct eval_swap *n,
	    sw = {.new_prio = prio, .fstab_new = fstab, .fstab_now = HISTORY_FSTAB_UNTOUCHED};
	int r = 0;

	sw.device = strdup(device);
	sw.active = swap_now(e, device, &sw.old_prio);
	if (!sw.active)
		sw.old_prio = sw.new_prio = prio;
	if (fstab != HISTORY_FSTAB_UNTOUCHED)
		r = fstab_now(e, device, &sw.fstab_now);
	/* An entry gone since is no reason to keep the change on the stack for ever. */
	if (r == -ENOENT) {
		char *more = format(e->ctx, "%s; %s", reason, reclaim_strerror(e->ctx));

		free(reason);
		reason = more;
		sw.fstab_new = HISTORY_FSTAB_UNTOUCHED;
		r = 0;
	}
	if (r == 0 && sw.active && sw.old_prio != expect && sw.old_prio != prio) {
		char *more = format(e->ctx,
				    "%s; its priority is %d, not the %d reclaimctl set: changed "
				    "since by something else, left alone",
				    reason, sw.old_prio, expect);

		free(reason);
		reason = more;
		sw.new_prio = sw.old_prio;
	} else if (r == 0 && !sw.active) {
		char *more = format(
		    e->ctx, "%s; not an active swap device: live priority left alone", reason);

		free(reason);
		reason = more;
	}
	sw.reason = reason;
	n = r == 0 && sw.device && sw.reason ? realloc(e->swaps, (e->nswaps + 1) * sizeof(*n))
					     : NULL;
	if (!n) {
		free(sw.device);
		free(sw.reason);
		return r < 0 ? r : reclaim_error(e->ctx, ENOMEM, "out of memory");
	}
	e->swaps = n;
	n[e->nswaps++] = sw;
	return 0;
}

/* The newest change is a swap priority change: its device back. */
static int eval_restore_swap(struct reclaim_eval *e, const struct history_swap *rec)
{
	char when[32];

	history_clock(when, sizeof(when), rec->sec);
	e->undoes = rec->change;
	return add_swap(e, rec->device, rec->old_prio, rec->new_prio, rec->fstab_old,
			format(e->ctx, "undoes %schange %lu (%s at %s)",
			       rec->interrupted ? "interrupted " : "", rec->change, rec->command,
			       when));
}

/* Every swap device of the history back to its priority and pri= before its first change. */
static int eval_restore_boot_swaps(struct reclaim_eval *e, const struct reclaim_history *h)
{
	for (size_t i = 0; i < h->nswaps; i++) {
		const struct history_swap *rec = &h->swaps[i];
		ssize_t fst = reclaim_history_first_swap(h, rec->device, true);
		ssize_t last = (ssize_t)i;
		int r;

		if (reclaim_history_first_swap(h, rec->device, false) != (ssize_t)i)
			continue;
		for (size_t j = i + 1; j < h->nswaps; j++)
			if (strcmp(h->swaps[j].device, rec->device) == 0)
				last = (ssize_t)j;
		r = add_swap(e, rec->device, rec->old_prio, h->swaps[last].new_prio,
			     fst >= 0 ? h->swaps[fst].fstab_old : HISTORY_FSTAB_UNTOUCHED,
			     format(e->ctx, "its priority before change %lu, the first since boot",
				    rec->change));
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * An entry a restore leaves alone: @k is @now, not the @ours reclaimctl
 * last set (@who: "change 4 set"), so another writer changed it since.
 */
static struct eval_entry *left_alone(struct reclaim_eval *e, const struct reclaim_knob *k,
				     int64_t now, int64_t ours, int64_t back, char *who)
{
	struct eval_entry *n = NULL;

	if (who)
		n = add_entry(e, k, back,
			      format(e->ctx,
				     "%s is %s, not the %s %s: changed since by another writer, "
				     "left alone (--force puts back %s)",
				     reclaim_knob_label(k), KNOB_TEXT(k, now), KNOB_TEXT(k, ours),
				     who, KNOB_TEXT(k, back)),
			      strdup("outside"));
	free(who);
	if (n)
		n->foreign = true;
	return n;
}

/*
 * Undoes the newest change not undone (with a change given, that one, or
 * -ESTALE): each of its knobs back to the value before it, unless the knob
 * has been changed since by something other than reclaimctl; then back to
 * its value before the first change since boot. A change may hold several
 * records of one knob (the runs of a sweep): the knob goes back to the old
 * value of its first, and was changed since if it is not the new value of
 * its last. An interrupted change is undone the same way: its knobs may be
 * at their old or their new value, both its. A knob changed since by
 * another writer is left alone (the lease's rule), unless @force: then it
 * goes back to its value before the first change since boot.
 */
static int eval_restore(struct reclaim_eval *e, const struct reclaim_history *h,
			unsigned long change, bool force)
{
	ssize_t last = reclaim_history_last_change(h);
	const struct history_record *top = NULL;
	char when[32];
	int r;

	if (change > 0 && (r = reclaim_history_check_newest(h, change)) < 0)
		return r;
	if (reclaim_history_last_swap(h) >= 0)
		return eval_restore_swap(e, &h->swaps[reclaim_history_last_swap(h)]);
	if (last < 0)
		return 0;
	/* the change's time: that of its first record */
	for (size_t i = 0; !top && i <= (size_t)last; i++)
		if (h->records[i].change == h->records[last].change)
			top = &h->records[i];
	e->undoes = top->change;
	history_clock(when, sizeof(when), top->sec);
	for (size_t i = 0; i < h->count; i++) {
		const struct history_record *rec = &h->records[i], *end = rec;
		const struct history_record *first;
		struct eval_entry *n;
		bool seen = false;
		int64_t now;

		if (rec->change != top->change)
			continue;
		for (size_t j = 0; j < h->count; j++)
			if (h->records[j].change == top->change &&
			    h->records[j].knob == rec->knob) {
				seen = seen || j < i;
				end = &h->records[j];
			}
		if (seen)
			continue; /* one entry per knob, at its first record */
		first = &h->records[reclaim_history_first(h, rec->knob)];
		r = reclaim_knob_read(e->ctx, rec->knob, &now);
		if (r < 0)
			return r;
		if (still_ours(rec, end, now))
			n = add_entry(e, rec->knob, rec->old_value,
				      format(e->ctx, "undoes %schange %lu (%s at %s)",
					     end->interrupted ? "interrupted " : "", top->change,
					     top->command, when),
				      format(e->ctx, "change:%lu", top->change));
		else if (!force)
			n = left_alone(e, rec->knob, now, end->new_value, first->old_value,
				       format(e->ctx, "change %lu set", top->change));
		else
			n = add_entry(e, rec->knob, first->old_value,
				      format(e->ctx,
					     "%s is %s, not the %s change %lu set: changed since "
					     "by something else; back to its value before the "
					     "first change since boot (--force)",
					     reclaim_knob_label(rec->knob),
					     KNOB_TEXT(rec->knob, now),
					     KNOB_TEXT(rec->knob, end->new_value), top->change),
				      strdup("boot"));
		if (!n)
			return -ENOMEM;
		/* Read already: decide() takes it as it is. */
		n->old_value = now;
		n->has_old = true;
	}
	return 0;
}

/*
 * Every knob of the history back to the value it had before its first
 * change; one another writer changed since reclaimctl's newest record of
 * it is left alone, unless @force.
 */
static int eval_restore_boot(struct reclaim_eval *e, const struct reclaim_history *h, bool force)
{
	ssize_t last;

	for (size_t k = 0; k < reclaim_knob_count(); k++) {
		const struct reclaim_knob *knob = reclaim_knob_get(k);
		ssize_t first = reclaim_history_first(h, knob);
		int64_t back, now, ours;
		struct eval_entry *n;
		int r;

		if (first < 0)
			continue;
		back = h->records[first].old_value;
		r = reclaim_knob_read(e->ctx, knob, &now);
		if (r < 0)
			return r;
		if (!force && reclaim_history_expect(h, knob, now, &ours) == 1)
			n = left_alone(e, knob, now, ours, back,
				       format(e->ctx, "reclaimctl set last"));
		else
			n = add_entry(e, knob, back,
				      format(e->ctx,
					     "its value before change %lu, the first since boot",
					     h->records[first].change),
				      strdup("boot"));
		if (!n)
			return -ENOMEM;
		n->old_value = now;
		n->has_old = true;
	}
	last = reclaim_history_last_change(h);
	e->undoes = last >= 0 ? h->records[last].change : 0;
	if (reclaim_history_last_swap(h) >= 0)
		e->undoes = h->swaps[reclaim_history_last_swap(h)].change;
	return eval_restore_boot_swaps(e, h);
}

/*
 * A restore without --persist leaves the persisted file alone: a knob whose
 * persisted value differs from the one put back is set again at the next
 * boot, and its reason says so. A file that is not reclaimctl's is check's
 * business, not a reason to refuse the restore.
 */
static int note_persisted(struct reclaim_eval *e)
{
	struct reclaim_persist *p = NULL;

	if (reclaim_persist_read(e->ctx, &p) < 0)
		return 0;
	for (size_t i = 0; i < e->count; i++) {
		struct eval_entry *n = &e->entries[i];
		ssize_t at = reclaim_persist_find(p, n->knob);
		char *more;

		if (at < 0 || reclaim_persist_value(p, (size_t)at) == n->new_value)
			continue;
		more = format(e->ctx,
			      "%s; %s = %s stays persisted in %s: the next boot sets it "
			      "again (restore --persist removes it)",
			      n->reason, reclaim_knob_label(n->knob),
			      KNOB_TEXT(n->knob, reclaim_persist_value(p, (size_t)at)),
			      reclaim_knob_persist_file(n->knob));
		if (!more) {
			reclaim_persist_unref(p);
			return -ENOMEM;
		}
		free(n->reason);
		n->reason = more;
	}
	reclaim_persist_unref(p);
	return 0;
}

static int eval_history(struct reclaim_eval *e, const struct reclaim_request *req)
{
	bool force = req->flags & RECLAIM_REQUEST_FORCE;
	struct reclaim_history *h = NULL;
	int r = reclaim_history_load(e->ctx, &h);

	if (r < 0)
		return r;
	r = req->kind == RECLAIM_REQUEST_RESTORE ? eval_restore(e, h, req->change, force)
						 : eval_restore_boot(e, h, force);
	reclaim_history_unref(h);
	if (r == 0 && (req->flags & RECLAIM_REQUEST_PERSIST)) {
		r = reclaim_persist_read(e->ctx, &e->unpersisted);
		if (r == 0 && reclaim_persist_count(e->unpersisted) == 0)
			e->unpersisted = reclaim_persist_unref(e->unpersisted);
		e->persist_changes = e->unpersisted != NULL;
	} else if (r == 0) {
		r = note_persisted(e);
	}
	return r;
}

/* A request that joins @change: it must be the newest change not undone. */
static int check_join(struct reclaim_eval *e, unsigned long change)
{
	struct reclaim_history *h = NULL;
	int r = reclaim_history_load(e->ctx, &h);

	if (r == 0)
		r = reclaim_history_check_newest(h, change);
	reclaim_history_unref(h);
	return r;
}

/*
 * With --persist, the files' texts: what the apply's write (of the entries
 * not skipped, build_change()'s) would leave, and whether it changes a
 * persisted value; or for a restore, which removes them, their texts now.
 */
static int persist_preview(struct reclaim_eval *e)
{
	const struct reclaim_knob **knobs = calloc(e->count + 1, sizeof(*knobs));
	int64_t *values = calloc(e->count + 1, sizeof(*values));
	size_t n = 0;
	int r;

	if (!knobs || !values) {
		free(knobs);
		free(values);
		return reclaim_error(e->ctx, ENOMEM, "out of memory");
	}
	bool restore = restoring(e->kind);

	for (size_t i = 0; !restore && i < e->count; i++)
		if (e->entries[i].action != RECLAIM_ACTION_SKIPPED) {
			knobs[n] = e->entries[i].knob;
			values[n++] = e->entries[i].new_value;
		}
	r = reclaim_persist_preview(e->ctx, knobs, values, n, e->persist_before, e->persist_after,
				    restore ? NULL : &e->persist_changes);
	free(knobs);
	free(values);
	return r;
}

static int evaluate(struct reclaim_request *req, struct reclaim_eval *e)
{
	bool restore = restoring(req->kind);
	int r;

	req->failed_knob = NULL;
	if (!restore && !(req->flags & RECLAIM_REQUEST_FORCE)) {
		r = reclaim_sysctl_conf_new(e->ctx, &e->conf);
		if (r < 0)
			return r;
		/* Which knobs tuned holds is unknown: nothing is changed, unless --force. */
		if (reclaim_sysctl_conf_tuned_error(e->conf))
			return reclaim_error(e->ctx, EINVAL,
					     "tuned's profile %s: %s (--force sets knobs without "
					     "reading it)",
					     reclaim_sysctl_conf_tuned_profile(e->conf),
					     reclaim_sysctl_conf_tuned_error(e->conf));
	}
	switch (req->kind) {
	case RECLAIM_REQUEST_SET:
	case RECLAIM_REQUEST_ADAPT:
		r = req->change > 0 ? check_join(e, req->change) : 0;
		if (r == 0)
			r = eval_set(e, req);
		break;
	case RECLAIM_REQUEST_PRESET:
		if (!req->preset)
			return reclaim_error(e->ctx, EINVAL, "no preset given");
		r = eval_preset(e, req->preset);
		break;
	case RECLAIM_REQUEST_AUTOTUNE:
		r = eval_autotune(e, req);
		break;
	case RECLAIM_REQUEST_BOOT:
		r = eval_boot(e);
		break;
	default:
		r = eval_history(e, req);
		break;
	}
	for (size_t i = 0; r == 0 && i < e->count; i++) {
		r = decide(e, req, &e->entries[i]);
		if (r < 0)
			req->failed_knob = e->entries[i].knob;
	}
	if (r == -ENOMEM)
		return reclaim_error(e->ctx, ENOMEM, "out of memory");
	if (r == 0 && !restore && (req->flags & RECLAIM_REQUEST_PERSIST))
		r = persist_preview(e);
	e->persist = req->flags & RECLAIM_REQUEST_PERSIST;
	return r;
}

static int eval_new(struct reclaim_request *req, struct reclaim_eval **ret)
{
	struct reclaim_eval *e;
	int r;

	reclaim_error_reset(req->ctx);
	e = calloc(1, sizeof(*e));
	if (!e)
		return reclaim_error(req->ctx, ENOMEM, "out of memory");
	e->refcount = 1;
	e->ctx = reclaim_ref(req->ctx);
	e->kind = req->kind;
	e->verified_nodes = -1;
	r = evaluate(req, e);
	/* What the evaluation read is not needed after it. */
	e->conf = reclaim_sysctl_conf_unref(e->conf);
	e->topo = reclaim_topology_unref(e->topo);
	e->history = reclaim_history_unref(e->history);
	if (r < 0) {
		eval_free(e);
		return r;
	}
	*ret = e;
	return 0;
}

/* A preview, nothing written: with --persist also what becomes of the files (not when applying). */
RECLAIM_EXPORT int reclaim_request_evaluate(struct reclaim_request *req, struct reclaim_eval **ret)
{
	int r;

	assert_return(req && ret, -EINVAL);
	r = eval_new(req, ret);
	if (r < 0)
		return r;
	/* a set's texts came with its evaluation; a restore's are its files now */
	if ((*ret)->persist && restoring((*ret)->kind)) {
		r = persist_preview(*ret);
		if (r < 0) {
			*ret = reclaim_eval_unref(*ret);
			return r;
		}
	}
	(*ret)->persist_previewed = (*ret)->persist;
	return 0;
}

/* ---- applying ---- */

/* Whether applying has anything to do: a knob to set, the persisted file, an undo to record. */
static bool has_work(const struct reclaim_eval *e)
{
	bool any = e->nswaps > 0;

	/* a restore of knobs all left alone records nothing: the change stays to undo */
	for (size_t i = 0; i < e->count; i++)
		any |= e->entries[i].action != RECLAIM_ACTION_SKIPPED;
	return reclaim_eval_changed(e) || (restoring(e->kind) && e->undoes > 0 && any);
}

static bool swap_changes(const struct eval_swap *sw)
{
	return sw->old_prio != sw->new_prio ||
	       (sw->fstab_new != HISTORY_FSTAB_UNTOUCHED && sw->fstab_new != sw->fstab_now);
}

/* The swap devices of a restore, each a change of its own in the history, under the lock. */
static int apply_swaps(struct reclaim_eval *e)
{
	const char *command = reclaim_request_kind_name(e->kind);
	long undoes = e->kind == RECLAIM_REQUEST_RESTORE ? (long)e->undoes : HISTORY_UNDOES_ALL;
	char source[32];
	int r = 0;

	snprintf(source, sizeof(source), e->kind == RECLAIM_REQUEST_RESTORE ? "change:%lu" : "boot",
		 e->undoes);
	for (size_t i = 0; i < e->nswaps && r == 0; i++) {
		const struct eval_swap *sw = &e->swaps[i];
		struct reclaim_swap_plan *p = NULL;

		/* restore --boot: a device it leaves as it is needs no record; a restore records
		 * its undo */
		if (!swap_changes(sw) && e->kind == RECLAIM_REQUEST_RESTORE_BOOT)
			continue;
		r = reclaim_swap_plan_make(e->ctx, sw->device, sw->new_prio, !sw->active, &p);
		if (r == 0)
			r = reclaim_swap_plan_apply_recorded(
			    p, sw->active && sw->old_prio != sw->new_prio, sw->fstab_new, command,
			    source, undoes);
		reclaim_swap_plan_unref(p);
	}
	return r;
}

static bool rewrites_threads(const struct reclaim_eval *e)
{
	for (size_t i = 0; i < e->count; i++) {
		const struct eval_entry *n = &e->entries[i];

		if (n->action == RECLAIM_ACTION_SET && n->has_old && n->old_value == n->new_value &&
		    reclaim_knob_is_threads(n->knob))
			return true;
	}
	return false;
}

static int build_change(const struct reclaim_request *req, const struct reclaim_eval *e,
			struct reclaim_change **ret)
{
	struct reclaim_change *c = NULL;
	long undoes = 0;
	int r;

	r = reclaim_change_new(e->ctx, &c);
	/* kswapd_threads set to the value it has: a node is short, the write must happen */
	if (r == 0 && !rewrites_threads(e))
		reclaim_change_set_keep_unchanged(c);
	for (size_t i = 0; r == 0 && i < e->count; i++) {
		const struct eval_entry *n = &e->entries[i];
		bool keep = n->action == RECLAIM_ACTION_SET ||
			    (restoring(e->kind) && n->action == RECLAIM_ACTION_UNCHANGED) ||
			    (n->action == RECLAIM_ACTION_UNCHANGED &&
			     (req->flags & RECLAIM_REQUEST_PERSIST));

		if (!keep)
			continue;
		r = reclaim_change_add(c, n->knob, n->new_value);
		if (r == 0)
			r = reclaim_change_set_source(c, reclaim_change_count(c) - 1, n->source);
		if (r == 0 && n->adopted)
			reclaim_change_set_adopted(c, reclaim_change_count(c) - 1);
	}
	if (e->kind == RECLAIM_REQUEST_RESTORE)
		undoes = (long)e->undoes;
	else if (e->kind == RECLAIM_REQUEST_RESTORE_BOOT)
		undoes = HISTORY_UNDOES_ALL;
	if (r == 0)
		r = reclaim_change_set_history(c, reclaim_request_kind_name(e->kind), undoes);
	if (r == 0 && !restoring(e->kind) && (req->flags & RECLAIM_REQUEST_PERSIST))
		r = reclaim_change_set_persist(c, true);
	if (r == 0 && !restoring(e->kind))
		reclaim_change_set_join(c, req->change);
	if (r == 0 && restoring(e->kind))
		reclaim_change_set_unpersist(c, e->unpersisted != NULL);
	if (r < 0) {
		reclaim_change_unref(c);
		return r;
	}
	*ret = c;
	return 0;
}

int reclaim_request_apply_report(struct reclaim_request *req, struct reclaim_eval **ret,
				 struct reclaim_change **ran)
{
	struct reclaim_change *c = NULL;
	struct reclaim_eval *e = NULL;
	int fd = -1, r;

	*ret = NULL;
	*ran = NULL;
	r = eval_new(req, &e);
	if (r < 0)
		return r;
	if (!has_work(e)) {
		*ret = e;
		return 0;
	}
	e = reclaim_eval_unref(e);
	r = reclaim_lock_take(req->ctx, &fd);
	/* Under the lock, what another writer did meanwhile is seen. */
	if (r == 0)
		r = eval_new(req, &e);
	if (r == 0 && has_work(e)) {
		r = build_change(req, e, &c);
		if (r == 0 && (e->count > 0 || e->nswaps == 0))
			r = reclaim_change_apply_locked(c);
		if (r == 0 && restoring(e->kind))
			r = apply_swaps(e);
		if (r == 0) {
			e->applied = true;
			e->verified_nodes = reclaim_change_verified_nodes(c);
			e->change = reclaim_change_recorded(c);
		}
		*ran = c;
	}
	reclaim_lock_release(fd);
	if (r < 0) {
		reclaim_eval_unref(e);
		return r;
	}
	*ret = e;
	return 0;
}

RECLAIM_EXPORT int reclaim_request_apply(struct reclaim_request *req, struct reclaim_eval **ret)
{
	struct reclaim_change *ran = NULL;
	int r;

	assert_return(req && ret, -EINVAL);
	reclaim_error_reset(req->ctx);
	r = reclaim_request_apply_report(req, ret, &ran);
	reclaim_change_unref(ran);
	return r;
}

/* ---- accessors ---- */

const struct reclaim_knob *reclaim_request_failed_knob(const struct reclaim_request *req)
{
	return req->failed_knob;
}

RECLAIM_EXPORT const char *reclaim_request_kind_name(enum reclaim_request_kind kind)
{
	assert_return(kind <= RECLAIM_REQUEST_ADAPT, NULL);
	return command_names[kind];
}

RECLAIM_EXPORT const char *reclaim_action_name(enum reclaim_action action)
{
	switch (action) {
	case RECLAIM_ACTION_SET:
		return "set";
	case RECLAIM_ACTION_UNCHANGED:
		return "unchanged";
	case RECLAIM_ACTION_SKIPPED:
		return "skipped";
	}
	return NULL;
}

RECLAIM_EXPORT enum reclaim_request_kind reclaim_eval_kind(const struct reclaim_eval *e)
{
	assert_return(e, RECLAIM_REQUEST_SET);
	return e->kind;
}

RECLAIM_EXPORT bool reclaim_eval_applied(const struct reclaim_eval *e)
{
	assert_return(e, false);
	return e->applied;
}

RECLAIM_EXPORT int reclaim_eval_persist_file(const struct reclaim_eval *e, size_t idx,
					     const char **path, const char **before,
					     const char **after)
{
	assert_return(e, -EINVAL);
	if (!e->persist)
		return -ENODATA;
	if (idx >= PERSIST_NFILES)
		return -ENOENT;
	/* an apply's evaluation does not show them: the files are its own by then */
	if (!e->persist_previewed)
		return -EALREADY;
	if (path)
		*path = reclaim_persist_file_path(idx);
	if (before)
		*before = e->persist_before[idx];
	if (after)
		*after = e->persist_after[idx];
	if (restoring(e->kind))
		return e->persist_before[idx] != NULL;
	return e->persist_after[idx] &&
	       (!e->persist_before[idx] || strcmp(e->persist_before[idx], e->persist_after[idx]));
}

RECLAIM_EXPORT bool reclaim_eval_changed(const struct reclaim_eval *e)
{
	assert_return(e, false);
	for (size_t i = 0; i < e->count; i++)
		if (e->entries[i].action == RECLAIM_ACTION_SET)
			return true;
	for (size_t i = 0; i < e->nswaps; i++)
		if (swap_changes(&e->swaps[i]))
			return true;
	return e->persist_changes;
}

RECLAIM_EXPORT size_t reclaim_eval_count(const struct reclaim_eval *e)
{
	assert_return(e, 0);
	return e->count;
}

#define ENTRY(e, idx) (&(e)->entries[idx])

RECLAIM_EXPORT const struct reclaim_knob *reclaim_eval_knob(const struct reclaim_eval *e,
							    size_t idx)
{
	assert_return(e && idx < e->count, NULL);
	return ENTRY(e, idx)->knob;
}

RECLAIM_EXPORT bool reclaim_eval_has_old(const struct reclaim_eval *e, size_t idx)
{
	assert_return(e && idx < e->count, false);
	return ENTRY(e, idx)->has_old;
}

RECLAIM_EXPORT int64_t reclaim_eval_old(const struct reclaim_eval *e, size_t idx)
{
	assert_return(e && idx < e->count, 0);
	return ENTRY(e, idx)->old_value;
}

RECLAIM_EXPORT int64_t reclaim_eval_new(const struct reclaim_eval *e, size_t idx)
{
	assert_return(e && idx < e->count, 0);
	return ENTRY(e, idx)->new_value;
}

RECLAIM_EXPORT enum reclaim_action reclaim_eval_action(const struct reclaim_eval *e, size_t idx)
{
	assert_return(e && idx < e->count, RECLAIM_ACTION_SKIPPED);
	return ENTRY(e, idx)->action;
}

RECLAIM_EXPORT const char *reclaim_eval_reason(const struct reclaim_eval *e, size_t idx)
{
	assert_return(e && idx < e->count, NULL);
	return ENTRY(e, idx)->reason;
}

RECLAIM_EXPORT const char *reclaim_eval_source(const struct reclaim_eval *e, size_t idx)
{
	assert_return(e && idx < e->count, NULL);
	return ENTRY(e, idx)->source;
}

RECLAIM_EXPORT const char *reclaim_eval_preset(const struct reclaim_eval *e)
{
	assert_return(e, NULL);
	return e->preset_name;
}

RECLAIM_EXPORT const char *reclaim_eval_preset_path(const struct reclaim_eval *e)
{
	assert_return(e, NULL);
	return e->preset_path;
}

RECLAIM_EXPORT struct reclaim_plan *reclaim_eval_plan(const struct reclaim_eval *e)
{
	assert_return(e, NULL);
	return e->plan;
}

RECLAIM_EXPORT unsigned long reclaim_eval_undoes(const struct reclaim_eval *e)
{
	assert_return(e, 0);
	return e->undoes;
}

RECLAIM_EXPORT unsigned long reclaim_eval_change(const struct reclaim_eval *e)
{
	assert_return(e, 0);
	return e->change;
}

RECLAIM_EXPORT struct reclaim_persist *reclaim_eval_unpersisted(const struct reclaim_eval *e)
{
	assert_return(e, NULL);
	return e->unpersisted;
}

RECLAIM_EXPORT ssize_t reclaim_eval_verified_nodes(const struct reclaim_eval *e)
{
	assert_return(e, -1);
	return e->verified_nodes;
}

RECLAIM_EXPORT size_t reclaim_eval_swap_count(const struct reclaim_eval *e)
{
	assert_return(e, 0);
	return e->nswaps;
}

RECLAIM_EXPORT const char *reclaim_eval_swap_device(const struct reclaim_eval *e, size_t idx)
{
	assert_return(e && idx < e->nswaps, NULL);
	return e->swaps[idx].device;
}

RECLAIM_EXPORT int reclaim_eval_swap_old(const struct reclaim_eval *e, size_t idx)
{
	assert_return(e && idx < e->nswaps, 0);
	return e->swaps[idx].old_prio;
}

RECLAIM_EXPORT int reclaim_eval_swap_new(const struct reclaim_eval *e, size_t idx)
{
	assert_return(e && idx < e->nswaps, 0);
	return e->swaps[idx].new_prio;
}

RECLAIM_EXPORT bool reclaim_eval_swap_active(const struct reclaim_eval *e, size_t idx)
{
	assert_return(e && idx < e->nswaps, false);
	return e->swaps[idx].active;
}

RECLAIM_EXPORT int reclaim_eval_swap_fstab(const struct reclaim_eval *e, size_t idx, int *now,
					   int *put)
{
	assert_return(e && idx < e->nswaps && now && put, -EINVAL);
	if (e->swaps[idx].fstab_new == HISTORY_FSTAB_UNTOUCHED)
		return 0;
	*now = e->swaps[idx].fstab_now;
	*put = e->swaps[idx].fstab_new;
	return 1;
}

RECLAIM_EXPORT const char *reclaim_eval_swap_reason(const struct reclaim_eval *e, size_t idx)
{
	assert_return(e && idx < e->nswaps, NULL);
	return e->swaps[idx].reason;
}

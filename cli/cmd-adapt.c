// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl adapt: the adaptive controller of libreclaim, live. It samples
 * with the monitor's sampler (files kept open), steps the controller once
 * per interval and writes its decisions through the change engine (lock,
 * history with source "adapt", verified values): kswapd_threads where the
 * kernel has it, watermark_scale_factor on every kernel. As a service it
 * speaks sd_notify: READY=1 after the first sample, STATUS= with the values
 * and the last reason, WATCHDOG=1 from the loop.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "adapt.h"
#include "journal.h"
#include "sampling.h"
#include "tracing.h"

static volatile sig_atomic_t got_stop, got_hup;

static void on_stop(int sig)
{
	got_stop = sig;
}

static void on_hup(int sig)
{
	(void)sig;
	got_hup = 1;
}

static void catch_signals(void)
{
	struct sigaction stop = {.sa_handler = on_stop}, hup = {.sa_handler = on_hup};

	sigemptyset(&stop.sa_mask);
	sigemptyset(&hup.sa_mask);
	sigaction(SIGINT, &stop, NULL);
	sigaction(SIGTERM, &stop, NULL);
	sigaction(SIGHUP, &hup, NULL);
	/* a closed output (| head) ends adapt with the baseline back, not a SIGPIPE death */
	signal(SIGPIPE, SIG_IGN);
}

struct daemon {
	struct cli *cli;
	const struct adapt_options *o;
	/* the knobs adapt moves: kswapd_threads, watermark_scale_factor; NULL: not moved */
	const struct reclaim_knob *knob, *wknob;
	struct reclaim_sampler *sampler;
	struct reclaim_sample *prev;
	struct reclaim_adapt *adapt;
	struct reclaim_adapt_sample *figures;
	int64_t baseline, wbaseline;
	uint64_t start_ns, watchdog_ns;
	bool print;
	struct reclaim_lease *lease; /* claimed: adapt runs (not with --dry-run, --once) */
};

/* ---- output ---- */

static double elapsed_of(const struct daemon *d)
{
	return (double)(reclaim_sample_monotonic_ns(d->prev) - d->start_ns) / 1e9;
}

/* A line for the terminal (not when standard output is the journal: the journal has it). */
static void notice(const struct daemon *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void notice(const struct daemon *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->print || d->cli->json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	flush_stdout();
}

/* The value adapt holds of @knob, one of its two. */
static int64_t held(const struct daemon *d, const struct reclaim_knob *knob)
{
	return knob == d->wknob ? reclaim_adapt_watermark(d->adapt)
				: reclaim_adapt_threads(d->adapt);
}

/* "kswapd_threads 2 (1-4), watermark_scale_factor 20 (10-100)": the values and their bounds. */
static void values_text(const struct daemon *d, char *buf, size_t size)
{
	int n = 0;

	buf[0] = '\0';
	if (d->knob)
		n = snprintf(buf, size, "kswapd_threads %lld (%lld-%lld)",
			     (long long)reclaim_adapt_threads(d->adapt),
			     (long long)reclaim_adapt_min(d->adapt),
			     (long long)reclaim_adapt_max(d->adapt));
	if (d->wknob && n >= 0 && (size_t)n < size)
		snprintf(
		    buf + n, size - (size_t)n, "%swatermark_scale_factor %lld (%lld-%lld)",
		    n ? ", " : "", (long long)reclaim_adapt_watermark(d->adapt),
		    (long long)d->wbaseline,
		    (long long)fmax((double)d->wbaseline,
				    reclaim_adapt_get_param(d->adapt, RECLAIM_ADAPT_WMARK_MAX)));
}

static void notify_status(const struct daemon *d)
{
	char values[160];

	values_text(d, values, sizeof(values));
	sd_notifyf(0, "STATUS=%s%s: %s", values, d->o->dry_run ? ", dry run" : "",
		   reclaim_adapt_reason(d->adapt));
}

/* ---- writing ---- */

/* adapt's writes are strict (a knob another file sets fails), forced with -f. */
static unsigned int request_flags(const struct adapt_options *o)
{
	return RECLAIM_REQUEST_STRICT | (o->force ? RECLAIM_REQUEST_FORCE : 0);
}

static int knob_request(struct daemon *d, const struct reclaim_knob *knob, int64_t value,
			const char *reason, struct reclaim_request **req)
{
	int r = reclaim_request_new(d->cli->ctx, RECLAIM_REQUEST_ADAPT, request_flags(d->o), req);

	if (r == 0)
		r = reclaim_request_add(*req, knob, value, reason);
	return r;
}

/*
 * @knob to @value through the change engine, applied or (@apply false) only
 * evaluated; 0 or a negative errno (the error in the ctx).
 */
static int run_request(struct daemon *d, const struct reclaim_knob *knob, int64_t value,
		       const char *reason, bool apply)
{
	struct reclaim_request *req = NULL;
	struct reclaim_eval *eval = NULL;
	int r = knob_request(d, knob, value, reason, &req);

	if (r == 0)
		r = apply ? reclaim_request_apply(req, &eval)
			  : reclaim_request_evaluate(req, &eval);
	reclaim_eval_unref(eval);
	reclaim_request_unref(req);
	return r;
}

/* The value adapt holds now of @knob, in its lease (and state file). */
static void save_state(struct daemon *d, const struct reclaim_knob *knob)
{
	if (d->lease && reclaim_lease_wrote(d->lease, knob, held(d, knob)) < 0)
		warnmsg("adapt: %s", reclaim_strerror(d->cli->ctx));
}

static void apply_change(struct daemon *d, const struct reclaim_knob *knob, int64_t old)
{
	int64_t new = held(d, knob);
	const char *reason = reclaim_adapt_reason(d->adapt);
	int64_t when = realtime_ns();

	if (!d->o->dry_run && run_request(d, knob, new, reason, true) < 0) {
		const char *err = reclaim_strerror(d->cli->ctx);

		reclaim_adapt_rollback(d->adapt);
		warnmsg("adapt: %s %lld -> %lld failed: %s", reclaim_knob_name(knob),
			(long long)old, (long long)new, err);
		journal_failed(NULL, "adapt: %s %lld -> %lld failed: %s", reclaim_knob_label(knob),
			       (long long)old, (long long)new, err);
		return;
	}
	journal_adapt(knob, old, new, reason, d->o->dry_run);
	if (d->print || d->cli->json)
		adapt_print(d->cli, stdout, elapsed_of(d), when, knob, old, new, reason,
			    d->o->dry_run);
	save_state(d, knob);
}

/* ---- the loop ---- */

/* The values of the knobs adapt moves, read back: [0] kswapd_threads, [1] the watermark. */
static int read_sample(struct daemon *d, struct reclaim_sample **cur, int64_t value[2])
{
	const struct reclaim_knob *knobs[2] = {d->knob, d->wknob};

	if (reclaim_sampler_read(d->sampler, cur) < 0)
		return lib_fail(d->cli, EXIT_FAILURE, "adapt");
	for (size_t i = 0; i < 2; i++)
		if (knobs[i] && reclaim_sample_knob(*cur, knobs[i], &value[i]) < 0) {
			reclaim_sample_unref(*cur);
			return fail(EXIT_FAILURE, "adapt: cannot read %s",
				    reclaim_knob_label(knobs[i]));
		}
	return 0;
}

/* SIGHUP: a controller that stepped aside takes over again from the values it finds. */
static void hangup(struct daemon *d, const int64_t value[2])
{
	char values[160];

	got_hup = 0;
	if (!reclaim_adapt_handed_off(d->adapt)) {
		values_text(d, values, sizeof(values));
		notice(d, "SIGHUP: adapt is in control already (%s)", values);
		return;
	}
	reclaim_adapt_resume(d->adapt, d->knob ? value[0] : 0);
	if (d->wknob)
		reclaim_adapt_resume_watermark(d->adapt, value[1]);
	values_text(d, values, sizeof(values));
	journal_info(NULL, "adapt: resumed at %s (SIGHUP)", values);
	notice(d, "SIGHUP: resumed at %s", values);
	if (d->knob)
		save_state(d, d->knob);
	if (d->wknob)
		save_state(d, d->wknob);
}

static int step(struct daemon *d)
{
	struct reclaim_sample *cur;
	int64_t value[2] = {0, 0}, old[2];
	const struct reclaim_knob *knob;
	int r, v;

	r = read_sample(d, &cur, value);
	if (r)
		return r;
	if (got_hup)
		hangup(d, value);
	/* after a resume: the values it resumed at */
	old[0] = reclaim_adapt_threads(d->adapt);
	old[1] = d->wknob ? reclaim_adapt_watermark(d->adapt) : 0;
	reclaim_adapt_sample_fill(d->figures, d->prev, cur);
	if (!d->o->dry_run && d->knob)
		reclaim_adapt_sample_set_knob(d->figures, value[0]);
	if (!d->o->dry_run && d->wknob)
		reclaim_adapt_sample_set_watermark(d->figures, value[1]);
	reclaim_sample_unref(d->prev);
	d->prev = cur;
	v = reclaim_adapt_step(d->adapt, d->figures);
	knob = reclaim_adapt_changed(d->adapt);
	if (v == RECLAIM_ADAPT_CHANGE) {
		apply_change(d, knob, old[knob == d->wknob]);
	} else if (v == RECLAIM_ADAPT_HANDOFF) {
		journal_handoff(knob, value[knob == d->wknob], reclaim_adapt_reason(d->adapt));
		notice(d, "%s", reclaim_adapt_reason(d->adapt));
	}
	notify_status(d);
	return 0;
}

/* Sleeps until @deadline, pinging the watchdog on the way; false if a signal came. */
static bool wait_until(const struct daemon *d, uint64_t deadline)
{
	for (;;) {
		uint64_t now = monotonic_ns(), until = deadline;

		if (now >= deadline)
			return true;
		if (d->watchdog_ns && now + d->watchdog_ns / 2 < deadline)
			until = now + d->watchdog_ns / 2;
		if (!sleep_until(until))
			return false;
		if (until != deadline)
			sd_notify(0, "WATCHDOG=1");
	}
}

static int loop(struct daemon *d)
{
	uint64_t step_ns = (uint64_t)(d->o->interval * 1e9);

	for (uint64_t n = 1; !got_stop; n++) {
		int r, err;

		n = next_tick(d->start_ns, step_ns, n);
		if (!wait_until(d, d->start_ns + n * step_ns)) {
			n--; /* a signal: the same deadline again (SIGHUP acts at the sample) */
			continue;
		}
		r = step(d);
		if (r)
			return r;
		err = stdout_error();
		if (err)
			return fail(EXIT_FAILURE,
				    "adapt: cannot write to standard output (%s): stopping",
				    strerror(err));
		if (d->watchdog_ns)
			sd_notify(0, "WATCHDOG=1");
		if (d->o->once)
			break;
	}
	return 0;
}

/* ---- start and stop ---- */

/* A state file of an adapt that is gone: put its baseline back (what --reset does). */
static int reset_dead(struct cli *cli, const struct adapt_options *o, bool quiet);

/* A dry evaluation of a baseline: a knob that another sysctl file sets is refused here. */
static int evaluate(struct daemon *d, const struct reclaim_knob *knob, int64_t value)
{
	return run_request(d, knob, value, NULL, false);
}

/*
 * The watermark is the second knob: where another file sets it, adapt
 * leaves it to that file and goes on with the threads (unless it was asked
 * for the watermark alone, or has nothing else to move).
 */
static int watermark_writable(struct daemon *d, int64_t value)
{
	if (d->o->dry_run || !d->wknob || !d->knob || d->o->only || d->o->force ||
	    evaluate(d, d->wknob, value) == 0)
		return 0;
	warnmsg("adapt: moving the threads alone: %s", reclaim_strerror(d->cli->ctx));
	d->wknob = NULL;
	return 0;
}

/*
 * The knobs adapt moves on this kernel: kswapd_threads where the kernel
 * has it, watermark_scale_factor everywhere; --only one of them.
 */
static int choose_knobs(struct daemon *d)
{
	struct cli *cli = d->cli;
	bool threads = !d->o->only || strcmp(d->o->only, "threads") == 0;
	bool watermark = !d->o->only || strcmp(d->o->only, "watermark") == 0;

	d->knob = reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS);
	d->wknob = reclaim_knob_by_id(RECLAIM_KNOB_WATERMARK_SCALE_FACTOR);
	if (!threads || reclaim_knob_supported(cli->ctx, d->knob) <= 0) {
		if (d->o->only && threads)
			return fail(EXIT_FAILURE,
				    "adapt: the kernel has no vm.kswapd_threads (it needs the "
				    "reclaimctl kernel patches)");
		d->knob = NULL;
	}
	if (!watermark || reclaim_knob_supported(cli->ctx, d->wknob) <= 0) {
		if (watermark && !d->knob)
			return fail(EXIT_FAILURE, "adapt: the kernel has no %s",
				    reclaim_knob_label(d->wknob));
		d->wknob = NULL;
	}
	if (!d->knob && (d->o->min || d->o->max))
		return usage_error("adapt: --min and --max bound kswapd_threads, which adapt "
				   "does not move here");
	return 0;
}

static int start(struct daemon *d)
{
	struct reclaim_topology *topo;
	struct cli *cli = d->cli;
	int64_t value[2] = {0, 0};
	int r = choose_knobs(d);

	if (r)
		return r;
	/* refused while another adapt runs; one that died gives its knobs back first */
	if (!d->o->dry_run && !d->o->once) {
		r = reset_dead(cli, d->o, true);
		if (r)
			return r;
	}
	if (reclaim_sampler_new(cli->ctx,
				RECLAIM_SAMPLER_CPUS | RECLAIM_SAMPLER_ADAPT_KNOBS |
				    (d->o->latency ? RECLAIM_SAMPLER_LATENCY : 0),
				&d->sampler) < 0 ||
	    reclaim_topology_new(cli->ctx, &topo) < 0)
		return lib_fail(cli, EXIT_FAILURE, "adapt");
	if (d->o->latency)
		tracing_started(reclaim_sampler_latency(d->sampler));
	r = read_sample(d, &d->prev, value);
	if (r == 0)
		r = watermark_writable(d, value[1]);
	if (r == 0 && reclaim_adapt_new(cli->ctx, topo, value[0], &d->adapt) < 0)
		r = lib_fail(cli, EXIT_FAILURE, "adapt");
	reclaim_topology_unref(topo);
	if (r == 0 && d->wknob && reclaim_adapt_add_watermark(d->adapt, value[1]) < 0)
		r = lib_fail(cli, EXIT_FAILURE, "adapt");
	if (r == 0)
		r = adapt_configure(cli, d->adapt, d->o);
	if (r == 0 && reclaim_adapt_sample_new(cli->ctx, &d->figures) < 0)
		r = lib_fail(cli, EXIT_FAILURE, "adapt");
	if (r)
		return r;
	d->baseline = value[0];
	d->wbaseline = value[1];
	d->start_ns = reclaim_sample_monotonic_ns(d->prev);
	reclaim_adapt_sample_fill(d->figures, NULL, d->prev);
	reclaim_adapt_step(d->adapt, d->figures);
	return 0;
}

/* The lease of the baselines; refused if another adapt started meanwhile. */
static int claim(struct daemon *d)
{
	struct reclaim_lease *l = NULL;
	int r = reclaim_lease_new(d->cli->ctx, "adapt", &l);

	if (r == 0 && d->knob)
		r = reclaim_lease_hold(l, d->knob, d->baseline);
	if (r == 0 && d->wknob)
		r = reclaim_lease_hold(l, d->wknob, d->wbaseline);
	if (r == 0)
		r = reclaim_lease_claim(l);
	if (r < 0) {
		reclaim_lease_unref(l);
		return lib_fail(d->cli, EXIT_FAILURE, r == -EBUSY || r == -ESTALE ? NULL : "adapt");
	}
	d->lease = l;
	return 0;
}

static int check_writable(struct daemon *d)
{
	if (d->o->dry_run)
		return 0;
	if ((d->knob && evaluate(d, d->knob, d->baseline) < 0) ||
	    (d->wknob && evaluate(d, d->wknob, d->wbaseline) < 0))
		return lib_fail(d->cli, EXIT_FAILURE, "adapt");
	return d->o->once ? 0 : claim(d);
}

static void announce(struct daemon *d)
{
	char values[160];

	values_text(d, values, sizeof(values));
	journal_info(NULL, "adapt: started at %s%s", values, d->o->dry_run ? ", dry run" : "");
	notice(d, "adapt: %s, a sample every %g s%s", values, d->o->interval,
	       d->o->dry_run ? " (dry run: nothing is written)" : "");
	sd_notify(0, "READY=1");
	notify_status(d);
}

/* "adapt: stopped; ..." for each knob of the lease, after it was released or dropped. */
static void stopped_said(struct daemon *d, bool released, const char *reason)
{
	for (size_t i = 0; i < reclaim_lease_count(d->lease); i++) {
		const struct reclaim_knob *k = reclaim_lease_knob(d->lease, i);
		long long before = reclaim_lease_before(d->lease, i), now = held(d, k);
		enum reclaim_lease_state st =
		    released ? reclaim_lease_state(d->lease, i) : RECLAIM_LEASE_AT_BEFORE;

		if (st == RECLAIM_LEASE_HELD) {
			journal_adapt(k, now, before, reason, false);
			notice(d, "adapt: stopped; %s %lld -> %lld (the baseline)",
			       reclaim_knob_name(k), now, before);
			continue;
		}
		if (released)
			now = reclaim_lease_now(d->lease, i);
		notice(d, "adapt: stopped; %s %sleft at %lld", reclaim_knob_name(k),
		       st == RECLAIM_LEASE_CHANGED ||
			       (!released && reclaim_adapt_handed_off(d->adapt))
			   ? "is not adapt's: "
			   : "",
		       now);
	}
}

/* SIGTERM, SIGINT: the baselines back, unless --keep or a knob is someone else's now. */
static int stop(struct daemon *d)
{
	static const char reason[] = "adapt stopped: back to the baseline";
	bool moved = (d->knob && reclaim_adapt_threads(d->adapt) != d->baseline) ||
		     (d->wknob && reclaim_adapt_watermark(d->adapt) != d->wbaseline);
	struct reclaim_eval *e = NULL;
	int r;

	sd_notify(0, "STOPPING=1");
	if (!d->lease)
		return 0;
	if (reclaim_adapt_handed_off(d->adapt) || d->o->keep || !moved) {
		stopped_said(d, false, reason);
		return reclaim_lease_drop(d->lease) < 0 ? lib_fail(d->cli, EXIT_FAILURE, "adapt")
							: 0;
	}
	r = reclaim_lease_release(d->lease, RECLAIM_REQUEST_ADAPT, request_flags(d->o), NULL,
				  reason, &e);
	reclaim_eval_unref(e);
	if (r < 0) {
		r = lib_fail(d->cli, EXIT_FAILURE, "adapt: putting back the baseline");
		journal_failed(NULL, "adapt: putting back the baselines failed: %s",
			       reclaim_strerror(d->cli->ctx));
		return r; /* the state stays: ExecStopPost= tries again */
	}
	stopped_said(d, true, reason);
	return 0;
}

/* --once prints its step also when it keeps the value: the figures it saw. */
static void once_keep(const struct daemon *d)
{
	const struct reclaim_knob *k = d->knob ? d->knob : d->wknob;
	int64_t now = held(d, k);

	if (reclaim_adapt_changed(d->adapt))
		return; /* the change is printed */
	if (!d->cli->json) {
		notice(d, "adapt: %s", reclaim_adapt_reason(d->adapt));
		return;
	}
	adapt_print(d->cli, stdout, elapsed_of(d), realtime_ns(), k, now, now,
		    reclaim_adapt_reason(d->adapt), d->o->dry_run);
}

static int run_daemon(struct cli *cli, const struct adapt_options *o)
{
	struct daemon d = {.cli = cli, .o = o};
	uint64_t usec = 0;
	int r;

	journal_use(reclaim_is_live(cli->ctx));
	d.print = !journal_is_stream(STDOUT_FILENO);
	if (sd_watchdog_enabled(0, &usec) > 0)
		d.watchdog_ns = usec * 1000;
	catch_signals();
	r = start(&d);
	if (r == 0)
		r = check_writable(&d);
	if (r == 0) {
		announce(&d);
		r = loop(&d);
		if (o->once && r == 0)
			once_keep(&d);
		if (r == 0)
			r = stop(&d);
		else if (d.lease)
			stop(&d);
	}
	reclaim_lease_unref(d.lease);
	reclaim_adapt_sample_unref(d.figures);
	reclaim_adapt_unref(d.adapt);
	reclaim_sample_unref(d.prev);
	reclaim_sampler_unref(d.sampler);
	return r;
}

/* ---- --reset: after a daemon that died ---- */

/* What became of the knob of a dead adapt's lease. */
static void reset_said(const struct reclaim_lease *l, const char *reason)
{
	long pid = (long)reclaim_lease_pid(l);

	for (size_t i = 0; i < reclaim_lease_count(l); i++) {
		const struct reclaim_knob *k = reclaim_lease_knob(l, i);
		long long before = reclaim_lease_before(l, i), now = reclaim_lease_now(l, i);

		switch (reclaim_lease_state(l, i)) {
		case RECLAIM_LEASE_CHANGED:
			printf("adapt: %s is %lld, not the %lld adapt (PID %ld) set last: "
			       "someone else changed it; left alone\n",
			       reclaim_knob_name(k), now, (long long)reclaim_lease_last(l, i), pid);
			break;
		case RECLAIM_LEASE_HELD:
			journal_adapt(k, now, before, reason, false);
			/* under ExecStopPost= standard output is the journal: it has the entry */
			if (!journal_is_stream(STDOUT_FILENO))
				printf("adapt: %s %lld -> %lld: %s\n", reclaim_knob_name(k), now,
				       before, reason);
			break;
		case RECLAIM_LEASE_AT_BEFORE:
			printf("adapt: %s is at the baseline %lld already\n", reclaim_knob_name(k),
			       before);
			break;
		}
	}
}

/* @quiet: starting, so a running adapt is refused as "already running". */
static int reset_dead(struct cli *cli, const struct adapt_options *o, bool quiet)
{
	struct reclaim_lease *l = NULL;
	struct reclaim_eval *e = NULL;
	char reason[96];
	int r = reclaim_lease_load(cli->ctx, "adapt", &l);

	if (r == -ENOENT) {
		if (!quiet)
			printf("adapt: nothing to reset\n");
		return 0;
	}
	if (r < 0)
		return lib_fail(cli, EXIT_FAILURE, "adapt");
	if (reclaim_lease_alive(l) && quiet)
		r = fail(EXIT_FAILURE,
			 "adapt: already running as PID %ld (" RECLAIM_ADAPT_STATE_FILE ")",
			 (long)reclaim_lease_pid(l));
	else if (reclaim_lease_alive(l))
		r = fail(EXIT_FAILURE, "adapt: PID %ld is running: stop it first",
			 (long)reclaim_lease_pid(l));
	if (r) {
		reclaim_lease_unref(l);
		return r;
	}
	snprintf(reason, sizeof(reason),
		 "adapt (PID %ld) ended without restoring: back to the baseline",
		 (long)reclaim_lease_pid(l));
	r = reclaim_lease_release(l, RECLAIM_REQUEST_ADAPT, request_flags(o), NULL, reason, &e);
	if (r < 0)
		r = lib_fail(cli, EXIT_FAILURE,
			     e || reclaim_lease_state(l, 0) == RECLAIM_LEASE_HELD
				 ? "adapt: putting back the baseline"
				 : "adapt");
	else
		reset_said(l, reason);
	reclaim_eval_unref(e);
	reclaim_lease_unref(l);
	return r;
}

/* ---- the command ---- */

/* Prints @text from column @indent (the cursor is there), wrapped before @width. */
static void wrap(FILE *out, const char *text, int indent, int width)
{
	int col = indent;

	while (*text) {
		size_t len = strcspn(text, " ");

		if (col > indent && col + 1 + (int)len > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)len, text);
		col += (int)len;
		text += len + strspn(text + len, " ");
	}
	fputc('\n', out);
}

/* The help says "a quarter" of the CPUs, as reclaim_adapt_default_max() takes. */
_Static_assert(RECLAIM_CPUS_PER_KSWAPD_MIN == 4, "adapt's help says a quarter");

static void adapt_help(FILE *out)
{
	const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS);

	fprintf(out,
		"Tune kswapd with the load: a kswapd thread more while the busiest node's kswapd\n"
		"threads are saturated and tasks reclaim directly (kernels with the reclaimctl\n"
		"patches); watermark_scale_factor a step higher while tasks reclaim directly and\n"
		"kswapd wakes too late, not saturated (every kernel); a step back after a longer\n"
		"quiet time, the watermark first. Every change goes through the change engine and\n"
		"the history (source adapt); on SIGTERM or SIGINT the values it started from are\n"
		"put back.\n"
		"\n"
		"Options:\n"
		"  -i, --interval SECONDS  sample every SECONDS (default 1)\n"
		"      --min N             never fewer threads (default: the value at start)\n"
		"      --max N             never more threads (default: a quarter of the CPUs of\n"
		"                          the smallest node with CPUs and memory, at most %lld)\n"
		"      --only KNOB         move only 'threads' or only 'watermark' (default: both\n"
		"                          where the kernel has them)\n"
		"      --dry-run           decide and log, never write\n"
		"      --once              one step (two samples an interval apart), then exit\n"
		"      --keep              on exit, leave the values as they are\n"
		"      --latency           also trace the direct reclaims (as 'reclaimctl\n"
		"                          latency' does): each reason names their p99\n"
		"  -f, --force             also when another sysctl file sets %s or\n"
		"                          vm.watermark_scale_factor\n"
		"      --replay FILE       the decisions adapt would have made during a recording\n"
		"      --reset             put back the baseline of an adapt that died (for\n"
		"                          ExecStopPost=)\n"
		"  -J, --json              one JSON object per line for each change\n"
		"  -h, --help              this help\n"
		"\n"
		"Thresholds (defaults in parentheses):\n",
		(long long)reclaim_knob_max(k), reclaim_knob_sysctl(k));
	for (size_t i = 0; i < reclaim_adapt_param_count(); i++) {
		enum reclaim_adapt_param p = (enum reclaim_adapt_param)i;
		char text[256];

		fprintf(out, "      --%s N%*s", reclaim_adapt_param_name(p),
			(int)(16 - strlen(reclaim_adapt_param_name(p))), "");
		snprintf(text, sizeof(text), "%s (%g)", reclaim_adapt_param_description(p),
			 reclaim_adapt_param_default(p));
		wrap(out, text, 26, 80);
	}
}

enum {
	OPT_MIN = OPT_COMMAND,
	OPT_MAX,
	OPT_ONCE,
	OPT_KEEP,
	OPT_LATENCY,
	OPT_REPLAY,
	OPT_RESET,
	OPT_ONLY,
	OPT_PARAM, /* OPT_PARAM + the parameter */
};

/* --min or --max (@opt): a value of kswapd_threads; 0 or the usage error. */
static int parse_threads(const char *opt, const char *s, int64_t *v)
{
	const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS);
	long n;

	if (!parse_count(s, &n) || n < reclaim_knob_min(k) || n > reclaim_knob_max(k))
		return usage_error("adapt: --%s: not a number of threads (%lld-%lld): '%s'", opt,
				   (long long)reclaim_knob_min(k), (long long)reclaim_knob_max(k),
				   s);
	*v = n;
	return 0;
}

static int parse_param(struct adapt_options *o, size_t p, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(v))
		return usage_error("adapt: --%s: not a number: '%s'",
				   reclaim_adapt_param_name((enum reclaim_adapt_param)p), arg);
	o->param[p] = v;
	o->param_set[p] = true;
	return 0;
}

static struct option *long_options(void)
{
	static const struct option fixed[] = {
	    {"interval", required_argument, NULL, 'i'},
	    {"min", required_argument, NULL, OPT_MIN},
	    {"max", required_argument, NULL, OPT_MAX},
	    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
	    {"once", no_argument, NULL, OPT_ONCE},
	    {"keep", no_argument, NULL, OPT_KEEP},
	    {"latency", no_argument, NULL, OPT_LATENCY},
	    {"force", no_argument, NULL, 'f'},
	    {"replay", required_argument, NULL, OPT_REPLAY},
	    {"reset", no_argument, NULL, OPT_RESET},
	    {"only", required_argument, NULL, OPT_ONLY},
	    COMMON_LONG_OPTIONS,
	};
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]), n = reclaim_adapt_param_count();
	struct option *opts = calloc(nfixed + n + 1, sizeof(*opts));

	if (!opts)
		abort();
	memcpy(opts, fixed, sizeof(fixed));
	for (size_t i = 0; i < n; i++)
		opts[nfixed + i] =
		    (struct option){reclaim_adapt_param_name((enum reclaim_adapt_param)i),
				    required_argument, NULL, OPT_PARAM + (int)i};
	return opts;
}

static int parse_option(struct cli *cli, struct adapt_options *o, int c, char **argv)
{
	bool done;
	int r;

	switch (c) {
	case 'i':
		if (!parse_seconds(optarg, false, &o->interval) || o->interval < 0.1)
			return usage_error("adapt: --interval: not a number of seconds (at least "
					   "0.1): '%s'",
					   optarg);
		return 0;
	case OPT_MIN:
	case OPT_MAX:
		return parse_threads(c == OPT_MIN ? "min" : "max", optarg,
				     c == OPT_MIN ? &o->min : &o->max);
	case OPT_DRY_RUN:
		o->dry_run = true;
		return 0;
	case OPT_ONCE:
		o->once = true;
		return 0;
	case OPT_KEEP:
		o->keep = true;
		return 0;
	case OPT_LATENCY:
		o->latency = true;
		return 0;
	case 'f':
		o->force = true;
		return 0;
	case OPT_REPLAY:
		o->replay = optarg;
		return 0;
	case OPT_RESET:
		o->reset = true;
		return 0;
	case OPT_ONLY:
		if (strcmp(optarg, "threads") && strcmp(optarg, "watermark"))
			return usage_error("adapt: --only: 'threads' or 'watermark', not '%s'",
					   optarg);
		o->only = optarg;
		return 0;
	default:
		if (c >= OPT_PARAM && (size_t)(c - OPT_PARAM) < o->nparams)
			return parse_param(o, (size_t)(c - OPT_PARAM), optarg);
		r = common_option(cli, &cmd_adapt, c, argv, &done);
		return done ? (r ? r : -1) : 0;
	}
}

static int parse_options(struct cli *cli, struct adapt_options *o, int argc, char **argv)
{
	struct option *opts = long_options();
	int c, r = 0;

	while (r == 0 &&
	       (c = getopt_long(argc, argv, COMMON_SHORT_OPTIONS "i:f", opts, NULL)) != -1)
		r = parse_option(cli, o, c, argv);
	free(opts);
	if (r)
		return r;
	if (optind < argc)
		return usage_error("adapt: unexpected argument '%s'", argv[optind]);
	if (o->min && o->max && o->min > o->max)
		return usage_error("adapt: --min %lld is above --max %lld", (long long)o->min,
				   (long long)o->max);
	if (o->reset && (o->replay || o->dry_run || o->once || o->keep || o->only))
		return usage_error("adapt: --reset takes no other option");
	if (o->only && !strcmp(o->only, "watermark") && (o->min || o->max))
		return usage_error("adapt: --min and --max bound kswapd_threads: not with --only "
				   "watermark");
	if (o->replay && (o->dry_run || o->once || o->keep || o->force))
		return usage_error("adapt: --replay writes nothing: --dry-run, --once, --keep and "
				   "--force do not apply");
	return 0;
}

static int run_adapt(struct cli *cli, int argc, char **argv)
{
	size_t n = reclaim_adapt_param_count();
	struct adapt_options o = {
	    .interval = 1.0,
	    .nparams = n,
	    .param = calloc(n, sizeof(double)),
	    .param_set = calloc(n, sizeof(bool)),
	};
	int r;

	if (!o.param || !o.param_set)
		abort();
	r = parse_options(cli, &o, argc, argv);
	if (r)
		r = r < 0 ? 0 : r;
	else if (o.replay)
		r = adapt_replay(cli, &o);
	else if (o.reset) {
		/* ExecStopPost=: the baseline put back goes to the journal too */
		journal_use(reclaim_is_live(cli->ctx));
		drift_note(cli);
		r = reset_dead(cli, &o, false);
	} else {
		drift_note(cli);
		r = run_daemon(cli, &o);
	}
	free(o.param);
	free(o.param_set);
	return r;
}

const struct command cmd_adapt = {
    .name = "adapt",
    .run = run_adapt,
    .args = "[-i SECONDS] [--min N] [--max N] [--only threads|watermark] [--dry-run] [--once] "
	    "[--keep] [--latency] | "
	    "--replay FILE | "
	    "--reset",
    .summary = "Tune kswapd threads and watermark with the measured load",
    .help = adapt_help,
    .reads_knobs = true,
};

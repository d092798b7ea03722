// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl adapt --replay FILE: the controller over a recording, sample by
 * sample as it is read, and every decision it would have made. The recorded
 * load did not react to those decisions (the threads recorded stay what
 * they were), so what stops the controller is its bounds, windows and
 * cooldown. The decisions are printed once the recording has been read to
 * its end: one found broken, or without a figure the controller takes,
 * prints nothing but the error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adapt.h"
#include "report.h"

static double number(const cJSON *o, const char *key, bool *has)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	*has = cJSON_IsNumber(v);
	return *has ? v->valuedouble : 0;
}

/* A recorded sample as the controller's figures; -EINVAL for one it cannot take. */
static int sample_of(struct reclaim_adapt_sample *s, const cJSON *o)
{
	const cJSON *t, *n;
	bool has;
	double interval = number(o, "interval", &has);
	int r = reclaim_adapt_sample_reset(s, has ? interval : 0);

	for (enum reclaim_figure f = 0; r == 0 && f < _RECLAIM_FIGURE_MAX; f++) {
		double v = number(o, reclaim_figure_text(f, RECLAIM_FIGURE_KEY), &has);

		if (has && reclaim_adapt_uses_figure(f) && f != RECLAIM_FIGURE_KSWAPD_CPU)
			r = reclaim_adapt_sample_set_figure(s, f, v);
	}
	cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(o, "threads"))
	{
		double node = number(t, "node", &has), cpu;

		if (r < 0 || !has)
			continue;
		cpu = number(t, "cpu_percent", &has);
		r = reclaim_adapt_sample_add_thread(s, (int)node, has ? cpu : 0);
	}
	cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(o, "nodes"))
	{
		double node = number(n, "node", &has), cpus, busy;
		bool has_cpus, has_busy;

		cpus = number(n, "cpus", &has_cpus);
		busy = number(n, "cpu_busy_percent", &has_busy);
		if (r == 0 && has && has_cpus && has_busy && cpus >= 1)
			r = reclaim_adapt_sample_set_node_cpus(s, (int)node, (unsigned int)cpus,
							       busy);
	}
	return r;
}

/* The default most threads from the recorded topology; 0 when the recording has none. */
static int64_t recorded_max(const cJSON *header)
{
	const cJSON *n;
	size_t smallest = 0;
	bool any = false;

	cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(header, "topology"))
	{
		bool has;
		double cpus = number(n, "cpus", &has);
		const cJSON *mem = cJSON_GetObjectItemCaseSensitive(n, "memory");

		any = true;
		if (!has || cpus < 1 || !cJSON_IsTrue(mem))
			continue;
		if (!smallest || (size_t)cpus < smallest)
			smallest = (size_t)cpus;
	}
	return any ? reclaim_adapt_max_for_cpus(smallest) : 0;
}

/* A knob's value in the header, keyed by name as the recorder writes them. */
static int64_t recorded_knob(const struct run *run, enum reclaim_knob_id id, bool *has)
{
	const cJSON *knobs = cJSON_GetObjectItemCaseSensitive(run->header, "knobs");
	double v = number(knobs, reclaim_knob_name(reclaim_knob_by_id(id)), has);

	return *has ? (int64_t)v : 0;
}

static int64_t recorded_threads(const struct run *run, bool *has)
{
	int64_t v = recorded_knob(run, RECLAIM_KNOB_KSWAPD_THREADS, has);

	return *has ? v : 1;
}

/* A replay, sample by sample as the recording is read. */
struct replay {
	struct cli *cli;
	const struct adapt_options *o;
	struct reclaim_adapt *adapt;
	struct reclaim_adapt_sample *sample;
	/* the changes, printed once the whole recording has been read and found sound */
	FILE *out;
	char *text;
	size_t len;
	int64_t start, top;   /* kswapd_threads; 0: not moved */
	int64_t wstart, wtop; /* watermark_scale_factor; 0: not moved */
	size_t changes;
	size_t refused; /* the sample the controller cannot take, from 1; 0: none */
	double elapsed;
};

/*
 * The knobs the replay moves, as adapt would have on the recorded kernel:
 * kswapd_threads if it had them (from 1 with --only threads, or when it
 * had neither knob), watermark_scale_factor if recorded.
 */
static void replay_knobs(const struct replay *rp, const struct run *run, bool *threads,
			 bool *watermark)
{
	const char *only = rp->o->only;
	bool has_threads, has_wmark;

	recorded_knob(run, RECLAIM_KNOB_KSWAPD_THREADS, &has_threads);
	recorded_knob(run, RECLAIM_KNOB_WATERMARK_SCALE_FACTOR, &has_wmark);
	*watermark = has_wmark && (!only || strcmp(only, "watermark") == 0);
	*threads = !only ? has_threads || !has_wmark : strcmp(only, "threads") == 0;
}

/* The controller for the recording's header; errors are said at once, warnings by replay_warn(). */
static int replay_new(struct replay *rp, const struct run *run)
{
	bool has, threads, watermark;
	int64_t start = recorded_threads(run, &has), max = recorded_max(run->header);
	const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS);
	int r;

	replay_knobs(rp, run, &threads, &watermark);
	if (!threads && !watermark)
		return fail(EXIT_FAILURE,
			    "%s: no watermark_scale_factor recorded: nothing for --only "
			    "watermark to replay",
			    run->file);
	if (threads && (start < reclaim_knob_min(k) || start > reclaim_knob_max(k)))
		return fail(EXIT_FAILURE, "%s: kswapd_threads %lld is outside %lld-%lld", run->file,
			    (long long)start, (long long)reclaim_knob_min(k),
			    (long long)reclaim_knob_max(k));
	if (reclaim_adapt_new(rp->cli->ctx, NULL, threads ? start : 0, &rp->adapt) < 0 ||
	    reclaim_adapt_sample_new(rp->cli->ctx, &rp->sample) < 0)
		return lib_fail(rp->cli, EXIT_FAILURE, "adapt");
	if (!max)
		max = reclaim_knob_max(k);
	if (threads && reclaim_adapt_set_max(rp->adapt, max < start ? start : max) < 0)
		return lib_fail(rp->cli, EXIT_FAILURE, "adapt");
	if (watermark &&
	    reclaim_adapt_add_watermark(
		rp->adapt, recorded_knob(run, RECLAIM_KNOB_WATERMARK_SCALE_FACTOR, &has)) < 0)
		return fail(EXIT_FAILURE, "%s: %s", run->file, reclaim_strerror(rp->cli->ctx));
	r = adapt_configure(rp->cli, rp->adapt, rp->o);
	rp->start = rp->top = reclaim_adapt_threads(rp->adapt);
	rp->wstart = rp->wtop = watermark ? reclaim_adapt_watermark(rp->adapt) : 0;
	return r;
}

static void replay_warn(const struct replay *rp, const struct run *run)
{
	const struct reclaim_knob *k = reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS);
	bool has;

	if (rp->cli->json)
		return;
	if (!recorded_max(run->header) && !rp->o->max)
		warnmsg("%s has no topology (an older recording): up to %lld threads; "
			"--max sets another bound",
			run->file, (long long)reclaim_knob_max(k));
	recorded_threads(run, &has);
	if (!has && rp->start)
		warnmsg("%s: the kernel had no kswapd_threads: starting from 1 thread per node",
			run->file);
}

/* One sample through the controller (the sink of the reader). */
static int replay_sample(void *data, struct run *run, const cJSON *o)
{
	struct replay *rp = data;
	const struct reclaim_knob *k;
	int64_t old, wold, now;
	bool has;
	int r;

	if (!rp->adapt) {
		r = replay_new(rp, run);
		if (r)
			return r;
	}
	if (rp->refused)
		return 0;
	old = reclaim_adapt_threads(rp->adapt);
	wold = reclaim_adapt_watermark(rp->adapt);
	rp->elapsed = number(o, "elapsed", &has);
	if (sample_of(rp->sample, o) < 0) {
		/* said once the recording is known to be sound, after the changes before it */
		rp->refused = run->nsamples;
		return 0;
	}
	if (reclaim_adapt_step(rp->adapt, rp->sample) != RECLAIM_ADAPT_CHANGE)
		return 0;
	rp->changes++;
	k = reclaim_adapt_changed(rp->adapt);
	if (k == reclaim_knob_by_id(RECLAIM_KNOB_WATERMARK_SCALE_FACTOR)) {
		now = reclaim_adapt_watermark(rp->adapt);
		rp->wtop = now > rp->wtop ? now : rp->wtop;
	} else {
		now = reclaim_adapt_threads(rp->adapt);
		rp->top = now > rp->top ? now : rp->top;
		wold = old;
	}
	adapt_print(rp->cli, rp->out, rp->elapsed, 0, k, wold, now, reclaim_adapt_reason(rp->adapt),
		    false);
	return 0;
}

/* The changes, then the summary line or the sample the controller could not take. */
static int replay_end(struct replay *rp, const struct run *run)
{
	replay_warn(rp, run);
	fclose(rp->out);
	rp->out = NULL;
	fwrite(rp->text, 1, rp->len, stdout);
	if (rp->refused)
		return fail(EXIT_FAILURE, "%s: sample %zu: a figure the controller cannot take",
			    run->file, rp->refused);
	if (!rp->cli->json) {
		printf("%zu sample%s over %.1f s: %zu change%s", run->nsamples,
		       run->nsamples == 1 ? "" : "s", rp->elapsed, rp->changes,
		       rp->changes == 1 ? "" : "s");
		if (rp->start)
			printf("; kswapd_threads %lld at the start, %lld at most, %lld at the end",
			       (long long)rp->start, (long long)rp->top,
			       (long long)reclaim_adapt_threads(rp->adapt));
		if (rp->wstart)
			printf(
			    "; watermark_scale_factor %lld at the start, %lld at most, %lld at the "
			    "end",
			    (long long)rp->wstart, (long long)rp->wtop,
			    (long long)reclaim_adapt_watermark(rp->adapt));
		putchar('\n');
	}
	flush_stdout();
	return 0;
}

/* A figure the controller takes that the recording has neither recorded nor the sources of. */
static int refuse_missing(const struct run *run)
{
	char *missing = run_missing(run, reclaim_adapt_uses_figure);
	int r = 0;

	if (missing)
		r = fail(EXIT_FAILURE,
			 "%s: neither recorded nor computable from its counters: %s: nothing to "
			 "replay",
			 run->file, missing);
	free(missing);
	return r;
}

int adapt_replay(struct cli *cli, const struct adapt_options *o)
{
	struct replay rp = {.cli = cli, .o = o};
	const struct sample_sink sink = {replay_sample, &rp};
	struct run run;
	int r;

	rp.out = open_memstream(&rp.text, &rp.len);
	if (!rp.out)
		abort();
	r = read_run(cli, o->replay, &run, &sink);
	if (r == 0)
		r = refuse_missing(&run);
	if (r == 0)
		r = replay_end(&rp, &run);
	if (rp.out)
		fclose(rp.out);
	free(rp.text);
	reclaim_adapt_sample_unref(rp.sample);
	reclaim_adapt_unref(rp.adapt);
	run_free(&run);
	return r;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * adapt-step - the parts of one adapt step, timed back to back (caches hot):
 * a sample of the sampler, the controller's figures from two samples, one
 * step. With --sleep-loop SECONDS, instead: a loop that only wakes up every
 * interval, the floor under any daemon's cost per sample on this machine.
 * Built and run by bench/adapt-overhead.sh.
 *
 *   adapt-step ROOT N
 *   adapt-step --sleep-loop SECONDS
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <reclaim.h>

static double cpu_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static _Noreturn void sleep_loop(double seconds)
{
	long step = (long)(seconds * 1e9);
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	for (;;) {
		t.tv_nsec += step;
		t.tv_sec += t.tv_nsec / 1000000000;
		t.tv_nsec %= 1000000000;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	}
}

int main(int argc, char **argv)
{
	unsigned int flags = RECLAIM_SAMPLER_CPUS | RECLAIM_SAMPLER_THREADS_KNOB;
	struct reclaim_sample *prev, *cur;
	struct reclaim_adapt_sample *fig;
	struct reclaim_sampler *sampler;
	struct reclaim_adapt *adapt;
	struct reclaim_ctx *ctx;
	double t[3] = {0};
	long n;

	if (argc == 3 && strcmp(argv[1], "--sleep-loop") == 0)
		sleep_loop(atof(argv[2]));
	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: adapt-step ROOT N | --sleep-loop SECONDS\n");
		return 2;
	}
	if (reclaim_new(&ctx, argv[1]) < 0 || reclaim_sampler_new(ctx, flags, &sampler) < 0 ||
	    reclaim_sampler_read(sampler, &prev) < 0 ||
	    reclaim_adapt_new(ctx, NULL, 1, &adapt) < 0 ||
	    reclaim_adapt_sample_new(ctx, &fig) < 0) {
		fprintf(stderr, "adapt-step: %s\n", ctx ? reclaim_strerror(ctx) : "no context");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		double t0 = cpu_us(), t1, t2;

		if (reclaim_sampler_read(sampler, &cur) < 0) {
			fprintf(stderr, "adapt-step: %s\n", reclaim_strerror(ctx));
			return 1;
		}
		t1 = cpu_us();
		reclaim_adapt_sample_fill(fig, prev, cur);
		t2 = cpu_us();
		reclaim_adapt_step(adapt, fig);
		t[0] += t1 - t0;
		t[1] += t2 - t1;
		t[2] += cpu_us() - t2;
		reclaim_sample_unref(prev);
		prev = cur;
	}
	printf("%.1f %.1f %.2f\n", t[0] / (double)n, t[1] / (double)n, t[2] / (double)n);
	reclaim_sample_unref(prev);
	reclaim_adapt_sample_unref(fig);
	reclaim_adapt_unref(adapt);
	reclaim_sampler_unref(sampler);
	reclaim_unref(ctx);
	return 0;
}

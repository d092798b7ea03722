/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RECLAIMCTL_SNAPSHOT_H
#define RECLAIMCTL_SNAPSHOT_H

#include "reclaimctl.h"

/* snapshot.c: Everything status reports, read once. Parts the kernel lacks stay NULL. */
struct snapshot {
	struct reclaim_topology *topo;
	struct reclaim_kswapd_list *kswapd;
	struct reclaim_vmstat *vmstat;
	struct reclaim_pressure *pressure;
	char *pressure_missing;
	struct reclaim_swaps *swaps; /* NULL without /proc/swaps */
	char *swaps_missing;
	bool *has_knob; /* indexed like the knob table */
	int64_t *knob_value;
	/* false for a root without sysctls (a dump): nothing is known of the knobs */
	bool sysctls;
	/* The knobs reclaimctl answers for, judged; NULL and why if that failed. */
	struct reclaim_verify *verify;
	char *verify_error;
};

/* Reads everything; 0 or an exit status (the error already printed). */
int snapshot_read(struct cli *cli, struct snapshot *s);
/*
 * Judges the knobs reclaimctl answers for (reclaim_verify_new, which notes
 * another writer's value in the history): one read of the history for
 * every part of status.
 */
void snapshot_verify(struct cli *cli, struct snapshot *s);
void snapshot_free(struct snapshot *s);

/* prometheus.c: status --prometheus; to stdout, or to DIR/reclaimctl.prom when @textfile_dir. */
int prometheus_status(struct cli *cli, const struct snapshot *s, const char *textfile_dir);
/*
 * latency --prometheus: how long reclaim made tasks wait since @l started, as
 * histograms (and the longest, a gauge); to stdout, or to
 * DIR/PROMETHEUS_LATENCY_FILE when @textfile_dir.
 */
#define PROMETHEUS_LATENCY_FILE "reclaimctl-latency.prom"
int prometheus_latency(struct cli *cli, const struct reclaim_latency *l, const char *textfile_dir);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reclaimctl status --prometheus / --textfile DIR: the state in Prometheus'
 * text exposition format (version 0.0.4), every family with HELP and TYPE,
 * base units (bytes, seconds), counters ending in _total.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "reclaimctl.h"
#include "snapshot.h"

struct prom {
	struct cli *cli;
	FILE *out;
};

static void family(struct prom *p, const char *name, const char *type, const char *help)
{
	fprintf(p->out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A label value with \, " and newlines escaped. */
static void label_value(FILE *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(out, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", out);
		else
			fputc(*v, out);
	}
}

/* name{k1="v1",k2="v2"} value; @labels is NULL or "k1", "v1", ..., NULL. */
static void sample(struct prom *p, const char *name, const char *const *labels, const char *value)
{
	fputs(name, p->out);
	for (size_t i = 0; labels && labels[i]; i += 2) {
		fprintf(p->out, "%s%s=\"", i ? "," : "{", labels[i]);
		label_value(p->out, labels[i + 1]);
		fputc('"', p->out);
		if (!labels[i + 2])
			fputc('}', p->out);
	}
	fprintf(p->out, " %s\n", value);
}

static void sample_u64(struct prom *p, const char *name, const char *const *labels, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	sample(p, name, labels, buf);
}

static void sample_double(struct prom *p, const char *name, const char *const *labels, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.15g", v);
	sample(p, name, labels, buf);
}

/*
 * Every family, as data: its name, type and HELP. man/reclaimctl.8 (PROMETHEUS
 * METRICS) lists the same names; tests/cli/check-prometheus.sh checks that each
 * is exported on the patched fixture, and the Grafana dashboard's test that it
 * queries no other.
 */
enum metric {
	M_INFO,
	M_KNOB_SUPPORTED,
	M_KNOB_VALUE,
	M_KNOB_SIZE,
	M_KNOB_CHOICE,
	M_KNOB_DRIFTED,
	M_CHECK_CONFLICT,
	M_CHECK_OVERRIDDEN,
	M_BOOT_SUCCESS,
	M_BOOT_TIME,
	M_KSWAPD_THREADS,
	M_KSWAPD_CPU,
	M_NODE_TOTAL,
	M_NODE_FREE,
	M_RING_DEVICES,
	M_RING_SIZE,
	M_RING_USED,
	M_RING_BALANCE,
	M_DEVICE_SIZE,
	M_DEVICE_USED,
	M_TEXTFILE_TIME,
};

static const struct metric_info {
	const char *name, *type, *help;
} metrics[] = {
    [M_INFO] = {"reclaim_info", "gauge", "reclaimctl's version and the kernel release; always 1."},
    [M_KNOB_SUPPORTED] = {"reclaim_knob_supported", "gauge",
			  "Whether the running kernel has the reclaim knob (1) or not (0)."},
    [M_KNOB_VALUE] = {"reclaim_knob_value", "gauge",
		      "Value of a reclaim knob that is a count, a mode, a bit mask or a boolean "
		      "(1: Y or true; sizes are in reclaim_knob_size_bytes, names in "
		      "reclaim_knob_choice)."},
    [M_KNOB_SIZE] = {"reclaim_knob_size_bytes", "gauge",
		     "Value of a reclaim knob that is a size, in bytes (the kernel's KiB times "
		     "1024)."},
    [M_KNOB_CHOICE] = {"reclaim_knob_choice", "gauge",
		       "The name a reclaim knob of names is set to (zswap_compressor), in the "
		       "label value; always 1."},
    [M_KNOB_DRIFTED] = {"reclaim_knob_drifted", "gauge",
			"1 if another writer changed the knob since reclaimctl set it (reclaimctl "
			"verify: drifted; check, exit bit 128); knobs reclaimctl changed since "
			"boot, persisted, or set by the boot preset."},
    [M_CHECK_CONFLICT] = {"reclaim_check_conflict", "gauge",
			  "1 if a sysctl file other than reclaimctl's sets the knob (reclaimctl "
			  "check, exit bit 8)."},
    [M_CHECK_OVERRIDDEN] = {"reclaim_check_persisted_overridden", "gauge",
			    "1 if the value persisted with --persist is overridden at boot by "
			    "another sysctl file (reclaimctl check, exit bit 16)."},
    [M_BOOT_SUCCESS] = {"reclaim_boot_success", "gauge",
			"1 if the last run of the boot unit (reclaimctl boot) since boot "
			"succeeded, 0 if it failed."},
    [M_BOOT_TIME] = {"reclaim_boot_timestamp_seconds", "gauge",
		     "When the boot unit last ran, in seconds since the epoch."},
    [M_KSWAPD_THREADS] = {"reclaim_kswapd_threads", "gauge",
			  "kswapd threads serving the NUMA node."},
    [M_KSWAPD_CPU] = {"reclaim_kswapd_cpu_seconds_total", "counter",
		      "CPU time (user + system) used by one kswapd thread."},
    [M_NODE_TOTAL] = {"reclaim_node_memory_total_bytes", "gauge",
		      "Memory of the NUMA node (MemTotal)."},
    [M_NODE_FREE] = {"reclaim_node_memory_free_bytes", "gauge",
		     "Free memory of the NUMA node (MemFree)."},
    [M_RING_DEVICES] = {"reclaim_swap_ring_devices", "gauge",
			"Swap devices in the priority ring (devices of one priority)."},
    [M_RING_SIZE] = {"reclaim_swap_ring_size_bytes", "gauge",
		     "Size of the swap devices of the priority ring."},
    [M_RING_USED] = {"reclaim_swap_ring_used_bytes", "gauge",
		     "Used space of the swap devices of the priority ring."},
    [M_RING_BALANCE] = {"reclaim_swap_ring_balance_ratio", "gauge",
			"How evenly the ring's devices are used: the least used device's "
			"used/size over the most used one's (1: even)."},
    [M_DEVICE_SIZE] = {"reclaim_swap_device_size_bytes", "gauge", "Size of the swap device."},
    [M_DEVICE_USED] = {"reclaim_swap_device_used_bytes", "gauge", "Used space of the swap device."},
    [M_TEXTFILE_TIME] = {"reclaim_textfile_timestamp_seconds", "gauge",
			 "When reclaimctl status --textfile wrote this file, in seconds since "
			 "the epoch (alert when it grows old)."},
};

/* The HELP of the reclaim counters that are the source of no figure of the catalogue. */
static const struct {
	const char *vmstat, *help;
} other_counters[] = {
    {"pageoutrun", "Times kswapd ran a reclaim pass"},
    {"pgrefill", "Pages moved from the active to the inactive lists"},
};

static void family_of(struct prom *p, enum metric m)
{
	family(p, metrics[m].name, metrics[m].type, metrics[m].help);
}

static void knob_sample(struct prom *p, enum metric m, const struct reclaim_knob *k, uint64_t v)
{
	const char *l[] = {"knob", reclaim_knob_name(k), NULL};

	sample_u64(p, metrics[m].name, l, v);
}

static bool is_size(const struct reclaim_knob *k)
{
	return reclaim_knob_unit(k) == RECLAIM_UNIT_KB;
}

/* Whether the kernel has a knob of names (zswap_compressor). */
static bool any_choice(const struct snapshot *s)
{
	for (size_t i = 0; i < reclaim_knob_count(); i++)
		if (s->has_knob[i] &&
		    reclaim_knob_type(reclaim_knob_get(i)) == RECLAIM_KNOB_TYPE_CHOICE)
			return true;
	return false;
}

static void knobs(struct prom *p, const struct snapshot *s)
{
	size_t n = reclaim_knob_count();

	family_of(p, M_KNOB_SUPPORTED);
	for (size_t i = 0; i < n; i++)
		knob_sample(p, M_KNOB_SUPPORTED, reclaim_knob_get(i), s->has_knob[i]);
	for (enum metric m = M_KNOB_VALUE; m <= M_KNOB_CHOICE; m++) {
		/* a family without samples is one node_exporter does not serve */
		if (m != M_KNOB_CHOICE || any_choice(s))
			family_of(p, m);
		for (size_t i = 0; i < n; i++) {
			const struct reclaim_knob *k = reclaim_knob_get(i);
			bool choice = reclaim_knob_type(k) == RECLAIM_KNOB_TYPE_CHOICE;
			const char *l[] = {"knob", reclaim_knob_name(k), "value",
					   KNOB_TEXT(k, s->knob_value[i]), NULL};
			char buf[32];

			if (!s->has_knob[i] || is_size(k) != (m == M_KNOB_SIZE) ||
			    choice != (m == M_KNOB_CHOICE))
				continue;
			if (choice) {
				sample(p, metrics[m].name, l, "1");
				continue;
			}
			l[2] = NULL;
			snprintf(buf, sizeof(buf), "%" PRId64,
				 m == M_KNOB_SIZE ? s->knob_value[i] * 1024 : s->knob_value[i]);
			sample(p, metrics[m].name, l, buf);
		}
	}
}

/*
 * The knobs reclaimctl is responsible for (reclaimctl verify's), 1 for one
 * another writer changed: verify's "drifted" and check's exit bit 128.
 */
static void drift(struct prom *p, const struct snapshot *s)
{
	const struct reclaim_verify *v = s->verify;
	bool any = false;

	if (!v) {
		warnmsg("%s: no reclaim_knob_drifted", s->verify_error);
		return;
	}
	for (size_t i = 0; i < reclaim_verify_count(v); i++) {
		if (!reclaim_verify_has_live(v, i))
			continue;
		if (!any)
			family_of(p, M_KNOB_DRIFTED);
		any = true;
		knob_sample(p, M_KNOB_DRIFTED, reclaim_verify_knob(v, i),
			    reclaim_verify_state(v, i) == RECLAIM_VERIFY_DRIFTED);
	}
}

/* What reclaimctl check reports with its bits 8 and 16, per knob. */
static void check(struct prom *p)
{
	struct reclaim_sysctl_conf *c = NULL;

	if (reclaim_sysctl_conf_new(p->cli->ctx, &c) < 0) {
		warnmsg("%s: no reclaim_check_*", reclaim_strerror(p->cli->ctx));
		return;
	}
	for (enum metric m = M_CHECK_CONFLICT; m <= M_CHECK_OVERRIDDEN; m++) {
		family_of(p, m);
		for (size_t i = 0; i < reclaim_knob_count(); i++) {
			const struct reclaim_knob *k = reclaim_knob_get(i);
			bool v = m == M_CHECK_CONFLICT ? reclaim_sysctl_conf_admin_entry(c, k) >= 0
						       : reclaim_sysctl_conf_overridden(c, k);

			knob_sample(p, m, k, v);
		}
	}
	reclaim_sysctl_conf_unref(c);
}

/* How the boot unit's last run ended; nothing when it has not run since boot. */
static void boot(struct prom *p)
{
	int64_t ns;
	bool ok;
	int r = reclaim_boot_result_load(p->cli->ctx, &ok, &ns);

	if (r == -ENOENT)
		return;
	if (r < 0) {
		warnmsg("%s: no reclaim_boot_success", reclaim_strerror(p->cli->ctx));
		return;
	}
	family_of(p, M_BOOT_SUCCESS);
	sample_u64(p, metrics[M_BOOT_SUCCESS].name, NULL, ok);
	family_of(p, M_BOOT_TIME);
	sample_double(p, metrics[M_BOOT_TIME].name, NULL, (double)ns / 1e9);
}

static void threads(struct prom *p, const struct reclaim_topology *topo,
		    const struct reclaim_kswapd_list *list)
{
	family_of(p, M_KSWAPD_THREADS);
	for (size_t i = 0; i < reclaim_topology_node_count(topo); i++) {
		int id = reclaim_node_id(reclaim_topology_node(topo, i));
		char node[16];
		const char *l[] = {"node", node, NULL};

		snprintf(node, sizeof(node), "%d", id);
		sample_u64(p, metrics[M_KSWAPD_THREADS].name, l,
			   reclaim_kswapd_list_count_node(list, id));
	}
	family_of(p, M_KSWAPD_CPU);
	for (size_t i = 0; i < reclaim_kswapd_list_count(list); i++) {
		const struct reclaim_kswapd *k = reclaim_kswapd_list_get(list, i);
		char node[16];
		const char *l[] = {"thread", reclaim_kswapd_name(k), "node", node, NULL};

		snprintf(node, sizeof(node), "%d", reclaim_kswapd_node(k));
		sample_double(p, metrics[M_KSWAPD_CPU].name, l, reclaim_kswapd_cpu_seconds(k));
	}
}

static void nodes(struct prom *p, const struct reclaim_topology *topo)
{
	for (enum metric m = M_NODE_TOTAL; m <= M_NODE_FREE; m++) {
		family_of(p, m);
		for (size_t i = 0; i < reclaim_topology_node_count(topo); i++) {
			const struct reclaim_node *n = reclaim_topology_node(topo, i);
			uint64_t kb = m == M_NODE_FREE ? reclaim_node_mem_free_kb(n)
						       : reclaim_node_mem_total_kb(n);
			char node[16];
			const char *l[] = {"node", node, NULL};

			snprintf(node, sizeof(node), "%d", reclaim_node_id(n));
			sample_u64(p, metrics[m].name, l, kb * 1024);
		}
	}
}

static const char *other_help(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(other_counters); i++)
		if (strcmp(other_counters[i].vmstat, name) == 0)
			return other_counters[i].help;
	return "Reclaim counter";
}

/* Counter @i and those after it of family @f (allocstall_*): one metric, a label each. */
static void family_counters(struct prom *p, const struct reclaim_vmstat *vs, size_t i,
			    enum reclaim_figure f)
{
	const char *metric = reclaim_figure_text(f, RECLAIM_FIGURE_METRIC);
	const char *source = reclaim_figure_source(f, 0);
	char help[256];

	snprintf(help, sizeof(help), "%s (/proc/vmstat %s*).",
		 reclaim_figure_text(f, RECLAIM_FIGURE_HELP), source);
	family(p, metric, "counter", help);
	for (size_t j = i; j < reclaim_vmstat_count(vs); j++) {
		const char *other = reclaim_vmstat_name(vs, j);

		if (reclaim_figure_of_counter(other) == (int)f) {
			const char *l[] = {reclaim_figure_family_label(f), other + strlen(source),
					   NULL};

			sample_u64(p, metric, l, reclaim_vmstat_value(vs, j));
		}
	}
}

/* Counter @i: named for the figure it is the source of, or reclaim_vmstat_NAME_total. */
static void counters(struct prom *p, const struct reclaim_vmstat *vs)
{
	size_t n = vs ? reclaim_vmstat_count(vs) : 0;

	for (size_t i = 0; i < n; i++) {
		const char *name = reclaim_vmstat_name(vs, i);
		int f = reclaim_figure_of_counter(name);
		char metric[160], help[256];
		bool first = true;

		if (f >= 0 && reclaim_figure_by_node_exporter(f))
			continue;
		if (f >= 0 && reclaim_figure_family_label(f) &&
		    name[strlen(reclaim_figure_source(f, 0)) - 1] == '_') {
			/* a family of several counters: once, at the first of them */
			for (size_t j = 0; j < i && first; j++)
				first = reclaim_figure_of_counter(reclaim_vmstat_name(vs, j)) != f;
			if (first)
				family_counters(p, vs, i, f);
			continue;
		}
		snprintf(metric, sizeof(metric), "reclaim_vmstat_%s_total", name);
		snprintf(help, sizeof(help), "%s (/proc/vmstat %s).",
			 f >= 0 ? reclaim_figure_text(f, RECLAIM_FIGURE_HELP) : other_help(name),
			 name);
		family(p, f >= 0 ? reclaim_figure_text(f, RECLAIM_FIGURE_METRIC) : metric,
		       "counter", help);
		sample_u64(p, f >= 0 ? reclaim_figure_text(f, RECLAIM_FIGURE_METRIC) : metric, NULL,
			   reclaim_vmstat_value(vs, i));
	}
}

static void swap_rings(struct prom *p, const struct reclaim_swaps *swaps)
{
	if (!swaps)
		return;
	for (enum metric m = M_RING_DEVICES; m <= M_RING_BALANCE; m++) {
		family_of(p, m);
		for (size_t i = 0; i < reclaim_swaps_ring_count(swaps); i++) {
			const struct reclaim_swap_ring *ring = reclaim_swaps_ring(swaps, i);
			char prio[16];
			const char *l[] = {"priority", prio, NULL};

			snprintf(prio, sizeof(prio), "%d", reclaim_swap_ring_priority(ring));
			if (m == M_RING_BALANCE)
				sample_double(p, metrics[m].name, l,
					      reclaim_swap_ring_balance(ring));
			else
				sample_u64(p, metrics[m].name, l,
					   m == M_RING_DEVICES ? reclaim_swap_ring_count(ring)
					   : m == M_RING_SIZE
					       ? reclaim_swap_ring_size_kb(ring) * 1024
					       : reclaim_swap_ring_used_kb(ring) * 1024);
		}
	}
}

static void swap_devices(struct prom *p, const struct reclaim_swaps *swaps)
{
	if (!swaps)
		return;
	for (enum metric m = M_DEVICE_SIZE; m <= M_DEVICE_USED; m++) {
		family_of(p, m);
		for (size_t i = 0; i < reclaim_swaps_count(swaps); i++) {
			const struct reclaim_swap *sw = reclaim_swaps_get(swaps, i);
			char prio[16];
			const char *l[] = {
			    "device",	reclaim_swap_path(sw),
			    "priority", prio,
			    "kind",	reclaim_swap_kind_name(reclaim_swap_kind(sw)),
			    NULL};

			snprintf(prio, sizeof(prio), "%d", reclaim_swap_priority(sw));
			sample_u64(p, metrics[m].name, l,
				   (m == M_DEVICE_SIZE ? reclaim_swap_size_kb(sw)
						       : reclaim_swap_used_kb(sw)) *
				       1024);
		}
	}
}

static void info(struct prom *p)
{
	const char *release = reclaim_kernel_release(p->cli->ctx);
	const char *l[] = {"version", RECLAIMCTL_VERSION, "kernel", release ? release : "unknown",
			   NULL};

	family_of(p, M_INFO);
	sample(p, metrics[M_INFO].name, l, "1");
}

static void collect(struct prom *p, const struct snapshot *s)
{
	info(p);
	knobs(p, s);
	drift(p, s);
	check(p);
	boot(p);
	threads(p, s->topo, s->kswapd);
	nodes(p, s->topo);
	counters(p, s->vmstat);
	swap_rings(p, s->swaps);
	swap_devices(p, s->swaps);
}

/* Last, in a textfile only: when it was written, to alert on a stale one. */
static void textfile_time(struct prom *p)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	family_of(p, M_TEXTFILE_TIME);
	sample_double(p, metrics[M_TEXTFILE_TIME].name, NULL,
		      (double)now.tv_sec + (double)now.tv_nsec / 1e9);
}

/* DIR/NAME through a temporary file and rename(): node_exporter never reads half. */
static int write_textfile(const char *dir, const char *name, const char *text, size_t len)
{
	char *tmp, *dest;
	int fd, r = 0;

	if (asprintf(&tmp, "%s/.%s.XXXXXX", dir, name) < 0 ||
	    asprintf(&dest, "%s/%s", dir, name) < 0)
		abort();
	fd = mkstemp(tmp);
	if (fd < 0) {
		r = fail(EXIT_FAILURE, "--textfile %s: %s", dir, strerror(errno));
		goto out;
	}
	if (fchmod(fd, 0644) < 0 || write(fd, text, len) != (ssize_t)len || fsync(fd) < 0)
		r = errno ? -errno : -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, dest) < 0)
		r = -errno;
	if (r < 0) {
		r = fail(EXIT_FAILURE, "cannot write %s: %s", dest, strerror(-r));
		unlink(tmp);
	}
out:
	free(tmp);
	free(dest);
	return r;
}

/* What @fill writes, to standard output or to DIR/@name (through write_textfile()). */
static int emit(struct prom *p, void (*fill)(struct prom *p, const void *data), const void *data,
		const char *textfile_dir, const char *name)
{
	char *text = NULL;
	size_t len = 0;
	int r = 0;

	p->out = open_memstream(&text, &len);
	if (!p->out)
		abort();
	fill(p, data);
	if (fclose(p->out) != 0)
		abort();
	if (textfile_dir)
		r = write_textfile(textfile_dir, name, text, len);
	else
		fwrite(text, 1, len, stdout);
	free(text);
	return r;
}

static void status_fill(struct prom *p, const void *data)
{
	collect(p, data);
}

static void textfile_fill(struct prom *p, const void *data)
{
	collect(p, data);
	textfile_time(p);
}

int prometheus_status(struct cli *cli, const struct snapshot *s, const char *textfile_dir)
{
	struct prom p = {.cli = cli};

	return emit(&p, textfile_dir ? textfile_fill : status_fill, s, textfile_dir,
		    "reclaimctl.prom");
}

/* ---- latency --prometheus / --textfile DIR: the run's waits ---- */

/* The buckets exported: up to 2^25 us (34 s), the same at every scrape; the rest in +Inf. */
#define LATENCY_LE_MAX 25

static void latency_histogram(struct prom *p, const struct reclaim_latency *l,
			      enum reclaim_latency_kind kind, const char *name)
{
	const enum reclaim_latency_span run = RECLAIM_LATENCY_RUN;
	char metric[128], le[32];
	uint64_t n = 0;

	snprintf(metric, sizeof(metric), "%s_bucket", name);
	for (size_t k = 0; k <= LATENCY_LE_MAX; k++) {
		const char *labels[] = {"le", le, NULL};

		n += reclaim_latency_bucket(l, kind, run, k);
		snprintf(le, sizeof(le), "%.15g", (double)(UINT64_C(1) << k) / 1e6);
		sample_u64(p, metric, labels, n);
	}
	sample_u64(p, metric, (const char *const[]){"le", "+Inf", NULL},
		   reclaim_latency_count(l, kind, run));
	snprintf(metric, sizeof(metric), "%s_sum", name);
	sample_double(p, metric, NULL, (double)reclaim_latency_total_us(l, kind, run) / 1e6);
	snprintf(metric, sizeof(metric), "%s_count", name);
	sample_u64(p, metric, NULL, reclaim_latency_count(l, kind, run));
}

/* The catalogue's latency figures: a histogram for a percentile, a gauge for the longest. */
static void latency_collect(struct prom *p, const struct reclaim_latency *l)
{
	for (enum reclaim_figure f = 0; f < _RECLAIM_FIGURE_MAX; f++) {
		const char *name = reclaim_figure_text(f, RECLAIM_FIGURE_METRIC);
		enum reclaim_latency_kind kind;
		unsigned permille;
		char help[256];

		if (reclaim_figure_latency(f, &kind, &permille) < 0 ||
		    !reclaim_latency_has(l, kind))
			continue;
		snprintf(help, sizeof(help), "%s, in seconds.",
			 reclaim_figure_text(f, RECLAIM_FIGURE_HELP));
		family(p, name, permille == 1000 ? "gauge" : "histogram", help);
		if (permille == 1000)
			sample_double(p, name, NULL,
				      (double)reclaim_latency_max_us(l, kind, RECLAIM_LATENCY_RUN) /
					  1e6);
		else
			latency_histogram(p, l, kind, name);
	}
}

static void latency_fill(struct prom *p, const void *data)
{
	latency_collect(p, data);
}

int prometheus_latency(struct cli *cli, const struct reclaim_latency *l, const char *textfile_dir)
{
	struct prom p = {.cli = cli};

	return emit(&p, latency_fill, l, textfile_dir, PROMETHEUS_LATENCY_FILE);
}

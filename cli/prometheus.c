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
#include <unistd.h>

#include "reclaimctl.h"

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

static void knobs(struct prom *p, const struct snapshot *s)
{
	size_t n = reclaim_knob_count();

	family(p, "reclaim_knob_supported", "gauge",
	       "Whether the running kernel has the reclaim sysctl (1) or not (0).");
	for (size_t i = 0; i < n; i++) {
		const char *l[] = {"knob", reclaim_knob_name(reclaim_knob_get(i)), NULL};

		sample_u64(p, "reclaim_knob_supported", l, (uint64_t)s->has_knob[i]);
	}
	family(p, "reclaim_knob_value", "gauge",
	       "Value of a reclaim sysctl, in its own unit (KiB for knobs named *_kb or "
	       "*_kbytes).");
	for (size_t i = 0; i < n; i++) {
		const char *l[] = {"knob", reclaim_knob_name(reclaim_knob_get(i)), NULL};
		char buf[32];

		if (!s->has_knob[i])
			continue;
		snprintf(buf, sizeof(buf), "%" PRId64, s->knob_value[i]);
		sample(p, "reclaim_knob_value", l, buf);
	}
}

static void threads(struct prom *p, const struct reclaim_topology *topo,
		    const struct reclaim_kswapd_list *list)
{
	family(p, "reclaim_kswapd_threads", "gauge", "kswapd threads serving the NUMA node.");
	for (size_t i = 0; i < reclaim_topology_node_count(topo); i++) {
		int id = reclaim_node_id(reclaim_topology_node(topo, i));
		char node[16];
		const char *l[] = {"node", node, NULL};

		snprintf(node, sizeof(node), "%d", id);
		sample_u64(p, "reclaim_kswapd_threads", l,
			   reclaim_kswapd_list_count_node(list, id));
	}
	family(p, "reclaim_kswapd_cpu_seconds_total", "counter",
	       "CPU time (user + system) used by one kswapd thread.");
	for (size_t i = 0; i < reclaim_kswapd_list_count(list); i++) {
		const struct reclaim_kswapd *k = reclaim_kswapd_list_get(list, i);
		char node[16];
		const char *l[] = {"thread", reclaim_kswapd_name(k), "node", node, NULL};

		snprintf(node, sizeof(node), "%d", reclaim_kswapd_node(k));
		sample_double(p, "reclaim_kswapd_cpu_seconds_total", l,
			      reclaim_kswapd_cpu_seconds(k));
	}
}

static void nodes(struct prom *p, const struct reclaim_topology *topo)
{
	static const char *const names[] = {"reclaim_node_memory_total_bytes",
					    "reclaim_node_memory_free_bytes"};
	static const char *const helps[] = {"Memory of the NUMA node (MemTotal).",
					    "Free memory of the NUMA node (MemFree)."};

	for (int f = 0; f < 2; f++) {
		family(p, names[f], "gauge", helps[f]);
		for (size_t i = 0; i < reclaim_topology_node_count(topo); i++) {
			const struct reclaim_node *n = reclaim_topology_node(topo, i);
			uint64_t kb =
			    f ? reclaim_node_mem_free_kb(n) : reclaim_node_mem_total_kb(n);
			char node[16];
			const char *l[] = {"node", node, NULL};

			snprintf(node, sizeof(node), "%d", reclaim_node_id(n));
			sample_u64(p, names[f], l, kb * 1024);
		}
	}
}

static const char *counter_help(const char *name)
{
	static const struct {
		const char *name, *help;
	} helps[] = {
	    {"pgscan_kswapd", "Pages scanned by kswapd"},
	    {"pgscan_direct", "Pages scanned by direct reclaim"},
	    {"pgsteal_kswapd", "Pages reclaimed by kswapd"},
	    {"pgsteal_direct", "Pages reclaimed by direct reclaim"},
	    {"direct_reclaim_throttled",
	     "Times a task waited because of vm.max_direct_reclaimers (the reclaim throttle)"},
	    {"pswpin", "Pages swapped in"},
	    {"pswpout", "Pages swapped out"},
	    {"pageoutrun", "Times kswapd ran a reclaim pass"},
	    {"pgrefill", "Pages moved from the active to the inactive lists"},
	};

	for (size_t i = 0; i < sizeof(helps) / sizeof(helps[0]); i++)
		if (strcmp(helps[i].name, name) == 0)
			return helps[i].help;
	if (strncmp(name, "allocstall_", 11) == 0)
		return "Allocations that entered direct reclaim, by zone";
	if (strncmp(name, "workingset_refault_", 19) == 0)
		return "Refaults of recently evicted pages";
	return "Reclaim counter";
}

static void counters(struct prom *p, const struct reclaim_vmstat *vs)
{
	for (size_t i = 0; vs && i < reclaim_vmstat_count(vs); i++) {
		const char *name = reclaim_vmstat_name(vs, i);
		char metric[160], help[256];

		snprintf(metric, sizeof(metric), "reclaim_vmstat_%s_total", name);
		snprintf(help, sizeof(help), "%s (/proc/vmstat %s).", counter_help(name), name);
		family(p, metric, "counter", help);
		sample_u64(p, metric, NULL, reclaim_vmstat_value(vs, i));
	}
}

static void pressure(struct prom *p, const struct reclaim_pressure *psi)
{
	static const char *const kinds[] = {"some", "full"};

	if (!psi)
		return;
	family(p, "reclaim_pressure_stalled_seconds_total", "counter",
	       "Time tasks stalled on memory (PSI total): some = at least one task, full = all "
	       "non-idle tasks at once.");
	for (int k = RECLAIM_PRESSURE_SOME; k <= RECLAIM_PRESSURE_FULL; k++) {
		const char *l[] = {"kind", kinds[k], NULL};

		if (reclaim_pressure_has(psi, k))
			sample_double(p, "reclaim_pressure_stalled_seconds_total", l,
				      (double)reclaim_pressure_total_us(psi, k) / 1e6);
	}
}

static void swap_rings(struct prom *p, const struct reclaim_swaps *swaps)
{
	static const char *const names[] = {"reclaim_swap_ring_devices",
					    "reclaim_swap_ring_size_bytes",
					    "reclaim_swap_ring_used_bytes"};
	static const char *const helps[] = {
	    "Swap devices in the priority ring (devices of one priority).",
	    "Size of the swap devices of the priority ring.",
	    "Used space of the swap devices of the priority ring."};

	if (!swaps)
		return;
	for (int f = 0; f < 3; f++) {
		family(p, names[f], "gauge", helps[f]);
		for (size_t i = 0; i < reclaim_swaps_ring_count(swaps); i++) {
			const struct reclaim_swap_ring *ring = reclaim_swaps_ring(swaps, i);
			char prio[16];
			const char *l[] = {"priority", prio, NULL};
			uint64_t v = f == 0   ? reclaim_swap_ring_count(ring)
				     : f == 1 ? reclaim_swap_ring_size_kb(ring) * 1024
					      : reclaim_swap_ring_used_kb(ring) * 1024;

			snprintf(prio, sizeof(prio), "%d", reclaim_swap_ring_priority(ring));
			sample_u64(p, names[f], l, v);
		}
	}
}

static void info(struct prom *p)
{
	const char *release = reclaim_kernel_release(p->cli->ctx);
	const char *l[] = {"version", RECLAIMCTL_VERSION, "kernel", release ? release : "unknown",
			   NULL};

	family(p, "reclaim_info", "gauge",
	       "reclaimctl's version and the kernel release; always 1.");
	sample(p, "reclaim_info", l, "1");
}

static void collect(struct prom *p, const struct snapshot *s)
{
	info(p);
	knobs(p, s);
	threads(p, s->topo, s->kswapd);
	nodes(p, s->topo);
	counters(p, s->vmstat);
	pressure(p, s->pressure);
	swap_rings(p, s->swaps);
}

/* DIR/reclaimctl.prom through a temporary file and rename(): node_exporter never reads half. */
static int write_textfile(const char *dir, const char *text, size_t len)
{
	char *tmp, *dest;
	int fd, r = 0;

	if (asprintf(&tmp, "%s/.reclaimctl.prom.XXXXXX", dir) < 0 ||
	    asprintf(&dest, "%s/reclaimctl.prom", dir) < 0)
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

int prometheus_status(struct cli *cli, const struct snapshot *s, const char *textfile_dir)
{
	struct prom p = {.cli = cli};
	char *text = NULL;
	size_t len = 0;
	int r = 0;

	p.out = open_memstream(&text, &len);
	if (!p.out)
		abort();
	collect(&p, s);
	if (fclose(p.out) != 0)
		abort();
	if (r == 0 && textfile_dir)
		r = write_textfile(textfile_dir, text, len);
	else if (r == 0)
		fwrite(text, 1, len, stdout);
	free(text);
	return r;
}

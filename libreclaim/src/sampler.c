// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Cheap repeated sampling: /proc/vmstat, /proc/pressure/memory, the nodes'
 * vmstat, the knobs and every kswapd thread's /proc/PID/stat are opened once
 * and re-read with pread() at offset 0 (seq_file and sysctl files restart
 * there). kthreadd's children list is re-read too; only pids that came are
 * looked at, so the thread set is found again without a directory scan.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "latency-internal.h"

#define CHILDREN_PATH RECLAIM_CHILDREN

struct sample_thread {
	pid_t pid;
	char name[32];
	int node, index;
	uint64_t ticks;
};

struct reclaim_sample {
	int refcount;
	uint64_t mono_ns, real_ns;
	struct reclaim_vmstat *vmstat;
	struct reclaim_pressure *pressure;
	size_t nnodes;
	int *node_ids;
	struct reclaim_vmstat **node_vmstat;
	size_t nthreads;
	struct sample_thread *threads;
	bool threads_changed;
	double hz;
	/* indexed like the knob table; has_knob NULL without RECLAIM_SAMPLER_KNOBS */
	bool *has_knob;
	int64_t *knob_value;
	/* RECLAIM_SAMPLER_CPUS: per node with CPUs, ticks of its online CPUs */
	size_t ncpu_nodes;
	struct node_ticks *cpu_nodes;
	/* RECLAIM_SAMPLER_LATENCY (or built): each kind's waits since the start */
	struct latency_total *latency;
};

struct node_ticks {
	int node;
	unsigned int ncpus; /* online: in /proc/stat */
	uint64_t busy, total;
};

/* A kswapd thread being followed: its stat file stays open. */
struct tracked {
	pid_t pid;
	int fd;
	char name[32];
	int node, index;
};

struct reclaim_sampler {
	int refcount;
	struct reclaim_ctx *ctx;
	unsigned int flags;
	int vmstat_fd, psi_fd, children_fd, threads_knob_fd;
	size_t nnodes;
	int *node_ids, *node_fds;
	int *knob_fds; /* indexed like the knob table, -1 where the kernel lacks it */
	pid_t *children;
	size_t nchildren;
	struct tracked *threads;
	size_t nthreads;
	int stat_fd;   /* RECLAIM_SAMPLER_CPUS: /proc/stat, -1 without */
	int *cpu_node; /* node of each CPU id, -1 for none */
	size_t ncpu_ids;
	int *cpu_node_ids; /* the nodes with CPUs, in topology order */
	size_t ncpu_nodes;
	int64_t threads_knob;		 /* last kswapd_threads value, for the fallback */
	bool rescan;			 /* the fallback: scan /proc at the next sample */
	bool sampled;			 /* a sample was taken: later ones report thread changes */
	struct reclaim_latency *latency; /* RECLAIM_SAMPLER_LATENCY */
	double hz;
	char *buf;
	size_t size;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int open_under(struct reclaim_ctx *ctx, const char *path)
{
	int fd, r = reclaim_open_regular(ctx, path, &fd);

	return r < 0 ? r : fd;
}

/* Reads the whole file behind @fd from offset 0 into s->buf (NUL-terminated). */
static int pread_all(struct reclaim_sampler *s, int fd, size_t *len_out)
{
	return reclaim_pread_text(fd, &s->buf, &s->size, len_out);
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- kswapd threads ---- */

static void tracked_drop(struct reclaim_sampler *s, size_t i)
{
	close_fd(&s->threads[i].fd);
	memmove(&s->threads[i], &s->threads[i + 1], (s->nthreads - i - 1) * sizeof(*s->threads));
	s->nthreads--;
}

static ssize_t tracked_find(const struct reclaim_sampler *s, pid_t pid)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i].pid == pid)
			return (ssize_t)i;
	return -1;
}

/*
 * Opens /proc/PID/stat and keeps it if the task is a kswapd thread: 1 if it
 * is followed now, 0 if not (or gone), negative errno.
 */
static int probe(struct reclaim_sampler *s, pid_t pid, bool need_kthread)
{
	struct tracked t = {.pid = pid};
	char path[64], state;
	uint64_t ticks;
	int last_cpu, r;
	struct tracked *v;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	t.fd = open_under(s->ctx, path);
	if (t.fd == -ENOENT || t.fd == -ESRCH)
		return 0;
	if (t.fd < 0)
		return reclaim_error(s->ctx, -t.fd, "cannot open %s: %s", path,
				     reclaim_read_strerror(t.fd));
	r = pread_all(s, t.fd, NULL);
	if (r == 0)
		r = reclaim_proc_stat_parse(s->buf, t.name, sizeof(t.name), &state, &ticks,
					    &last_cpu);
	if (r < 0 || (r == 0 && need_kthread) ||
	    !reclaim_kswapd_parse_name(t.name, &t.node, &t.index)) {
		close(t.fd);
		/* A task that exited between the listing and now is no error. */
		return (r == -ESRCH || r == -ENOENT || r >= 0) ? 0 : r;
	}
	v = realloc(s->threads, (s->nthreads + 1) * sizeof(*v));
	if (!v) {
		close(t.fd);
		return -ENOMEM;
	}
	s->threads = v;
	s->threads[s->nthreads++] = t;
	return 1;
}

static bool has_pid(const pid_t *pids, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

/* Re-reads kthreadd's children; probes pids that came, drops threads that went. */
static int update_children(struct reclaim_sampler *s, bool *changed)
{
	pid_t *pids = NULL;
	size_t n = 0, len;
	int r;

	r = pread_all(s, s->children_fd, &len);
	if (r < 0)
		return reclaim_error(s->ctx, -r, "cannot read " CHILDREN_PATH ": %s",
				     reclaim_read_strerror(r));
	r = reclaim_children_parse(s->ctx, s->buf, &pids, &n);
	if (r < 0)
		return r;
	for (size_t i = s->nthreads; i-- > 0;)
		if (!has_pid(pids, n, s->threads[i].pid)) {
			tracked_drop(s, i);
			*changed = true;
		}
	for (size_t i = 0; i < n && r >= 0; i++) {
		if (has_pid(s->children, s->nchildren, pids[i]))
			continue;
		r = probe(s, pids[i], false);
		if (r > 0)
			*changed = true;
	}
	free(s->children);
	s->children = pids;
	s->nchildren = n;
	return r < 0 ? r : 0;
}

/* Without the children file: every process, once, and again only when needed. */
static int scan_proc(struct reclaim_sampler *s, bool *changed)
{
	_cleanup_free_ pid_t *pids = NULL;
	size_t n;
	int r;

	r = reclaim_proc_pids(s->ctx, &pids, &n);
	if (r < 0)
		return r;
	for (size_t i = s->nthreads; i-- > 0;)
		if (!has_pid(pids, n, s->threads[i].pid)) {
			tracked_drop(s, i);
			*changed = true;
		}
	for (size_t i = 0; i < n; i++) {
		if (tracked_find(s, pids[i]) >= 0)
			continue;
		r = probe(s, pids[i], true);
		if (r < 0)
			return r;
		if (r > 0)
			*changed = true;
	}
	s->rescan = false;
	return 0;
}

/* The fallback's trigger: the kswapd_threads knob changed. */
static void check_threads_knob(struct reclaim_sampler *s)
{
	int64_t v;

	if (s->threads_knob_fd < 0 || pread_all(s, s->threads_knob_fd, NULL) < 0 ||
	    reclaim_parse_i64(s->buf, &v) < 0)
		return;
	if (v != s->threads_knob)
		s->rescan = true;
	s->threads_knob = v;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct sample_thread *x = a, *y = b;

	if (x->node != y->node)
		return (x->node > y->node) - (x->node < y->node);
	return (x->index > y->index) - (x->index < y->index);
}

/* Reads every followed thread's CPU time into @smp; a thread that is gone is dropped. */
static int read_threads(struct reclaim_sampler *s, struct reclaim_sample *smp, bool *changed)
{
	smp->threads = calloc(s->nthreads ? s->nthreads : 1, sizeof(*smp->threads));
	if (!smp->threads)
		return -ENOMEM;
	for (size_t i = 0; i < s->nthreads;) {
		struct tracked *t = &s->threads[i];
		struct sample_thread *st = &smp->threads[smp->nthreads];
		char comm[32], state;
		int last_cpu, r;

		r = pread_all(s, t->fd, NULL);
		if (r == 0)
			r = reclaim_proc_stat_parse(s->buf, comm, sizeof(comm), &state, &st->ticks,
						    &last_cpu);
		if (r == -ENOMEM)
			return r;
		if (r < 0) {
			/* ESRCH: the thread exited; its pid is no longer kthreadd's child either.
			 */
			tracked_drop(s, i);
			*changed = true;
			s->rescan = true;
			continue;
		}
		st->pid = t->pid;
		memcpy(st->name, t->name, sizeof(st->name));
		st->node = t->node;
		st->index = t->index;
		smp->nthreads++;
		i++;
	}
	if (smp->nthreads > 1)
		qsort(smp->threads, smp->nthreads, sizeof(*smp->threads), cmp_thread);
	return 0;
}

static int sample_threads(struct reclaim_sampler *s, struct reclaim_sample *smp)
{
	bool changed = false;
	int r;

	if (s->children_fd >= 0) {
		r = update_children(s, &changed);
	} else {
		check_threads_knob(s);
		r = s->rescan ? scan_proc(s, &changed) : 0;
	}
	if (r < 0)
		return r;
	r = read_threads(s, smp, &changed);
	smp->threads_changed = changed && s->sampled;
	s->sampled = true;
	return r;
}

/* ---- counters, pressure, knobs ---- */

static int read_vmstat(struct reclaim_sampler *s, int fd, const char *path,
		       struct reclaim_vmstat **ret)
{
	size_t line = 0;
	int r;

	r = pread_all(s, fd, NULL);
	if (r < 0)
		return reclaim_error(s->ctx, -r, "cannot read %s: %s", path,
				     reclaim_read_strerror(r));
	r = reclaim_vmstat_parse(s->buf, ret, &line);
	if (r == -EINVAL)
		return reclaim_error(s->ctx, EINVAL, "%s:%zu: malformed line", path, line);
	return r;
}

static int read_pressure(struct reclaim_sampler *s, struct reclaim_sample *smp)
{
	int r;

	if (s->psi_fd < 0)
		return 0;
	r = pread_all(s, s->psi_fd, NULL);
	if (r == -EOPNOTSUPP)
		return 0;
	if (r < 0)
		return reclaim_error(s->ctx, -r, "cannot read /proc/pressure/memory: %s",
				     reclaim_read_strerror(r));
	r = reclaim_pressure_parse(s->buf, &smp->pressure);
	if (r == -EINVAL)
		return reclaim_error(s->ctx, EINVAL, "/proc/pressure/memory: malformed");
	return r;
}

static int read_nodes(struct reclaim_sampler *s, struct reclaim_sample *smp)
{
	if (!s->nnodes)
		return 0;
	smp->node_ids = calloc(s->nnodes, sizeof(*smp->node_ids));
	smp->node_vmstat = calloc(s->nnodes, sizeof(*smp->node_vmstat));
	if (!smp->node_ids || !smp->node_vmstat)
		return -ENOMEM;
	for (size_t i = 0; i < s->nnodes; i++) {
		char path[64];
		int r;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/vmstat",
			 s->node_ids[i]);
		r = read_vmstat(s, s->node_fds[i], path, &smp->node_vmstat[i]);
		if (r < 0)
			return r;
		smp->node_ids[i] = s->node_ids[i];
		smp->nnodes++;
	}
	return 0;
}

static int read_knobs(struct reclaim_sampler *s, struct reclaim_sample *smp)
{
	size_t n = reclaim_knob_count();

	if (!s->knob_fds)
		return 0;
	smp->has_knob = calloc(n, sizeof(*smp->has_knob));
	smp->knob_value = calloc(n, sizeof(*smp->knob_value));
	if (!smp->has_knob || !smp->knob_value)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);

		if (s->knob_fds[i] < 0)
			continue;
		if (pread_all(s, s->knob_fds[i], NULL) < 0 ||
		    reclaim_knob_parse_shown(k, s->buf, &smp->knob_value[i]) < 0)
			return reclaim_error(s->ctx, EINVAL, "cannot read %s",
					     reclaim_knob_path(k));
		smp->has_knob[i] = true;
	}
	return 0;
}

/* "cpuN user nice system idle iowait irq softirq steal ...": busy is all but idle and iowait. */
static int parse_cpu_line(const char *line, unsigned long *cpu, uint64_t *busy, uint64_t *total)
{
	unsigned long long v[8] = {0};
	int n = sscanf(line, "cpu%lu %llu %llu %llu %llu %llu %llu %llu %llu", cpu, &v[0], &v[1],
		       &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);

	if (n < 5)
		return -EINVAL;
	*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*total = *busy + v[3] + v[4];
	return 0;
}

static int read_cpus(struct reclaim_sampler *s, struct reclaim_sample *smp)
{
	size_t lineno = 0;
	int r;

	if (s->stat_fd < 0)
		return 0;
	r = pread_all(s, s->stat_fd, NULL);
	if (r < 0)
		return reclaim_error(s->ctx, -r, "cannot read /proc/stat: %s",
				     reclaim_read_strerror(r));
	smp->cpu_nodes = calloc(s->ncpu_nodes ? s->ncpu_nodes : 1, sizeof(*smp->cpu_nodes));
	if (!smp->cpu_nodes)
		return -ENOMEM;
	smp->ncpu_nodes = s->ncpu_nodes;
	for (size_t i = 0; i < s->ncpu_nodes; i++)
		smp->cpu_nodes[i].node = s->cpu_node_ids[i];
	for (char *line = s->buf; line && *line; lineno++) {
		char *next = strchr(line, '\n');
		unsigned long cpu;
		uint64_t busy, total;

		if (next)
			*next++ = '\0';
		if (strncmp(line, "cpu", 3) != 0)
			break; /* the per-CPU lines come first */
		if (line[3] != ' ') {
			if (parse_cpu_line(line, &cpu, &busy, &total) < 0)
				return reclaim_error(s->ctx, EINVAL,
						     "/proc/stat:%zu: malformed line", lineno + 1);
			if (cpu < s->ncpu_ids && s->cpu_node[cpu] >= 0) {
				struct node_ticks *t = &smp->cpu_nodes[s->cpu_node[cpu]];

				t->ncpus++;
				t->busy += busy;
				t->total += total;
			}
		}
		line = next;
	}
	return 0;
}

static int read_latency(struct reclaim_sampler *s, struct reclaim_sample *smp)
{
	int r = reclaim_latency_read(s->latency);

	if (r < 0)
		return r;
	smp->latency = calloc(LATENCY_KINDS, sizeof(*smp->latency));
	if (!smp->latency)
		return -ENOMEM;
	for (size_t k = 0; k < LATENCY_KINDS; k++)
		latency_run_total(s->latency, k, &smp->latency[k]);
	return 0;
}

static void sample_free(struct reclaim_sample *smp)
{
	free(smp->cpu_nodes);
	reclaim_vmstat_unref(smp->vmstat);
	reclaim_pressure_unref(smp->pressure);
	for (size_t i = 0; i < smp->nnodes; i++)
		reclaim_vmstat_unref(smp->node_vmstat[i]);
	free(smp->node_vmstat);
	free(smp->node_ids);
	free(smp->threads);
	free(smp->has_knob);
	free(smp->knob_value);
	free(smp->latency);
	free(smp);
}

RECLAIM_EXPORT int reclaim_sampler_read(struct reclaim_sampler *s, struct reclaim_sample **ret)
{
	struct reclaim_sample *smp;
	int r;

	assert_return(s && ret, -EINVAL);
	reclaim_error_reset(s->ctx);
	smp = calloc(1, sizeof(*smp));
	if (!smp)
		return -ENOMEM;
	smp->refcount = 1;
	smp->hz = s->hz;
	smp->mono_ns = clock_ns(CLOCK_MONOTONIC);
	smp->real_ns = clock_ns(CLOCK_REALTIME);
	r = read_vmstat(s, s->vmstat_fd, "/proc/vmstat", &smp->vmstat);
	if (r == 0)
		r = read_pressure(s, smp);
	if (r == 0)
		r = read_nodes(s, smp);
	if (r == 0)
		r = read_knobs(s, smp);
	if (r == 0)
		r = read_cpus(s, smp);
	if (r == 0)
		r = sample_threads(s, smp);
	if (r == 0 && s->latency)
		r = read_latency(s, smp);
	if (r < 0) {
		sample_free(smp);
		return r;
	}
	*ret = smp;
	return 0;
}

/* ---- the sampler ---- */

static int open_nodes(struct reclaim_sampler *s)
{
	struct reclaim_topology *topo;
	size_t n;
	int r;

	r = reclaim_topology_new(s->ctx, &topo);
	if (r < 0)
		return r;
	n = reclaim_topology_node_count(topo);
	s->node_ids = calloc(n ? n : 1, sizeof(*s->node_ids));
	s->node_fds = calloc(n ? n : 1, sizeof(*s->node_fds));
	if (!s->node_ids || !s->node_fds) {
		reclaim_topology_unref(topo);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n && reclaim_topology_is_numa(topo); i++) {
		int id = reclaim_node_id(reclaim_topology_node(topo, i)), fd;
		char path[64];

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/vmstat", id);
		fd = open_under(s->ctx, path);
		if (fd == -ENOENT)
			continue;
		if (fd < 0) {
			reclaim_topology_unref(topo);
			return reclaim_error(s->ctx, -fd, "cannot open %s: %s", path,
					     reclaim_read_strerror(fd));
		}
		s->node_ids[s->nnodes] = id;
		s->node_fds[s->nnodes++] = fd;
	}
	reclaim_topology_unref(topo);
	return 0;
}

/* Maps each CPU id to the slot of its node: /proc/stat names CPUs, the busy share is per node. */
static int open_cpus(struct reclaim_sampler *s)
{
	struct reclaim_topology *topo;
	size_t n, max = 0;
	int r;

	s->stat_fd = open_under(s->ctx, "/proc/stat");
	if (s->stat_fd == -ENOENT)
		return 0;
	if (s->stat_fd < 0)
		return reclaim_error(s->ctx, -s->stat_fd, "cannot open /proc/stat: %s",
				     reclaim_read_strerror(s->stat_fd));
	r = reclaim_topology_new(s->ctx, &topo);
	if (r < 0)
		return r;
	n = reclaim_topology_node_count(topo);
	for (size_t i = 0; i < n; i++) {
		size_t count;
		const unsigned int *cpus =
		    reclaim_node_cpus(reclaim_topology_node(topo, i), &count);

		for (size_t c = 0; c < count; c++)
			if (cpus[c] + 1 > max)
				max = cpus[c] + 1;
	}
	s->cpu_node = malloc((max ? max : 1) * sizeof(*s->cpu_node));
	s->cpu_node_ids = calloc(n ? n : 1, sizeof(*s->cpu_node_ids));
	if (!s->cpu_node || !s->cpu_node_ids) {
		reclaim_topology_unref(topo);
		return -ENOMEM;
	}
	s->ncpu_ids = max;
	for (size_t c = 0; c < max; c++)
		s->cpu_node[c] = -1;
	for (size_t i = 0; i < n; i++) {
		const struct reclaim_node *node = reclaim_topology_node(topo, i);
		size_t count;
		const unsigned int *cpus = reclaim_node_cpus(node, &count);

		if (!count)
			continue;
		for (size_t c = 0; c < count; c++)
			s->cpu_node[cpus[c]] = (int)s->ncpu_nodes;
		s->cpu_node_ids[s->ncpu_nodes++] = reclaim_node_id(node);
	}
	reclaim_topology_unref(topo);
	return 0;
}

/* Every knob, or only kswapd_threads (and watermark_scale_factor: RECLAIM_SAMPLER_ADAPT_KNOBS). */
static bool sampled_knob(const struct reclaim_sampler *s, const struct reclaim_knob *k)
{
	if (s->flags & RECLAIM_SAMPLER_KNOBS || reclaim_knob_is_threads(k))
		return true;
	return s->flags & RECLAIM_SAMPLER_ADAPT_KNOBS &&
	       k == reclaim_knob_by_id(RECLAIM_KNOB_WATERMARK_SCALE_FACTOR);
}

static int open_knobs(struct reclaim_sampler *s)
{
	size_t n = reclaim_knob_count();

	s->knob_fds = malloc(n * sizeof(*s->knob_fds));
	if (!s->knob_fds)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		s->knob_fds[i] = -1;
	for (size_t i = 0; i < n; i++) {
		const struct reclaim_knob *k = reclaim_knob_get(i);
		const char *path = reclaim_knob_path(k);
		int fd;

		if (!sampled_knob(s, k))
			continue;
		fd = open_under(s->ctx, path);
		if (fd == -ENOENT)
			continue;
		if (fd < 0)
			return reclaim_error(s->ctx, -fd, "cannot open %s: %s", path,
					     reclaim_read_strerror(fd));
		s->knob_fds[i] = fd;
	}
	return 0;
}

static int open_files(struct reclaim_sampler *s)
{
	int r;

	s->vmstat_fd = open_under(s->ctx, "/proc/vmstat");
	if (s->vmstat_fd < 0) {
		r = s->vmstat_fd;
		return reclaim_error(s->ctx, -r, "cannot open /proc/vmstat: %s",
				     reclaim_read_strerror(r));
	}
	s->psi_fd = open_under(s->ctx, "/proc/pressure/memory");
	if (s->psi_fd < 0 && s->psi_fd != -ENOENT)
		return reclaim_error(s->ctx, -s->psi_fd, "cannot open /proc/pressure/memory: %s",
				     reclaim_read_strerror(s->psi_fd));
	s->children_fd = open_under(s->ctx, CHILDREN_PATH);
	if (s->children_fd < 0 && s->children_fd != -ENOENT)
		return reclaim_error(s->ctx, -s->children_fd, "cannot open " CHILDREN_PATH ": %s",
				     reclaim_read_strerror(s->children_fd));
	if (s->children_fd < 0) {
		s->threads_knob_fd = open_under(
		    s->ctx, reclaim_knob_path(reclaim_knob_by_id(RECLAIM_KNOB_KSWAPD_THREADS)));
		s->rescan = true;
	}
	if (s->flags & RECLAIM_SAMPLER_NODES) {
		r = open_nodes(s);
		if (r < 0)
			return r;
	}
	if (s->flags & RECLAIM_SAMPLER_CPUS) {
		r = open_cpus(s);
		if (r < 0)
			return r;
	}
	if (s->flags &
	    (RECLAIM_SAMPLER_KNOBS | RECLAIM_SAMPLER_THREADS_KNOB | RECLAIM_SAMPLER_ADAPT_KNOBS))
		return open_knobs(s);
	return 0;
}

static void sampler_free(struct reclaim_sampler *s)
{
	close_fd(&s->vmstat_fd);
	close_fd(&s->psi_fd);
	close_fd(&s->children_fd);
	close_fd(&s->threads_knob_fd);
	close_fd(&s->stat_fd);
	free(s->cpu_node);
	free(s->cpu_node_ids);
	for (size_t i = 0; i < s->nnodes; i++)
		close_fd(&s->node_fds[i]);
	for (size_t i = 0; s->knob_fds && i < reclaim_knob_count(); i++)
		close_fd(&s->knob_fds[i]);
	for (size_t i = 0; i < s->nthreads; i++)
		close_fd(&s->threads[i].fd);
	free(s->node_ids);
	free(s->node_fds);
	free(s->knob_fds);
	free(s->children);
	free(s->threads);
	free(s->buf);
	reclaim_latency_unref(s->latency);
	reclaim_unref(s->ctx);
	free(s);
}

RECLAIM_EXPORT int reclaim_sampler_new(struct reclaim_ctx *ctx, unsigned int flags,
				       struct reclaim_sampler **ret)
{
	struct reclaim_sampler *s;
	long hz;
	int r;

	assert_return(ctx && ret, -EINVAL);
	assert_return(
	    (flags & ~(unsigned int)(RECLAIM_SAMPLER_NODES | RECLAIM_SAMPLER_KNOBS |
				     RECLAIM_SAMPLER_CPUS | RECLAIM_SAMPLER_THREADS_KNOB |
				     RECLAIM_SAMPLER_LATENCY | RECLAIM_SAMPLER_ADAPT_KNOBS)) == 0,
	    -EINVAL);
	reclaim_error_reset(ctx);
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->refcount = 1;
	s->ctx = reclaim_ref(ctx);
	s->flags = flags;
	s->vmstat_fd = s->psi_fd = s->children_fd = s->threads_knob_fd = s->stat_fd = -1;
	s->threads_knob = -1;
	hz = sysconf(_SC_CLK_TCK);
	s->hz = hz > 0 ? (double)hz : 100.0;
	r = open_files(s);
	if (r == 0 && (flags & RECLAIM_SAMPLER_LATENCY))
		r = reclaim_latency_new(ctx, &s->latency);
	if (r < 0) {
		sampler_free(s);
		return r;
	}
	*ret = s;
	return 0;
}

RECLAIM_EXPORT struct reclaim_sampler *reclaim_sampler_ref(struct reclaim_sampler *s)
{
	if (s)
		s->refcount++;
	return s;
}

RECLAIM_EXPORT struct reclaim_sampler *reclaim_sampler_unref(struct reclaim_sampler *s)
{
	if (s && --s->refcount == 0)
		sampler_free(s);
	return NULL;
}

/* ---- sample getters ---- */

RECLAIM_EXPORT struct reclaim_sample *reclaim_sample_ref(struct reclaim_sample *smp)
{
	if (smp)
		smp->refcount++;
	return smp;
}

RECLAIM_EXPORT struct reclaim_sample *reclaim_sample_unref(struct reclaim_sample *smp)
{
	if (smp && --smp->refcount == 0)
		sample_free(smp);
	return NULL;
}

RECLAIM_EXPORT uint64_t reclaim_sample_monotonic_ns(const struct reclaim_sample *smp)
{
	assert_return(smp, 0);
	return smp->mono_ns;
}

RECLAIM_EXPORT uint64_t reclaim_sample_realtime_ns(const struct reclaim_sample *smp)
{
	assert_return(smp, 0);
	return smp->real_ns;
}

RECLAIM_EXPORT struct reclaim_vmstat *reclaim_sample_vmstat(const struct reclaim_sample *smp)
{
	assert_return(smp, NULL);
	return smp->vmstat;
}

RECLAIM_EXPORT struct reclaim_pressure *reclaim_sample_pressure(const struct reclaim_sample *smp)
{
	assert_return(smp, NULL);
	return smp->pressure;
}

RECLAIM_EXPORT size_t reclaim_sample_node_count(const struct reclaim_sample *smp)
{
	assert_return(smp, 0);
	return smp->nnodes;
}

RECLAIM_EXPORT int reclaim_sample_node_id(const struct reclaim_sample *smp, size_t idx)
{
	assert_return(smp && idx < smp->nnodes, -EINVAL);
	return smp->node_ids[idx];
}

RECLAIM_EXPORT struct reclaim_vmstat *reclaim_sample_node_vmstat(const struct reclaim_sample *smp,
								 size_t idx)
{
	assert_return(smp && idx < smp->nnodes, NULL);
	return smp->node_vmstat[idx];
}

RECLAIM_EXPORT size_t reclaim_sample_kswapd_count(const struct reclaim_sample *smp)
{
	assert_return(smp, 0);
	return smp->nthreads;
}

RECLAIM_EXPORT pid_t reclaim_sample_kswapd_pid(const struct reclaim_sample *smp, size_t idx)
{
	assert_return(smp && idx < smp->nthreads, -EINVAL);
	return smp->threads[idx].pid;
}

RECLAIM_EXPORT const char *reclaim_sample_kswapd_name(const struct reclaim_sample *smp, size_t idx)
{
	assert_return(smp && idx < smp->nthreads, NULL);
	return smp->threads[idx].name;
}

RECLAIM_EXPORT int reclaim_sample_kswapd_node(const struct reclaim_sample *smp, size_t idx)
{
	assert_return(smp && idx < smp->nthreads, -EINVAL);
	return smp->threads[idx].node;
}

RECLAIM_EXPORT double reclaim_sample_kswapd_cpu_seconds(const struct reclaim_sample *smp,
							size_t idx)
{
	assert_return(smp && idx < smp->nthreads, 0.0);
	return (double)smp->threads[idx].ticks / smp->hz;
}

RECLAIM_EXPORT bool reclaim_sample_kswapd_changed(const struct reclaim_sample *smp)
{
	assert_return(smp, false);
	return smp->threads_changed;
}

RECLAIM_EXPORT int reclaim_sample_knob(const struct reclaim_sample *smp,
				       const struct reclaim_knob *knob, int64_t *value)
{
	assert_return(smp && knob && value, -EINVAL);
	assert_return(smp->has_knob, -EINVAL);
	for (size_t i = 0; i < reclaim_knob_count(); i++) {
		if (reclaim_knob_get(i) != knob)
			continue;
		if (!smp->has_knob[i])
			return -EOPNOTSUPP;
		*value = smp->knob_value[i];
		return 0;
	}
	return -EINVAL;
}

static const struct node_ticks *node_ticks(const struct reclaim_sample *smp, int node)
{
	for (size_t i = 0; i < smp->ncpu_nodes; i++)
		if (smp->cpu_nodes[i].node == node)
			return &smp->cpu_nodes[i];
	return NULL;
}

RECLAIM_EXPORT int reclaim_sample_node_cpu_busy(const struct reclaim_sample *prev,
						const struct reclaim_sample *cur, int node,
						unsigned int *ncpus, double *percent)
{
	const struct node_ticks *a, *b;
	uint64_t busy, total;

	assert_return(prev && cur && percent, -EINVAL);
	a = node_ticks(prev, node);
	b = node_ticks(cur, node);
	if (!a || !b || !b->ncpus)
		return -ENOENT;
	/* a CPU that came or went between the samples makes the sums incomparable */
	if (a->ncpus != b->ncpus)
		return -EAGAIN;
	busy = reclaim_counter_delta(a->busy, b->busy);
	total = reclaim_counter_delta(a->total, b->total);
	if (ncpus)
		*ncpus = b->ncpus;
	*percent = total ? 100.0 * (double)busy / (double)total : 0;
	if (*percent > 100)
		*percent = 100;
	return 0;
}

/* ---- a sample built from a recording ---- */

/* Thread CPU time of a built sample is kept in microseconds. */
#define BUILT_HZ 1e6

RECLAIM_EXPORT int reclaim_sample_new(struct reclaim_ctx *ctx, uint64_t monotonic_ns,
				      uint64_t realtime_ns, struct reclaim_sample **ret)
{
	struct reclaim_sample *smp;

	assert_return(ctx && ret, -EINVAL);
	smp = calloc(1, sizeof(*smp));
	if (!smp)
		return -ENOMEM;
	smp->refcount = 1;
	smp->hz = BUILT_HZ;
	smp->mono_ns = monotonic_ns;
	smp->real_ns = realtime_ns;
	*ret = smp;
	return 0;
}

static struct reclaim_vmstat **node_slot(struct reclaim_sample *smp, int node_id)
{
	int *ids;
	struct reclaim_vmstat **vs;

	for (size_t i = 0; i < smp->nnodes; i++)
		if (smp->node_ids[i] == node_id)
			return &smp->node_vmstat[i];
	ids = realloc(smp->node_ids, (smp->nnodes + 1) * sizeof(*ids));
	if (!ids)
		return NULL;
	smp->node_ids = ids;
	vs = realloc(smp->node_vmstat, (smp->nnodes + 1) * sizeof(*vs));
	if (!vs)
		return NULL;
	smp->node_vmstat = vs;
	ids[smp->nnodes] = node_id;
	vs[smp->nnodes] = NULL;
	return &vs[smp->nnodes++];
}

RECLAIM_EXPORT int reclaim_sample_add_counter(struct reclaim_sample *smp, int node_id,
					      const char *name, uint64_t value)
{
	struct reclaim_vmstat **vs;

	assert_return(smp && name, -EINVAL);
	vs = node_id < 0 ? &smp->vmstat : node_slot(smp, node_id);
	if (!vs)
		return -ENOMEM;
	return reclaim_vmstat_append(vs, name, value);
}

RECLAIM_EXPORT int reclaim_sample_add_kswapd(struct reclaim_sample *smp, pid_t pid,
					     const char *name, int node_id, double cpu_seconds)
{
	struct sample_thread *t;

	assert_return(smp && name && pid > 0, -EINVAL);
	assert_return(isfinite(cpu_seconds) && cpu_seconds >= 0 && cpu_seconds < 1e12, -EINVAL);
	t = realloc(smp->threads, (smp->nthreads + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	smp->threads = t;
	t = &t[smp->nthreads++];
	*t = (struct sample_thread){
	    .pid = pid, .node = node_id, .ticks = (uint64_t)(cpu_seconds * BUILT_HZ + 0.5)};
	snprintf(t->name, sizeof(t->name), "%s", name);
	return 0;
}

RECLAIM_EXPORT int reclaim_sample_set_pressure(struct reclaim_sample *smp,
					       enum reclaim_pressure_kind kind, double avg10,
					       uint64_t total_us)
{
	assert_return(smp, -EINVAL);
	return reclaim_pressure_set(&smp->pressure, kind, avg10, total_us);
}

RECLAIM_EXPORT struct reclaim_latency *reclaim_sampler_latency(struct reclaim_sampler *s)
{
	assert_return(s, NULL);
	return s->latency;
}

/* ---- the waits reclaim made tasks wait ---- */

const struct latency_total *sample_latency(const struct reclaim_sample *smp, size_t kind)
{
	return smp->latency && kind < LATENCY_KINDS && smp->latency[kind].has ? &smp->latency[kind]
									      : NULL;
}

RECLAIM_EXPORT int reclaim_sample_latency(const struct reclaim_sample *smp,
					  enum reclaim_latency_kind kind, uint64_t *count,
					  uint64_t *total_us, uint64_t *max_us)
{
	const struct latency_total *t;

	assert_return(smp, -EINVAL);
	t = sample_latency(smp, kind);
	if (!t)
		return -ENOENT;
	if (count)
		*count = latency_hist_count(&t->hist);
	if (total_us)
		*total_us = t->hist.total_us;
	if (max_us)
		*max_us = t->max_us;
	return 0;
}

RECLAIM_EXPORT uint64_t reclaim_sample_latency_bucket(const struct reclaim_sample *smp,
						      enum reclaim_latency_kind kind, size_t bucket)
{
	const struct latency_total *t;

	assert_return(smp, 0);
	t = sample_latency(smp, kind);
	return t && bucket < LATENCY_BUCKETS ? t->hist.count[bucket] : 0;
}

static struct latency_total *built_latency(struct reclaim_sample *smp, size_t kind)
{
	if (!smp->latency)
		smp->latency = calloc(LATENCY_KINDS, sizeof(*smp->latency));
	if (!smp->latency)
		return NULL;
	smp->latency[kind].has = true;
	return &smp->latency[kind];
}

RECLAIM_EXPORT int reclaim_sample_set_latency(struct reclaim_sample *smp,
					      enum reclaim_latency_kind kind, uint64_t total_us,
					      uint64_t max_us)
{
	struct latency_total *t;

	assert_return(smp && (size_t)kind < LATENCY_KINDS, -EINVAL);
	t = built_latency(smp, kind);
	if (!t)
		return -ENOMEM;
	t->hist.total_us = total_us;
	t->max_us = max_us;
	return 0;
}

RECLAIM_EXPORT int reclaim_sample_set_latency_bucket(struct reclaim_sample *smp,
						     enum reclaim_latency_kind kind, size_t bucket,
						     uint64_t count)
{
	struct latency_total *t;

	assert_return(smp && (size_t)kind < LATENCY_KINDS && bucket < LATENCY_BUCKETS, -EINVAL);
	t = built_latency(smp, kind);
	if (!t)
		return -ENOMEM;
	t->hist.count[bucket] = count;
	return 0;
}

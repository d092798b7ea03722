// SPDX-License-Identifier: LGPL-2.1-or-later
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define PF_KTHREAD 0x00200000u

struct reclaim_kswapd {
	pid_t pid;
	char name[32];
	int node, index;
	char state;
	double cpu_seconds;
	int last_cpu;
	unsigned int *allowed;
	size_t nallowed;
};

struct reclaim_kswapd_list {
	int refcount;
	struct reclaim_kswapd *items;
	size_t count;
};

static bool parse_uint(const char **s, int *v)
{
	long x = 0;

	if (!isdigit((unsigned char)**s))
		return false;
	while (isdigit((unsigned char)**s)) {
		x = x * 10 + (**s - '0');
		if (x > 1000000)
			return false;
		(*s)++;
	}
	*v = (int)x;
	return true;
}

/* ^kswapd[0-9]+(:[0-9]+)?$ */
RECLAIM_EXPORT bool reclaim_kswapd_parse_name(const char *name, int *node, int *index)
{
	const char *p = name;
	int n, i = 0;

	assert_return(name, false);
	if (strncmp(p, "kswapd", 6) != 0)
		return false;
	p += 6;
	if (!parse_uint(&p, &n))
		return false;
	if (*p == ':') {
		p++;
		if (!parse_uint(&p, &i))
			return false;
	}
	if (*p)
		return false;
	if (node)
		*node = n;
	if (index)
		*index = i;
	return true;
}

/*
 * /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces and
 * parentheses, so it ends at the last ')'. Fields counted from 1 as in proc(5).
 */
int reclaim_proc_stat_parse(const char *text, char *comm, size_t comm_size, char *state,
			    uint64_t *ticks, int *last_cpu)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	unsigned long long utime = 0, stime = 0, flags = 0;
	long cpu = -1;
	const char *p;
	size_t len;
	int field, parsed = 2;

	if (!open || !close || close < open || close[1] != ' ')
		return -EINVAL;
	len = (size_t)(close - open - 1);
	if (len >= comm_size)
		len = comm_size - 1;
	memcpy(comm, open + 1, len);
	comm[len] = '\0';
	p = close + 2;
	if (!*p || *p == ' ')
		return -EINVAL;
	*state = *p;
	for (field = 3; *p; field++) {
		char *end;

		switch (field) {
		case 9:
			flags = strtoull(p, &end, 10);
			break;
		case 14:
			utime = strtoull(p, &end, 10);
			break;
		case 15:
			stime = strtoull(p, &end, 10);
			break;
		case 39:
			cpu = strtol(p, &end, 10);
			break;
		default:
			end = (char *)p + strcspn(p, " \n");
		}
		if (end == p)
			return -EINVAL;
		parsed = field;
		p = end;
		while (*p == ' ')
			p++;
		if (*p == '\n' || field == 39)
			break;
	}
	/* The loop's counter runs one past the last field when the text ends without a newline. */
	if (parsed < 15)
		return -EINVAL;
	*ticks = utime + stime;
	*last_cpu = (int)cpu;
	return (flags & PF_KTHREAD) ? 1 : 0;
}

static int read_allowed(struct reclaim_ctx *ctx, pid_t pid, struct reclaim_kswapd *k)
{
	_cleanup_free_ char *text = NULL;
	char path[64];
	const char *p;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	r = reclaim_read_file(ctx, path, &text, NULL);
	if (r < 0)
		return r;
	p = strstr(text, "\nCpus_allowed_list:");
	if (!p)
		return 0;
	p += strlen("\nCpus_allowed_list:");
	((char *)p)[strcspn(p, "\n")] = '\0';
	return reclaim_cpulist_parse(p, &k->allowed, &k->nallowed);
}

/*
 * Returns 1 and fills @k for a kswapd thread, 0 for anything else (or a task
 * that is gone). A user process may call itself kswapd0, so outside kthreadd's
 * children the kernel-thread flag must be set too.
 */
static int probe_task(struct reclaim_ctx *ctx, pid_t pid, bool need_kthread,
		      struct reclaim_kswapd *k)
{
	_cleanup_free_ char *text = NULL;
	char path[64];
	uint64_t ticks;
	long hz;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	r = reclaim_read_file(ctx, path, &text, NULL);
	if (r == -ENOENT || r == -ESRCH)
		return 0;
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read %s: %s", path, reclaim_read_strerror(r));
	r = reclaim_proc_stat_parse(text, k->name, sizeof(k->name), &k->state, &ticks,
				    &k->last_cpu);
	if (r < 0)
		return reclaim_error(ctx, EINVAL, "%s: malformed", path);
	if ((r == 0 && need_kthread) || !reclaim_kswapd_parse_name(k->name, &k->node, &k->index))
		return 0;
	k->pid = pid;
	hz = sysconf(_SC_CLK_TCK);
	k->cpu_seconds = (double)ticks / (double)(hz > 0 ? hz : 100);
	r = read_allowed(ctx, pid, k);
	if (r == -ENOENT || r == -ESRCH)
		return 0;
	if (r < 0)
		return reclaim_error(ctx, -r, "/proc/%d/status: %s", (int)pid, strerror(-r));
	return 1;
}

static int list_add(struct reclaim_ctx *ctx, struct reclaim_kswapd_list *l, pid_t pid,
		    bool need_kthread)
{
	struct reclaim_kswapd k = {0}, *items;
	int r;

	r = probe_task(ctx, pid, need_kthread, &k);
	if (r <= 0)
		return r;
	items = realloc(l->items, (l->count + 1) * sizeof(*items));
	if (!items) {
		free(k.allowed);
		return -ENOMEM;
	}
	l->items = items;
	items[l->count++] = k;
	return 0;
}

void reclaim_kswapd_check(const struct reclaim_topology *topo,
			  const struct reclaim_kswapd_list *list, int64_t want,
			  struct kswapd_check *c)
{
	size_t len = 0;

	*c = (struct kswapd_check){.first_node = -1};
	for (size_t i = 0; i < reclaim_topology_node_count(topo); i++) {
		const struct reclaim_node *n = reclaim_topology_node(topo, i);
		size_t got;

		if (!reclaim_node_has_memory(n))
			continue;
		c->nodes++;
		got = reclaim_kswapd_list_count_node(list, reclaim_node_id(n));
		if ((int64_t)got == want)
			continue;
		if (c->bad++ == 0) {
			c->first_node = reclaim_node_id(n);
			c->first_got = got;
		}
		if (len < sizeof(c->why))
			len += (size_t)snprintf(c->why + len, sizeof(c->why) - len,
						"%snode %d runs %zu", len ? ", " : "",
						reclaim_node_id(n), got);
	}
}

int reclaim_children_parse(struct reclaim_ctx *ctx, const char *text, pid_t **ret, size_t *count)
{
	pid_t *pids = NULL;
	size_t n = 0;

	for (const char *p = text;;) {
		char *end;
		long pid;
		pid_t *v;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		pid = strtol(p, &end, 10);
		if (end == p || pid <= 0 || pid > RECLAIM_PID_MAX ||
		    (*end && !isspace((unsigned char)*end))) {
			free(pids);
			return reclaim_error(ctx, EINVAL, RECLAIM_CHILDREN ": malformed");
		}
		v = realloc(pids, (n + 1) * sizeof(*v));
		if (!v) {
			free(pids);
			return reclaim_error(ctx, ENOMEM, "out of memory");
		}
		pids = v;
		pids[n++] = (pid_t)pid;
		p = end;
	}
	*ret = pids;
	*count = n;
	return 0;
}

/*
 * The tasks that may be kswapd threads: kthreadd's children (kernel
 * threads all are: no need to walk every process), or, on kernels without
 * CONFIG_PROC_CHILDREN, every process (*all: a kswapd must then also be a
 * kernel thread, since a user process may call itself kswapd0).
 */
static int candidates(struct reclaim_ctx *ctx, pid_t **pids, size_t *n, bool *all)
{
	_cleanup_free_ char *children = NULL;
	int r = reclaim_read_file(ctx, RECLAIM_CHILDREN, &children, NULL);

	*all = r == -ENOENT;
	if (r == 0)
		return reclaim_children_parse(ctx, children, pids, n);
	if (r != -ENOENT)
		return reclaim_error(ctx, -r, "cannot read " RECLAIM_CHILDREN ": %s",
				     reclaim_read_strerror(r));
	if (!reclaim_exists(ctx, "/proc")) {
		*pids = NULL;
		*n = 0;
		return 0;
	}
	return reclaim_proc_pids(ctx, pids, n);
}

static int cmp_kswapd(const void *a, const void *b)
{
	const struct reclaim_kswapd *x = a, *y = b;

	if (x->node != y->node)
		return (x->node > y->node) - (x->node < y->node);
	return (x->index > y->index) - (x->index < y->index);
}

static void list_free(struct reclaim_kswapd_list *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->items[i].allowed);
	free(l->items);
	free(l);
}

RECLAIM_EXPORT int reclaim_kswapd_list_new(struct reclaim_ctx *ctx,
					   struct reclaim_kswapd_list **ret)
{
	_cleanup_free_ pid_t *pids = NULL;
	struct reclaim_kswapd_list *l;
	size_t n = 0;
	bool all;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->refcount = 1;
	r = candidates(ctx, &pids, &n, &all);
	for (size_t i = 0; r == 0 && i < n; i++)
		r = list_add(ctx, l, pids[i], all);
	if (r < 0) {
		list_free(l);
		return r;
	}
	if (l->count > 1)
		qsort(l->items, l->count, sizeof(*l->items), cmp_kswapd);
	*ret = l;
	return 0;
}

RECLAIM_EXPORT struct reclaim_kswapd_list *reclaim_kswapd_list_ref(struct reclaim_kswapd_list *l)
{
	if (l)
		l->refcount++;
	return l;
}

RECLAIM_EXPORT struct reclaim_kswapd_list *reclaim_kswapd_list_unref(struct reclaim_kswapd_list *l)
{
	if (l && --l->refcount == 0)
		list_free(l);
	return NULL;
}

RECLAIM_EXPORT size_t reclaim_kswapd_list_count(const struct reclaim_kswapd_list *l)
{
	assert_return(l, 0);
	return l->count;
}

RECLAIM_EXPORT struct reclaim_kswapd *reclaim_kswapd_list_get(const struct reclaim_kswapd_list *l,
							      size_t idx)
{
	assert_return(l && idx < l->count, NULL);
	return &l->items[idx];
}

RECLAIM_EXPORT size_t reclaim_kswapd_list_count_node(const struct reclaim_kswapd_list *l,
						     int node_id)
{
	size_t n = 0;

	assert_return(l, 0);
	for (size_t i = 0; i < l->count; i++)
		n += l->items[i].node == node_id;
	return n;
}

RECLAIM_EXPORT pid_t reclaim_kswapd_pid(const struct reclaim_kswapd *k)
{
	assert_return(k, -EINVAL);
	return k->pid;
}

RECLAIM_EXPORT const char *reclaim_kswapd_name(const struct reclaim_kswapd *k)
{
	assert_return(k, NULL);
	return k->name;
}

RECLAIM_EXPORT int reclaim_kswapd_node(const struct reclaim_kswapd *k)
{
	assert_return(k, -EINVAL);
	return k->node;
}

RECLAIM_EXPORT int reclaim_kswapd_index(const struct reclaim_kswapd *k)
{
	assert_return(k, -EINVAL);
	return k->index;
}

RECLAIM_EXPORT char reclaim_kswapd_state(const struct reclaim_kswapd *k)
{
	assert_return(k, '?');
	return k->state;
}

RECLAIM_EXPORT double reclaim_kswapd_cpu_seconds(const struct reclaim_kswapd *k)
{
	assert_return(k, 0.0);
	return k->cpu_seconds;
}

RECLAIM_EXPORT int reclaim_kswapd_last_cpu(const struct reclaim_kswapd *k)
{
	assert_return(k, -EINVAL);
	return k->last_cpu;
}

RECLAIM_EXPORT const unsigned int *reclaim_kswapd_allowed_cpus(const struct reclaim_kswapd *k,
							       size_t *count)
{
	assert_return(k && count, NULL);
	*count = k->nallowed;
	return k->allowed;
}

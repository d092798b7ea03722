// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Per-task delay accounting through the kernel's TASKSTATS generic netlink
 * family (Documentation/accounting/taskstats.rst), with libnl-genl-3.
 * struct taskstats only grows at its end, so a reply of any version is read
 * by offset: what lies past the kernel's payload is absent, not zero.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/taskstats.h>
#include <stddef.h>
#include <string.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "taskstats-internal.h"

#define DELAYACCT_PATH "/proc/sys/kernel/task_delayacct"
#define NKINDS	       4

struct reclaim_taskstats {
	int refcount;
	struct reclaim_ctx *ctx;
	struct nl_sock *sock;
	int family;
};

struct reclaim_task_delays {
	int refcount;
	pid_t pid;
	int version;
	char comm[32];
	bool has[NKINDS];
	uint64_t count[NKINDS], total[NKINDS];
};

/* Where each kind's count and total are in struct taskstats (the same in every version). */
static const struct {
	size_t count, total;
} fields[NKINDS] = {
    [RECLAIM_DELAY_RECLAIM] = {offsetof(struct taskstats, freepages_count),
			       offsetof(struct taskstats, freepages_delay_total)},
    [RECLAIM_DELAY_THRASHING] = {offsetof(struct taskstats, thrashing_count),
				 offsetof(struct taskstats, thrashing_delay_total)},
    [RECLAIM_DELAY_SWAPIN] = {offsetof(struct taskstats, swapin_count),
			      offsetof(struct taskstats, swapin_delay_total)},
    [RECLAIM_DELAY_COMPACT] = {offsetof(struct taskstats, compact_count),
			       offsetof(struct taskstats, compact_delay_total)},
};

static uint64_t get_u64(const unsigned char *p, size_t off)
{
	uint64_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

int reclaim_taskstats_parse(const void *payload, size_t len, pid_t pid, const char *comm,
			    struct reclaim_task_delays **ret)
{
	const unsigned char *p = payload;
	struct reclaim_task_delays *d;
	uint16_t version;

	if (len < sizeof(version))
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->refcount = 1;
	d->pid = pid;
	snprintf(d->comm, sizeof(d->comm), "%s", comm ? comm : "?");
	memcpy(&version, p, sizeof(version));
	d->version = version;
	for (size_t k = 0; k < NKINDS; k++) {
		if (fields[k].total + sizeof(uint64_t) > len)
			continue;
		d->has[k] = true;
		d->count[k] = get_u64(p, fields[k].count);
		d->total[k] = get_u64(p, fields[k].total);
	}
	*ret = d;
	return 0;
}

/* ---- kernel.task_delayacct and the process list ---- */

RECLAIM_EXPORT int reclaim_delayacct_get(struct reclaim_ctx *ctx)
{
	_cleanup_free_ char *line = NULL;
	int64_t v;
	int r;

	assert_return(ctx, -EINVAL);
	r = reclaim_read_line(ctx, DELAYACCT_PATH, &line);
	if (r == -ENOENT)
		return reclaim_error(ctx, ENOENT,
				     "this kernel has no kernel.task_delayacct (no " DELAYACCT_PATH
				     ")");
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot read " DELAYACCT_PATH ": %s",
				     reclaim_read_strerror(r));
	if (reclaim_parse_i64(line, &v) < 0 || (v != 0 && v != 1))
		return reclaim_error(ctx, EINVAL, DELAYACCT_PATH ": not 0 or 1: '%s'", line);
	return (int)v;
}

RECLAIM_EXPORT int reclaim_delayacct_set(struct reclaim_ctx *ctx, bool on)
{
	int r;

	assert_return(ctx, -EINVAL);
	r = reclaim_write_string(ctx, DELAYACCT_PATH, on ? "1\n" : "0\n");
	if (r == -ENOENT)
		return reclaim_error(ctx, ENOENT,
				     "this kernel has no kernel.task_delayacct (no " DELAYACCT_PATH
				     ")");
	if (r == -EPERM || r == -EACCES)
		return reclaim_error(ctx, -r,
				     "cannot write " DELAYACCT_PATH ": %s (needs CAP_SYS_ADMIN)",
				     strerror(-r));
	if (r < 0)
		return reclaim_error(ctx, -r, "cannot write " DELAYACCT_PATH ": %s", strerror(-r));
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static int pids_add(pid_t **pids, size_t *n, pid_t pid)
{
	pid_t *v = realloc(*pids, (*n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	v[(*n)++] = pid;
	*pids = v;
	return 0;
}

RECLAIM_EXPORT int reclaim_proc_pids(struct reclaim_ctx *ctx, pid_t **ret, size_t *count)
{
	pid_t *pids = NULL;
	size_t n = 0;
	struct dirent *de;
	DIR *dir;
	int r = 0;

	assert_return(ctx && ret && count, -EINVAL);
	r = reclaim_path_check(ctx, "/proc");
	if (r < 0)
		return r;
	dir = reclaim_opendir(ctx, "/proc");
	if (!dir)
		return reclaim_error(ctx, errno, "cannot read /proc: %s", strerror(errno));
	while (r == 0 && (de = readdir(dir))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0 || pid > RECLAIM_PID_MAX || de->d_name[0] == '\0')
			continue;
		r = pids_add(&pids, &n, (pid_t)pid);
	}
	closedir(dir);
	if (r < 0) {
		free(pids);
		return r;
	}
	if (n > 1)
		qsort(pids, n, sizeof(*pids), cmp_pid);
	*ret = pids;
	*count = n;
	return 0;
}

/* ---- the netlink connection ---- */

static void taskstats_free(struct reclaim_taskstats *ts)
{
	if (ts->sock)
		nl_socket_free(ts->sock);
	reclaim_unref(ts->ctx);
	free(ts);
}

RECLAIM_EXPORT int reclaim_taskstats_new(struct reclaim_ctx *ctx, struct reclaim_taskstats **ret)
{
	struct reclaim_taskstats *ts;
	int r;

	assert_return(ctx && ret, -EINVAL);
	reclaim_error_reset(ctx);
	if (!reclaim_is_live(ctx))
		return reclaim_error(ctx, EOPNOTSUPP,
				     "taskstats come from the running kernel: not available "
				     "under another root (%s)",
				     reclaim_get_sysroot(ctx));
	ts = calloc(1, sizeof(*ts));
	if (!ts)
		return -ENOMEM;
	ts->refcount = 1;
	ts->ctx = reclaim_ref(ctx);
	ts->sock = nl_socket_alloc();
	if (!ts->sock) {
		taskstats_free(ts);
		return -ENOMEM;
	}
	r = genl_connect(ts->sock);
	if (r < 0) {
		taskstats_free(ts);
		return reclaim_error(ctx, EIO, "cannot open a generic netlink socket: %s",
				     nl_geterror(r));
	}
	ts->family = genl_ctrl_resolve(ts->sock, TASKSTATS_GENL_NAME);
	if (ts->family < 0) {
		r = ts->family;
		taskstats_free(ts);
		return reclaim_error(ctx, ENOENT,
				     "the kernel has no " TASKSTATS_GENL_NAME
				     " netlink family (needs CONFIG_TASKSTATS): %s",
				     nl_geterror(r));
	}
	*ret = ts;
	return 0;
}

RECLAIM_EXPORT struct reclaim_taskstats *reclaim_taskstats_ref(struct reclaim_taskstats *ts)
{
	if (ts)
		ts->refcount++;
	return ts;
}

RECLAIM_EXPORT struct reclaim_taskstats *reclaim_taskstats_unref(struct reclaim_taskstats *ts)
{
	if (ts && --ts->refcount == 0)
		taskstats_free(ts);
	return NULL;
}

struct query {
	pid_t pid;
	const char *comm;
	struct reclaim_task_delays *delays;
	int err; /* negative errno from the kernel's error message, or a parse error */
	bool acked;
};

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct query *q = arg;

	q->acked = true;
	return NL_STOP;
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct query *q = arg;

	q->err = e->error < 0 ? e->error : -EIO;
	return NL_STOP;
}

int reclaim_taskstats_reply(struct nlmsghdr *nlh, pid_t pid, const char *comm,
			    struct reclaim_task_delays **delays)
{
	struct nlattr *attrs[TASKSTATS_TYPE_MAX + 1], *aggr, *a;
	int rem, r = 0;

	if (genlmsg_parse(nlh, 0, attrs, TASKSTATS_TYPE_MAX, NULL) < 0)
		return -EBADMSG;
	aggr = attrs[TASKSTATS_TYPE_AGGR_TGID] ? attrs[TASKSTATS_TYPE_AGGR_TGID]
					       : attrs[TASKSTATS_TYPE_AGGR_PID];
	if (!aggr)
		return 0;
	nla_for_each_nested(a, aggr, rem)
	{
		if (nla_type(a) != TASKSTATS_TYPE_STATS || *delays)
			continue;
		r = reclaim_taskstats_parse(nla_data(a), (size_t)nla_len(a), pid, comm, delays);
	}
	return r;
}

static int on_reply(struct nl_msg *msg, void *arg)
{
	struct query *q = arg;
	int r = reclaim_taskstats_reply(nlmsg_hdr(msg), q->pid, q->comm, &q->delays);

	if (r < 0)
		q->err = r;
	return r == -EBADMSG ? NL_STOP : NL_OK;
}

static char *read_comm(struct reclaim_ctx *ctx, pid_t pid)
{
	char path[64], *line = NULL;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (reclaim_read_line(ctx, path, &line) < 0)
		return NULL;
	return line;
}

static int query_error(struct reclaim_taskstats *ts, pid_t tgid, int err)
{
	if (err == -ESRCH)
		return reclaim_error(ts->ctx, ESRCH, "process %d is gone", (int)tgid);
	if (err == -EPERM || err == -EACCES)
		return reclaim_error(ts->ctx, EPERM,
				     "taskstats need CAP_NET_ADMIN: run reclaimctl as root");
	return reclaim_error(ts->ctx, -err, "taskstats of process %d: %s", (int)tgid,
			     strerror(-err));
}

RECLAIM_EXPORT int reclaim_taskstats_query(struct reclaim_taskstats *ts, pid_t tgid,
					   struct reclaim_task_delays **ret)
{
	_cleanup_free_ char *comm = NULL;
	struct query q = {.pid = tgid};
	struct nl_msg *msg;
	int r;

	assert_return(ts && ret && tgid > 0, -EINVAL);
	reclaim_error_reset(ts->ctx);
	comm = read_comm(ts->ctx, tgid);
	q.comm = comm;
	msg = nlmsg_alloc();
	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, ts->family, 0, 0, TASKSTATS_CMD_GET,
			 TASKSTATS_GENL_VERSION) ||
	    nla_put_u32(msg, TASKSTATS_CMD_ATTR_TGID, (uint32_t)tgid) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_socket_modify_cb(ts->sock, NL_CB_VALID, NL_CB_CUSTOM, on_reply, &q);
	nl_socket_modify_cb(ts->sock, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &q);
	nl_socket_modify_err_cb(ts->sock, NL_CB_CUSTOM, on_error, &q);
	/*
	 * With NLM_F_ACK: the reply, then the ACK (or only an error), perhaps in
	 * separate datagrams; nl_recvmsgs() returns after each, so read until the end.
	 */
	r = nl_send_auto(ts->sock, msg);
	nlmsg_free(msg);
	while (r >= 0 && !q.acked && q.err == 0)
		r = nl_recvmsgs_default(ts->sock);
	if (q.err < 0 || (r < 0 && !q.delays)) {
		reclaim_task_delays_unref(q.delays);
		return query_error(ts, tgid, q.err < 0 ? q.err : -EIO);
	}
	if (!q.delays)
		return reclaim_error(ts->ctx, EBADMSG, "taskstats of process %d: no statistics",
				     (int)tgid);
	*ret = q.delays;
	return 0;
}

/* ---- one task's delays ---- */

RECLAIM_EXPORT struct reclaim_task_delays *reclaim_task_delays_ref(struct reclaim_task_delays *d)
{
	if (d)
		d->refcount++;
	return d;
}

RECLAIM_EXPORT struct reclaim_task_delays *reclaim_task_delays_unref(struct reclaim_task_delays *d)
{
	if (d && --d->refcount == 0)
		free(d);
	return NULL;
}

RECLAIM_EXPORT pid_t reclaim_task_delays_pid(const struct reclaim_task_delays *d)
{
	assert_return(d, -EINVAL);
	return d->pid;
}

RECLAIM_EXPORT const char *reclaim_task_delays_comm(const struct reclaim_task_delays *d)
{
	assert_return(d, NULL);
	return d->comm;
}

RECLAIM_EXPORT int reclaim_task_delays_version(const struct reclaim_task_delays *d)
{
	assert_return(d, -EINVAL);
	return d->version;
}

static bool kind_ok(enum reclaim_delay kind)
{
	return (unsigned int)kind < NKINDS;
}

RECLAIM_EXPORT bool reclaim_task_delays_has(const struct reclaim_task_delays *d,
					    enum reclaim_delay kind)
{
	assert_return(d && kind_ok(kind), false);
	return d->has[kind];
}

RECLAIM_EXPORT uint64_t reclaim_task_delays_count(const struct reclaim_task_delays *d,
						  enum reclaim_delay kind)
{
	assert_return(d && kind_ok(kind), 0);
	return d->count[kind];
}

RECLAIM_EXPORT uint64_t reclaim_task_delays_total_ns(const struct reclaim_task_delays *d,
						     enum reclaim_delay kind)
{
	assert_return(d && kind_ok(kind), 0);
	return d->total[kind];
}

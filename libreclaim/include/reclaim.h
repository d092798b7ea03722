/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libreclaim - see and tune Linux memory reclaim.
 *
 * Every object hangs off a context created with the root directory it reads
 * from. Functions returning int return 0 (or a count) on success and a
 * negative errno on failure; reclaim_strerror() then describes the failure.
 * Objects are reference counted; child objects returned by an accessor
 * (a node of a topology, a zone of a node, ...) are owned by their parent and
 * valid as long as the parent is.
 */
#ifndef RECLAIM_H
#define RECLAIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Context */
struct reclaim_ctx;

int reclaim_new(struct reclaim_ctx **ctx, const char *sysroot);
struct reclaim_ctx *reclaim_ref(struct reclaim_ctx *ctx);
struct reclaim_ctx *reclaim_unref(struct reclaim_ctx *ctx);
const char *reclaim_get_sysroot(const struct reclaim_ctx *ctx);
/* Human-readable detail of the last failure on this context, never NULL. */
const char *reclaim_strerror(const struct reclaim_ctx *ctx);
/* The running kernel's release string, or NULL where the root lacks it. */
const char *reclaim_kernel_release(struct reclaim_ctx *ctx);

/* Topology: NUMA nodes, their CPUs, memory and zones */
struct reclaim_topology;
struct reclaim_node;
struct reclaim_zone;

int reclaim_topology_new(struct reclaim_ctx *ctx, struct reclaim_topology **topo);
struct reclaim_topology *reclaim_topology_ref(struct reclaim_topology *topo);
struct reclaim_topology *reclaim_topology_unref(struct reclaim_topology *topo);
/* false on a machine without /sys/devices/system/node (one synthetic node) */
bool reclaim_topology_is_numa(const struct reclaim_topology *topo);
size_t reclaim_topology_node_count(const struct reclaim_topology *topo);
struct reclaim_node *reclaim_topology_node(const struct reclaim_topology *topo, size_t idx);
struct reclaim_node *reclaim_topology_node_by_id(const struct reclaim_topology *topo, int id);
/* Online CPUs of the machine, sorted. */
const unsigned int *reclaim_topology_cpus(const struct reclaim_topology *topo, size_t *count);

int reclaim_node_id(const struct reclaim_node *node);
bool reclaim_node_is_online(const struct reclaim_node *node);
bool reclaim_node_has_memory(const struct reclaim_node *node);
bool reclaim_node_has_cpu(const struct reclaim_node *node);
/* CPUs of the node, sorted; count 0 for a memory-only node. */
const unsigned int *reclaim_node_cpus(const struct reclaim_node *node, size_t *count);
uint64_t reclaim_node_mem_total_kb(const struct reclaim_node *node);
uint64_t reclaim_node_mem_free_kb(const struct reclaim_node *node);
/* Distance row, indexed like the topology's nodes; count 0 if unknown. */
const int *reclaim_node_distance(const struct reclaim_node *node, size_t *count);
size_t reclaim_node_zone_count(const struct reclaim_node *node);
struct reclaim_zone *reclaim_node_zone(const struct reclaim_node *node, size_t idx);

const char *reclaim_zone_name(const struct reclaim_zone *zone);
uint64_t reclaim_zone_managed_pages(const struct reclaim_zone *zone);
uint64_t reclaim_zone_min_pages(const struct reclaim_zone *zone);
uint64_t reclaim_zone_low_pages(const struct reclaim_zone *zone);
uint64_t reclaim_zone_high_pages(const struct reclaim_zone *zone);
uint64_t reclaim_zone_free_pages(const struct reclaim_zone *zone);

/* kswapd threads */
struct reclaim_kswapd_list;
struct reclaim_kswapd;

int reclaim_kswapd_list_new(struct reclaim_ctx *ctx, struct reclaim_kswapd_list **list);
struct reclaim_kswapd_list *reclaim_kswapd_list_ref(struct reclaim_kswapd_list *list);
struct reclaim_kswapd_list *reclaim_kswapd_list_unref(struct reclaim_kswapd_list *list);
/* Sorted by node, then index. */
size_t reclaim_kswapd_list_count(const struct reclaim_kswapd_list *list);
struct reclaim_kswapd *reclaim_kswapd_list_get(const struct reclaim_kswapd_list *list, size_t idx);
/* Number of threads serving node @node_id. */
size_t reclaim_kswapd_list_count_node(const struct reclaim_kswapd_list *list, int node_id);

pid_t reclaim_kswapd_pid(const struct reclaim_kswapd *k);
const char *reclaim_kswapd_name(const struct reclaim_kswapd *k);
int reclaim_kswapd_node(const struct reclaim_kswapd *k);
int reclaim_kswapd_index(const struct reclaim_kswapd *k);
char reclaim_kswapd_state(const struct reclaim_kswapd *k);
double reclaim_kswapd_cpu_seconds(const struct reclaim_kswapd *k);
int reclaim_kswapd_last_cpu(const struct reclaim_kswapd *k);
const unsigned int *reclaim_kswapd_allowed_cpus(const struct reclaim_kswapd *k, size_t *count);

/* True if @name is a kswapd thread name; fills node and index. */
bool reclaim_kswapd_parse_name(const char *name, int *node, int *index);

/* Knobs: a table of the sysctls reclaimctl reads and writes */
struct reclaim_knob;

enum reclaim_unit {
	RECLAIM_UNIT_NONE = 0, /* a count or a mode */
	RECLAIM_UNIT_KB,       /* KiB; sizes like 2M are accepted */
};

size_t reclaim_knob_count(void);
const struct reclaim_knob *reclaim_knob_get(size_t idx);
/* Finds a knob by name ("kswapd_threads"), sysctl name ("vm.kswapd_threads") or alias ("threads").
 */
const struct reclaim_knob *reclaim_knob_find(const char *name);
const char *reclaim_knob_name(const struct reclaim_knob *knob);
const char *reclaim_knob_alias(const struct reclaim_knob *knob);
const char *reclaim_knob_sysctl(const struct reclaim_knob *knob);
/* Absolute path on the live system, e.g. "/proc/sys/vm/kswapd_threads". */
const char *reclaim_knob_path(const struct reclaim_knob *knob);
const char *reclaim_knob_description(const struct reclaim_knob *knob);
enum reclaim_unit reclaim_knob_unit(const struct reclaim_knob *knob);
int64_t reclaim_knob_min(const struct reclaim_knob *knob);
int64_t reclaim_knob_max(const struct reclaim_knob *knob);
int64_t reclaim_knob_default(const struct reclaim_knob *knob);
/* True for the knobs added by the patches in kernel/. */
bool reclaim_knob_needs_patch(const struct reclaim_knob *knob);

/* 1 if the running kernel has the knob, 0 if not, negative errno on error. */
int reclaim_knob_supported(struct reclaim_ctx *ctx, const struct reclaim_knob *knob);
int reclaim_knob_read(struct reclaim_ctx *ctx, const struct reclaim_knob *knob, int64_t *value);
/* Parses and range-checks @text; -EINVAL (not a value) or -ERANGE. */
int reclaim_knob_parse(struct reclaim_ctx *ctx, const struct reclaim_knob *knob, const char *text,
		       int64_t *value);
/* Range-checks, then writes one knob; use a reclaim_change for several. */
int reclaim_knob_write(struct reclaim_ctx *ctx, const struct reclaim_knob *knob, int64_t value);

/*
 * A change: several knob writes applied as one transaction. Old values are
 * read first; if a write fails, every knob already written is put back.
 */
struct reclaim_change;

int reclaim_change_new(struct reclaim_ctx *ctx, struct reclaim_change **change);
struct reclaim_change *reclaim_change_ref(struct reclaim_change *change);
struct reclaim_change *reclaim_change_unref(struct reclaim_change *change);
int reclaim_change_add(struct reclaim_change *change, const struct reclaim_knob *knob,
		       int64_t value);
int reclaim_change_apply(struct reclaim_change *change);
size_t reclaim_change_count(const struct reclaim_change *change);
const struct reclaim_knob *reclaim_change_knob(const struct reclaim_change *change, size_t idx);
int64_t reclaim_change_new_value(const struct reclaim_change *change, size_t idx);
/* The value read before applying; only valid after reclaim_change_apply(). */
int64_t reclaim_change_old_value(const struct reclaim_change *change, size_t idx);
/* After a failed apply: the entry that failed, or -1. */
ssize_t reclaim_change_failed_index(const struct reclaim_change *change);

/* Reclaim counters from /proc/vmstat or a node's vmstat */
struct reclaim_vmstat;

int reclaim_vmstat_new(struct reclaim_ctx *ctx, struct reclaim_vmstat **vmstat);
/* -ENOENT when the node has no vmstat file. */
int reclaim_vmstat_new_node(struct reclaim_ctx *ctx, int node_id, struct reclaim_vmstat **vmstat);
struct reclaim_vmstat *reclaim_vmstat_ref(struct reclaim_vmstat *vmstat);
struct reclaim_vmstat *reclaim_vmstat_unref(struct reclaim_vmstat *vmstat);
/* Only reclaim-related counters are kept, in the kernel's order. */
size_t reclaim_vmstat_count(const struct reclaim_vmstat *vmstat);
const char *reclaim_vmstat_name(const struct reclaim_vmstat *vmstat, size_t idx);
uint64_t reclaim_vmstat_value(const struct reclaim_vmstat *vmstat, size_t idx);
/* 0 and the value, or -ENOENT. */
int reclaim_vmstat_get(const struct reclaim_vmstat *vmstat, const char *name, uint64_t *value);
bool reclaim_vmstat_is_reclaim_counter(const char *name);

/* Memory pressure (PSI) from /proc/pressure/memory */
struct reclaim_pressure;

enum reclaim_pressure_kind {
	RECLAIM_PRESSURE_SOME = 0,
	RECLAIM_PRESSURE_FULL = 1,
};

/* -ENOENT when the kernel has no PSI (or it is disabled). */
int reclaim_pressure_new(struct reclaim_ctx *ctx, struct reclaim_pressure **pressure);
struct reclaim_pressure *reclaim_pressure_ref(struct reclaim_pressure *pressure);
struct reclaim_pressure *reclaim_pressure_unref(struct reclaim_pressure *pressure);
bool reclaim_pressure_has(const struct reclaim_pressure *p, enum reclaim_pressure_kind kind);
double reclaim_pressure_avg10(const struct reclaim_pressure *p, enum reclaim_pressure_kind kind);
double reclaim_pressure_avg60(const struct reclaim_pressure *p, enum reclaim_pressure_kind kind);
double reclaim_pressure_avg300(const struct reclaim_pressure *p, enum reclaim_pressure_kind kind);
uint64_t reclaim_pressure_total_us(const struct reclaim_pressure *p,
				   enum reclaim_pressure_kind kind);

#ifdef __cplusplus
}
#endif

#endif

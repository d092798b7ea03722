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

/* Kept for the ABI only; a program gets a warning when it calls one of these. */
#ifndef RECLAIM_DEPRECATED
#define RECLAIM_DEPRECATED __attribute__((deprecated))
#endif

/* Context */
struct reclaim_ctx;

/* The version of the library in use, e.g. "0.1.0"; needs no context, never NULL. */
const char *reclaim_version(void);

int reclaim_new(struct reclaim_ctx **ctx, const char *sysroot);
struct reclaim_ctx *reclaim_ref(struct reclaim_ctx *ctx);
struct reclaim_ctx *reclaim_unref(struct reclaim_ctx *ctx);
const char *reclaim_get_sysroot(const struct reclaim_ctx *ctx);
/* True for the running system (root "/"), false under another root (a dump, a fixture). */
bool reclaim_is_live(const struct reclaim_ctx *ctx);
/*
 * Human-readable detail of the last failure on this context, never NULL;
 * the functions that can fail forget the text of an earlier failure first.
 */
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

/* Knobs: a table of the sysctls and sysfs files reclaimctl reads and writes */
struct reclaim_knob;

enum reclaim_unit {
	RECLAIM_UNIT_NONE = 0, /* a count or a mode */
	RECLAIM_UNIT_KB,       /* KiB; sizes like 2M are accepted */
};

/*
 * The knobs of the table, in its order: each value is also the knob's
 * index for reclaim_knob_get(). A knob added later gets the next value.
 */
enum reclaim_knob_id {
	RECLAIM_KNOB_KSWAPD_THREADS = 0,
	RECLAIM_KNOB_MAX_DIRECT_RECLAIMERS,
	RECLAIM_KNOB_SWAP_ROUND_ROBIN_QUOTA_KB,
	RECLAIM_KNOB_SWAPPINESS,
	RECLAIM_KNOB_WATERMARK_SCALE_FACTOR,
	RECLAIM_KNOB_WATERMARK_BOOST_FACTOR,
	RECLAIM_KNOB_MIN_FREE_KBYTES,
	RECLAIM_KNOB_ZONE_RECLAIM_MODE,
	RECLAIM_KNOB_PAGE_CLUSTER,
	RECLAIM_KNOB_VFS_CACHE_PRESSURE,
	/* files of sysfs, not sysctls: reclaim_knob_sysctl() is NULL */
	RECLAIM_KNOB_LRU_GEN_ENABLED,
	RECLAIM_KNOB_LRU_GEN_MIN_TTL_MS,
	RECLAIM_KNOB_ZSWAP_ENABLED,
	RECLAIM_KNOB_ZSWAP_COMPRESSOR,
	RECLAIM_KNOB_ZSWAP_MAX_POOL_PERCENT,
	RECLAIM_KNOB_ZSWAP_ACCEPT_THRESHOLD_PERCENT,
	RECLAIM_KNOB_ZSWAP_SHRINKER_ENABLED,
	RECLAIM_KNOB_NUMA_DEMOTION_ENABLED,
};

/*
 * What a knob's value is. Every value is an int64_t; the type says how it
 * is written and read as text (reclaim_knob_parse(), reclaim_knob_format()).
 */
enum reclaim_knob_type {
	RECLAIM_KNOB_TYPE_INT = 0, /* a decimal integer from min to max */
	RECLAIM_KNOB_TYPE_BOOL,	   /* 0 or 1, shown as the kernel shows it (Y/N, true/false) */
	RECLAIM_KNOB_TYPE_FLAGS,   /* a bit mask from min to max, shown in hex; y: all, n: none */
	RECLAIM_KNOB_TYPE_CHOICE,  /* one of the knob's names: the value is its index */
};

/*
 * A knob is a constant of the library: whichever function returns it, one
 * knob is always the same pointer, so knobs compare with ==.
 */
size_t reclaim_knob_count(void);
const struct reclaim_knob *reclaim_knob_get(size_t idx);
/* The knob @id; NULL for a value that names none. */
const struct reclaim_knob *reclaim_knob_by_id(enum reclaim_knob_id id);
/* Finds a knob by name ("kswapd_threads"), sysctl name ("vm.kswapd_threads") or alias ("threads").
 */
const struct reclaim_knob *reclaim_knob_find(const char *name);
const char *reclaim_knob_name(const struct reclaim_knob *knob);
const char *reclaim_knob_alias(const struct reclaim_knob *knob);
/* "vm.swappiness"; NULL for a knob that is a file of sysfs. */
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
/* The file --persist writes the knob to: RECLAIM_PERSIST_FILE, or RECLAIM_PERSIST_TMPFILES for a
 * file of sysfs. */
const char *reclaim_knob_persist_file(const struct reclaim_knob *knob);
enum reclaim_knob_type reclaim_knob_type(const struct reclaim_knob *knob);
/* The names of a RECLAIM_KNOB_TYPE_CHOICE knob (0 and NULL for any other). */
size_t reclaim_knob_choice_count(const struct reclaim_knob *knob);
const char *reclaim_knob_choice(const struct reclaim_knob *knob, size_t idx);
/*
 * How messages name the knob: its sysctl name ("vm.swappiness"), or for a
 * file of sysfs its path ("/sys/module/zswap/parameters/enabled").
 */
const char *reclaim_knob_label(const struct reclaim_knob *knob);
/* Room for any value of reclaim_knob_format(), with its terminating NUL. */
#define RECLAIM_KNOB_TEXT_MAX 32
/*
 * @value as the kernel shows it ("60", "Y", "true", "0x0007", "lz4") in
 * @buf; a value outside the knob's range as a decimal number. Returns @buf.
 */
const char *reclaim_knob_format(const struct reclaim_knob *knob, int64_t value, char *buf,
				size_t size);

/* 1 if the running kernel has the knob, 0 if not, negative errno on error. */
int reclaim_knob_supported(struct reclaim_ctx *ctx, const struct reclaim_knob *knob);
/* Where the kernel's vm sysctls are, the knobs' files (as on the machine, without the root). */
#define RECLAIM_SYSCTL_DIR "/proc/sys/vm"
/*
 * 1 if the root has the running kernel's sysctls (RECLAIM_SYSCTL_DIR), so
 * that a knob missing there is one the kernel lacks; 0 for a root without
 * them (a dump of other files), where nothing is known of the knobs;
 * negative errno on error.
 */
int reclaim_has_sysctls(struct reclaim_ctx *ctx);
int reclaim_knob_read(struct reclaim_ctx *ctx, const struct reclaim_knob *knob, int64_t *value);
/* Parses and range-checks @text; -EINVAL (not a value) or -ERANGE. */
int reclaim_knob_parse(struct reclaim_ctx *ctx, const struct reclaim_knob *knob, const char *text,
		       int64_t *value);
/*
 * Deprecated: use a reclaim_request (RECLAIM_REQUEST_SET). Kept as a thin
 * wrapper of one: the request of @knob = @value with RECLAIM_REQUEST_FORCE
 * and RECLAIM_REQUEST_STRICT, applied (locked, recorded in the history,
 * kswapd threads verified).
 */
RECLAIM_DEPRECATED int reclaim_knob_write(struct reclaim_ctx *ctx, const struct reclaim_knob *knob,
					  int64_t value);

/*
 * Where reclaimctl keeps what lasts until the next boot, as on the machine
 * (the library opens it under the root): the writers' lock, the saved values,
 * the history, adapt's state and the boot unit's result.
 */
#define RECLAIM_RUNDIR "/run/reclaimctl"

/*
 * Deprecated: use a reclaim_request, the one write path. A change is kept
 * for the ABI as a thin wrapper of one: applying it applies the request of
 * its values with RECLAIM_REQUEST_FORCE and RECLAIM_REQUEST_STRICT (and
 * RECLAIM_REQUEST_PERSIST after reclaim_change_set_persist()), or, for
 * reclaim_change_new_restore()'s change, the RECLAIM_REQUEST_RESTORE of the
 * change it undoes. So applying takes /run/reclaimctl/lock (waiting up to
 * 10 s for another writer, then -EBUSY), reads every old value, writes as
 * one transaction (kswapd_threads checked on every node with memory, every
 * knob already written put back if a write fails, reclaim_strerror() naming
 * the knob, why, and what was restored) and records it in the history. A
 * knob at its value already is not written, and a change of nothing
 * records nothing.
 */
struct reclaim_change;

RECLAIM_DEPRECATED int reclaim_change_new(struct reclaim_ctx *ctx, struct reclaim_change **change);
struct reclaim_change *reclaim_change_ref(struct reclaim_change *change);
struct reclaim_change *reclaim_change_unref(struct reclaim_change *change);
RECLAIM_DEPRECATED int reclaim_change_add(struct reclaim_change *change,
					  const struct reclaim_knob *knob, int64_t value);
/*
 * A change that undoes the newest change not undone yet (see
 * RECLAIM_REQUEST_RESTORE). -ENOENT when there is none.
 */
RECLAIM_DEPRECATED int reclaim_change_new_restore(struct reclaim_ctx *ctx,
						  struct reclaim_change **change);
/*
 * With @persist, a successful apply also merges the new values into
 * RECLAIM_PERSIST_FILE (see reclaim_persist_write()); if that fails, the
 * knobs are put back as for a failed write.
 */
RECLAIM_DEPRECATED int reclaim_change_set_persist(struct reclaim_change *change, bool persist);
RECLAIM_DEPRECATED int reclaim_change_apply(struct reclaim_change *change);
size_t reclaim_change_count(const struct reclaim_change *change);
const struct reclaim_knob *reclaim_change_knob(const struct reclaim_change *change, size_t idx);
int64_t reclaim_change_new_value(const struct reclaim_change *change, size_t idx);
/* The value read before applying; only valid after reclaim_change_apply(). */
int64_t reclaim_change_old_value(const struct reclaim_change *change, size_t idx);
/* After a failed apply: the entry that failed, or -1. */
ssize_t reclaim_change_failed_index(const struct reclaim_change *change);
/* After applying a kswapd_threads change: the nodes checked to run the new count; else -1. */
ssize_t reclaim_change_verified_nodes(const struct reclaim_change *change);

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

/* Recommendations from the topology */
/*
 * The numbers of the rules below. kswapd_threads: one thread per
 * RECLAIM_AUTOTUNE_CPUS_PER_KSWAPD (16) CPUs of a node, and never fewer than
 * RECLAIM_CPUS_PER_KSWAPD_MIN (4) CPUs per thread, that is at most a quarter
 * of a node's CPUs (which also bounds reclaim_adapt_default_max()).
 * max_direct_reclaimers: RECLAIM_AUTOTUNE_THROTTLE_NUM /
 * RECLAIM_AUTOTUNE_THROTTLE_DEN (3/4) of a node's CPUs, within
 * RECLAIM_AUTOTUNE_THROTTLE_MIN..RECLAIM_AUTOTUNE_THROTTLE_MAX (1..16).
 */
#define RECLAIM_AUTOTUNE_CPUS_PER_KSWAPD 16
#define RECLAIM_CPUS_PER_KSWAPD_MIN	 4
#define RECLAIM_AUTOTUNE_THROTTLE_NUM	 3
#define RECLAIM_AUTOTUNE_THROTTLE_DEN	 4
#define RECLAIM_AUTOTUNE_THROTTLE_MIN	 1
#define RECLAIM_AUTOTUNE_THROTTLE_MAX	 16
/*
 * A recommended value of @knob for the machine @topo describes, and in
 * @reason (if not NULL; free() it) why, in one line naming the facts.
 * kswapd_threads: for each node with CPUs and memory ceil(CPUs / 16), at
 * most a quarter of its CPUs (at least 1) and the knob's maximum (16); the
 * smallest of these. max_direct_reclaimers: for each such node round(3/4 x
 * CPUs) within 1..16; the largest of these. Without such a node, all online
 * CPUs count as one. -EOPNOTSUPP for a knob without a recommendation.
 */
/* True if reclaim_knob_recommend() has a rule for @knob (a preset may say "auto" for it). */
bool reclaim_knob_has_recommendation(const struct reclaim_knob *knob);
int reclaim_knob_recommend(struct reclaim_ctx *ctx, const struct reclaim_knob *knob,
			   const struct reclaim_topology *topo, int64_t *value, char **reason);

/*
 * Presets: named sets of knob values, one "KNOB = VALUE" a line, see
 * reclaimctl.preset(5). The administrator's NAME.preset in
 * RECLAIM_ADMIN_PRESET_DIR (under the root) takes the place of a shipped one of
 * the same name. A preset keeps no link to its context.
 */
struct reclaim_preset;
struct reclaim_preset_list;

/* The administrator's presets, as on the machine. */
#define RECLAIM_ADMIN_PRESET_DIR "/etc/reclaimctl/presets"

/* Where the shipped presets are: $RECLAIMCTL_PRESET_DIR if set, else the build's; not under the
 * root. */
const char *reclaim_preset_shipped_dir(void);
/*
 * Loads preset @name. -EINVAL if @name is not a plain name (empty, with '/',
 * a space or a control character, or starting with '.'); -ENOENT if there is
 * none; -EBADMSG if the file is malformed: it is refused whole, and
 * reclaim_strerror() says "FILE:LINE: problem".
 */
int reclaim_preset_load(struct reclaim_ctx *ctx, const char *name, struct reclaim_preset **preset);
struct reclaim_preset *reclaim_preset_ref(struct reclaim_preset *preset);
struct reclaim_preset *reclaim_preset_unref(struct reclaim_preset *preset);
const char *reclaim_preset_name(const struct reclaim_preset *preset);
/* The file as on the machine (without the root), e.g. "/etc/reclaimctl/presets/NAME.preset". */
const char *reclaim_preset_path(const struct reclaim_preset *preset);
/* True for the administrator's preset (in /etc/reclaimctl/presets). */
bool reclaim_preset_is_admin(const struct reclaim_preset *preset);
/* True for the administrator's preset when a shipped one has the same name. */
bool reclaim_preset_overrides_shipped(const struct reclaim_preset *preset);
/* The first paragraph of the file's leading comment, on one line; NULL without one. */
const char *reclaim_preset_description(const struct reclaim_preset *preset);
/* The entries, in the order of the file; each knob at most once. */
size_t reclaim_preset_count(const struct reclaim_preset *preset);
const struct reclaim_knob *reclaim_preset_knob(const struct reclaim_preset *preset, size_t idx);
/* True for "auto": the caller resolves it (reclaim_knob_recommend()); the value is then 0. */
bool reclaim_preset_is_auto(const struct reclaim_preset *preset, size_t idx);
/* The value, range-checked, in the knob's unit (KiB for sizes). */
int64_t reclaim_preset_value(const struct reclaim_preset *preset, size_t idx);
/* The entry's line in the file, from 1. */
unsigned int reclaim_preset_line(const struct reclaim_preset *preset, size_t idx);
/* The index of @knob's entry, or -1. */
ssize_t reclaim_preset_find(const struct reclaim_preset *preset, const struct reclaim_knob *knob);

/* Every preset, sorted by name; an administrator's in place of a shipped one of its name. */
int reclaim_preset_list_new(struct reclaim_ctx *ctx, struct reclaim_preset_list **list);
struct reclaim_preset_list *reclaim_preset_list_ref(struct reclaim_preset_list *list);
struct reclaim_preset_list *reclaim_preset_list_unref(struct reclaim_preset_list *list);
size_t reclaim_preset_list_count(const struct reclaim_preset_list *list);
const char *reclaim_preset_list_name(const struct reclaim_preset_list *list, size_t idx);
/* As reclaim_preset_path(). */
const char *reclaim_preset_list_path(const struct reclaim_preset_list *list, size_t idx);
bool reclaim_preset_list_is_admin(const struct reclaim_preset_list *list, size_t idx);
bool reclaim_preset_list_overrides_shipped(const struct reclaim_preset_list *list, size_t idx);

/* Swap devices, from /proc/swaps (through libmount), and their priority rings */
struct reclaim_swaps;
struct reclaim_swap;
struct reclaim_swap_ring;

enum reclaim_swap_kind {
	RECLAIM_SWAP_KIND_UNKNOWN = 0, /* a block device not found in the root's sysfs */
	RECLAIM_SWAP_KIND_ZRAM,	       /* a zram device: compressed memory */
	RECLAIM_SWAP_KIND_DISK,	       /* a disk or a partition of one */
	RECLAIM_SWAP_KIND_FILE,	       /* a file in a filesystem */
};

/* -ENOENT when there is no /proc/swaps (no swap support), -EINVAL when it is malformed. */
int reclaim_swaps_new(struct reclaim_ctx *ctx, struct reclaim_swaps **swaps);
struct reclaim_swaps *reclaim_swaps_ref(struct reclaim_swaps *swaps);
struct reclaim_swaps *reclaim_swaps_unref(struct reclaim_swaps *swaps);
/* The devices in the order of /proc/swaps. */
size_t reclaim_swaps_count(const struct reclaim_swaps *swaps);
struct reclaim_swap *reclaim_swaps_get(const struct reclaim_swaps *swaps, size_t idx);
/* The device named @path as in /proc/swaps, or by a link to it under the root; NULL if none. */
struct reclaim_swap *reclaim_swaps_find(const struct reclaim_swaps *swaps, const char *path);
/* Rings: the devices of one priority; highest priority first. */
size_t reclaim_swaps_ring_count(const struct reclaim_swaps *swaps);
struct reclaim_swap_ring *reclaim_swaps_ring(const struct reclaim_swaps *swaps, size_t idx);

const char *reclaim_swap_path(const struct reclaim_swap *swap);
/* "partition" or "file", as the kernel says. */
const char *reclaim_swap_type(const struct reclaim_swap *swap);
enum reclaim_swap_kind reclaim_swap_kind(const struct reclaim_swap *swap);
/* "unknown", "zram", "disk", "file" */
const char *reclaim_swap_kind_name(enum reclaim_swap_kind kind);
uint64_t reclaim_swap_size_kb(const struct reclaim_swap *swap);
uint64_t reclaim_swap_used_kb(const struct reclaim_swap *swap);
int reclaim_swap_priority(const struct reclaim_swap *swap);
/*
 * The whole disk the device is or is part of (for a file: the disk holding
 * its filesystem), e.g. "nvme0n1"; NULL if unknown.
 */
const char *reclaim_swap_disk(const struct reclaim_swap *swap);
/* 1 if that disk is rotational, 0 if not, -ENODATA if unknown. */
int reclaim_swap_rotational(const struct reclaim_swap *swap);
/* A swap file's filesystem: its device as mounted ("/dev/nvme0n1p2") and mount point; else NULL. */
const char *reclaim_swap_backing_device(const struct reclaim_swap *swap);
const char *reclaim_swap_mountpoint(const struct reclaim_swap *swap);

int reclaim_swap_ring_priority(const struct reclaim_swap_ring *ring);
size_t reclaim_swap_ring_count(const struct reclaim_swap_ring *ring);
struct reclaim_swap *reclaim_swap_ring_get(const struct reclaim_swap_ring *ring, size_t idx);
uint64_t reclaim_swap_ring_size_kb(const struct reclaim_swap_ring *ring);
uint64_t reclaim_swap_ring_used_kb(const struct reclaim_swap_ring *ring);
/*
 * How evenly the ring's used space is spread: min(used/size) / max(used/size)
 * over its devices (of non-zero size); 1.0 for one device or nothing used.
 */
double reclaim_swap_ring_balance(const struct reclaim_swap_ring *ring);

/*
 * Autotune: a plan for this machine. For every knob with a recommendation
 * (in the knob table's order) its value and reason, as
 * reclaim_knob_recommend() gives them; and, with @swaps (NULL: none), a
 * proposed priority for each swap device: RECLAIM_AUTOTUNE_PRIO_ZRAM for
 * zram, RECLAIM_AUTOTUNE_PRIO_NONROTATIONAL for a disk that is not
 * rotational, RECLAIM_AUTOTUNE_PRIO_ROTATIONAL for a rotational one, a swap
 * file that of the disk holding it. The plan only proposes: nothing is written.
 */
struct reclaim_plan;

#define RECLAIM_AUTOTUNE_PRIO_ZRAM	    100
#define RECLAIM_AUTOTUNE_PRIO_NONROTATIONAL 50
#define RECLAIM_AUTOTUNE_PRIO_ROTATIONAL    10

int reclaim_plan_new(struct reclaim_ctx *ctx, const struct reclaim_topology *topo,
		     const struct reclaim_swaps *swaps, struct reclaim_plan **plan);
struct reclaim_plan *reclaim_plan_ref(struct reclaim_plan *plan);
struct reclaim_plan *reclaim_plan_unref(struct reclaim_plan *plan);
/* The knob entries. */
size_t reclaim_plan_count(const struct reclaim_plan *plan);
const struct reclaim_knob *reclaim_plan_knob(const struct reclaim_plan *plan, size_t idx);
/*
 * True when the running kernel lacks the knob: never write it. Its value and
 * reason are still the rule's; the change engine says why it is skipped.
 */
bool reclaim_plan_skipped(const struct reclaim_plan *plan, size_t idx);
int64_t reclaim_plan_value(const struct reclaim_plan *plan, size_t idx);
const char *reclaim_plan_reason(const struct reclaim_plan *plan, size_t idx);
/* The entry of @knob, or -1 if the plan has none. */
ssize_t reclaim_plan_find(const struct reclaim_plan *plan, const struct reclaim_knob *knob);
/* The swap proposals, one per device of @swaps, in its order (owned by it; the plan holds it). */
size_t reclaim_plan_swap_count(const struct reclaim_plan *plan);
struct reclaim_swap *reclaim_plan_swap(const struct reclaim_plan *plan, size_t idx);
/* The proposed priority, or -ENODATA when there is none (a device of unknown kind). */
int reclaim_plan_swap_priority(const struct reclaim_plan *plan, size_t idx);
const char *reclaim_plan_swap_reason(const struct reclaim_plan *plan, size_t idx);

/* The swap entries of /etc/fstab, through libmount */
struct reclaim_fstab;

enum reclaim_swap_discard {
	RECLAIM_SWAP_DISCARD_NONE = 0,
	RECLAIM_SWAP_DISCARD_ALL,   /* "discard": at swapon and of freed pages */
	RECLAIM_SWAP_DISCARD_ONCE,  /* "discard=once": the whole device at swapon */
	RECLAIM_SWAP_DISCARD_PAGES, /* "discard=pages": freed pages */
};

/* -ENOENT without /etc/fstab, -EINVAL when a line of it is not an entry. */
int reclaim_fstab_new(struct reclaim_ctx *ctx, struct reclaim_fstab **fstab);
struct reclaim_fstab *reclaim_fstab_ref(struct reclaim_fstab *fstab);
struct reclaim_fstab *reclaim_fstab_unref(struct reclaim_fstab *fstab);
/* The entries of type swap, in file order. */
size_t reclaim_fstab_count(const struct reclaim_fstab *fstab);
/* As written: "/dev/sda2", "UUID=...". */
const char *reclaim_fstab_source(const struct reclaim_fstab *fstab, size_t idx);
const char *reclaim_fstab_options(const struct reclaim_fstab *fstab, size_t idx);
/* 1 and the pri= value, 0 without pri=, -EINVAL if it is not a priority. */
int reclaim_fstab_priority(const struct reclaim_fstab *fstab, size_t idx, int *prio);
enum reclaim_swap_discard reclaim_fstab_discard(const struct reclaim_fstab *fstab, size_t idx);
/*
 * The entry of the swap device @device: by path, by links under the root and
 * by UUID=, LABEL=, PARTUUID=, PARTLABEL= through /dev/disk/by-*; -ENOENT if none.
 */
ssize_t reclaim_fstab_find(const struct reclaim_fstab *fstab, const char *device);
/* The highest swap priority swapon(2) takes; the lowest one set is 0. */
#define RECLAIM_SWAP_PRIORITY_MAX 32767
/*
 * Sets pri=@prio (0..RECLAIM_SWAP_PRIORITY_MAX) in entry @idx and replaces
 * /etc/fstab atomically; only that entry's line changes, every other byte stays.
 */
int reclaim_fstab_set_priority(struct reclaim_fstab *fstab, size_t idx, int prio);

/*
 * A priority change of an active swap device: swapoff, then swapon(2) with
 * the new priority and the discard flags of its fstab entry.
 */
struct reclaim_swap_plan;

enum reclaim_swap_plan_flags {
	RECLAIM_SWAP_LIVE = 1 << 0,    /* change the running kernel's device */
	RECLAIM_SWAP_PERSIST = 1 << 1, /* set pri= in the device's /etc/fstab entry */
};

/* Reads the device's state; -ENOENT if @device is not an active swap device, -ERANGE for @prio. */
int reclaim_swap_plan_new(struct reclaim_ctx *ctx, const char *device, int prio,
			  struct reclaim_swap_plan **plan);
struct reclaim_swap_plan *reclaim_swap_plan_ref(struct reclaim_swap_plan *plan);
struct reclaim_swap_plan *reclaim_swap_plan_unref(struct reclaim_swap_plan *plan);
/* The device as /proc/swaps names it. */
const char *reclaim_swap_plan_device(const struct reclaim_swap_plan *plan);
int reclaim_swap_plan_old_priority(const struct reclaim_swap_plan *plan);
int reclaim_swap_plan_new_priority(const struct reclaim_swap_plan *plan);
uint64_t reclaim_swap_plan_used_kb(const struct reclaim_swap_plan *plan);
uint64_t reclaim_swap_plan_mem_available_kb(const struct reclaim_swap_plan *plan);
/* max(RECLAIM_SWAP_MARGIN_MIN_KB, MemTotal / RECLAIM_SWAP_MARGIN_DIVISOR): 64 MiB, 1/32 */
uint64_t reclaim_swap_plan_margin_kb(const struct reclaim_swap_plan *plan);
#define RECLAIM_SWAP_MARGIN_MIN_KB  65536
#define RECLAIM_SWAP_MARGIN_DIVISOR 32
/* MemAvailable > used + margin, or nothing used. */
bool reclaim_swap_plan_has_room(const struct reclaim_swap_plan *plan);
enum reclaim_swap_discard reclaim_swap_plan_discard(const struct reclaim_swap_plan *plan);
/* As reclaim_fstab_priority() for the device's entry; -ENOENT without one. */
int reclaim_swap_plan_fstab_priority(const struct reclaim_swap_plan *plan, int *prio);
/* The checks of reclaim_swap_plan_apply() alone: room (LIVE), an fstab entry (PERSIST). */
int reclaim_swap_plan_check(struct reclaim_swap_plan *plan, unsigned int flags);
/*
 * Checks, then changes. LIVE needs the live root ("/") and CAP_SYS_ADMIN;
 * if swapon with the new priority fails the device is swapped on with the old one.
 */
int reclaim_swap_plan_apply(struct reclaim_swap_plan *plan, unsigned int flags);
/* After apply: whether the running kernel's device and the fstab entry were changed. */
bool reclaim_swap_plan_live_changed(const struct reclaim_swap_plan *plan);
bool reclaim_swap_plan_fstab_changed(const struct reclaim_swap_plan *plan);
/*
 * The progress of the swapoff(2) of a live change: the device still holds
 * @used_kb (never more than @total_kb) of the @total_kb it held when swapoff
 * started.
 */
typedef void (*reclaim_swap_progress_fn)(const struct reclaim_swap_plan *plan, uint64_t used_kb,
					 uint64_t total_kb, void *userdata);
/*
 * Has reclaim_swap_plan_apply() call @fn when it swaps off a device that holds
 * something: once in the calling thread right before swapoff(2), with @used_kb
 * = @total_kb, then every @interval_ms (0: 500) from a thread of the library,
 * with the device's Used in /proc/swaps, while swapoff(2) runs; never after
 * swapoff(2) has returned. @fn NULL: no calls. -ERANGE for more than 60000 ms.
 */
int reclaim_swap_plan_set_progress(struct reclaim_swap_plan *plan, unsigned int interval_ms,
				   reclaim_swap_progress_fn fn, void *userdata);

/*
 * The sysctl configuration applied at boot, as systemd-sysctl reads it:
 * *.conf files of /etc/sysctl.d, /run/sysctl.d, /usr/local/lib/sysctl.d,
 * /usr/lib/sysctl.d and (if it is another directory) /lib/sysctl.d; a file
 * name found in an earlier directory hides the same name in later ones (a link
 * to /dev/null or an empty file so masks it); the files are read in the order
 * of their names, whatever their directory, and a later assignment of a key
 * replaces an earlier one. /etc/sysctl.conf, which "sysctl --system" reads
 * last, comes last unless a sysctl.d file already is (a link to) it. A key
 * set explicitly is never changed by a glob; "-key" without '=' keeps it out
 * of globs; among globs, the one applied last wins. See reclaimctl(8).
 *
 * A reclaim_sysctl_conf holds the lines that set one of the knobs of
 * reclaim_knob_get() ("entries", in the order they are applied) and the
 * problems found on the way. Unreadable files and malformed lines are
 * problems, never a failure of reclaim_sysctl_conf_new().
 */
struct reclaim_sysctl_conf;

/* The files reclaimctl writes for --persist, as on the machine: the sysctls', the sysfs knobs'. */
#define RECLAIM_PERSIST_FILE	 "/etc/sysctl.d/90-reclaimctl.conf"
#define RECLAIM_PERSIST_TMPFILES "/etc/tmpfiles.d/90-reclaimctl.conf"

int reclaim_sysctl_conf_new(struct reclaim_ctx *ctx, struct reclaim_sysctl_conf **conf);
struct reclaim_sysctl_conf *reclaim_sysctl_conf_ref(struct reclaim_sysctl_conf *conf);
struct reclaim_sysctl_conf *reclaim_sysctl_conf_unref(struct reclaim_sysctl_conf *conf);
size_t reclaim_sysctl_conf_count(const struct reclaim_sysctl_conf *conf);
const struct reclaim_knob *reclaim_sysctl_conf_knob(const struct reclaim_sysctl_conf *conf,
						    size_t idx);
/* The file as on the machine, without the root; for a link, the file it leads to. */
const char *reclaim_sysctl_conf_file(const struct reclaim_sysctl_conf *conf, size_t idx);
/* Line number, from 1. */
unsigned int reclaim_sysctl_conf_line(const struct reclaim_sysctl_conf *conf, size_t idx);
/* The key as written ("vm.swappiness", "vm/swappiness", "vm.*"), without a leading '-'. */
const char *reclaim_sysctl_conf_key(const struct reclaim_sysctl_conf *conf, size_t idx);
/* The value as written; NULL for "-key" (an exclusion from globs). */
const char *reclaim_sysctl_conf_value(const struct reclaim_sysctl_conf *conf, size_t idx);
bool reclaim_sysctl_conf_is_glob(const struct reclaim_sysctl_conf *conf, size_t idx);
/* True for the line that decides the knob at boot. */
bool reclaim_sysctl_conf_wins(const struct reclaim_sysctl_conf *conf, size_t idx);
/*
 * False for a value the kernel refuses (not an integer in the knob's
 * range): such a line never wins, and a knob it would decide is left at
 * the kernel's value at boot and counts as set by no file.
 */
bool reclaim_sysctl_conf_is_valid(const struct reclaim_sysctl_conf *conf, size_t idx);
/* True for a line of RECLAIM_PERSIST_FILE, reclaimctl's own file. */
bool reclaim_sysctl_conf_is_own(const struct reclaim_sysctl_conf *conf, size_t idx);
/*
 * The entry that decides @knob at boot, or -1 if no line sets it. An entry
 * whose value is NULL (an exclusion) means the knob is left as it is.
 */
ssize_t reclaim_sysctl_conf_boot_entry(const struct reclaim_sysctl_conf *conf,
				       const struct reclaim_knob *knob);
/*
 * The entry outside reclaimctl's own file that sets @knob (the one that
 * would win at boot without that file), or -1 if none sets it: an
 * administrator's choice, which an apply leaves alone unless forced.
 */
ssize_t reclaim_sysctl_conf_admin_entry(const struct reclaim_sysctl_conf *conf,
					const struct reclaim_knob *knob);
/*
 * True when reclaimctl's own file sets @knob and a line of another file
 * decides it at boot: the persisted value is overridden.
 */
bool reclaim_sysctl_conf_overridden(const struct reclaim_sysctl_conf *conf,
				    const struct reclaim_knob *knob);
/*
 * tuned's active profile is another writer (LIBRECLAIM_9): its [sysctl]
 * values that set knobs are entries too, after the files', each at the
 * line of the profile (of its include= chain) that won. tuned writes them
 * when tuned.service starts, after systemd-sysctl; with reapply_sysctl (on
 * by default in /etc/tuned/tuned-main.conf) it then writes the lines of
 * /run/sysctl.d, /etc/sysctl.d and /etc/sysctl.conf again, which so win
 * over it (those of /usr/lib/sysctl.d do not). A profile tuned would refuse
 * is a problem, and then no entry is tuned's. See reclaimctl(8).
 */
bool reclaim_sysctl_conf_is_tuned(const struct reclaim_sysctl_conf *conf, size_t idx);
/*
 * Which writer's the entry is (LIBRECLAIM_13): "sysctl" (a sysctl.d file,
 * /etc/sysctl.conf), "tuned" (tuned's active profile), "tmpfiles" (a 'w'
 * line of a tmpfiles.d file, for a knob of sysfs; the first line for a
 * path wins) or "cmdline" (a module parameter on the kernel command line,
 * file "/proc/cmdline", line 1). reclaimctl's own files are
 * RECLAIM_PERSIST_FILE and RECLAIM_PERSIST_TMPFILES.
 */
const char *reclaim_sysctl_conf_kind(const struct reclaim_sysctl_conf *conf, size_t idx);
/* The names in /etc/tuned/active_profile ("virtual-guest"), or NULL when tuned has none. */
const char *reclaim_sysctl_conf_tuned_profile(const struct reclaim_sysctl_conf *conf);
/* True when tuned has a profile and writes the sysctl files again after its values. */
bool reclaim_sysctl_conf_tuned_reapplies(const struct reclaim_sysctl_conf *conf);
/*
 * Problems: a file that cannot be read (line 0), a line that is not an
 * assignment, a value that is not one of the knob's. The knob is NULL when
 * the line names none of reclaim_knob_get()'s.
 */
size_t reclaim_sysctl_conf_problem_count(const struct reclaim_sysctl_conf *conf);
const char *reclaim_sysctl_conf_problem_file(const struct reclaim_sysctl_conf *conf, size_t idx);
unsigned int reclaim_sysctl_conf_problem_line(const struct reclaim_sysctl_conf *conf, size_t idx);
const struct reclaim_knob *reclaim_sysctl_conf_problem_knob(const struct reclaim_sysctl_conf *conf,
							    size_t idx);
const char *reclaim_sysctl_conf_problem_message(const struct reclaim_sysctl_conf *conf, size_t idx);

/*
 * The persisted values: RECLAIM_PERSIST_FILE, "SYSCTL = VALUE" lines under a
 * header saying reclaimctl wrote it. A file with any other line (a comment
 * of its own, a key that is not a knob, a value out of range, a knob twice)
 * is not reclaimctl's: reading it fails with -EBADMSG (the message names the
 * line), and nothing is written or removed.
 */
struct reclaim_persist;

/* An absent file reads as no values. */
int reclaim_persist_read(struct reclaim_ctx *ctx, struct reclaim_persist **persist);
struct reclaim_persist *reclaim_persist_ref(struct reclaim_persist *persist);
struct reclaim_persist *reclaim_persist_unref(struct reclaim_persist *persist);
/* The values, in the order of reclaim_knob_get(). */
size_t reclaim_persist_count(const struct reclaim_persist *persist);
const struct reclaim_knob *reclaim_persist_knob(const struct reclaim_persist *persist, size_t idx);
int64_t reclaim_persist_value(const struct reclaim_persist *persist, size_t idx);
/* The index of @knob's value, or -1. */
ssize_t reclaim_persist_find(const struct reclaim_persist *persist,
			     const struct reclaim_knob *knob);
/*
 * Merges @n values (range-checked first) into the persisted ones and
 * replaces the file atomically: a temporary file beside it, fsync(),
 * rename(), fsync() of the directory; mode 0644; /etc/sysctl.d is created
 * if missing. On failure the old file is untouched.
 */
int reclaim_persist_write(struct reclaim_ctx *ctx, const struct reclaim_knob *const *knobs,
			  const int64_t *values, size_t n);
/* Removes the file; -ENOENT if nothing is persisted. */
int reclaim_persist_remove(struct reclaim_ctx *ctx);

/*
 * Repeated sampling (monitor, record): the files stay open and are re-read
 * with pread(). kswapd threads are looked for again only when kthreadd's
 * children change (or, on a kernel without that file, when the
 * kswapd_threads knob changes or a thread is gone).
 */
struct reclaim_sampler;
struct reclaim_sample;

enum reclaim_sampler_flags {
	RECLAIM_SAMPLER_NODES = 1 << 0, /* also each node's vmstat */
	RECLAIM_SAMPLER_KNOBS = 1 << 1, /* also the values of the knobs */
	RECLAIM_SAMPLER_CPUS = 1 << 2,	/* also /proc/stat: how busy each node's CPUs are */
	/* of the knobs only kswapd_threads (reclaim_sample_knob() for it alone) */
	RECLAIM_SAMPLER_THREADS_KNOB = 1 << 3,
	/*
	 * also how long reclaim made tasks wait, through a reclaim_latency of
	 * the sampler's own (reclaim_sampler_latency()); reclaim_sampler_new()
	 * fails as reclaim_latency_new() does
	 */
	RECLAIM_SAMPLER_LATENCY = 1 << 4,
	/* of the knobs those adapt moves, kswapd_threads and watermark_scale_factor (LIBRECLAIM_14)
	 */
	RECLAIM_SAMPLER_ADAPT_KNOBS = 1 << 5,
};

int reclaim_sampler_new(struct reclaim_ctx *ctx, unsigned int flags,
			struct reclaim_sampler **sampler);
struct reclaim_sampler *reclaim_sampler_ref(struct reclaim_sampler *sampler);
struct reclaim_sampler *reclaim_sampler_unref(struct reclaim_sampler *sampler);
/* Reads everything once more into a new sample. */
int reclaim_sampler_read(struct reclaim_sampler *sampler, struct reclaim_sample **sample);

struct reclaim_sample *reclaim_sample_ref(struct reclaim_sample *sample);
struct reclaim_sample *reclaim_sample_unref(struct reclaim_sample *sample);
/* When the sample was taken: CLOCK_MONOTONIC and CLOCK_REALTIME, in ns. */
uint64_t reclaim_sample_monotonic_ns(const struct reclaim_sample *sample);
uint64_t reclaim_sample_realtime_ns(const struct reclaim_sample *sample);
/* The reclaim counters of /proc/vmstat (owned by the sample). */
struct reclaim_vmstat *reclaim_sample_vmstat(const struct reclaim_sample *sample);
/* NULL when the kernel has no PSI. */
struct reclaim_pressure *reclaim_sample_pressure(const struct reclaim_sample *sample);
/* Nodes with a vmstat file (RECLAIM_SAMPLER_NODES), by node id. */
size_t reclaim_sample_node_count(const struct reclaim_sample *sample);
int reclaim_sample_node_id(const struct reclaim_sample *sample, size_t idx);
struct reclaim_vmstat *reclaim_sample_node_vmstat(const struct reclaim_sample *sample, size_t idx);
/* kswapd threads, sorted by node, then index. */
size_t reclaim_sample_kswapd_count(const struct reclaim_sample *sample);
pid_t reclaim_sample_kswapd_pid(const struct reclaim_sample *sample, size_t idx);
const char *reclaim_sample_kswapd_name(const struct reclaim_sample *sample, size_t idx);
int reclaim_sample_kswapd_node(const struct reclaim_sample *sample, size_t idx);
double reclaim_sample_kswapd_cpu_seconds(const struct reclaim_sample *sample, size_t idx);
/* True if the threads differ from the previous sample's (always false for the first). */
bool reclaim_sample_kswapd_changed(const struct reclaim_sample *sample);
/* With RECLAIM_SAMPLER_KNOBS: 0 and the value, -EOPNOTSUPP if the kernel lacks the knob. */
int reclaim_sample_knob(const struct reclaim_sample *sample, const struct reclaim_knob *knob,
			int64_t *value);

/*
 * Rates. A cumulative counter only grows; one that went backwards was reset
 * or wrapped, and then its increase over that interval is unknown: it counts
 * as 0, never as a huge number. A kswapd thread that is new in the later
 * sample (a new pid: started, or restarted, during the interval) counts from
 * 0, so its whole CPU time is its use over the interval.
 */
uint64_t reclaim_counter_delta(uint64_t prev, uint64_t cur);
/* The delta per second; 0 for an interval <= 0. */
double reclaim_counter_rate(uint64_t prev, uint64_t cur, double seconds);
/* Seconds between two samples. */
double reclaim_sample_interval(const struct reclaim_sample *prev, const struct reclaim_sample *cur);
/*
 * Per-second increase of the vmstat counter @name between two samples, or,
 * for a @name ending in '_' ("allocstall_"), of the sum of the counters with
 * that prefix (each one's delta taken separately). -ENOENT if a sample lacks it.
 */
int reclaim_sample_rate(const struct reclaim_sample *prev, const struct reclaim_sample *cur,
			const char *name, double *rate);
/* The same for node @node_id's vmstat. */
int reclaim_sample_node_rate(const struct reclaim_sample *prev, const struct reclaim_sample *cur,
			     int node_id, const char *name, double *rate);
/* CPU use of thread @idx of @cur over the interval, in percent of one CPU. */
double reclaim_sample_kswapd_cpu_percent(const struct reclaim_sample *prev,
					 const struct reclaim_sample *cur, size_t idx);
/*
 * With RECLAIM_SAMPLER_CPUS: the share of node @node's online CPUs that was
 * busy over the interval (anything but idle and iowait), in percent of all
 * of them, and how many there are. -ENOENT for a node without online CPUs,
 * -EAGAIN when a CPU of the node came or went between the samples.
 */
int reclaim_sample_node_cpu_busy(const struct reclaim_sample *prev,
				 const struct reclaim_sample *cur, int node, unsigned int *ncpus,
				 double *percent);

/*
 * A sample built from a recording rather than read by a sampler: empty,
 * then filled with what the recording holds. The functions above and the
 * figures below read it as they read a sampler's. Counters of @node_id < 0
 * are /proc/vmstat's; a PSI @avg10 of NAN is not known (the figure is then
 * the share of the interval stalled, from the totals).
 */
int reclaim_sample_new(struct reclaim_ctx *ctx, uint64_t monotonic_ns, uint64_t realtime_ns,
		       struct reclaim_sample **sample);
int reclaim_sample_add_counter(struct reclaim_sample *sample, int node_id, const char *name,
			       uint64_t value);
int reclaim_sample_add_kswapd(struct reclaim_sample *sample, pid_t pid, const char *name,
			      int node_id, double cpu_seconds);
int reclaim_sample_set_pressure(struct reclaim_sample *sample, enum reclaim_pressure_kind kind,
				double avg10, uint64_t total_us);

/*
 * The figures: the one catalogue of what reclaimctl measures. Each has a
 * source (vmstat counters, the kswapd threads' CPU time, PSI), a way it is
 * derived from two samples (enum reclaim_figure_kind), a per-second value
 * (or percentage) and a total over a run, and the names every output
 * gives it. Values may be appended to the enum in later versions: iterate
 * up to reclaim_figure_count().
 */
enum reclaim_figure {
	RECLAIM_FIGURE_PGSCAN_KSWAPD = 0,
	RECLAIM_FIGURE_PGSCAN_DIRECT,
	RECLAIM_FIGURE_PGSTEAL_KSWAPD,
	RECLAIM_FIGURE_PGSTEAL_DIRECT,
	RECLAIM_FIGURE_ALLOCSTALL, /* direct reclaims: the allocstall_* counters */
	RECLAIM_FIGURE_THROTTLED,  /* waits at vm.max_direct_reclaimers (patched kernels) */
	RECLAIM_FIGURE_PSWPIN,
	RECLAIM_FIGURE_PSWPOUT,
	RECLAIM_FIGURE_REFAULT,	       /* workingset_refault_anon + _file (or workingset_refault) */
	RECLAIM_FIGURE_KSWAPD_CPU,     /* all kswapd threads, % of one CPU */
	RECLAIM_FIGURE_KSWAPD_BUSIEST, /* the busiest kswapd thread, % of one CPU */
	RECLAIM_FIGURE_PSI_SOME,       /* avg10, % */
	RECLAIM_FIGURE_PSI_FULL,       /* avg10, % */
	RECLAIM_FIGURE_DIRECT_P99,     /* a direct reclaim's duration, 99th percentile, us */
	RECLAIM_FIGURE_DIRECT_MAX,     /* the longest direct reclaim, us */
	RECLAIM_FIGURE_THROTTLE_P99,   /* a wait at the throttle, 99th percentile, us */
	RECLAIM_FIGURE_LOW_WMARK_HIT,  /* kswapd_low_wmark_hit_quickly: kswapd slept too early */
	_RECLAIM_FIGURE_MAX
};

enum reclaim_figure_kind {
	RECLAIM_FIGURE_RATE = 0, /* increase of vmstat counters per second; total: the increase */
	RECLAIM_FIGURE_CPU_SUM,	 /* kswapd CPU, all threads; total: CPU seconds */
	RECLAIM_FIGURE_CPU_MAX,	 /* kswapd CPU, the busiest thread; total: its CPU seconds */
	RECLAIM_FIGURE_PRESSURE, /* PSI avg10 of the later sample; total: seconds stalled */
	/*
	 * a percentile of how long reclaim made tasks wait (RECLAIM_SAMPLER_LATENCY),
	 * in us, from the log2 buckets of the interval; total: of the whole run's
	 */
	RECLAIM_FIGURE_LATENCY,
};

enum reclaim_figure_text {
	RECLAIM_FIGURE_KEY = 0,	   /* JSON key of the value (monitor --json, record files) */
	RECLAIM_FIGURE_LABEL,	   /* what people read: "Pages scanned by kswapd" */
	RECLAIM_FIGURE_UNIT,	   /* of the value: "pages/s" */
	RECLAIM_FIGURE_TOTAL_KEY,  /* JSON key of the total (sweep summary, report) */
	RECLAIM_FIGURE_TOTAL_UNIT, /* "pages", "s" */
	RECLAIM_FIGURE_COLUMN,	   /* table column: "SCAN_KSWAPD" */
	RECLAIM_FIGURE_GROUP,	   /* monitor's heading over a group of columns: "pgscan/s" */
	RECLAIM_FIGURE_HEADING,	   /* monitor's column heading: "kswapd" */
	RECLAIM_FIGURE_METRIC,	   /* the Prometheus series that carries its source */
	RECLAIM_FIGURE_HELP,	   /* that series' HELP */
	RECLAIM_FIGURE_ORIGIN,	   /* where it is read: "/proc/vmstat pgscan_kswapd" */
	_RECLAIM_FIGURE_TEXT_MAX
};

size_t reclaim_figure_count(void);
const char *reclaim_figure_text(enum reclaim_figure figure, enum reclaim_figure_text what);
enum reclaim_figure_kind reclaim_figure_kind(enum reclaim_figure figure);
/* Its vmstat counters (RECLAIM_FIGURE_RATE), a name ending in '_' for a family; NULL past them. */
const char *reclaim_figure_source(enum reclaim_figure figure, size_t idx);
/* The Prometheus label that tells a family's members apart ("zone"), or NULL. */
const char *reclaim_figure_family_label(enum reclaim_figure figure);
/* Also measured per NUMA node. */
bool reclaim_figure_per_node(enum reclaim_figure figure);
/* Monitor's column width, and the decimals its total is shown with. */
int reclaim_figure_width(enum reclaim_figure figure);
int reclaim_figure_digits(enum reclaim_figure figure);
/* Its metric is node_exporter's (node_*), not reclaimctl's. */
bool reclaim_figure_by_node_exporter(enum reclaim_figure figure);
/* The figure whose key or total key is @key, or the one vmstat counter @name is a source of;
 * -ENOENT. */
int reclaim_figure_find(const char *key);
int reclaim_figure_of_counter(const char *name);
/*
 * The one computation of a figure from two samples: for the whole machine
 * (@node < 0) or one node (reclaim_figure_per_node()). -ENOENT when a
 * sample lacks its source (a kernel without the counter, without PSI).
 */
int reclaim_figure_value(const struct reclaim_sample *prev, const struct reclaim_sample *cur,
			 int node, enum reclaim_figure figure, double *value);

/* Totals of every figure over a run of samples, added interval by interval. */
struct reclaim_totals;

int reclaim_totals_new(struct reclaim_ctx *ctx, struct reclaim_totals **totals);
struct reclaim_totals *reclaim_totals_ref(struct reclaim_totals *totals);
struct reclaim_totals *reclaim_totals_unref(struct reclaim_totals *totals);
int reclaim_totals_add(struct reclaim_totals *totals, const struct reclaim_sample *prev,
		       const struct reclaim_sample *cur);
/* -ENOENT when no interval had its source. */
int reclaim_totals_get(const struct reclaim_totals *totals, enum reclaim_figure figure,
		       double *total);
/* The seconds the intervals added cover. */
double reclaim_totals_seconds(const struct reclaim_totals *totals);

/*
 * Delay accounting of tasks (taskstats over generic netlink): how long a
 * task waited in direct reclaim ("freepages"), on thrashing pages, on swap-in
 * and in compaction. The kernel counts only while kernel.task_delayacct is 1,
 * and only for tasks started while it was 1.
 */
struct reclaim_taskstats;
struct reclaim_task_delays;

enum reclaim_delay {
	RECLAIM_DELAY_RECLAIM = 0, /* direct reclaim (freepages_*) */
	RECLAIM_DELAY_THRASHING,   /* waiting for a page of the working set (thrashing_*) */
	RECLAIM_DELAY_SWAPIN,	   /* swap-in (swapin_*) */
	RECLAIM_DELAY_COMPACT,	   /* memory compaction (compact_*) */
};

/* 1 if kernel.task_delayacct is on, 0 if off, -ENOENT if the kernel has no such sysctl. */
int reclaim_delayacct_get(struct reclaim_ctx *ctx);
int reclaim_delayacct_set(struct reclaim_ctx *ctx, bool on);
/* The numeric entries of /proc (processes), sorted; free() *pids. */
int reclaim_proc_pids(struct reclaim_ctx *ctx, pid_t **pids, size_t *count);

/*
 * Connects to the kernel's TASKSTATS family. Only on the live system (root
 * "/"): -EOPNOTSUPP under another root; -ENOENT when the kernel has no taskstats.
 */
int reclaim_taskstats_new(struct reclaim_ctx *ctx, struct reclaim_taskstats **ts);
struct reclaim_taskstats *reclaim_taskstats_ref(struct reclaim_taskstats *ts);
struct reclaim_taskstats *reclaim_taskstats_unref(struct reclaim_taskstats *ts);
/*
 * The delays of process @tgid, its threads summed (TASKSTATS_CMD_ATTR_TGID).
 * -ESRCH if it is gone, -EPERM without CAP_NET_ADMIN.
 */
int reclaim_taskstats_query(struct reclaim_taskstats *ts, pid_t tgid,
			    struct reclaim_task_delays **delays);

struct reclaim_task_delays *reclaim_task_delays_ref(struct reclaim_task_delays *d);
struct reclaim_task_delays *reclaim_task_delays_unref(struct reclaim_task_delays *d);
pid_t reclaim_task_delays_pid(const struct reclaim_task_delays *d);
/* /proc/PID/comm when it was queried; "?" if that could not be read. */
const char *reclaim_task_delays_comm(const struct reclaim_task_delays *d);
/* The kernel's struct taskstats version (13 on 6.1, 14 on 6.12). */
int reclaim_task_delays_version(const struct reclaim_task_delays *d);
/* False when the kernel's struct taskstats is too old to have that delay. */
bool reclaim_task_delays_has(const struct reclaim_task_delays *d, enum reclaim_delay kind);
uint64_t reclaim_task_delays_count(const struct reclaim_task_delays *d, enum reclaim_delay kind);
uint64_t reclaim_task_delays_total_ns(const struct reclaim_task_delays *d, enum reclaim_delay kind);

/*
 * How long reclaim makes tasks wait, aggregated by the running kernel (hist
 * triggers in a tracefs instance of this process, which the unref removes):
 * the durations in microseconds, counted in log2 buckets. Bucket k holds the
 * durations above 2^(k-1) and up to 2^k (bucket 0: up to 1 us).
 */
struct reclaim_latency;

enum reclaim_latency_kind {
	RECLAIM_LATENCY_DIRECT = 0, /* a task's direct reclaim (mm_vmscan_direct_reclaim_*) */
	RECLAIM_LATENCY_MEMCG,	    /* direct reclaim of a memory cgroup over its high or max */
	RECLAIM_LATENCY_THROTTLE,   /* a wait at vm.max_direct_reclaimers (patched kernels) */
	RECLAIM_LATENCY_KSWAPD,	    /* a kswapd thread's run, from its wake to its sleep */
};

enum reclaim_latency_span {
	RECLAIM_LATENCY_INTERVAL = 0, /* between the last two reads */
	RECLAIM_LATENCY_RUN,	      /* from the start to the last read */
};

/*
 * Starts counting. Only on the live system (root "/"): -EOPNOTSUPP under
 * another root; -ENOENT when tracefs is not mounted or the kernel lacks the
 * direct reclaim events, -EACCES without the right to write to tracefs. An
 * instance left by a run that was killed is removed first
 * (reclaim_latency_stale_removed()).
 */
int reclaim_latency_new(struct reclaim_ctx *ctx, struct reclaim_latency **ret);
struct reclaim_latency *reclaim_latency_ref(struct reclaim_latency *l);
struct reclaim_latency *reclaim_latency_unref(struct reclaim_latency *l);
/* The kinds, in enum reclaim_latency_kind's order, and their names ("direct", ...). */
size_t reclaim_latency_kind_count(void);
const char *reclaim_latency_kind_name(enum reclaim_latency_kind kind);
/* The event that ends a wait of @kind ("vmscan:mm_vmscan_direct_reclaim_end"). */
const char *reclaim_latency_kind_event(enum reclaim_latency_kind kind);
/* False when the kernel has not the events of @kind (the throttle's: unpatched kernels). */
bool reclaim_latency_has(const struct reclaim_latency *l, enum reclaim_latency_kind kind);
/*
 * Ends counting now: the tracefs instance is removed (the unref does it
 * too, silently). -EBUSY when a file of it is open: the instance stays, and
 * the next reclaim_latency_new() removes it. Reads fail after.
 */
int reclaim_latency_end(struct reclaim_latency *l);
/* The instances of killed runs reclaim_latency_new() removed. */
unsigned reclaim_latency_stale_removed(const struct reclaim_latency *l);
/* Reads the kernel's counts: the interval since the previous read ends here. */
int reclaim_latency_read(struct reclaim_latency *l);
uint64_t reclaim_latency_count(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
			       enum reclaim_latency_span span);
uint64_t reclaim_latency_total_us(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
				  enum reclaim_latency_span span);
/* Waits not counted: the kernel's histogram was full, or a duration out of range. */
uint64_t reclaim_latency_dropped(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
				 enum reclaim_latency_span span);
size_t reclaim_latency_bucket_count(void);
uint64_t reclaim_latency_bucket(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
				enum reclaim_latency_span span, size_t bucket);
/*
 * The upper end (us) of the bucket holding the duration of rank @permille
 * (500: the median, 990: p99, 1000: the longest); 0 when there is none.
 */
uint64_t reclaim_latency_percentile_us(const struct reclaim_latency *l,
				       enum reclaim_latency_kind kind,
				       enum reclaim_latency_span span, unsigned permille);
/*
 * The longest wait (us). Over the run, exact: the longest of any task's (the
 * kernel keeps each task's). Over an interval, exact when it was the longest
 * of its task so far; otherwise the upper end of its log2 bucket.
 */
uint64_t reclaim_latency_max_us(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
				enum reclaim_latency_span span);
/*
 * The tasks that waited (for RECLAIM_LATENCY_KSWAPD, the kswapd threads), the
 * most time first: over the run, or those that waited in the interval. A
 * task's figures are over the span, but its longest wait is since the start.
 * Its cgroup (v2 path) is read when it is first seen: NULL if it was gone.
 */
size_t reclaim_latency_task_count(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
				  enum reclaim_latency_span span);
pid_t reclaim_latency_task_pid(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
			       enum reclaim_latency_span span, size_t idx);
const char *reclaim_latency_task_comm(const struct reclaim_latency *l,
				      enum reclaim_latency_kind kind,
				      enum reclaim_latency_span span, size_t idx);
const char *reclaim_latency_task_cgroup(const struct reclaim_latency *l,
					enum reclaim_latency_kind kind,
					enum reclaim_latency_span span, size_t idx);
uint64_t reclaim_latency_task_waits(const struct reclaim_latency *l, enum reclaim_latency_kind kind,
				    enum reclaim_latency_span span, size_t idx);
uint64_t reclaim_latency_task_total_us(const struct reclaim_latency *l,
				       enum reclaim_latency_kind kind,
				       enum reclaim_latency_span span, size_t idx);
uint64_t reclaim_latency_task_max_us(const struct reclaim_latency *l,
				     enum reclaim_latency_kind kind, enum reclaim_latency_span span,
				     size_t idx);
/* Waits of tasks the kernel had no room for (it keeps 4096): in no task's figures. */
uint64_t reclaim_latency_tasks_dropped(const struct reclaim_latency *l,
				       enum reclaim_latency_kind kind);

/*
 * A sampler's counts of the waits (RECLAIM_SAMPLER_LATENCY): each sample
 * holds them from the sampler's start, so that the figures of any two
 * samples are those of the waits between them. -ENOENT when the sample has
 * none of @kind (a sampler without the flag, a kernel without its events).
 */
struct reclaim_latency *reclaim_sampler_latency(struct reclaim_sampler *sampler);
int reclaim_sample_latency(const struct reclaim_sample *sample, enum reclaim_latency_kind kind,
			   uint64_t *count, uint64_t *total_us, uint64_t *max_us);
/* The waits in bucket @bucket (reclaim_latency_bucket_count()), 0 past the last. */
uint64_t reclaim_sample_latency_bucket(const struct reclaim_sample *sample,
				       enum reclaim_latency_kind kind, size_t bucket);
/* A built sample's (reclaim_sample_new()): its total, its longest, then each bucket's count. */
int reclaim_sample_set_latency(struct reclaim_sample *sample, enum reclaim_latency_kind kind,
			       uint64_t total_us, uint64_t max_us);
int reclaim_sample_set_latency_bucket(struct reclaim_sample *sample, enum reclaim_latency_kind kind,
				      size_t bucket, uint64_t count);
/*
 * Of a figure of kind RECLAIM_FIGURE_LATENCY: which waits, and the rank it
 * is of them (990: the 99th percentile, 1000: the longest); -EINVAL for another.
 */
int reclaim_figure_latency(enum reclaim_figure figure, enum reclaim_latency_kind *kind,
			   unsigned *permille);

/*
 * The change engine: every change reclaimctl makes, and every preview of
 * one, is a request evaluated here. An evaluation reads and never writes: for
 * each knob the request names, its current value, the target value, the
 * action (set, unchanged or skipped) and why. Applying takes the writers'
 * lock, evaluates again, writes exactly the entries whose action is set as
 * one transaction (every knob read first, kswapd threads verified, rolled
 * back on any failure), then appends the change to the history.
 *
 * One precedence decides a knob's value: the kernel's default < the boot
 * preset < a value persisted with RECLAIM_REQUEST_PERSIST < a value set in
 * another sysctl file (skipped unless RECLAIM_REQUEST_FORCE).
 */
enum reclaim_request_kind {
	RECLAIM_REQUEST_SET = 0,      /* the values of reclaim_request_add() */
	RECLAIM_REQUEST_PRESET,	      /* a preset, "auto" worked out for this machine */
	RECLAIM_REQUEST_AUTOTUNE,     /* the autotune plan's knob values */
	RECLAIM_REQUEST_BOOT,	      /* the preset of /etc/reclaimctl/reclaimctl.conf */
	RECLAIM_REQUEST_RESTORE,      /* undo the last change not undone yet */
	RECLAIM_REQUEST_RESTORE_BOOT, /* every knob back to its value before the first change */
	RECLAIM_REQUEST_ADAPT,	      /* values from the adaptive controller */
};

enum reclaim_request_flags {
	/*
	 * Also knobs that another sysctl file sets; for a restore: also knobs
	 * another writer changed since reclaimctl's record (else left alone).
	 */
	RECLAIM_REQUEST_FORCE = 1 << 0,
	/* Also merge the values into RECLAIM_PERSIST_FILE; for a restore: remove that file. */
	RECLAIM_REQUEST_PERSIST = 1 << 1,
	/* A knob that would be skipped fails the evaluation instead (knobs given by name). */
	RECLAIM_REQUEST_STRICT = 1 << 2,
};

enum reclaim_action {
	RECLAIM_ACTION_SET = 0,
	RECLAIM_ACTION_UNCHANGED,
	RECLAIM_ACTION_SKIPPED,
};

struct reclaim_request;
struct reclaim_eval;

/* The boot unit's configuration, as on the machine: "preset = NAME". */
#define RECLAIM_BOOT_CONFIG "/etc/reclaimctl/reclaimctl.conf"
/* The preset the boot unit applies without that file. */
#define RECLAIM_BOOT_DEFAULT_PRESET "balanced"
/* "preset = off": the boot unit applies nothing. */
#define RECLAIM_BOOT_PRESET_OFF "off"
/*
 * The preset the boot unit applies: "preset = NAME" in
 * RECLAIM_BOOT_CONFIG, RECLAIM_BOOT_PRESET_OFF for none,
 * RECLAIM_BOOT_DEFAULT_PRESET without the file; free() it. -EBADMSG naming
 * FILE:LINE for a malformed file.
 */
int reclaim_boot_preset(struct reclaim_ctx *ctx, char **name);

int reclaim_request_new(struct reclaim_ctx *ctx, enum reclaim_request_kind kind, unsigned int flags,
			struct reclaim_request **request);
struct reclaim_request *reclaim_request_ref(struct reclaim_request *request);
struct reclaim_request *reclaim_request_unref(struct reclaim_request *request);
/* SET and ADAPT: a knob and its value (range-checked here); @reason may be NULL. */
int reclaim_request_add(struct reclaim_request *request, const struct reclaim_knob *knob,
			int64_t value, const char *reason);
/* SET: the value autotune recommends for @knob; -EOPNOTSUPP if there is no rule for it. */
int reclaim_request_add_auto(struct reclaim_request *request, const struct reclaim_knob *knob);
/*
 * SET and ADAPT: the source of every value, in the plan and the history
 * ("value" and "adapt" without it), as "sweep" for reclaimctl sweep: 1 to 64
 * letters, digits and "_-.:/+"; -EINVAL for another.
 */
int reclaim_request_set_source(struct reclaim_request *request, const char *source);
/*
 * SET and ADAPT: record the writes as more records of change @change
 * instead of a new change (reclaimctl sweep makes all its runs one change,
 * which one restore undoes); RESTORE: undo change @change. Either way
 * @change must still be the newest change of the history not undone: if
 * another change came after it, or it was undone, evaluating and applying
 * fail with -ESTALE ("change 4 is no longer the newest change: change 5
 * (set at 09:10:00) came after it") and nothing is written. -EINVAL for
 * change 0 or another kind of request.
 */
int reclaim_request_set_change(struct reclaim_request *request, unsigned long change);
/* PRESET: the preset to apply (the request holds a reference). */
int reclaim_request_set_preset(struct reclaim_request *request, struct reclaim_preset *preset);
/* AUTOTUNE: use this plan instead of computing one (the request holds a reference). */
int reclaim_request_set_plan(struct reclaim_request *request, struct reclaim_plan *plan);

/* Evaluates without writing anything. */
int reclaim_request_evaluate(struct reclaim_request *request, struct reclaim_eval **eval);
/*
 * Applies: the evaluation under the lock, then the transaction. On failure
 * nothing is changed (or what was written is put back: reclaim_strerror()
 * says what) and *eval is NULL. Without anything to write, nothing is
 * locked or written and *eval is the evaluation.
 */
int reclaim_request_apply(struct reclaim_request *request, struct reclaim_eval **eval);

struct reclaim_eval *reclaim_eval_ref(struct reclaim_eval *eval);
struct reclaim_eval *reclaim_eval_unref(struct reclaim_eval *eval);
enum reclaim_request_kind reclaim_eval_kind(const struct reclaim_eval *eval);
/* True for reclaim_request_apply()'s result once it wrote. */
bool reclaim_eval_applied(const struct reclaim_eval *eval);
/* Whether applying writes (or wrote) anything: a knob set, or the persisted file changed. */
bool reclaim_eval_changed(const struct reclaim_eval *eval);
/*
 * Of reclaim_request_evaluate() with RECLAIM_REQUEST_PERSIST, what applying
 * it does to the persisted file @idx (0: RECLAIM_PERSIST_FILE, 1:
 * RECLAIM_PERSIST_TMPFILES): 1 when it changes it, with its path, its text
 * now in @before (NULL: absent) and then in @after (NULL: removed, as a
 * restore does), each owned by @eval; 0 when it leaves it as it is.
 * -ENODATA without RECLAIM_REQUEST_PERSIST, -ENOENT past the files,
 * -EALREADY for reclaim_request_apply()'s result (LIBRECLAIM_14).
 */
int reclaim_eval_persist_file(const struct reclaim_eval *eval, size_t idx, const char **path,
			      const char **before, const char **after);
size_t reclaim_eval_count(const struct reclaim_eval *eval);
const struct reclaim_knob *reclaim_eval_knob(const struct reclaim_eval *eval, size_t idx);
/* False when the kernel lacks the knob (no current value). */
bool reclaim_eval_has_old(const struct reclaim_eval *eval, size_t idx);
int64_t reclaim_eval_old(const struct reclaim_eval *eval, size_t idx);
int64_t reclaim_eval_new(const struct reclaim_eval *eval, size_t idx);
enum reclaim_action reclaim_eval_action(const struct reclaim_eval *eval, size_t idx);
/* Why this action (for set/unchanged: why this value), one line. */
const char *reclaim_eval_reason(const struct reclaim_eval *eval, size_t idx);
/* Where the value comes from: "value", "auto", "preset:NAME", "autotune", "change:N", "boot",
 * "adapt". */
const char *reclaim_eval_source(const struct reclaim_eval *eval, size_t idx);
/* "set", "preset", "autotune", "boot", "restore", "restore-boot", "adapt": the name in plans and
 * the history. */
const char *reclaim_request_kind_name(enum reclaim_request_kind kind);
/* "set", "unchanged", "skipped". */
const char *reclaim_action_name(enum reclaim_action action);
/* PRESET and BOOT: the preset's name ("off" when reclaimctl.conf says so) and file; else NULL. */
const char *reclaim_eval_preset(const struct reclaim_eval *eval);
const char *reclaim_eval_preset_path(const struct reclaim_eval *eval);
/* AUTOTUNE: the plan the values come from. */
struct reclaim_plan *reclaim_eval_plan(const struct reclaim_eval *eval);
/* RESTORE: the change undone (0: nothing to undo). */
unsigned long reclaim_eval_undoes(const struct reclaim_eval *eval);
/*
 * After reclaim_request_apply(): the number of the change it recorded in
 * the history (the one joined with reclaim_request_set_change(), or a new
 * one; a restore's own); 0 if it recorded none (nothing to write).
 */
unsigned long reclaim_eval_change(const struct reclaim_eval *eval);
/* A restore with RECLAIM_REQUEST_PERSIST: the persisted values it removes (NULL: none). */
struct reclaim_persist *reclaim_eval_unpersisted(const struct reclaim_eval *eval);
/* After applying a kswapd_threads change: the nodes checked to run the new count; else -1. */
ssize_t reclaim_eval_verified_nodes(const struct reclaim_eval *eval);
/*
 * A restore's swap devices (LIBRECLAIM_9): the device of a swap priority
 * change it undoes (restore --boot: every device of the history) with its
 * live priority now and the one put back (the same when another writer
 * changed it since, or when the device is not active), and, for a change
 * that edited /etc/fstab, the entry's pri= now and the one put back
 * (reclaim_eval_swap_fstab() returns 1; -1 in them is "no pri="; 0 when
 * /etc/fstab is left alone). Each is a change of its own in the history.
 */
size_t reclaim_eval_swap_count(const struct reclaim_eval *eval);
const char *reclaim_eval_swap_device(const struct reclaim_eval *eval, size_t idx);
int reclaim_eval_swap_old(const struct reclaim_eval *eval, size_t idx);
int reclaim_eval_swap_new(const struct reclaim_eval *eval, size_t idx);
bool reclaim_eval_swap_active(const struct reclaim_eval *eval, size_t idx);
int reclaim_eval_swap_fstab(const struct reclaim_eval *eval, size_t idx, int *now, int *put);
const char *reclaim_eval_swap_reason(const struct reclaim_eval *eval, size_t idx);

/*
 * The history of changes since boot (RECLAIM_HISTORY_FILE), oldest
 * first: one record per knob changed, the records of one change sharing its
 * number. Bounded: the first record of each knob and the last
 * RECLAIM_HISTORY_KEEP.
 */
struct reclaim_history;

#define RECLAIM_HISTORY_FILE RECLAIM_RUNDIR "/history"
#define RECLAIM_HISTORY_KEEP 1000

int reclaim_history_new(struct reclaim_ctx *ctx, struct reclaim_history **history);
struct reclaim_history *reclaim_history_ref(struct reclaim_history *history);
struct reclaim_history *reclaim_history_unref(struct reclaim_history *history);
size_t reclaim_history_count(const struct reclaim_history *history);
/* Records dropped by the bound. */
uint64_t reclaim_history_trimmed(const struct reclaim_history *history);
unsigned long reclaim_history_change(const struct reclaim_history *history, size_t idx);
/* CLOCK_REALTIME, in nanoseconds since the epoch. */
int64_t reclaim_history_time_ns(const struct reclaim_history *history, size_t idx);
/* "set", "preset", "autotune", "boot", "restore", "restore-boot", "adapt", "change". */
const char *reclaim_history_command(const struct reclaim_history *history, size_t idx);
const char *reclaim_history_source(const struct reclaim_history *history, size_t idx);
const struct reclaim_knob *reclaim_history_knob(const struct reclaim_history *history, size_t idx);
int64_t reclaim_history_old_value(const struct reclaim_history *history, size_t idx);
int64_t reclaim_history_new_value(const struct reclaim_history *history, size_t idx);
/* A change that a later restore undid. */
bool reclaim_history_undone(const struct reclaim_history *history, size_t idx);
/*
 * A record of a change cut off after it was recorded and before it was
 * marked done (a SIGKILL, a crash): the knob may hold its old or its new
 * value. A restore undoes such a change like any other; an interrupted
 * restore undid nothing (the next restore does it again).
 */
bool reclaim_history_interrupted(const struct reclaim_history *history, size_t idx);
/* A restore: the change it undid, -1 for restore --boot (all); else 0. */
long reclaim_history_undoes(const struct reclaim_history *history, size_t idx);
/*
 * The value reclaimctl last wrote to @knob since boot (the newest record's
 * new value, restores and interrupted changes included): 0, or -ENOENT
 * when it wrote none.
 */
int reclaim_history_applied(const struct reclaim_history *history, const struct reclaim_knob *knob,
			    int64_t *value);
/*
 * The swap priority changes since boot (LIBRECLAIM_9), oldest first,
 * apart from the knob records: "swap-priority", or the restore that put a
 * device back. Their change numbers are in the same sequence as the knob
 * records'. Old and new are the live priorities (the same when only
 * /etc/fstab was edited); reclaim_history_swap_fstab() returns 1 with the
 * entry's pri= before the change (-1: it had none) when the change edited
 * /etc/fstab, else 0.
 */
size_t reclaim_history_swap_count(const struct reclaim_history *history);
unsigned long reclaim_history_swap_change(const struct reclaim_history *history, size_t idx);
int64_t reclaim_history_swap_time_ns(const struct reclaim_history *history, size_t idx);
const char *reclaim_history_swap_command(const struct reclaim_history *history, size_t idx);
const char *reclaim_history_swap_source(const struct reclaim_history *history, size_t idx);
const char *reclaim_history_swap_device(const struct reclaim_history *history, size_t idx);
int reclaim_history_swap_old(const struct reclaim_history *history, size_t idx);
int reclaim_history_swap_new(const struct reclaim_history *history, size_t idx);
int reclaim_history_swap_fstab(const struct reclaim_history *history, size_t idx, int *before);
bool reclaim_history_swap_undone(const struct reclaim_history *history, size_t idx);
bool reclaim_history_swap_interrupted(const struct reclaim_history *history, size_t idx);
long reclaim_history_swap_undoes(const struct reclaim_history *history, size_t idx);

/*
 * Values another writer left on knobs reclaimctl changed, as the history's
 * "outside" entries (comments of RECLAIM_HISTORY_FILE: no change, never
 * undone): one for each value seen since the knob's newest record, in the
 * order of the file; "after" is the number of records before it.
 */
size_t reclaim_history_outside_count(const struct reclaim_history *history);
const struct reclaim_knob *reclaim_history_outside_knob(const struct reclaim_history *history,
							size_t idx);
int64_t reclaim_history_outside_time_ns(const struct reclaim_history *history, size_t idx);
/* What reclaimctl had left the knob at, and the value found instead. */
int64_t reclaim_history_outside_expected(const struct reclaim_history *history, size_t idx);
int64_t reclaim_history_outside_value(const struct reclaim_history *history, size_t idx);
size_t reclaim_history_outside_after(const struct reclaim_history *history, size_t idx);
/*
 * Reads every knob of the history and records an "outside" entry for each
 * one another writer changed since reclaimctl's newest record of it (once a
 * value), under the writers' lock, without waiting for it. A caller that
 * may not write the history records nothing: a negative errno, no harm
 * done; reclaimctl calls this before every command.
 */
int reclaim_history_note_drift(struct reclaim_ctx *ctx);

/*
 * verify: each knob reclaimctl is responsible for, in the knobs' order,
 * with the value it expects, the live value, and for one not in place who
 * is known to have set it. Responsible for (the basis): a knob changed since
 * boot (expected: the history's newest record), else one persisted in
 * RECLAIM_PERSIST_FILE, else one the boot unit's preset is for (once the
 * unit ran: what the engine's "boot" evaluation sets or finds in place).
 * A knob another writer changed is drifted: the writer is a source of the
 * engine's precedence that sets that value (kind "sysctl", "FILE:LINE"),
 * else "runtime", with the time a reclaimctl command first saw the value
 * (the history's outside entry, recorded here when there is none and the
 * caller may write). A knob a lease holder that died left at its value is
 * abandoned: expected is its value from before the holder, the writer kind
 * the holder's name, the writer "PID N".
 */
enum reclaim_verify_basis {
	RECLAIM_VERIFY_HISTORY = 0,
	RECLAIM_VERIFY_PERSISTED,
	RECLAIM_VERIFY_BOOT_PRESET,
};

enum reclaim_verify_state {
	RECLAIM_VERIFY_OK = 0,
	RECLAIM_VERIFY_DRIFTED,
	RECLAIM_VERIFY_ABANDONED,
};

struct reclaim_verify;

int reclaim_verify_new(struct reclaim_ctx *ctx, struct reclaim_verify **verify);
struct reclaim_verify *reclaim_verify_ref(struct reclaim_verify *verify);
struct reclaim_verify *reclaim_verify_unref(struct reclaim_verify *verify);
size_t reclaim_verify_count(const struct reclaim_verify *verify);
/* The entries drifted or abandoned. */
size_t reclaim_verify_not_in_place(const struct reclaim_verify *verify);
const struct reclaim_knob *reclaim_verify_knob(const struct reclaim_verify *verify, size_t idx);
enum reclaim_verify_basis reclaim_verify_basis(const struct reclaim_verify *verify, size_t idx);
enum reclaim_verify_state reclaim_verify_state(const struct reclaim_verify *verify, size_t idx);
int64_t reclaim_verify_expected(const struct reclaim_verify *verify, size_t idx);
/* False when the kernel lacks the knob: nothing to compare. */
bool reclaim_verify_has_live(const struct reclaim_verify *verify, size_t idx);
int64_t reclaim_verify_live(const struct reclaim_verify *verify, size_t idx);
/* "sysctl", "runtime", "sweep", "adapt", ...; NULL when in place. */
const char *reclaim_verify_writer_kind(const struct reclaim_verify *verify, size_t idx);
/* "FILE:LINE", "PID N"; NULL for a writer at run time or none. */
const char *reclaim_verify_writer(const struct reclaim_verify *verify, size_t idx);
/* One line for an entry not in place; NULL when in place. */
const char *reclaim_verify_reason(const struct reclaim_verify *verify, size_t idx);
/* Drifted: when reclaimctl first saw the value (CLOCK_REALTIME, ns); 0 unknown. */
int64_t reclaim_verify_since_ns(const struct reclaim_verify *verify, size_t idx);
/* Drifted: the value is in the history as an outside entry. */
bool reclaim_verify_recorded(const struct reclaim_verify *verify, size_t idx);
/* "history", "persisted", "boot-preset". */
const char *reclaim_verify_basis_name(enum reclaim_verify_basis basis);
/* "ok", "drifted", "abandoned". */
const char *reclaim_verify_state_name(enum reclaim_verify_state state);

/*
 * /run/reclaimctl/boot: how the last run of the boot unit ("reclaimctl
 * boot") ended, and when. load: -ENOENT when it has not run since boot;
 * @time_ns is CLOCK_REALTIME in nanoseconds.
 */
int reclaim_boot_result_save(struct reclaim_ctx *ctx, bool ok);
int reclaim_boot_result_load(struct reclaim_ctx *ctx, bool *ok, int64_t *time_ns);

/*
 * A lease: knobs a holder ("adapt", "sweep") keeps at values of its own for
 * a while, and the values to put back at its end. At the end each knob is
 * in one of three states; only one still at the holder's value goes back.
 */
enum reclaim_lease_state {
	RECLAIM_LEASE_AT_BEFORE = 0, /* at its value from before: nothing to put back */
	RECLAIM_LEASE_HELD,	     /* at the value the holder wrote last: put back */
	RECLAIM_LEASE_CHANGED,	     /* at another: someone else changed it since, left alone */
};

struct reclaim_lease;

int reclaim_lease_new(struct reclaim_ctx *ctx, const char *holder, struct reclaim_lease **lease);
struct reclaim_lease *reclaim_lease_ref(struct reclaim_lease *lease);
struct reclaim_lease *reclaim_lease_unref(struct reclaim_lease *lease);
/* Holds @knob, to be put back to @before. */
int reclaim_lease_hold(struct reclaim_lease *lease, const struct reclaim_knob *knob,
		       int64_t before);
/*
 * For a holder that may die with its knobs changed (adapt, kswapd_threads
 * and watermark_scale_factor; sweep, any): its state file (RECLAIM_ADAPT_STATE_FILE,
 * RECLAIM_SWEEP_STATE_FILE), written under the writers' lock after checking that no other holder
 * has it and that no other running holder holds one of its knobs: -EBUSY while another holder runs
 * (its PID in the message), -ESTALE when one of the same name that is gone left its file (give its
 * knobs back with reclaim_lease_load() and release first).
 */
int reclaim_lease_claim(struct reclaim_lease *lease);
/* The lease a holder's state file describes; -ENOENT without one. */
int reclaim_lease_load(struct reclaim_ctx *ctx, const char *holder, struct reclaim_lease **lease);
pid_t reclaim_lease_pid(const struct reclaim_lease *lease);
/*
 * Its holder's PID runs (or belongs to another user's process, which may be
 * it); never the caller's own PID, which a state file names only when stale.
 */
bool reclaim_lease_alive(const struct reclaim_lease *lease);
/* The holder wrote @value (kept in the state file of a claimed lease). */
int reclaim_lease_wrote(struct reclaim_lease *lease, const struct reclaim_knob *knob,
			int64_t value);
size_t reclaim_lease_count(const struct reclaim_lease *lease);
const struct reclaim_knob *reclaim_lease_knob(const struct reclaim_lease *lease, size_t idx);
int64_t reclaim_lease_before(const struct reclaim_lease *lease, size_t idx);
int64_t reclaim_lease_last(const struct reclaim_lease *lease, size_t idx);
/*
 * The end of the lease: each knob is read and decided; those still at the
 * holder's value go back to their value from before in one request of
 * @kind (@flags, @source, @reason as for reclaim_request_*()); *@eval is
 * that request's evaluation, NULL when nothing went back. Then the state
 * file goes (it stays if the put back failed, for a later release).
 * reclaim_lease_state() and reclaim_lease_now() tell what each knob was.
 */
int reclaim_lease_release(struct reclaim_lease *lease, enum reclaim_request_kind kind,
			  unsigned int flags, const char *source, const char *reason,
			  struct reclaim_eval **eval);
enum reclaim_lease_state reclaim_lease_state(const struct reclaim_lease *lease, size_t idx);
int64_t reclaim_lease_now(const struct reclaim_lease *lease, size_t idx);
/* The end without putting anything back (adapt --keep, after a hand-off): the state file goes. */
int reclaim_lease_drop(struct reclaim_lease *lease);
/*
 * Reads each knob and decides what it is, as a release would, writing
 * nothing: reclaim_lease_state() and reclaim_lease_now() then say. For a
 * loaded lease whose holder died: the knobs still at its values.
 */
int reclaim_lease_inspect(struct reclaim_lease *lease);
/* The holders that keep a state file ("adapt", "sweep"), by index; NULL past the last. */
const char *reclaim_lease_holder_name(size_t idx);

/*
 * The adaptive controller: decides from measurements whether kswapd is the
 * bottleneck and moves kswapd_threads one thread at a time, or
 * watermark_scale_factor one step (reclaim_adapt_add_watermark()). It does no I/O:
 * each step takes one sample of figures (made from two samples of a sampler,
 * or from a recording) and says keep, change, or hand off (someone else
 * wrote the knob). The caller writes the change (RECLAIM_REQUEST_ADAPT).
 *
 * Up: the busiest node's kswapd threads at or above up-cpu each while
 * direct reclaims and throttled waits stay at or above up-direct, for
 * up-window seconds, unless other work takes busy-cpu of the CPU time its
 * kswapd threads leave on its CPUs.
 * Down: every node's threads below down-cpu, direct reclaim below
 * down-direct and PSI some below down-psi for down-window seconds. No change
 * within cooldown seconds of the last (the first one is not held back; after
 * reclaim_adapt_resume() the cooldown runs first). Never above max (the smallest
 * node's CPUs / RECLAIM_CPUS_PER_KSWAPD_MIN, at most 16, or
 * reclaim_adapt_set_max()) nor below min (the starting value, or
 * reclaim_adapt_set_min()).
 * The watermark, up: over up-window seconds of reclaim (each sample with a
 * direct reclaim or a premature kswapd sleep, none with the busiest node's
 * kswapd at up-cpu or more), direct reclaims at up-direct and
 * kswapd_low_wmark_hit_quickly at wmark-hits per second or more on average,
 * and kswapd threads below up-cpu: kswapd woke too late (vm.rst,
 * watermark_scale_factor), so it wakes earlier, wmark-step higher, at most
 * wmark-max. Saturated kswapd is the threads' case and never raises it. A
 * step back down to its starting value after the same quiet as the threads,
 * before them.
 */
struct reclaim_adapt;
struct reclaim_adapt_sample;

enum reclaim_adapt_param {
	RECLAIM_ADAPT_UP_CPU = 0,  /* % of one CPU per kswapd thread (90) */
	RECLAIM_ADAPT_UP_DIRECT,   /* direct reclaims + throttled waits per second (10) */
	RECLAIM_ADAPT_UP_WINDOW,   /* seconds (30) */
	RECLAIM_ADAPT_DOWN_CPU,	   /* % of one CPU per kswapd thread (40) */
	RECLAIM_ADAPT_DOWN_DIRECT, /* per second (1) */
	RECLAIM_ADAPT_DOWN_PSI,	   /* PSI memory some avg10, % (10) */
	RECLAIM_ADAPT_DOWN_WINDOW, /* seconds (120) */
	RECLAIM_ADAPT_COOLDOWN,	   /* seconds (60) */
	RECLAIM_ADAPT_BUSY_CPU,	   /* % of a node's CPU left by kswapd taken by other work (90) */
	RECLAIM_ADAPT_WMARK_HITS,  /* kswapd_low_wmark_hit_quickly per second (1) */
	RECLAIM_ADAPT_WMARK_STEP,  /* watermark_scale_factor's step (10) */
	RECLAIM_ADAPT_WMARK_MAX,   /* watermark_scale_factor at most (100) */
};

/* Machine-wide figures of a sample: rates per second, PSI in %. */
enum reclaim_adapt_figure {
	RECLAIM_ADAPT_ALLOCSTALL = 0, /* direct reclaims (the allocstall_* counters) */
	RECLAIM_ADAPT_THROTTLED,      /* direct_reclaim_throttled */
	RECLAIM_ADAPT_PGSCAN_KSWAPD,
	RECLAIM_ADAPT_PGSCAN_DIRECT,
	RECLAIM_ADAPT_PGSTEAL_KSWAPD,
	RECLAIM_ADAPT_PGSTEAL_DIRECT,
	RECLAIM_ADAPT_PSI_SOME, /* avg10 */
	RECLAIM_ADAPT_PSI_FULL, /* avg10 */
	/* us, when traced (RECLAIM_SAMPLER_LATENCY): named in reasons, not a rule's input */
	RECLAIM_ADAPT_DIRECT_P99,
	RECLAIM_ADAPT_LOW_WMARK_HITS, /* kswapd_low_wmark_hit_quickly: kswapd slept too early */
};

enum reclaim_adapt_verdict {
	RECLAIM_ADAPT_KEEP = 0,
	RECLAIM_ADAPT_CHANGE,  /* reclaim_adapt_changed()'s knob has a new value */
	RECLAIM_ADAPT_HANDOFF, /* the knob was changed by someone else: no more changes */
};

size_t reclaim_adapt_param_count(void);
/* The option name ("up-cpu", ...), what it means, and its default. */
const char *reclaim_adapt_param_name(enum reclaim_adapt_param param);
const char *reclaim_adapt_param_description(enum reclaim_adapt_param param);
double reclaim_adapt_param_default(enum reclaim_adapt_param param);
/* The parameter named @name, or -ENOENT. */
int reclaim_adapt_param_find(const char *name);
/*
 * min(the knob's maximum (16), a quarter (1 / RECLAIM_CPUS_PER_KSWAPD_MIN) of
 * the CPUs of the smallest node with CPUs and memory), at least 1.
 */
int64_t reclaim_adapt_default_max(const struct reclaim_topology *topo);
/* The same for a smallest node of @ncpus CPUs (a recording's topology). */
int64_t reclaim_adapt_max_for_cpus(size_t ncpus);

/*
 * @threads: kswapd_threads now, the baseline, or 0 when the kernel has none
 * (the watermark alone, then); @topo (may be NULL: max 1) sets the default max.
 */
int reclaim_adapt_new(struct reclaim_ctx *ctx, const struct reclaim_topology *topo, int64_t threads,
		      struct reclaim_adapt **adapt);
struct reclaim_adapt *reclaim_adapt_ref(struct reclaim_adapt *adapt);
struct reclaim_adapt *reclaim_adapt_unref(struct reclaim_adapt *adapt);
/* -ERANGE (with a message) for a value outside the parameter's range. */
int reclaim_adapt_set_param(struct reclaim_adapt *adapt, enum reclaim_adapt_param param, double v);
double reclaim_adapt_get_param(const struct reclaim_adapt *adapt, enum reclaim_adapt_param param);
/* -ERANGE if the current value would be outside the bounds, or min > max. */
int reclaim_adapt_set_min(struct reclaim_adapt *adapt, int64_t min);
int reclaim_adapt_set_max(struct reclaim_adapt *adapt, int64_t max);
/*
 * Both bounds as an administrator gives them, 0 for the default of either:
 * a @min above the default max raises that max to it; a @max given is kept.
 */
int reclaim_adapt_set_bounds(struct reclaim_adapt *adapt, int64_t min, int64_t max);
int64_t reclaim_adapt_min(const struct reclaim_adapt *adapt);
int64_t reclaim_adapt_max(const struct reclaim_adapt *adapt);

/* One step: a reclaim_adapt_verdict, or -EINVAL. */
int reclaim_adapt_step(struct reclaim_adapt *adapt, const struct reclaim_adapt_sample *sample);
/* The value the controller holds (after RECLAIM_ADAPT_CHANGE: the one to write). */
int64_t reclaim_adapt_threads(const struct reclaim_adapt *adapt);
/* Why the last step decided as it did, with the figures: one line. */
const char *reclaim_adapt_reason(const struct reclaim_adapt *adapt);
bool reclaim_adapt_handed_off(const struct reclaim_adapt *adapt);
/* Takes over again (after a hand-off) from the value @threads. */
int reclaim_adapt_resume(struct reclaim_adapt *adapt, int64_t threads);
/* The last change could not be written: back to the value before it (the cooldown stays). */
int reclaim_adapt_rollback(struct reclaim_adapt *adapt);
/*
 * The second actuator: watermark_scale_factor, from @value now, its baseline
 * and its lowest value (a value above wmark-max raises nothing).
 */
int reclaim_adapt_add_watermark(struct reclaim_adapt *adapt, int64_t value);
/* Its value (after RECLAIM_ADAPT_CHANGE of it: the one to write); -ENODATA without it. */
int64_t reclaim_adapt_watermark(const struct reclaim_adapt *adapt);
/* The knob of the last change (or hand-off); NULL before any. */
const struct reclaim_knob *reclaim_adapt_changed(const struct reclaim_adapt *adapt);
/* Takes over the watermark again (after a hand-off, with reclaim_adapt_resume()) from @value. */
int reclaim_adapt_resume_watermark(struct reclaim_adapt *adapt, int64_t value);

int reclaim_adapt_sample_new(struct reclaim_ctx *ctx, struct reclaim_adapt_sample **sample);
struct reclaim_adapt_sample *reclaim_adapt_sample_ref(struct reclaim_adapt_sample *sample);
struct reclaim_adapt_sample *reclaim_adapt_sample_unref(struct reclaim_adapt_sample *sample);
/* Forgets every figure; @interval: the seconds the sample covers (<= 0: the first sample). */
int reclaim_adapt_sample_reset(struct reclaim_adapt_sample *sample, double interval);
/* -EINVAL for a negative or non-finite figure. */
int reclaim_adapt_sample_set(struct reclaim_adapt_sample *sample, enum reclaim_adapt_figure figure,
			     double value);
/* A kswapd thread of node @node and its CPU use, in % of one CPU. */
int reclaim_adapt_sample_add_thread(struct reclaim_adapt_sample *sample, int node,
				    double cpu_percent);
/* Node @node has @ncpus online CPUs, @busy_percent of them busy (kswapd included). */
int reclaim_adapt_sample_set_node_cpus(struct reclaim_adapt_sample *sample, int node,
				       unsigned int ncpus, double busy_percent);
/* kswapd_threads read back (live only): a value the controller did not set is a hand-off. */
int reclaim_adapt_sample_set_knob(struct reclaim_adapt_sample *sample, int64_t value);
/* watermark_scale_factor read back (live only), as the same. */
int reclaim_adapt_sample_set_watermark(struct reclaim_adapt_sample *sample, int64_t value);
/*
 * RECLAIM_ADAPT_STATE_FILE: the running daemon's pid, the baseline it started
 * from and the last value it wrote, so that a stop after it died can put
 * the baseline back. load: -ENOENT when there is none. These read and write
 * the file of an adapt that holds kswapd_threads alone ("pid=", "baseline=",
 * "threads="); one that also holds the watermark writes the lease's format
 * ("pid=N", then "knob=NAME before=V last=V" a knob; reclaim_lease_load()).
 */
#define RECLAIM_ADAPT_STATE_FILE RECLAIM_RUNDIR "/adapt"
/*
 * A running sweep's lease (see reclaim_lease_claim()): "pid=N", then a line
 * "knob=NAME before=V last=V" for each knob it holds.
 */
#define RECLAIM_SWEEP_STATE_FILE RECLAIM_RUNDIR "/sweep"
int reclaim_adapt_state_save(struct reclaim_ctx *ctx, pid_t pid, int64_t baseline, int64_t threads);
int reclaim_adapt_state_load(struct reclaim_ctx *ctx, pid_t *pid, int64_t *baseline,
			     int64_t *threads);
int reclaim_adapt_state_remove(struct reclaim_ctx *ctx);
/*
 * The catalogue's figures the controller takes (reclaim_figure_*()): set
 * one with reclaim_adapt_sample_set_figure() (-EOPNOTSUPP for another),
 * except RECLAIM_FIGURE_KSWAPD_CPU, which comes per thread.
 */
bool reclaim_adapt_uses_figure(enum reclaim_figure figure);
int reclaim_adapt_sample_set_figure(struct reclaim_adapt_sample *sample, enum reclaim_figure figure,
				    double value);
/* Resets @sample to the figures between two samples of a sampler (RECLAIM_SAMPLER_CPUS for the
 * nodes' CPUs); without @prev, the first sample. The knob is not set. */
int reclaim_adapt_sample_fill(struct reclaim_adapt_sample *sample,
			      const struct reclaim_sample *prev, const struct reclaim_sample *cur);

#ifdef __cplusplus
}
#endif

#endif

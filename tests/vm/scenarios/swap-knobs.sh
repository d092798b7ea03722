#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# swap-knobs: `reclaimctl set throttle N|auto` and `set swap-quota SIZE`
# really change the kernel's values in /proc/sys/vm, refuse bad values
# without writing, and `status` reports the throttle and the quota as the
# kernel has them.
#  - set throttle 2 -> vm.max_direct_reclaimers 2;
#  - set throttle auto -> clamp(round(0.75 x CPUs per node), 1, 16), the
#    memory-only nodes not counted: here every node with CPUs has one CPU,
#    so 1;
#  - set threads auto -> 1 per 16 CPUs of a node, at most a quarter of them,
#    at least 1: here 1 (unchanged);
#  - set swap-quota 512K / 2M / 0 -> 512 / 2048 / 0;
#  - 1025, -1, x, 2G, 1.5M: exit 2, the kernel's value stays;
#  - status --json: throttle.limit and throttled (direct_reclaim_throttled),
#    swap.round_robin_quota_kb;
#  - the standard page-cluster (0..31, the kernel's own limit) and
#    vfs_cache_pressure: set, persisted in reclaimctl's sysctl.d file, read
#    back by get and status, 32 and -1 refused without writing, and
#    restore --persist puts the kernel's values (3, 100) back and empties
#    the file.
#
# vm-timeout: 180
# vm-lockdep: off
# vm-share: 1
# vm-numa: 128M:0 128M:1 128M 128M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel

step "set throttle 2"
assert_rc 0 "reclaimctl set throttle 2" -- reclaimctl set throttle 2
assert_file_eq "$KNOB_THROTTLE" 2 "vm.max_direct_reclaimers"
assert_eq 2 "$(reclaimctl get --values throttle)" "reclaimctl get --values throttle"

step "set throttle auto"
out=$(reclaimctl set throttle auto 2>&1) || fail "reclaimctl set throttle auto failed"
printf '  | %s\n' "$out"
# Every node with CPUs has one CPU: round(0.75) = 1; nodes 2-3 have none.
# the plan's line, then its reason
assert_match $'^vm.max_direct_reclaimers: 2 -> 1\n  1 CPU per node on nodes 0-1 -> 1 direct reclaimer at once per node \\(3/4 of a node.s CPUs' "$out" \
	"the change, and a reason that names the nodes and their CPUs"
assert_match 'memory-only nodes 2-3 do not count' "$out" "the reason says how memory-only nodes count"
assert_file_eq "$KNOB_THROTTLE" 1 "vm.max_direct_reclaimers after auto"
rc=0
reclaimctl set --dry-run --json throttle auto >/tmp/auto.json || rc=$?
assert_eq 0 "$rc" "set --dry-run --json throttle auto"
if plan_load /tmp/auto.json; then
	assert_eq "set true false" "$(jv .command) $(jv .dry_run) $(jv .changed)" "dry run: command, dry_run, changed"
	assert_eq "max_direct_reclaimers" "${PLAN_KNOBS[*]}" "dry run: one entry"
	assert_eq "1 1 unchanged auto" \
		"${PLAN[max_direct_reclaimers.old]} ${PLAN[max_direct_reclaimers.new]} ${PLAN[max_direct_reclaimers.action]} ${PLAN[max_direct_reclaimers.source]}" \
		"dry run: old, new, action, source"
	assert_match '^1 CPU per node on nodes 0-1 -> 1 direct reclaimer at once per node' \
		"${PLAN[max_direct_reclaimers.reason]}" "dry run: the reason"
else
	fail "set --dry-run --json throttle auto: not JSON"
fi

step "set threads auto"
out=$(reclaimctl set threads auto 2>&1) || fail "reclaimctl set threads auto failed"
printf '  | %s\n' "$out"
assert_match $'^vm.kswapd_threads: 1 \\(unchanged\\)\n  1 CPU per node on nodes 0-1 -> 1 kswapd thread per node' "$out" \
	"unchanged, and a reason that names the nodes and their CPUs"
assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads after auto"
wait_threads 1

step "set swap-quota 512K, 2M, 0"
for q in 512K:512 2M:2048 0:0 512K:512; do
	assert_rc 0 "reclaimctl set swap-quota ${q%%:*}" -- reclaimctl set swap-quota "${q%%:*}"
	assert_file_eq "$KNOB_QUOTA" "${q#*:}" "vm.swap_round_robin_quota_kb after ${q%%:*}"
done

step "bad values: usage error, nothing written"
assert_rc 2 "set throttle 1025" -- reclaimctl set throttle 1025
assert_rc 2 "set throttle -1" -- reclaimctl set throttle -1
assert_rc 2 "set throttle x" -- reclaimctl set throttle x
assert_rc 2 "set swap-quota 2G" -- reclaimctl set swap-quota 2G
assert_rc 2 "set swap-quota 1.5M" -- reclaimctl set swap-quota 1.5M
assert_file_eq "$KNOB_THROTTLE" 1 "vm.max_direct_reclaimers unchanged"
assert_file_eq "$KNOB_QUOTA" 512 "vm.swap_round_robin_quota_kb unchanged"

step "status reports the throttle and the quota"
reclaimctl status --json >/tmp/status.json || fail "reclaimctl status --json failed"
if json_load /tmp/status.json; then
	assert_eq 1 "$(jv .throttle.limit)" "status: throttle.limit"
	assert_eq "$(vmstat direct_reclaim_throttled)" "$(jv .throttle.throttled)" \
		"status: throttle.throttled = direct_reclaim_throttled"
	assert_eq 512 "$(jv .swap.round_robin_quota_kb)" "status: swap.round_robin_quota_kb"
	assert_eq array "$(jv .swap.rings:type)" "status: swap.rings is an array (no device: empty)"
fi
out=$(reclaimctl status 2>&1) || fail "reclaimctl status failed"
assert_match 'Limit: 1 task in direct reclaim per node at once' "$out" "status text: the limit"
assert_match 'Round-robin quota: 512 KiB' "$out" "status text: the quota"

step "page-cluster and vfs_cache_pressure"
PERSIST=/etc/sysctl.d/90-reclaimctl.conf
assert_file_eq "$KNOB_DIR/page-cluster" 3 "vm.page-cluster at boot"
assert_file_eq "$KNOB_DIR/vfs_cache_pressure" 100 "vm.vfs_cache_pressure at boot"
out=$(reclaimctl set --persist page-cluster 0 vfs_cache_pressure 50 2>&1) ||
	fail "reclaimctl set --persist page-cluster 0 vfs_cache_pressure 50 failed: $out"
printf '  | %s\n' "$out"
assert_match $'^vm.page-cluster: 3 -> 0\nvm.vfs_cache_pressure: 100 -> 50\n' "$out" "the plan's lines"
assert_file_eq "$KNOB_DIR/page-cluster" 0 "vm.page-cluster"
assert_file_eq "$KNOB_DIR/vfs_cache_pressure" 50 "vm.vfs_cache_pressure"
assert_eq "0 50" "$(reclaimctl get --values page-cluster vfs_cache_pressure | tr '\n' ' ' | sed 's/ $//')" \
	"reclaimctl get --values"
assert_eq "vm.page-cluster = 0|vm.vfs_cache_pressure = 50" \
	"$(grep '^vm\.' "$PERSIST" | tr '\n' '|' | sed 's/|$//')" "persisted in $PERSIST"
reclaimctl status --json >/tmp/status.json || fail "reclaimctl status --json failed"
if json_load /tmp/status.json; then
	assert_eq "supported 0" "$(jv .knobs.page-cluster.state) $(jv .knobs.page-cluster.value)" \
		"status: page-cluster"
	assert_eq "supported 50" "$(jv .knobs.vfs_cache_pressure.state) $(jv .knobs.vfs_cache_pressure.value)" \
		"status: vfs_cache_pressure"
fi
assert_rc 2 "set page-cluster 32" -- reclaimctl set page-cluster 32
assert_rc 2 "set vfs_cache_pressure -1" -- reclaimctl set vfs_cache_pressure -1
assert_file_eq "$KNOB_DIR/page-cluster" 0 "vm.page-cluster unchanged"
assert_file_eq "$KNOB_DIR/vfs_cache_pressure" 50 "vm.vfs_cache_pressure unchanged"
assert_rc 0 "reclaimctl restore --persist" -- reclaimctl restore --persist
assert_file_eq "$KNOB_DIR/page-cluster" 3 "vm.page-cluster restored"
assert_file_eq "$KNOB_DIR/vfs_cache_pressure" 100 "vm.vfs_cache_pressure restored"
assert_eq "" "$(grep -s '^vm\.\(page-cluster\|vfs_cache_pressure\)' "$PERSIST" || true)" \
	"$PERSIST no longer sets them"

check_dmesg_clean

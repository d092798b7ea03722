#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# default: a freshly booted patched kernel has one kswapd thread per node with
# memory, named kswapdN and bound to its node's CPUs; the knobs have their
# defaults; `reclaimctl status --json` reports every node, its CPUs, memory,
# distances and its thread exactly as /proc and /sys show them.
#
# vm-timeout: 180
# vm-share: 2
# vm-numa: 256M:0 256M:1 256M 256M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

step "topology as the guest sees it"
nodes=$(online_nodes)
mem_nodes=$(memory_nodes)
log "online nodes: $nodes; with memory: $mem_nodes; with cpus: $(cpu_nodes)"
assert_eq 4 "$(wc -w <<<"$nodes")" "4 NUMA nodes online (QEMU -numa via ACPI SRAT)"
assert_eq "0 1 2 3" "$mem_nodes" "every node has memory"
assert_eq "0" "$(node_cpus 0)" "node0 has cpu 0"
assert_eq "1" "$(node_cpus 1)" "node1 has cpu 1"
assert_eq "" "$(node_cpus 2)" "node2 is memory-only"
show_kswapd

step "one kswapd thread per node with memory, named kswapdN"
for n in $mem_nodes; do
	assert_eq "kswapd$n" "$(kswapd_names "$n")" "node$n threads"
	read -r pid _ < <(kswapd_threads "$n") || true
	[[ -n ${pid:-} ]] || continue
	cpus=$(node_cpus "$n")
	if [[ -n $cpus ]]; then
		assert_eq "$cpus" "$(cpus_allowed "$pid")" "kswapd$n (pid $pid) bound to node$n's cpus"
	else
		log "kswapd$n (pid $pid) on memory-only node$n: allowed cpus $(cpus_allowed "$pid")"
	fi
done
assert_eq "$(wc -w <<<"$mem_nodes")" "$(kswapd_total)" "no other kswapd threads"

step "kernel interface defaults (the patches in kernel/ are required)"
if [[ -e $KNOB_THREADS ]]; then
	assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads default"
	assert_file_eq "$KNOB_THROTTLE" 0 "vm.max_direct_reclaimers default"
	assert_file_eq "$KNOB_QUOTA" 2048 "vm.swap_round_robin_quota_kb default"
	assert_eq 0 "$(vmstat direct_reclaim_throttled)" "direct_reclaim_throttled is 0 after boot"
	patched=1
else
	fail "this kernel has no $KNOB_THREADS: the kernel/patches/ series is required"
	patched=0
fi

step "reclaimctl status --json"
rc=0
reclaimctl status --json >/tmp/status.json 2>/tmp/status.err || rc=$?
assert_eq 0 "$rc" "reclaimctl status --json exit status"
[[ -s /tmp/status.err ]] && sed 's/^/  stderr| /' /tmp/status.err
echo "----- status.json -----"
cat /tmp/status.json
echo "-----------------------"
json_load /tmp/status.json || die "reclaimctl status --json is not valid JSON"
assert_eq 2 "$(jv .schema)" "schema"
assert_eq "$(uname -r)" "$(jv .kernel.release)" "kernel.release"
want_feature=false
((patched)) && want_feature=true
for k in kswapd_threads max_direct_reclaimers swap_round_robin_quota_kb; do
	assert_eq "$want_feature" "$(jv ".kernel.features.$k")" "kernel.features.$k"
done
if ((patched)); then
	knob() { echo "$(jv ".knobs.$1.value") $(jv ".knobs.$1.min") $(jv ".knobs.$1.max") $(jv ".knobs.$1.path")"; }
	assert_eq "1 1 16 $KNOB_THREADS" "$(knob kswapd_threads)" "knobs.kswapd_threads value/min/max/path"
	assert_eq "0 0 1024 $KNOB_THROTTLE" "$(knob max_direct_reclaimers)" "knobs.max_direct_reclaimers value/min/max/path"
	assert_eq "2048 0 1048576 $KNOB_QUOTA" "$(knob swap_round_robin_quota_kb)" "knobs.swap_round_robin_quota_kb value/min/max/path"
fi
assert_eq object "$(jv .vmstat:type)" "vmstat is an object"
assert_eq object "$(jv .pressure:type)" "pressure is an object"

njson=${JSON[.nodes:len]:-0}
assert_eq "$(wc -w <<<"$nodes")" "$njson" "status lists every online node"
for ((i = 0; i < njson; i++)); do
	N=".nodes[$i]"
	n=${JSON[$N.id]}
	sys=/sys/devices/system/node/node$n
	assert_eq true "$(jv "$N.online")" "node$n online"
	has_mem=false
	[[ " $mem_nodes " == *" $n "* ]] && has_mem=true
	assert_eq "$has_mem" "$(jv "$N.has_memory")" "node$n has_memory"
	assert_eq "$(node_cpus "$n")" "$(jv "$N.cpus")" "node$n cpus"
	total_kb=$(node_mem_kb "$n")
	assert_eq "$total_kb" "$(jv "$N.memory_total_kb")" "node$n memory_total_kb = MemTotal"
	free_kb=$(jv "$N.memory_free_kb")
	assert_gt "$free_kb" 0 "node$n memory_free_kb > 0"
	assert_le "$free_kb" "$total_kb" "node$n memory_free_kb <= total"
	dist=$(readf "$sys/distance")
	assert_eq "${dist// /,}" "$(jv "$N.distance")" "node$n distance row"
	assert_eq array "$(jv "$N.zones:type")" "node$n zones is an array"
	nk=${JSON[$N.kswapd:len]:-0}
	assert_eq "$(kswapd_count "$n")" "$nk" "node$n kswapd thread count in status"
	for ((t = 0; t < nk; t++)); do
		K="$N.kswapd[$t]"
		pid=${JSON[$K.pid]}
		name=$(jv "$K.name")
		assert_eq "kswapd$n" "$name" "node$n kswapd[$t].name"
		assert_eq "$(readf "/proc/$pid/comm")" "$name" "node$n kswapd[$t].pid $pid is that thread"
		assert_eq 0 "$(jv "$K.index")" "node$n kswapd[$t].index"
		assert_match '^[RSDIW]$' "$(jv "$K.state")" "node$n kswapd[$t].state is a task state"
		assert_match '^[0-9]+(\.[0-9]+)?$' "$(jv "$K.cpu_seconds")" "node$n kswapd[$t].cpu_seconds is a number"
		assert_eq "$(cpus_allowed "$pid")" "$(jv "$K.allowed_cpus")" \
			"node$n kswapd[$t].allowed_cpus = /proc/$pid/status Cpus_allowed_list"
	done
done

step "reclaimctl get / threads / status"
if ((patched)); then
	for k in threads:1 kswapd_threads:1 throttle:0 max_direct_reclaimers:0; do
		out=$(reclaimctl get "${k%%:*}" 2>&1) || fail "reclaimctl get ${k%%:*} failed: $out"
		assert_match "(^|[^0-9])${k#*:}([^0-9]|\$)" "$out" "reclaimctl get ${k%%:*} shows ${k#*:} [$out]"
	done
	out=$(reclaimctl get swap-quota 2>&1) || fail "reclaimctl get swap-quota failed: $out"
	assert_match '(^|[^0-9])2048([^0-9]|$)|(^|[^0-9])2 ?(M|MiB)([^A-Za-z]|$)' "$out" "reclaimctl get swap-quota shows 2048 KiB [$out]"
else
	assert_rc 1 "reclaimctl get threads on an unpatched kernel is a runtime failure" -- reclaimctl get threads
fi
assert_rc 0 "reclaimctl status" -- reclaimctl status
out=$(reclaimctl threads 2>&1) || fail "reclaimctl threads failed"
printf '%s\n' "$out" | sed 's/^/  | /'
for n in $mem_nodes; do
	assert_match "(^|[^:[:alnum:]])kswapd$n([^:[:alnum:]]|\$)" "$out" "reclaimctl threads lists kswapd$n"
done
if reclaimctl threads --json >/tmp/threads.json; then
	if jsonq -e /tmp/threads.json; then ok "reclaimctl threads --json is valid JSON"; else fail "reclaimctl threads --json is not valid JSON"; fi
else
	fail "reclaimctl threads --json failed"
fi

check_dmesg_clean

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mem-hotplug: memory hot-added through QEMU's monitor (a pc-dimm, ACPI) to a
# node without memory starts vm.kswapd_threads threads there, named and bound
# like the others; removing it (device_del: the guest offlines the movable
# blocks and ejects the DIMM) stops them all, and the other nodes keep theirs.
#
# Nodes: 0 (256M, CPU 0), 1 (CPU 1, no memory), 2 (256M, no CPU), 3 (nothing:
# QEMU puts it in SRAT only as the owner of the hot-plug range, being the
# last node; x86 brings it online at the hot-add). With
# memhp_default_state=online_movable the added blocks are onlined into
# ZONE_MOVABLE by the kernel, so they can be offlined again.
#
#   threads 3, add 256M to node1  -> kswapd1 kswapd1:1 kswapd1:2 on CPU 1
#   threads 4, then 2             -> node1 follows (4, then 2)
#   add 256M to node3             -> kswapd3 kswapd3:1, unbound (no CPU)
#   device_del node1's DIMM       -> no kswapd1*; nodes 0, 2, 3 untouched; a
#                                    hog's 96M there migrated and intact
#   threads 3                     -> nodes 0, 2, 3 (node1 has no memory)
#   device_del node3's DIMM       -> no kswapd3*
#   add to node1 again, remove    -> 3 threads again, then none
#
# vm-timeout: 300
# vm-share: 2
# vm-numa: 256M:0 0:1 256M 0
# vm-maxmem: 2G,4
# vm-monitor: yes
# vm-append: memhp_default_state=online_movable
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
require_file /sys/devices/system/memory/block_size_bytes "no /sys/devices/system/memory: CONFIG_MEMORY_HOTPLUG is required"
require_file /sys/devices/system/memory/auto_online_blocks
# the ACPI memory device handler's hot-plug profile
require_file /sys/firmware/acpi/hotplug/memory/enabled "no ACPI memory hot-plug: CONFIG_ACPI_HOTPLUG_MEMORY is required"
[[ $(readf /sys/devices/system/memory/auto_online_blocks) == online_movable ]] ||
	die "auto_online_blocks is '$(readf /sys/devices/system/memory/auto_online_blocks)', not online_movable (memhp_default_state=online_movable)"

DIMM_MB=256
block_mb=$(($(memory_block_bytes) / 1024 / 1024))
((block_mb > 0 && DIMM_MB % block_mb == 0)) || die "memory block size ${block_mb} MiB does not divide a ${DIMM_MB} MiB DIMM"
BLOCKS=$((DIMM_MB / block_mb))
ALL_CPUS=$(canon_list "$(readf /sys/devices/system/cpu/online)")
log "memory blocks of ${block_mb} MiB: a ${DIMM_MB} MiB DIMM is $BLOCKS; online cpus $ALL_CPUS"

# node_threads_are N WANT: node N runs exactly WANT threads (wait_for)
node_threads_are() { [[ $(kswapd_names "$1") == "$(expected_names "$1" "$2")" ]]; }
node_threads_none() { [[ -z $(kswapd_names "$1") ]]; }

# check_node N WANT: node N runs kswapdN .. kswapdN:WANT-1, children of
# kthreadd, each allowed only the node's CPUs (a node without CPUs: unbound,
# every online CPU, as the memory-only node2's)
check_node() {
	local n=$1 want=$2 pid name cpus nodecpus bad=0
	wait_for 10 "node$n runs $want kswapd thread(s)" -- node_threads_are "$n" "$want" || true
	assert_eq "$(expected_names "$n" "$want")" "$(kswapd_names "$n")" "node$n runs $want kswapd thread(s)"
	nodecpus=$(node_cpus "$n")
	while read -r pid name; do
		cpus=$(cpus_allowed "$pid")
		if [[ $(status_field "$pid" PPid) != 2 ]]; then
			fail "$name (pid $pid) is not a child of kthreadd (PPid $(status_field "$pid" PPid))"
			bad=1
		fi
		if [[ -n $nodecpus && $cpus != "$nodecpus" ]]; then
			fail "$name (pid $pid) allowed cpus $cpus, not only node$n's ($nodecpus)"
			bad=1
		elif [[ -z $nodecpus && $cpus != "$ALL_CPUS" ]]; then
			fail "$name (pid $pid) of node$n (no CPUs) allowed cpus $cpus, not unbound ($ALL_CPUS)"
			bad=1
		fi
	done < <(kswapd_threads "$n")
	if ((bad)); then
		return 0
	elif [[ -n $nodecpus ]]; then
		ok "node$n: every thread a child of kthreadd, allowed only node$n's cpus ($nodecpus)"
	else
		ok "node$n: every thread a child of kthreadd, unbound (node$n has no CPUs: cpus $ALL_CPUS)"
	fi
}

# check_all WANT: every node with memory as check_node, and no other kswapd
check_all() {
	local n count=0
	for n in $(memory_nodes); do
		check_node "$n" "$1"
		count=$((count + 1))
	done
	assert_eq "$((count * $1))" "$(kswapd_total)" "no other kswapd threads ($count nodes with memory x $1)"
}

# hot_add N ID: a DIMM_MB pc-dimm (memory backend hpID, device dimmID) on node
# N; waits until its blocks are online (movable) and the node has memory
hot_add() {
	local n=$1 id=$2 b zones
	vm_monitor "object_add memory-backend-ram,id=hp$id,size=${DIMM_MB}M"
	vm_monitor "device_add pc-dimm,id=dimm$id,memdev=hp$id,node=$n"
	wait_for 60 "node$n: $BLOCKS memory blocks online" -- node_blocks_online "$n" "$BLOCKS" ||
		die "no memory came to node$n (see the .monitor.log and the console)"
	ok "node$n: blocks $(node_memory_blocks "$n") online"
	for b in $(node_memory_blocks "$n"); do
		zones=$(readf "/sys/devices/system/memory/$b/valid_zones")
		assert_eq Movable "$zones" "$b is in ZONE_MOVABLE (can be offlined)"
	done
	wait_for 10 "node$n in has_memory" -- node_has_memory "$n" || true
	assert_match "(^| )$n( |\$)" "$(memory_nodes)" "node$n is in has_memory ($(readf /sys/devices/system/node/has_memory))"
	log "node$n: MemTotal $(($(node_mem_kb "$n") / 1024)) MiB"
}

# hot_remove N ID: device_del of dimmID; waits until the guest has offlined
# and removed its blocks (ACPI eject) and node N has no memory
hot_remove() {
	local n=$1 id=$2
	vm_monitor "device_del dimm$id"
	wait_for 60 "node$n without memory" -- node_no_memory "$n" ||
		die "node$n still has memory after device_del dimm$id (CONFIG_MEMORY_HOTREMOVE? see the .monitor.log for ACPI_DEVICE_OST)"
	wait_for 30 "node$n without memory blocks" -- no_memory_blocks "$n" &&
		ok "node$n: no memory, no memory blocks (has_memory $(readf /sys/devices/system/node/has_memory))"
}

# pids_of N -> "name=pid ..." of node N's threads, to see they keep running
pids_of() {
	local pid name out=()
	while read -r pid name; do out+=("$name=$pid"); done < <(kswapd_threads "$1")
	echo "${out[*]:-}"
}

step "boot: nodes 0 and 2 have memory, node1 only CPU 1, node3 nothing"
for f in possible online has_memory has_cpu; do
	log "$f: $(readf /sys/devices/system/node/$f)"
done
assert_eq "0 2" "$(memory_nodes)" "has_memory"
assert_eq 1 "$(node_cpus 1)" "node1 has CPU 1"
assert_eq "" "$(node_memory_blocks 1)" "node1 has no memory blocks"
show_kswapd
assert_eq "" "$(kswapd_names 1)" "node1 has no kswapd"
assert_eq "" "$(kswapd_names 3)" "node3 has no kswapd"
check_all 1

step "vm.kswapd_threads = 3 before the hot-add"
assert_eq "" "$(knob_write_err "$KNOB_THREADS" 3)" "echo 3 > vm.kswapd_threads"
check_all 3
assert_eq "" "$(kswapd_names 1)" "node1 (no memory) still has no kswapd"

step "hot-add ${DIMM_MB}M to node1 (CPU 1, no memory)"
hot_add 1 1
show_kswapd
check_node 1 3
check_all 3
threads_out=$(reclaimctl threads 2>&1) || fail "reclaimctl threads failed"
for name in $(expected_names 1 3); do
	[[ $threads_out =~ (^|[^:[:alnum:]])$name([^:[:alnum:]]|$) ]] || fail "reclaimctl threads does not list $name"
done
ok "reclaimctl threads lists node1's threads"

step "writes after the hot-add apply to node1 too: 4, then 2"
assert_eq "" "$(knob_write_err "$KNOB_THREADS" 4)" "echo 4 > vm.kswapd_threads"
check_all 4
assert_eq "" "$(knob_write_err "$KNOB_THREADS" 2)" "echo 2 > vm.kswapd_threads"
wait_threads 2
check_all 2

step "hot-add ${DIMM_MB}M to node3 (no CPU, no memory, not online at boot)"
log "node3 online before: $(if [[ -d /sys/devices/system/node/node3 ]]; then echo yes; else echo no; fi) (online $(readf /sys/devices/system/node/online))"
hot_add 3 3
show_kswapd
check_node 3 2
check_all 2

step "device_del node1's DIMM with a hog's pages on it: its threads stop, the others keep running"
# the offline has to migrate these pages to other nodes (the hog's mbind to
# node1 does not hold them back); the hog then verifies every word
HOG_MB=96
free0=$(node_free_mb 1)
memhog -m "$HOG_MB" -N 1 -s 4242 -W /tmp/hp-go >/tmp/hp-hog.out 2>&1 &
hog=$!
HOGS+=("$hog")
wait_for 60 "memhog wrote $HOG_MB MiB on node1" -- grep -q WRITTEN /tmp/hp-hog.out ||
	die "memhog: $(cat /tmp/hp-hog.out)"
free1=$(node_free_mb 1)
log "node1: MemFree $free0 MiB before the hog, $free1 MiB with it"
assert_ge $((free0 - free1)) $((HOG_MB * 9 / 10)) "the hog's memory is on node1 (MiB taken, of $HOG_MB)"
before0=$(pids_of 0) before2=$(pids_of 2) before3=$(pids_of 3)
hot_remove 1 1
touch /tmp/hp-go
rc=0
wait "$hog" || rc=$?
HOGS=()
sed 's/^/  | /' /tmp/hp-hog.out
assert_eq 0 "$rc" "memhog verified its $HOG_MB MiB after the removal (exit status)"
written=$(sed -n 's/.*WRITTEN .* checksum \([0-9a-f]*\).*/\1/p' /tmp/hp-hog.out)
verified=$(sed -n 's/.*pass 1 verified .* checksum \([0-9a-f]*\).*/\1/p' /tmp/hp-hog.out)
assert_eq "$written" "$verified" "the same checksum before and after the migration"
wait_for 10 "no kswapd1 thread" -- node_threads_none 1 || true
assert_eq "" "$(kswapd_names 1)" "node1 has no kswapd left"
show_kswapd
assert_eq "$before0" "$(pids_of 0)" "node0 keeps its threads"
assert_eq "$before2" "$(pids_of 2)" "node2 keeps its threads"
assert_eq "$before3" "$(pids_of 3)" "node3 keeps its threads"
assert_eq 1 "$(node_cpus 1)" "node1 still has CPU 1"
check_all 2

step "vm.kswapd_threads = 3 while node1 has no memory"
assert_eq "" "$(knob_write_err "$KNOB_THREADS" 3)" "echo 3 > vm.kswapd_threads"
check_all 3
assert_eq "" "$(kswapd_names 1)" "node1 (no memory) gets none"

step "device_del node3's DIMM"
before0=$(pids_of 0) before2=$(pids_of 2)
hot_remove 3 3
wait_for 10 "no kswapd3 thread" -- node_threads_none 3 || true
assert_eq "" "$(kswapd_names 3)" "node3 has no kswapd left"
log "online nodes now: $(readf /sys/devices/system/node/online)"
assert_eq "$before0" "$(pids_of 0)" "node0 keeps its threads"
assert_eq "$before2" "$(pids_of 2)" "node2 keeps its threads"
assert_eq "0 2" "$(memory_nodes)" "has_memory as at boot"
check_all 3

step "node1 again: a second hot-add starts 3 threads, its removal stops them"
hot_add 1 1b
check_node 1 3
check_all 3
hot_remove 1 1b
wait_for 10 "no kswapd1 thread" -- node_threads_none 1 || true
assert_eq "" "$(kswapd_names 1)" "node1 has no kswapd left"
check_all 3

step "back to 1"
assert_eq "" "$(knob_write_err "$KNOB_THREADS" 1)" "echo 1 > vm.kswapd_threads"
wait_threads 1
show_kswapd
check_all 1

check_dmesg_clean

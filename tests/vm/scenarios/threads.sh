#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# threads: `reclaimctl set threads 4` gives exactly 4 kswapd threads on every
# node with memory, named kswapdN, kswapdN:1..3, each allowed only its node's
# CPUs (a memory-only node: whatever the kernel binds, reported truthfully by
# reclaimctl); back to 1 the extras are gone; 16 (the maximum) works; 0 and 17
# are refused by the kernel (EINVAL) and by the tool (exit 2, nothing changed).
#
# vm-timeout: 240
# vm-lockdep: off
# vm-share: 2
# vm-numa: 256M:0 256M:1 256M 256M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
mem_nodes=$(memory_nodes)
J=/tmp/status.json

# check_threads N: every memory node runs exactly N threads named right, bound
# right, and reclaimctl status --json / reclaimctl threads report exactly that
check_threads() {
	local want=$1 n pid name cpus nodecpus i t nk idx K bad want_name seen
	assert_file_eq "$KNOB_THREADS" "$want" "vm.kswapd_threads reads $want"
	for n in $mem_nodes; do
		assert_eq "$(expected_names "$n" "$want")" "$(kswapd_names "$n")" "node$n runs $want thread(s)"
		nodecpus=$(node_cpus "$n")
		bad=0
		seen=()
		while read -r pid name; do
			cpus=$(cpus_allowed "$pid")
			seen+=("$cpus")
			if [[ -n $nodecpus && $cpus != "$nodecpus" ]]; then
				fail "$name (pid $pid) allowed cpus $cpus, not only node$n's ($nodecpus)"
				bad=1
			fi
		done < <(kswapd_threads "$n")
		if [[ -z $nodecpus ]]; then
			log "memory-only node$n: its threads may run on cpus: $(printf '%s\n' "${seen[@]}" | sort -u | paste -sd' ' -)"
		elif ((!bad)); then
			ok "node$n: every thread allowed only node$n's cpus ($nodecpus)"
		fi
	done
	assert_eq "$(($(wc -w <<<"$mem_nodes") * want))" "$(kswapd_total)" "no other kswapd threads"

	reclaimctl status --json >"$J" || fail "reclaimctl status --json failed"
	if ! json_load "$J"; then
		fail "reclaimctl status --json is not valid JSON"
		return 0
	fi
	assert_eq "$want" "$(jv .knobs.kswapd_threads.value)" "status: knobs.kswapd_threads.value"
	for ((i = 0; i < ${JSON[.nodes:len]:-0}; i++)); do
		n=${JSON[.nodes[$i].id]}
		[[ " $mem_nodes " == *" $n "* ]] || continue
		nk=${JSON[.nodes[$i].kswapd:len]:-0}
		assert_eq "$want" "$nk" "status: node$n lists $want kswapd threads"
		bad=0
		for ((t = 0; t < nk; t++)); do
			K=".nodes[$i].kswapd[$t]"
			pid=${JSON[$K.pid]}
			name=${JSON[$K.name]}
			idx=${JSON[$K.index]}
			cpus=$(cpus_allowed "$pid")
			if ((idx == 0)); then want_name=kswapd$n; else want_name=kswapd$n:$idx; fi
			# one line per thread only when something is wrong (16 x 4 threads)
			[[ $(readf "/proc/$pid/comm") == "$name" ]] || {
				fail "status: node$n pid $pid is not $name"
				bad=1
			}
			[[ $name == "$want_name" ]] || {
				fail "status: node$n index $idx is named $name, not $want_name"
				bad=1
			}
			[[ $cpus == "${JSON[$K.allowed_cpus]}" ]] || {
				fail "status: $name allowed_cpus '${JSON[$K.allowed_cpus]}', /proc/$pid/status says '$cpus'"
				bad=1
			}
		done
		((bad)) || ok "status: node$n threads: pids, names, indexes, allowed_cpus match /proc"
	done
	local out
	out=$(reclaimctl threads 2>&1) || fail "reclaimctl threads failed"
	for n in $mem_nodes; do
		for name in $(expected_names "$n" "$want"); do
			[[ $out =~ (^|[^:[:alnum:]])$name([^:[:alnum:]]|$) ]] || fail "reclaimctl threads does not list $name"
		done
	done
}

step "boot state"
show_kswapd
check_threads 1
declare -A thread0
while read -r pid name; do thread0[$name]=$pid; done < <(kswapd_threads)

step "reclaimctl set threads 4"
assert_rc 0 "reclaimctl set threads 4" -- reclaimctl set threads 4
# the contract: when the write returns, the threads exist
show_kswapd
check_threads 4
for name in "${!thread0[@]}"; do
	[[ $(cat "/proc/${thread0[$name]}/comm" 2>/dev/null) == "$name" ]] ||
		log "note: $name was restarted (pid ${thread0[$name]} is gone)"
done

step "out of range: the kernel says EINVAL and changes nothing"
for v in 0 17 -1 1000; do
	assert_eq "Invalid argument" "$(knob_write_err "$KNOB_THREADS" "$v")" "echo $v > vm.kswapd_threads"
done
assert_file_eq "$KNOB_THREADS" 4 "vm.kswapd_threads unchanged"

step "out of range: reclaimctl refuses with exit 2 and writes nothing"
assert_rc 2 "reclaimctl set threads 0" -- reclaimctl set threads 0
assert_rc 2 "reclaimctl set threads 17" -- reclaimctl set threads 17
assert_rc 2 "reclaimctl set kswapd_threads 17" -- reclaimctl set kswapd_threads 17
check_threads 4

step "back to 1: the extras are gone"
assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
log "right after the write: $(kswapd_total) kswapd threads"
# stopped threads may linger in /proc for a moment after kthread_stop()
wait_threads 1
show_kswapd
check_threads 1
for name in "${!thread0[@]}"; do
	assert_eq "$name" "$(cat "/proc/${thread0[$name]}/comm" 2>/dev/null || echo gone)" "$name keeps running (pid ${thread0[$name]})"
done

step "the maximum, by the canonical name, and directly through /proc"
assert_rc 0 "reclaimctl set kswapd_threads 16" -- reclaimctl set kswapd_threads 16
check_threads 16
assert_eq "" "$(knob_write_err "$KNOB_THREADS" 2)" "echo 2 > vm.kswapd_threads"
wait_threads 2
check_threads 2
assert_rc 0 "reclaimctl set threads 1" -- reclaimctl set threads 1
wait_threads 1
check_threads 1

check_dmesg_clean

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# boot-param: the knobs can be set on the kernel command line, as any sysctl
# (sysctl.vm.NAME=VALUE, applied by the kernel's do_sysctl_args() before init
# runs): with kswapd_threads=3, max_direct_reclaimers=2 and
# swap_round_robin_quota_kb=4096 there, the files read so at the start of the
# scenario, every node with memory already runs 3 threads named right and
# bound to its CPUs, and reclaimctl status --json reports the same.
#
# vm-timeout: 120
# vm-share: 2
# vm-numa: 128M:0 128M:1 128M
# vm-append: sysctl.vm.kswapd_threads=3 sysctl.vm.max_direct_reclaimers=2 sysctl.vm.swap_round_robin_quota_kb=4096
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
assert_match 'sysctl\.vm\.kswapd_threads=3' "$(cat /proc/cmdline)" "the parameters are on the command line"
assert_file_eq "$KNOB_THREADS" 3 "vm.kswapd_threads=3 from the command line"
assert_file_eq "$KNOB_THROTTLE" 2 "vm.max_direct_reclaimers=2 from the command line"
assert_file_eq "$KNOB_QUOTA" 4096 "vm.swap_round_robin_quota_kb=4096 from the command line"
for n in $(memory_nodes); do
	assert_eq "$(expected_names "$n" 3)" "$(kswapd_names "$n")" "node$n runs 3 threads"
	cpus=$(node_cpus "$n")
	[[ -n $cpus ]] || continue
	while read -r pid name; do
		assert_eq "$cpus" "$(cpus_allowed "$pid")" "$name is bound to node$n's CPUs"
	done < <(kswapd_threads "$n")
done
reclaimctl status --json >/tmp/status.json || fail "reclaimctl status --json failed"
json_load /tmp/status.json || fail "reclaimctl status --json: not JSON"
assert_eq 3 "$(jv .knobs.kswapd_threads.value)" "status: knobs.kswapd_threads.value"
assert_eq 2 "$(jv .knobs.max_direct_reclaimers.value)" "status: knobs.max_direct_reclaimers.value"
for ((i = 0; i < ${JSON[.nodes:len]:-0}; i++)); do
	assert_eq 3 "${JSON[.nodes[$i].kswapd:len]:-0}" "status: node ${JSON[.nodes[$i].id]} lists 3 kswapd threads"
done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sweep-throttle: the reclaim throttle experiment (a many-process workload
# under max_direct_reclaimers=1,2,3,4 and unlimited), reproduced with
# reclaimctl sweep. 32 processes allocate together more than the guest's
# memory (into zram swap), go over it once more rewriting it, and hold it
# while reclaimctl stalls reads how long each waited in direct reclaim
# (taskstats); then they exit. Per run: wall time, the processes' system
# time, major faults, the most time one process spent in direct reclaim.
# Run by bench/sweep-repro.sh, not by the test suite.
#
# vm-timeout: 1800
# vm-tcg: multi
# vm-numa: 160M:0-1 160M:2-3
# vm-smp: 4
# vm-append: delayacct
set -euo pipefail
# shellcheck source=SCRIPTDIR/../../tests/vm/guest/lib.sh
source /vm/lib.sh

require_patched_kernel
repeat=${SWEEP_REPEAT:-2}
dev=$(zram_swap 768M)
log "swap on $dev; $(mem_avail_mb) MiB available"

cat >/tmp/storm.sh <<'STORM'
#!/bin/bash
source /vm/lib.sh
tasks=32
size=$((($(mem_avail_mb) + 192) / tasks))
mf0=$(vmstat pgmajfault)
pids=()
for ((i = 0; i < tasks; i++)); do
	memhog -m "$size" -p 1 -r -H 600 >"/tmp/storm-out.$i" 2>&1 &
	pids+=($!)
done
done_all() {
	local i
	for ((i = 0; i < tasks; i++)); do
		grep -q OK "/tmp/storm-out.$i" || ! kill -0 "${pids[i]}" 2>/dev/null || return 1
	done
}
wait_for 900 "every process has written and rewritten its memory" -- done_all || exit 1
echo "max_reclaim_ms=$(reclaimctl stalls -i 0 -t 1 -o RECLAIM_MS -n -r)"
kill "${pids[@]}" 2>/dev/null
for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
grep -l FAIL /tmp/storm-out.* && exit 1
echo "majflt=$(($(vmstat pgmajfault) - mf0))"
# the processes' system time: times' second line, the waited-for children
# (in this shell, not in a subshell of its own)
times >/tmp/storm-times
awk 'NR == 2 { split($2, a, "m"); sub("s", "", a[2]); print "sys_s=" a[1] * 60 + a[2] }' /tmp/storm-times
echo "oom_kill=$(vmstat oom_kill)"
STORM
chmod +x /tmp/storm.sh

rc=0
run reclaimctl sweep --repeat "$repeat" -i 1 --dir /tmp/sweep \
	-m 'sys=sys_s=([0-9.]+)' -m 'majflt=majflt=([0-9]+)' \
	-m 'max_reclaim_ms=max_reclaim_ms=([0-9]+)' \
	--warmup 'sync; echo 3 >/proc/sys/vm/drop_caches' \
	throttle=1,2,3,4,0 -- /tmp/storm.sh || rc=$?
assert_eq 0 "$rc" "sweep exit status"
((rc == 0)) || tail -n 20 /tmp/sweep/run-*.log
echo "SUMMARY-CSV-BEGIN"
cat /tmp/sweep/summary.csv
echo "SUMMARY-CSV-END"
check_dmesg_clean

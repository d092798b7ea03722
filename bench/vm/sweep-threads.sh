#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sweep-threads: the kswapd threads experiment (parallel buffered readers of
# files larger than memory under 1, 2 and 4 kswapd threads per node),
# reproduced with reclaimctl sweep. Four dd processes read distinct 256 MiB
# parts of a 1 GiB virtio disk through the page cache of a 256 MiB guest.
# Per run: throughput, system CPU %, kswapd CPU per thread, direct reclaims,
# pages scanned by kswapd and directly. Two emulated CPUs show the
# mechanism, not the published speedup. Run by bench/sweep-repro.sh.
#
# vm-timeout: 1800
# vm-tcg: multi
# vm-numa: 128M:0 128M:1
# vm-disk: 1G
set -euo pipefail
# shellcheck source=SCRIPTDIR/../../tests/vm/guest/lib.sh
source /vm/lib.sh

require_patched_kernel
repeat=${SWEEP_REPEAT:-3}
readers=${SWEEP_READERS:-4}

cat >/tmp/readers.sh <<'READERS'
#!/bin/bash
readers=$1 part=$((1024 / $1))
read -r _ u0 n0 s0 i0 _ </proc/stat
read -r t0 _ </proc/uptime
for ((r = 0; r < readers; r++)); do
	dd if=/dev/vda of=/dev/null bs=1M skip=$((r * part)) count=$part 2>/dev/null &
done
wait
read -r t1 _ </proc/uptime
read -r _ u1 n1 s1 i1 _ </proc/stat
awk -v n="$readers" -v mb=$((readers * part)) -v t0="$t0" -v t1="$t1" \
	-v s=$((s1 - s0)) -v all=$((u1 - u0 + n1 - n0 + s1 - s0 + i1 - i0)) 'BEGIN {
	printf "readers=%d throughput=%.1f MB/s sys_pct=%.1f\n", n, mb / (t1 - t0), 100 * s / all }'
READERS
chmod +x /tmp/readers.sh

rc=0
run reclaimctl sweep --repeat "$repeat" -i 1 --dir /tmp/sweep \
	-m 'throughput=throughput=([0-9.]+ M)B/s' -m 'sys_pct=sys_pct=([0-9.]+)' \
	--warmup 'echo 3 >/proc/sys/vm/drop_caches' \
	threads=1,2,4 -- /tmp/readers.sh "$readers" || rc=$?
assert_eq 0 "$rc" "sweep exit status"
((rc == 0)) || tail -n 20 /tmp/sweep/run-*.log
echo "SUMMARY-CSV-BEGIN"
cat /tmp/sweep/summary.csv
echo "SUMMARY-CSV-END"
check_dmesg_clean

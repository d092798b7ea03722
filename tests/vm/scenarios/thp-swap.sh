#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# thp-swap: transparent huge pages swapped out whole (THP_SWAP) over a ring of
# four zram devices of equal priority. thpswap (helpers/) maps 60 MiB with
# MADV_HUGEPAGE on cpu0 (node 0's ring), pushes it out with MADV_PAGEOUT and
# reads it back, checking every word. For quotas of 2048, 8192 and 0 KiB:
#  - the memory was in huge pages and nearly all of them were swapped out
#    whole (thp_swpout in /proc/vmstat);
#  - the used amounts of the four devices differ by at most one quota plus
#    one huge page (a huge page is charged to a device's turn at once);
#  - every word read back is intact.
#
# vm-timeout: 300
# vm-numa: 384M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
THP=/sys/kernel/mm/transparent_hugepage/enabled
require_file "$THP"
echo madvise >"$THP"
assert_match '\[madvise\]' "$(cat "$THP")" "THP on for madvised memory"
mib=60

step "four zram devices of priority 10"
devs=()
for i in 1 2 3 4; do
	devs+=("$(zram_add 48M)")
done
for d in "${devs[@]}"; do
	mkswap "$d" >/dev/null || die "mkswap $d failed"
done
swapon-prio -p 10 "${devs[@]}" || die "swapon-prio -p 10 failed"
cat /proc/swaps

swap_empty() { awk 'NR > 1 && $4 != 0 {f = 1} END {exit f}' /proc/swaps; }

# round QUOTA: swap the huge pages out and back with that quota
round() {
	local quota=$1 out thp0 fb0 n d used min max spread
	declare -A u=()
	assert_rc 0 "reclaimctl set swap-quota $quota" -- reclaimctl set swap-quota "$quota"
	assert_file_eq "$KNOB_QUOTA" "$quota" "vm.swap_round_robin_quota_kb reads $quota"
	wait_for 20 "swap is empty" -- swap_empty || true
	thp0=$(vmstat thp_swpout)
	fb0=$(vmstat thp_swpout_fallback)
	if ! out=$(thpswap -m "$mib" -c 0); then
		fail "quota $quota: thpswap failed: $out"
		return 0
	fi
	printf '%s\n' "$out"
	n=$(($(vmstat thp_swpout) - thp0))
	log "quota $quota: thp_swpout +$n, thp_swpout_fallback +$(($(vmstat thp_swpout_fallback) - fb0))"
	assert_match "^thp=$((mib * 1024))\$" "$(grep '^thp=' <<<"$out")" "quota $quota: all $mib MiB were huge pages"
	assert_ge "$n" $((mib / 2 * 9 / 10)) "quota $quota: at least 90% of the $((mib / 2)) huge pages swapped out whole"
	assert_match "^verified=$mib\$" "$(grep '^verified=' <<<"$out")" "quota $quota: every word came back intact"
	while read -r _ d used; do u[$d]=$used; done < <(grep '^swap ' <<<"$out")
	min='' max=0
	for d in "${devs[@]}"; do
		used=${u[$d]:-0}
		((used > max)) && max=$used
		[[ -z $min ]] || ((used < min)) && min=$used
	done
	spread=$((max - min))
	log "quota $quota: used $(for d in "${devs[@]}"; do printf '%s=%s ' "${d#/dev/}" "${u[$d]:-0}"; done)spread $spread KiB"
	assert_le "$spread" $((quota + 2048)) "quota $quota: the devices' shares differ by at most one quota plus one huge page"
	assert_gt "$min" 0 "quota $quota: every device took a share"
}

for q in 2048 8192 0; do
	step "quota $q KiB"
	round "$q"
done
assert_rc 0 "reclaimctl set swap-quota 2048" -- reclaimctl set swap-quota 2048

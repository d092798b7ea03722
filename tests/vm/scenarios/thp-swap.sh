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
#    one huge page (a huge page is charged to a device's turn at once), and
#    every device took a share;
#  - every word read back is intact.
# The quota matters: with 65536 KiB, more than the 60 MiB, one device takes
# nearly all of it (a range of at least 45 MiB). The same sweep (0, 2048,
# 65536) with base pages (thpswap -s), charged 64 pages (256 KiB) at a time
# by the swap slots cache.
#
# vm-timeout: 300
# vm-share: 2
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
	devs+=("$(zram_add 96M)")
done
for d in "${devs[@]}"; do
	mkswap "$d" >/dev/null || die "mkswap $d failed"
done
swapon-prio -p 10 "${devs[@]}" || die "swapon-prio -p 10 failed"
cat /proc/swaps

# the previous round's swap is freed, but for what the swap slots cache of a
# CPU may hold (64 entries each)
swap_settled() { awk 'NR > 1 {u += $4} END {exit u > 1024}' /proc/swaps; }

# round QUOTA [base]: swap the memory out and back with that quota, in huge
# pages or (base) in base pages
round() {
	local quota=$1 kind=${2:-huge} out thp0 fb0 n d used min max spread unit=2048 opt=
	declare -A u=()
	if [[ $kind == base ]]; then
		unit=256 opt=-s
	fi
	assert_rc 0 "reclaimctl set swap-quota $quota" -- reclaimctl set swap-quota "$quota"
	assert_file_eq "$KNOB_QUOTA" "$quota" "vm.swap_round_robin_quota_kb reads $quota"
	wait_for 20 "swap is free again" -- swap_settled || true
	declare -A u0=()
	while read -r d _ _ used _; do u0[$d]=$used; done < <(tail -n +2 /proc/swaps)
	thp0=$(vmstat thp_swpout)
	fb0=$(vmstat thp_swpout_fallback)
	# shellcheck disable=SC2086 # $opt: no option or one
	if ! out=$(thpswap -m "$mib" -c 0 $opt); then
		fail "quota $quota: thpswap failed: $out"
		return 0
	fi
	printf '%s\n' "$out"
	n=$(($(vmstat thp_swpout) - thp0))
	log "quota $quota, $kind pages: thp_swpout +$n, thp_swpout_fallback +$(($(vmstat thp_swpout_fallback) - fb0))"
	if [[ $kind == huge ]]; then
		assert_match "^thp=$((mib * 1024))\$" "$(grep '^thp=' <<<"$out")" "quota $quota: all $mib MiB were huge pages"
		assert_ge "$n" $((mib / 2 * 9 / 10)) "quota $quota: at least 90% of the $((mib / 2)) huge pages swapped out whole"
	else
		assert_match '^thp=0$' "$(grep '^thp=' <<<"$out")" "quota $quota: no huge page (MADV_NOHUGEPAGE)"
	fi
	assert_match "^verified=$mib\$" "$(grep '^verified=' <<<"$out")" "quota $quota: every word came back intact"
	while read -r _ d used; do u[$d]=$((used - ${u0[$d]:-0})); done < <(grep '^swap ' <<<"$out")
	min='' max=0
	for d in "${devs[@]}"; do
		used=${u[$d]:-0}
		((used > max)) && max=$used
		[[ -z $min ]] || ((used < min)) && min=$used
	done
	spread=$((max - min))
	log "quota $quota, $kind pages: used $(for d in "${devs[@]}"; do printf '%s=%s ' "${d#/dev/}" "${u[$d]:-0}"; done)spread $spread KiB"
	if ((quota < mib * 1024)); then
		assert_le "$spread" $((quota + unit)) "quota $quota, $kind pages: the devices' shares differ by at most one quota plus $unit KiB"
		assert_gt "$min" 0 "quota $quota, $kind pages: every device took a share"
	else
		assert_ge "$spread" $((mib * 1024 * 3 / 4)) "quota $quota, $kind pages: one device took nearly all (the quota matters)"
	fi
}

for q in 2048 8192 0 65536; do
	step "quota $q KiB, huge pages"
	round "$q"
done
for q in 0 2048 65536; do
	step "quota $q KiB, base pages"
	round "$q" base
done
assert_rc 0 "reclaimctl set swap-quota 2048" -- reclaimctl set swap-quota 2048

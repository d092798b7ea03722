#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sysfs-knobs: the knobs of sysfs (the multi-gen LRU's, zswap's) through the
# change engine on the patched kernel, under a hog over zram swap.
#  - status: each of them supported, with the kernel's values (zswap off at
#    boot, lzo, 20 %, 90 %, MGLRU 0x0007);
#  - set zswap y zswap_compressor lz4 zswap_max_pool_percent 30
#    lru_gen_min_ttl_ms 1000 mglru n: each file as the kernel shows it (Y,
#    lz4, 30, 1000, 0x0000);
#  - a compressor the kernel was not built with (zstd): exit 1, one line
#    naming it, nothing written; bad values: exit 2, nothing written;
#  - a hog larger than the node's memory: zswap stores pages (Zswapped in
#    /proc/meminfo grows), and verify, while it runs, says every knob is in
#    place;
#  - restore: every file back to its value from the boot, verify agrees,
#    and the history has the set's five records and the restore's.
#
# vm-timeout: 240
# vm-lockdep: off
# vm-share: 2
# vm-numa: 160M:0
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
ZSWAP=/sys/module/zswap/parameters
LRU_GEN=/sys/kernel/mm/lru_gen
files=("$ZSWAP/enabled" "$ZSWAP/compressor" "$ZSWAP/max_pool_percent" "$LRU_GEN/min_ttl_ms" "$LRU_GEN/enabled")
for f in "${files[@]}"; do require_file "$f"; done
live() { cat "${files[@]}" | xargs; }
zswapped_kb() { awk '/^Zswapped:/ { print $2 }' /proc/meminfo; }

step "status: the knobs of sysfs, as the kernel has them"
boot=$(live)
log "at boot: $boot"
assert_eq "N lzo 20 0 0x0007" "$boot" "zswap off, lzo, 20 %; no min_ttl; MGLRU on"
reclaimctl status --json >/tmp/status.json || fail "status --json failed"
json_load /tmp/status.json || fail "status --json: not JSON"
assert_eq "supported false lzo 20 90 7" \
	"$(jv .knobs.zswap_enabled.state) $(jv .knobs.zswap_enabled.value) $(jv .knobs.zswap_compressor.value) $(jv .knobs.zswap_max_pool_percent.value) $(jv .knobs.zswap_accept_threshold_percent.value) $(jv .knobs.lru_gen_enabled.value)" \
	"status --json: state and values, each of its type"

step "set zswap y zswap_compressor lz4 zswap_max_pool_percent 30 lru_gen_min_ttl_ms 1000 mglru n"
out=$(reclaimctl set zswap y zswap_compressor lz4 zswap_max_pool_percent 30 lru_gen_min_ttl_ms 1000 mglru n 2>&1) && rc=0 || rc=$?
printf '  | %s\n' "$out"
assert_eq 0 "$rc" "set exits 0"
assert_match "^$ZSWAP/enabled: N -> Y" "$out" "the change of zswap, named by its file"
assert_eq "Y lz4 30 1000 0x0000" "$(live)" "each file as the kernel shows it"
assert_eq $'Y\nlz4\n0x0000' "$(reclaimctl get --values zswap zswap_compressor mglru)" "get --values: as the kernel shows them"

step "refused: a compressor the kernel lacks, bad values"
out=$(reclaimctl set zswap_max_pool_percent 40 zswap_compressor zstd 2>&1) && rc=0 || rc=$?
assert_eq 1 "$rc" "set zswap_max_pool_percent 40 zswap_compressor zstd exits 1"
assert_eq "reclaimctl: cannot set $ZSWAP/compressor=zstd: the kernel has no zstd (not built, or its module is not available); restored $ZSWAP/max_pool_percent=30" "$out" \
	"one line naming the compressor, and the value written before it put back"
assert_rc 2 "set zswap maybe" -- reclaimctl set zswap maybe
assert_rc 2 "set mglru 8" -- reclaimctl set mglru 8
assert_rc 2 "set zswap_max_pool_percent 101" -- reclaimctl set zswap_max_pool_percent 101
assert_eq "Y lz4 30 1000 0x0000" "$(live)" "nothing written"

step "a hog over zram swap: zswap stores pages, verify under load"
swap=$(zram_swap 256M)
log "swap: $swap"
stored0=$(zswapped_kb)
new_hog_out
memhog -m "$(($(mem_avail_mb) + 48))" -p 100 >"$HOG_OUT" 2>&1 &
HOGS+=($!)
wait_for 60 "zswap stores pages (Zswapped above $stored0 kB)" -- \
	awk -v s="$stored0" '/^Zswapped:/ { exit !($2 > s) }' /proc/meminfo ||
	fail "Zswapped stayed at $(zswapped_kb) kB"
log "Zswapped: $(zswapped_kb) kB, swap used $(swap_used "$swap") kB"
out=$(reclaimctl verify 2>&1) && rc=0 || rc=$?
log "$out"
assert_eq 0 "$rc" "verify under the hog exits 0"
assert_match "all 5 knobs in place" "$out" "verify: all five in place"
stop_hogs

step "restore"
assert_rc 0 "restore" -- reclaimctl restore
assert_eq "$boot" "$(live)" "each file back to its value from the boot"
out=$(reclaimctl verify 2>&1) && rc=0 || rc=$?
assert_eq 0 "$rc" "verify after the restore exits 0"
assert_eq "set set set set set restore restore restore restore restore" \
	"$(reclaimctl history --json | jsonq -f - .records | awk -F= '$1 ~ /\.command$/ { print $2 }' | xargs)" \
	"history: the set's five records and the restore's, nothing of the refused ones"
swapoff_all

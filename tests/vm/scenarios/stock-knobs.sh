#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# stock-knobs: the knobs every kernel has, through the change engine on
# Debian's own kernel, unpatched.
#  - set of four of them (swappiness, watermark_scale_factor, page-cluster,
#    vfs_cache_pressure): exit 0, each in /proc/sys/vm as set;
#  - verify: every one in place, exit 0;
#  - set of a stock knob and one of the series' (threads): exit 1, one line
#    naming the knob the kernel lacks, nothing written;
#  - restore: each knob back to its value from the boot, and verify agrees;
#  - history: the set's four records and the restore's, nothing of the
#    refused set;
#  - set --persist of two of them: set, and written to sysctl.d as
#    systemd-sysctl reads them; restore --persist takes both back, live and
#    in the file;
#  - the knobs of sysfs of a 6.1 kernel: zswap's, the multi-gen LRU's and
#    demotion's supported, zswap_shrinker_enabled (6.8) unsupported in
#    status; set zswap y, mglru y, zswap_max_pool_percent 30, demotion true
#    as the kernel shows them; lz4, a module this kernel cannot load here,
#    refused with one line and nothing written; set --persist writes the
#    tmpfiles.d 'w' lines, restore --persist takes them back, live and in
#    the file.
#
# vm-kernel: debian
# vm-timeout: 240
# vm-share: 1
# vm-numa: 128M:0 128M:1
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

[[ ! -e $KNOB_THREADS ]] || die "this is a patched kernel ($(uname -r)): the scenario wants Debian's own"
log "kernel $(uname -r)"
knobs=(swappiness watermark_scale_factor page-cluster vfs_cache_pressure)
values=(100 50 0 200)
live() {
	local k
	for k in "${knobs[@]}"; do cat "/proc/sys/vm/$k"; done | xargs
}
boot=$(live)
log "at boot: ${knobs[*]} = $boot"
[[ $boot != "${values[*]}" ]] || die "the boot values are the ones the scenario sets"

step "set the stock knobs"
args=()
for i in "${!knobs[@]}"; do args+=("${knobs[i]}" "${values[i]}"); done
assert_rc 0 "set ${args[*]}" -- reclaimctl set "${args[@]}"
assert_eq "${values[*]}" "$(live)" "each knob in /proc/sys/vm as set"

step "verify"
out=$(reclaimctl verify 2>&1) && rc=0 || rc=$?
log "$out"
assert_eq 0 "$rc" "verify exits 0"
assert_match "all 4 knobs in place" "$out" "verify: all four in place"

step "a set with a knob of the series"
out=$(reclaimctl set swappiness 10 threads 4 2>&1) && rc=0 || rc=$?
assert_eq 1 "$rc" "set swappiness 10 threads 4 exits 1"
assert_eq "reclaimctl: this kernel has no vm.kswapd_threads (no /proc/sys/vm/kswapd_threads): it needs reclaimctl's kernel patches (KNOBS in reclaimctl(8))" "$out" "one line: the knob the kernel lacks"
assert_eq "${values[*]}" "$(live)" "nothing written: swappiness still 100"

step "restore"
assert_rc 0 "restore" -- reclaimctl restore
assert_eq "$boot" "$(live)" "each knob back to its value from the boot"
out=$(reclaimctl verify 2>&1) && rc=0 || rc=$?
log "$out"
assert_eq 0 "$rc" "verify after the restore exits 0"
assert_match "all 4 knobs in place" "$out" "verify: the restored values in place"
assert_eq "set set set set restore restore restore restore" "$(reclaimctl history --json | jsonq -f - .records | awk -F= '$1 ~ /\.command$/ { print $2 }' | xargs)" "history: the set's four records and the restore's, nothing of the refused set"

step "persisted in sysctl.d, and taken back"
conf=/etc/sysctl.d/90-reclaimctl.conf
assert_rc 0 "set --persist swappiness 100 page-cluster 0" -- reclaimctl set --persist swappiness 100 page-cluster 0
assert_eq "100 0" "$(cat /proc/sys/vm/swappiness /proc/sys/vm/page-cluster | xargs)" "both set"
assert_eq $'vm.swappiness = 100\nvm.page-cluster = 0' "$(grep -v '^#' "$conf")" "both persisted in $conf, as sysctl.d reads them"
assert_rc 0 "restore --persist" -- reclaimctl restore --persist
assert_eq "$boot" "$(live)" "each knob back to its value from the boot"
assert_eq "" "$(grep -sv '^#' "$conf")" "nothing persisted any more"

step "the knobs of sysfs of Debian's 6.1"
ZSWAP=/sys/module/zswap/parameters
sysfs=("$ZSWAP/enabled" "$ZSWAP/max_pool_percent" /sys/kernel/mm/lru_gen/enabled /sys/kernel/mm/numa/demotion_enabled)
sysfs_live() { cat "${sysfs[@]}" | xargs; }
sysfs_boot=$(sysfs_live)
log "at boot: $sysfs_boot"
assert_eq "N 20 0x0000 false" "$sysfs_boot" "zswap off, 20 %, MGLRU off (not CONFIG_LRU_GEN_ENABLED), no demotion"
reclaimctl status --json >/tmp/status.json || fail "status --json failed"
json_load /tmp/status.json || fail "status --json: not JSON"
assert_eq "supported supported supported unsupported" \
	"$(jv .knobs.zswap_enabled.state) $(jv .knobs.lru_gen_enabled.state) $(jv .knobs.numa_demotion_enabled.state) $(jv .knobs.zswap_shrinker_enabled.state)" \
	"status: zswap, MGLRU and demotion supported; zswap's shrinker (6.8) unsupported"
assert_rc 0 "set zswap y mglru y zswap_max_pool_percent 30 demotion true" -- \
	reclaimctl set zswap y mglru y zswap_max_pool_percent 30 demotion true
assert_eq "Y 30 0x0007 true" "$(sysfs_live)" "each file as the kernel shows it"
out=$(reclaimctl set zswap_compressor lz4 2>&1) && rc=0 || rc=$?
assert_eq 1 "$rc" "set zswap_compressor lz4 exits 1"
assert_eq "reclaimctl: cannot set $ZSWAP/compressor=lz4: the kernel has no lz4 (not built, or its module is not available)" "$out" \
	"one line naming the compressor"
assert_eq lzo "$(cat "$ZSWAP/compressor")" "the compressor stays lzo"
assert_rc 0 "restore" -- reclaimctl restore
assert_eq "$sysfs_boot" "$(sysfs_live)" "each back to its value from the boot"

step "persisted in tmpfiles.d, and taken back"
tmpfiles=/etc/tmpfiles.d/90-reclaimctl.conf
assert_rc 0 "set --persist zswap y mglru y" -- reclaimctl set --persist zswap y mglru y
assert_eq $'w /sys/kernel/mm/lru_gen/enabled - - - - 0x0007\nw /sys/module/zswap/parameters/enabled - - - - Y' \
	"$(grep -v '^#' "$tmpfiles")" "both persisted in $tmpfiles as 'w' lines, in the order of the knobs"
out=$(reclaimctl check 2>&1) && rc=0 || rc=$?
log "$out"
assert_match $'\nlru_gen_enabled +0x0007 +wins +/etc/tmpfiles.d/90-reclaimctl.conf:4 \\(reclaimctl\\)\nzswap_enabled +Y +wins +/etc/tmpfiles.d/90-reclaimctl.conf:5 \\(reclaimctl\\)\n' \
	"$out" "check: the two 'w' lines win at boot"
assert_rc 0 "restore --persist" -- reclaimctl restore --persist
assert_eq "$sysfs_boot" "$(sysfs_live)" "each back to its value from the boot"
assert_rc 1 "no $tmpfiles any more" -- test -e "$tmpfiles"

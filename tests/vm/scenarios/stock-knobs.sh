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
#    in the file.
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

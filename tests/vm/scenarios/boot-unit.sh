#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# boot-unit: reclaimctl-autotune.service in a real boot with systemd as PID 1,
# as installed by `cmake --install` and enabled with `systemctl enable`
# (against the image, before the boot). No /etc/reclaimctl/reclaimctl.conf:
# the unit applies the default preset, balanced.
#  - the unit is enabled, active (exited), Result=success, ExecMainStatus=0;
#  - every knob of `reclaimctl preset show balanced --json` has the value it
#    resolves to on this machine (auto: worked out from the topology), in
#    `reclaimctl get --json` and in /proc/sys/vm; the other knobs keep the
#    kernel's values; `preset diff balanced --json` has nothing to set;
#  - every node with memory runs the preset's number of kswapd threads;
#  - balanced leaves the throttle alone: vm.max_direct_reclaimers keeps the
#    kernel's 0, though on this topology (two nodes of 2 CPUs, two
#    memory-only nodes) autotune's rule for it gives 2, not 1: 3/4 of the
#    largest node's 2 CPUs, rounded, worked out here from sysfs, not taken
#    from reclaimctl; kswapd_threads is 1 (one per 16 CPUs);
#  - the journal has one MESSAGE_ID=63fe6bb8... entry per knob the preset
#    changed (none here), one summary (c75a12a3...) with the number changed,
#    and no failure entry (72fb6bc5...);
#  - after journalctl --update-catalog, journalctl -x shows the catalog's
#    explanation of the summary, with its fields (boot-persist checks the
#    knob entry's).
#
# vm-root: debian
# vm-enable: reclaimctl-autotune.service
# vm-timeout: 300
# vm-lockdep: off
# vm-share: 1
# vm-numa: 256M:0-1 256M:2-3 256M 256M
# vm-smp: 4
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
step "no configuration: the default preset"
assert_rc 1 "no /etc/reclaimctl/reclaimctl.conf" -- test -e /etc/reclaimctl/reclaimctl.conf
check_boot_applied balanced
check_catalog "Subject: reclaimctl applied the preset balanced" \
	"Documentation: man:reclaimctl(8) man:reclaimctl.conf(5) man:reclaimctl.preset(5)"

step "the rules' values, worked out here from the topology"
most=0
for n in $(cpu_nodes); do
	node_has_memory "$n" || continue
	c=$(wc -w <<<"$(expand_list "$(readf "/sys/devices/system/node/node$n/cpulist")")")
	((c > most)) && most=$c
done
assert_eq 2 "$most" "the largest node with CPUs and memory has 2 CPUs"
# round(3/4 x C), halves up, within 1..16
want=$(((3 * most + 2) / 4))
((want < 1)) && want=1
assert_eq 2 "$want" "3/4 of 2 CPUs, rounded: 2"
reclaimctl autotune --dry-run --json >/tmp/autotune.json || fail "reclaimctl autotune --dry-run --json failed"
json_load /tmp/autotune.json || fail "autotune --dry-run --json: not JSON"
planned=missing
for ((i = 0; i < ${JSON[.entries:len]-0}; i++)); do
	[[ ${JSON[.entries[$i].knob]-} != max_direct_reclaimers ]] || planned=${JSON[.entries[$i].new]-}
done
assert_eq "$want" "$planned" "autotune's max_direct_reclaimers as the rule gives it"
assert_file_eq "$KNOB_THROTTLE" 0 "vm.max_direct_reclaimers: the kernel's 0 (balanced leaves it alone)"
assert_file_eq "$KNOB_THREADS" 1 "vm.kswapd_threads: 1 (one per 16 CPUs)"
check_dmesg_clean

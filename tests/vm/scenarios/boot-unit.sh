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
#  - the journal has one MESSAGE_ID=63fe6bb8... entry per knob the preset
#    changed (RECLAIM_KNOB, RECLAIM_OLD = the kernel's value, RECLAIM_NEW,
#    RECLAIM_PRESET, logged by the unit), one summary (c75a12a3...) with the
#    number changed, and no failure entry (72fb6bc5...).
#
# vm-root: debian
# vm-enable: reclaimctl-autotune.service
# vm-timeout: 300
# vm-numa: 256M:0 256M:1 256M 256M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
step "no configuration: the default preset"
assert_rc 1 "no /etc/reclaimctl/reclaimctl.conf" -- test -e /etc/reclaimctl/reclaimctl.conf
check_boot_applied balanced
check_dmesg_clean

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# boot-unit-malformed: /etc/reclaimctl/reclaimctl.conf names an
# administrator's preset (/etc/reclaimctl/presets/vmbroken.preset) whose
# line 6 is malformed, after a valid line 5 (boot-unit-malformed.root/):
#  - the unit failed visibly: failed, Result=exit-code, ExecMainStatus=1;
#  - no knob changed, not even the one of the valid line: every knob has the
#    kernel's value (kswapd_threads 1, max_direct_reclaimers 0, ...), one
#    kswapd thread per node;
#  - the journal has the failure entry (MESSAGE_ID=72fb6bc5..., priority 3)
#    whose MESSAGE names the file and the line, and no knob entry and no
#    summary; journalctl -x shows the catalog's explanation of it (after
#    journalctl --update-catalog), with what to do.
#
# vm-root: debian
# vm-enable: reclaimctl-autotune.service
# vm-timeout: 300
# vm-lockdep: off
# vm-share: 1
# vm-numa: 256M:0 256M:1 256M 256M
set -euo pipefail
# shellcheck source=SCRIPTDIR/../guest/lib.sh
source /vm/lib.sh

require_patched_kernel
step "configuration"
run cat -n /etc/reclaimctl/reclaimctl.conf /etc/reclaimctl/presets/vmbroken.preset
check_boot_failed vmbroken /etc/reclaimctl/presets/vmbroken.preset:6:
check_catalog "Subject: reclaimctl could not apply the preset vmbroken" \
	"Run \"reclaimctl check\" to see the problem with its file and line, fix the"
check_dmesg_clean

#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright: reclaimctl maintainers
# GNU General Public License v2.0+ (see COPYING or https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt)
"""Ansible module over reclaimctl's JSON: the change engine's plans and status."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: reclaimctl
short_description: Tune Linux memory reclaim with reclaimctl
version_added: "0.1.0"
description:
  - Sets memory reclaim knobs (kswapd threads per node, the direct reclaim
    throttle, the swap round-robin quota, swappiness and the other knobs of
    C(reclaimctl(8))), applies a preset or the autotune plan, or undoes changes,
    by running the C(reclaimctl) command on the target and reading its C(--json)
    output.
  - The module decides nothing itself. Every change is one request to
    reclaimctl's change engine, which evaluates it (per knob the old value, the
    new one, and whether it is C(set), C(unchanged) or C(skipped), with the
    reason), takes its lock and writes the knobs as one transaction, rolled back
    on any failure. The task is C(changed) when the plan has an entry whose
    action is C(set) (or C(persist) changes the persisted file); a second run
    with the same options reports C(ok).
  - In check mode reclaimctl's C(--dry-run) of the same request runs and
    nothing is written. In diff mode the knobs to set are shown as
    C(vm.NAME = VALUE) lines before and after.
  - Facts from C(reclaimctl status --json) are returned as
    C(reclaimctl_facts), also when no change is asked for.
  - A kernel without the reclaimctl patches lacks C(kswapd_threads),
    C(max_direct_reclaimers) and C(swap_round_robin_quota_kb); a task that
    names one of them, or a preset or autotune plan with one, fails or is
    skipped as I(unsupported) says, before anything is written.
options:
  knobs:
    description:
      - Knobs to set, a mapping of knob name (C(kswapd_threads)), alias
        (C(threads), C(throttle), C(swap-quota)) or sysctl name to value.
      - Values are given as reclaimctl takes them, for example C(4), C(2M)
        for a size, C(auto) for C(threads) and C(throttle), C(true) or
        C(false) for a knob that is a boolean (C(zswap_enabled),
        C(numa_demotion_enabled)), C(lz4) for C(zswap_compressor), C(y),
        C(n) or a bit mask such as C(0x0007) for C(lru_gen_enabled).
      - All knobs of one task are one C(reclaimctl set) call and one
        transaction, in the order given; if one cannot be set (out of range,
        set by another sysctl file without I(force), refused by the kernel),
        none is changed.
    type: dict
  preset:
    description:
      - Apply this preset (C(reclaimctl preset apply NAME)); see
        C(reclaimctl.preset(5)). Knobs that another sysctl file sets are
        skipped unless I(force).
    type: str
  autotune:
    description:
      - Apply the autotune plan for this machine (C(reclaimctl autotune --apply)).
    type: bool
    default: false
  restore:
    description:
      - C(last) undoes the last change not undone yet (C(reclaimctl restore));
        each run undoes one more change, so this is not idempotent.
      - C(boot) puts every knob reclaimctl changed since boot back to its value
        before the first change (C(reclaimctl restore --boot)); run again it
        reports C(ok).
    type: str
    choices: [last, boot]
  persist:
    description:
      - Also write the values to C(/etc/sysctl.d/90-reclaimctl.conf) (and
        those of the knobs of sysfs to C(/etc/tmpfiles.d/90-reclaimctl.conf))
        so that they are set again at boot (C(--persist)); with I(restore),
        remove those files.
    type: bool
    default: false
  force:
    description:
      - Also set knobs that another sysctl file sets (C(--force)). Not for
        I(restore), which never skips a knob.
    type: bool
    default: false
  unsupported:
    description:
      - What to do when the running kernel lacks a knob the task would set
        (a kernel without reclaimctl's kernel patches, see C(reclaimctl(8));
        or, for I(knobs), a knob of sysfs such as C(zswap_enabled) on a
        kernel built without it). A preset or autotune plan skips a knob of
        sysfs the kernel lacks, as C(reclaimctl) does.
      - C(fail) fails the task with reclaimctl's message; C(skip) skips it.
        In both cases nothing is written.
    type: str
    choices: [fail, skip]
    default: fail
  sysroot:
    description:
      - Read and write everything under this root directory instead of C(/)
        (C(--sysroot)), for example a copy of another machine's dump.
    type: path
  binary:
    description:
      - The reclaimctl program to run. By default C(reclaimctl) from C(PATH),
        C(/usr/sbin) or C(/sbin).
    type: path
notes:
  - At most one of I(knobs), I(preset), I(autotune) and I(restore) may be
    given; with none, the task only gathers facts.
  - Writing knobs needs root on the target (C(become)); check mode and facts
    do not.
  - The changes are recorded in reclaimctl's history, so C(reclaimctl history)
    on the target shows them and I(restore) undoes them.
  - C(reclaimctl(8)) on the target describes the commands and the JSON
    this module reads (JSON OUTPUT, plan --json, status --json).
attributes:
  check_mode:
    description: Runs reclaimctl's C(--dry-run) of the same request; nothing is written.
    support: full
  diff_mode:
    description: The knobs to set, as C(vm.NAME = VALUE) lines before and after (a knob of
      sysfs by its path), and with I(persist) each file it changes before and after,
      C(/etc/sysctl.d/90-reclaimctl.conf) and C(/etc/tmpfiles.d/90-reclaimctl.conf), as
      reclaimctl's dry run previews them (also in check mode).
    support: full
requirements:
  - reclaimctl on the target
author:
  # No GitHub handle to name: the form validate-modules accepts without one.
  - reclaimctl maintainers (!UNKNOWN)
"""

EXAMPLES = r"""
- name: Four kswapd threads per node, at most 5 direct reclaimers, 2 MiB swap quota
  reclaimctl.reclaimctl.reclaimctl:
    knobs:
      threads: 4
      max_direct_reclaimers: 5
      swap-quota: 2M
    persist: true
  become: true

- name: The throughput preset, also where an sysctl.d file sets a knob
  reclaimctl.reclaimctl.reclaimctl:
    preset: throughput
    force: true
  become: true

- name: Autotune from the topology, skipped on kernels without the patches
  reclaimctl.reclaimctl.reclaimctl:
    autotune: true
    unsupported: skip
  become: true

- name: Undo every change since boot, and the persisted file
  reclaimctl.reclaimctl.reclaimctl:
    restore: boot
    persist: true
  become: true

- name: Facts only
  reclaimctl.reclaimctl.reclaimctl:
  register: reclaim

- name: Show the kswapd threads of node 0
  ansible.builtin.debug:
    msg: "{{ reclaimctl_facts.nodes[0].kswapd | map(attribute='name') | list }}"
"""

RETURN = r"""
plan:
  description:
    - The change engine's plan as C(reclaimctl --json) prints it (see
      "plan --json" in C(reclaimctl(8))). It has C(command), C(dry_run),
      C(changed), C(persist), C(verified_nodes) and C(entries), each with
      C(knob), C(sysctl), C(old) (null when the kernel lacks the knob), C(new),
      C(action) (C(set), C(unchanged) or C(skipped)), C(reason) and C(source).
  returned: when a change was asked for
  type: dict
  sample:
    schema: 2
    command: set
    dry_run: false
    changed: true
    entries:
      - knob: max_direct_reclaimers
        sysctl: vm.max_direct_reclaimers
        old: 3
        new: 5
        action: set
        reason: the value given
        source: value
    persist: false
    verified_nodes: null
cmd:
  description: The reclaimctl command line that made the change (or its dry run).
  returned: when a change was asked for
  type: list
  elements: str
  sample: [reclaimctl, --sysroot, /srv/dump, set, --json, --, throttle, "5"]
unsupported:
  description: The sysctl names of the knobs the kernel lacks that the task would set.
  returned: when the kernel lacks a knob of the task
  type: list
  elements: str
  sample: [vm.kswapd_threads]
stderr:
  description: What reclaimctl printed on standard error.
  returned: when a change was asked for
  type: str
ansible_facts:
  description: Facts about memory reclaim on the target.
  returned: always, unless reclaimctl status fails
  type: complex
  contains:
    reclaimctl_facts:
      description:
        - The document of C(reclaimctl status --json) (see "status --json" in
          C(reclaimctl(8))), read after the change. Among its keys C(kernel)
          (C(release), C(features) with one bool per patched knob), C(knobs)
          (per knob its C(value), C(min), C(max), C(default), C(path), C(unit);
          null when the kernel lacks it), C(nodes) (each with its C(cpus),
          memory and C(kswapd) threads), C(throttle) and C(swap).
        - Also C(threads), every kswapd thread of C(nodes) in one list (as
          C(reclaimctl threads --json) prints them).
      type: dict
      returned: always
"""

import json

from ansible.module_utils.basic import AnsibleModule

# What reclaimctl set prints when the running kernel lacks a knob it names
# (reclaimctl(8), "set"; the message the design documents for unpatched kernels).
NO_KNOB = "reclaimctl: this kernel has no "
# The knobs only a kernel with reclaimctl's patches has: a preset or autotune
# plan with one of them that the kernel lacks is unsupported. A stock knob a
# kernel lacks (one built without zswap) is skipped in the plan, as
# reclaimctl skips it.
PATCHED_KNOBS = ("kswapd_threads", "max_direct_reclaimers", "swap_round_robin_quota_kb")


def first_line(text):
    lines = [line for line in (text or "").splitlines() if line.strip()]
    return lines[0] if lines else ""


class Reclaimctl(object):
    def __init__(self, module):
        self.module = module
        p = module.params
        if p["binary"]:
            self.binary = p["binary"]
        else:
            self.binary = module.get_bin_path("reclaimctl", required=True,
                                              opt_dirs=["/usr/sbin", "/sbin", "/usr/local/sbin"])
        self.prefix = [self.binary]
        if p["sysroot"]:
            self.prefix += ["--sysroot", p["sysroot"]]

    def run(self, args):
        cmd = self.prefix + args
        rc, out, err = self.module.run_command(
            cmd, environ_update={"LC_ALL": "C", "NO_COLOR": "1"})
        return cmd, rc, out, err

    def json_of(self, cmd, out, err):
        try:
            doc = json.loads(out)
        except ValueError:
            self.module.fail_json(msg="%s printed no JSON document" % " ".join(cmd),
                                  cmd=cmd, stdout=out, stderr=err)
        # 2 changed the times only, which the module does not read
        if not isinstance(doc, dict) or doc.get("schema") not in (1, 2):
            self.module.fail_json(msg="%s printed JSON of an unknown schema" % " ".join(cmd),
                                  cmd=cmd, stdout=out, stderr=err)
        return doc

    def facts(self):
        cmd, rc, out, err = self.run(["status", "--json"])
        if rc != 0:
            self.module.fail_json(msg=first_line(err) or "%s failed with exit status %d"
                                  % (" ".join(cmd), rc), cmd=cmd, rc=rc, stderr=err)
        doc = self.json_of(cmd, out, err)
        doc["threads"] = [t for node in doc.get("nodes") or [] for t in node.get("kswapd") or []]
        return doc

    def request(self, dry_run):
        """The reclaimctl arguments of the change asked for (its preview with dry_run); None
        for none."""
        p = self.module.params
        flags = ["--dry-run"] if dry_run else []
        if p["persist"]:
            flags.append("--persist")
        if p["force"]:
            flags.append("--force")
        if p["knobs"] is not None:
            if not p["knobs"]:
                self.module.fail_json(msg="knobs: give at least one knob")
            pairs = []
            for name, value in p["knobs"].items():
                if value is None or isinstance(value, (dict, list)):
                    self.module.fail_json(msg="knobs: the value of %s must be a number, a "
                                          "boolean or a string such as 2M or auto, not %r"
                                          % (name, value))
                # YAML's true and false: reclaimctl refuses them for a knob that is a number
                if isinstance(value, bool):
                    value = "true" if value else "false"
                pairs += [str(name), str(value)]
            return ["set", "--json"] + flags + ["--"] + pairs
        if p["preset"] is not None:
            return ["preset", "apply", "--json"] + flags + ["--", p["preset"]]
        if p["autotune"]:
            return ["autotune", "--apply", "--json"] + flags
        if p["restore"] is not None:
            return ["restore", "--json"] + (["--boot"] if p["restore"] == "boot" else []) + flags
        return None


def value_text(value):
    """A knob's value of the JSON as text: JSON's true and false for a boolean."""
    return json.dumps(value) if isinstance(value, bool) else str(value)


def diff_of(plan, persisted=None):
    """The knobs to set, then with --persist each file it changes (reclaimctl's preview of
    them: the dry run's persist_files, the texts the apply writes)."""
    before, after = [], []
    for e in plan.get("entries", []):
        if e.get("action") == "set":
            name = e["sysctl"] or e["path"]
            before.append("%s = %s\n" % (name, value_text(e["old"])))
            after.append("%s = %s\n" % (name, value_text(e["new"])))
    knobs = {"before": "".join(before), "after": "".join(after),
             "before_header": "knobs before", "after_header": "knobs after"}
    files = [{"before": f["before"] or "", "after": f["after"] or "",
              "before_header": f["path"], "after_header": f["path"]}
             for f in persisted or []]
    return [knobs] + files if files else knobs


def main():
    module = AnsibleModule(
        argument_spec=dict(
            knobs=dict(type="dict"),
            preset=dict(type="str"),
            autotune=dict(type="bool", default=False),
            restore=dict(type="str", choices=["last", "boot"]),
            persist=dict(type="bool", default=False),
            force=dict(type="bool", default=False),
            unsupported=dict(type="str", choices=["fail", "skip"], default="fail"),
            sysroot=dict(type="path"),
            binary=dict(type="path"),
        ),
        supports_check_mode=True,
    )
    p = module.params
    # Not mutually_exclusive=: "autotune: false" next to knobs is no second action.
    actions = [p["knobs"] is not None, p["preset"] is not None, p["autotune"],
               p["restore"] is not None]
    if sum(actions) > 1:
        module.fail_json(msg="parameters are mutually exclusive: knobs|preset|autotune|restore")
    if p["restore"] is not None and p["force"]:
        module.fail_json(msg="force does not apply to restore, which puts back every knob")

    tool = Reclaimctl(module)
    result = dict(changed=False)
    if tool.request(False) is None:
        module.exit_json(ansible_facts=dict(reclaimctl_facts=tool.facts()), **result)

    # The preview first: the same evaluation as the apply, nothing written.
    # It tells whether there is anything to do, and whether the kernel lacks
    # a knob of the request, before anything is written.
    cmd, rc, out, err = tool.run(tool.request(True))
    result.update(cmd=cmd, stderr=err)
    if rc != 0:
        msg = first_line(err) or "%s failed with exit status %d" % (" ".join(cmd), rc)
        if msg.startswith(NO_KNOB):
            result["unsupported"] = [msg[len(NO_KNOB):].split(" ", 1)[0]]
            if p["unsupported"] == "skip":
                module.exit_json(skipped=True, msg=msg,
                                 ansible_facts=dict(reclaimctl_facts=tool.facts()), **result)
        module.fail_json(msg=msg, rc=rc, **result)
    plan = tool.json_of(cmd, out, err)
    # what --persist does to its files, from the preview: the apply writes these texts
    persisted = plan.get("persist_files") if p["persist"] else None
    missing = [e for e in plan.get("entries", [])
               if e.get("old") is None and e.get("knob") in PATCHED_KNOBS]
    if missing:
        result["unsupported"] = [e["sysctl"] for e in missing]
        msg = "; ".join(e["reason"] for e in missing)
        if p["unsupported"] == "skip":
            module.exit_json(skipped=True, msg=msg, plan=plan,
                             ansible_facts=dict(reclaimctl_facts=tool.facts()), **result)
        module.fail_json(msg=msg, plan=plan, **result)

    if plan.get("changed") and not module.check_mode:
        cmd, rc, out, err = tool.run(tool.request(False))
        result.update(cmd=cmd, stderr=err)
        if rc != 0:
            module.fail_json(msg=first_line(err) or "%s failed with exit status %d"
                             % (" ".join(cmd), rc), rc=rc, **result)
        plan = tool.json_of(cmd, out, err)

    result["changed"] = bool(plan.get("changed"))
    result["plan"] = plan
    facts = tool.facts()
    if module._diff:
        result["diff"] = diff_of(plan, persisted)
    module.exit_json(ansible_facts=dict(reclaimctl_facts=facts), **result)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The Ansible collection of contrib/ansible, run by the engine itself.

ansible-playbook -c local against localhost runs tests/ansible/reclaimctl.yml
(one task of reclaimctl.reclaimctl.reclaimctl, its options as extra
variables) with the module's sysroot on a copy of a fixture root, and each
check looks at what the run left behind: every file of the copy (hashed
before and after), ansible-playbook's exit status, the recap and the task's
result (the tree callback writes it to a file), down to the exact message.

- doc: ansible-doc shows the module's DOCUMENTATION and EXAMPLES;
- check: check mode reports changed, shows the diff, and changes no file;
- apply: a real run writes the knobs as one change in the history, a
  second run reports ok and changes nothing;
- bad value: fails with reclaimctl's one-line message, nothing written,
  also when only the second of two knobs is wrong (one transaction);
- rollback: a kswapd thread count the kernel does not take puts the knobs
  written before it back;
- conflict: a knob another sysctl file sets fails, force sets it;
- persist, preset, autotune (check mode), restore boot;
- the knobs of sysfs: YAML's booleans, a choice, the diff by path, persisted
  as tmpfiles.d 'w' lines, check mode's diff of that file the one written;
- unpatched: a kernel without the patches fails or is skipped, as
  unsupported says, for knobs and for a preset; other knobs still work;
- facts: reclaimctl_facts from status --json, with the threads;
- usage: two actions at once are refused by the module;
- readme: the playbook of README.md and of contrib/ansible/README.md, run on
  localhost with the module's sysroot and binary added.

All that Ansible writes (its temporary files, HOME, the collection path with
the collection linked in as ansible_collections/reclaimctl/reclaimctl) is
under WORK_DIR, which is made afresh. Exits 77 without ansible-playbook.

usage: check-ansible.py RECLAIMCTL FIXTURES_DIR PRESET_DIR COLLECTION_DIR WORK_DIR
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

PLAYBOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reclaimctl.yml")
PATCHED = "patched-2node-3threads"
UNPATCHED = "unpatched-6.1"
MODULE = "reclaimctl.reclaimctl.reclaimctl"


class Failed(Exception):
    pass


class Run:
    """One ansible-playbook run: exit status, output, recap counts, the task's result."""

    def __init__(self, proc, result):
        self.rc, self.out, self.result = proc.returncode, proc.stdout + proc.stderr, result
        m = re.search(r"localhost\s+: ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+"
                      r"failed=(\d+)\s+skipped=(\d+)", self.out)
        self.recap = dict(zip(["ok", "changed", "unreachable", "failed", "skipped"],
                              map(int, m.groups()))) if m else None

    def __str__(self):
        return f"exit {self.rc}, recap {self.recap}, output:\n{self.out[-3000:]}"


class Checker:
    def __init__(self, reclaimctl, fixtures, presets, collection, work):
        self.reclaimctl, self.fixtures = reclaimctl, fixtures
        self.work = work
        shutil.rmtree(work, ignore_errors=True)
        colls = os.path.join(work, "collections", "ansible_collections", "reclaimctl")
        os.makedirs(colls)
        os.symlink(collection, os.path.join(colls, "reclaimctl"))
        for d in ("home", "tmp", "tree"):
            os.makedirs(os.path.join(work, d))
        cfg = os.path.join(work, "ansible.cfg")
        with open(cfg, "w") as f:
            f.write("[defaults]\n")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "HOME": os.path.join(work, "home"),
            "ANSIBLE_CONFIG": cfg,
            "ANSIBLE_COLLECTIONS_PATH": os.path.join(work, "collections"),
            "ANSIBLE_COLLECTIONS_SCAN_SYS_PATH": "false",
            "ANSIBLE_LOCAL_TEMP": os.path.join(work, "tmp"),
            "ANSIBLE_REMOTE_TEMP": os.path.join(work, "tmp"),
            "ANSIBLE_CALLBACKS_ENABLED": "ansible.builtin.tree",
            "ANSIBLE_CALLBACK_TREE_DIR": os.path.join(work, "tree"),
            "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_RETRY_FILES_ENABLED": "false",
            "ANSIBLE_PYTHON_INTERPRETER": sys.executable,
            "ANSIBLE_LOCALHOST_WARNING": "false",
            "ANSIBLE_INVENTORY_UNPARSED_WARNING": "false",
            "RECLAIMCTL_PRESET_DIR": presets,
        }
        self.serial = 0
        self.checks = 0

    # -- helpers

    def expect(self, cond, msg):
        self.checks += 1
        if not cond:
            raise Failed(msg)

    def root(self, name=PATCHED, setup=None):
        self.serial += 1
        dst = os.path.join(self.work, f"root{self.serial}")
        shutil.copytree(os.path.join(self.fixtures, name), dst, symlinks=True)
        if setup:
            for path, text in setup.items():
                os.makedirs(os.path.dirname(os.path.join(dst, path)), exist_ok=True)
                with open(os.path.join(dst, path), "w") as f:
                    f.write(text)
        return dst

    def tree(self, root):
        """Every file and directory under root: relative path -> sha256 (None for a directory)."""
        out = {}
        for d, dirs, files in os.walk(root):
            for name in dirs:
                out[os.path.relpath(os.path.join(d, name), root)] = None
            for name in files:
                p = os.path.join(d, name)
                with open(p, "rb") as f:
                    out[os.path.relpath(p, root)] = hashlib.sha256(f.read()).hexdigest()
        return out

    def changed_files(self, before, after):
        return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))

    def knob(self, root, name):
        with open(os.path.join(root, "proc/sys/vm", name)) as f:
            return int(f.read())

    def history(self, root):
        try:
            with open(os.path.join(root, "run/reclaimctl/history")) as f:
                return [line for line in f.read().splitlines() if not line.startswith("#")]
        except FileNotFoundError:
            return []

    def play(self, root, check=False, diff=False, playbook=PLAYBOOK, **options):
        """Runs the playbook with options as extra variables; returns the Run."""
        tree = os.path.join(self.work, "tree", "localhost")
        if os.path.exists(tree):
            os.unlink(tree)
        extra = dict(options, root=root, reclaimctl=self.reclaimctl)
        # -v: the default callback prints a skipped task's result, which the
        # tree callback does not write.
        cmd = ["ansible-playbook", "-v", "-i", "localhost,", "-c", "local", playbook,
               "-e", json.dumps(extra)]
        cmd += ["--check"] if check else []
        cmd += ["--diff"] if diff else []
        p = subprocess.run(cmd, capture_output=True, text=True, env=self.env, cwd=self.work,
                           timeout=300)
        result = None
        if os.path.exists(tree):
            with open(tree) as f:
                result = json.load(f)
        else:
            m = re.search(r"^skipping: \[localhost\] => (\{.*\})$", p.stdout, re.M)
            result = json.loads(m.group(1)) if m else None
        run = Run(p, result)
        self.expect(run.recap is not None and run.result is not None,
                    f"no recap or no task result: {run}")
        return run

    def expect_ok(self, run, changed):
        self.expect(run.rc == 0 and run.recap["failed"] == 0 and run.recap["skipped"] == 0
                    and run.recap["changed"] == int(changed)
                    and run.result.get("changed") is changed,
                    f"expected {'changed' if changed else 'ok'}: {run}")

    def expect_failed(self, run, msg):
        self.expect(run.rc == 2 and run.recap["failed"] == 1 and run.recap["changed"] == 0,
                    f"expected a failed task: {run}")
        self.expect(run.result.get("msg") == msg,
                    f"message {run.result.get('msg')!r}, expected {msg!r}")
        self.expect("Traceback" not in run.out and "MODULE FAILURE" not in run.out,
                    f"a traceback: {run}")

    def expect_skipped(self, run, msg):
        self.expect(run.rc == 0 and run.recap["skipped"] == 1 and run.recap["failed"] == 0
                    and run.recap["changed"] == 0,
                    f"expected a skipped task: {run}")
        self.expect(run.result.get("msg") == msg,
                    f"message {run.result.get('msg')!r}, expected {msg!r}")

    # -- the checks

    def test_doc(self):
        p = subprocess.run(["ansible-doc", MODULE], capture_output=True, text=True,
                           env=self.env, cwd=self.work, timeout=120)
        self.expect(p.returncode == 0, f"ansible-doc: exit {p.returncode}: {p.stderr[-2000:]}")
        for word in ("knobs", "preset", "autotune", "restore", "persist", "force", "sysroot",
                     "binary", "unsupported", "EXAMPLES", "reclaimctl_facts", "swap-quota: 2M"):
            self.expect(word in p.stdout, f"ansible-doc does not show {word!r}")
        # ansible-core 2.14 renders C() and I() only: O(), V(), E() would show as they are
        raw = re.findall(r"\b[OVEPRMU]\([^)]*\)", p.stdout)
        self.expect(not raw, f"ansible-doc shows markup it does not render: {raw}")
        p = subprocess.run(["ansible-doc", "--json", MODULE], capture_output=True, text=True,
                           env=self.env, cwd=self.work, timeout=120)
        doc = json.loads(p.stdout)[MODULE]["doc"]
        self.expect(doc["options"]["restore"]["choices"] == ["last", "boot"]
                    and doc["options"]["unsupported"]["default"] == "fail",
                    f"ansible-doc --json options: {doc['options']}")

    def test_check_mode(self):
        root = self.root()
        before = self.tree(root)
        run = self.play(root, check=True, diff=True,
                        knobs={"max_direct_reclaimers": 5, "swap-quota": "1M", "swappiness": 60})
        self.expect_ok(run, True)
        self.expect(self.changed_files(before, self.tree(root)) == [],
                    f"check mode changed {self.changed_files(before, self.tree(root))}")
        plan = run.result["plan"]
        self.expect(plan["dry_run"] is True and plan["command"] == "set"
                    and [(e["knob"], e["old"], e["new"], e["action"]) for e in plan["entries"]]
                    == [("max_direct_reclaimers", 3, 5, "set"),
                        ("swap_round_robin_quota_kb", 2048, 1024, "set"),
                        ("swappiness", 60, 60, "unchanged")],
                    f"check mode plan: {plan}")
        self.expect(run.result["cmd"][1:] == ["--sysroot", root, "set", "--json", "--dry-run",
                                              "--", "max_direct_reclaimers", "5", "swap-quota",
                                              "1M", "swappiness", "60"],
                    f"check mode command: {run.result['cmd']}")
        diff = ("--- before: knobs before\n+++ after: knobs after\n@@ -1,2 +1,2 @@\n"
                "-vm.max_direct_reclaimers = 3\n-vm.swap_round_robin_quota_kb = 2048\n"
                "+vm.max_direct_reclaimers = 5\n+vm.swap_round_robin_quota_kb = 1024\n")
        self.expect(diff in run.out, f"no diff of the two knobs to set: {run}")

    def test_apply_then_idempotent(self):
        root = self.root()
        knobs = {"max_direct_reclaimers": 5, "swap-quota": "1M", "swappiness": 10}
        before = self.tree(root)
        run = self.play(root, diff=True, knobs=knobs)
        self.expect_ok(run, True)
        self.expect((self.knob(root, "max_direct_reclaimers"),
                     self.knob(root, "swap_round_robin_quota_kb"),
                     self.knob(root, "swappiness")) == (5, 1024, 10),
                    "the knobs were not written")
        changed = self.changed_files(before, self.tree(root))
        self.expect(changed == ["proc/sys/vm/max_direct_reclaimers",
                                "proc/sys/vm/swap_round_robin_quota_kb", "proc/sys/vm/swappiness",
                                "run/reclaimctl/history", "run/reclaimctl/lock"],
                    f"changed files: {changed}")
        hist = self.history(root)
        self.expect(len(hist) == 3 and all(h.startswith("change=1 ") for h in hist),
                    f"not one change of three knobs in the history: {hist}")
        self.expect(run.result["plan"]["dry_run"] is False, f"plan: {run.result['plan']}")
        self.expect("+vm.swappiness = 10\n" in run.out, f"no diff: {run}")
        self.expect(run.result["ansible_facts"]["reclaimctl_facts"]["knobs"]["swappiness"]["value"]
                    == 10, "the facts are not read after the change")
        # Again: ok, nothing written, nothing recorded.
        before = self.tree(root)
        run = self.play(root, diff=True, knobs=knobs)
        self.expect_ok(run, False)
        self.expect(self.changed_files(before, self.tree(root)) == [],
                    f"the second run changed {self.changed_files(before, self.tree(root))}")
        self.expect(all(e["action"] == "unchanged" for e in run.result["plan"]["entries"]),
                    f"second run plan: {run.result['plan']}")
        self.expect("--- before" not in run.out, f"a diff without a change: {run}")

    def test_bad_value(self):
        root = self.root()
        before = self.tree(root)
        run = self.play(root, knobs={"threads": 17})
        self.expect_failed(run, "reclaimctl: invalid value '17' for kswapd_threads: expected an "
                                "integer from 1 to 16")
        self.expect(run.result["rc"] == 2, f"reclaimctl's exit status: {run.result}")
        # The second of two knobs is wrong: the first is not written either.
        run = self.play(root, knobs={"throttle": 7, "swap-quota": "1.5M"})
        self.expect_failed(run, "reclaimctl: invalid value '1.5M' for swap_round_robin_quota_kb: "
                                "expected a size in KiB from 0 to 1048576 (suffixes K, M, G)")
        self.expect(self.knob(root, "max_direct_reclaimers") == 3, "the first knob was written")
        run = self.play(root, check=True, knobs={"throttle": 7, "nonsense": 1})
        self.expect_failed(run, "reclaimctl: unknown knob 'nonsense' (known: threads, throttle, "
                                "swap-quota, swappiness, watermark_scale_factor, "
                                "watermark_boost_factor, min_free_kbytes, zone_reclaim_mode, "
                                "page-cluster, vfs_cache_pressure, mglru, lru_gen_min_ttl_ms, "
                                "zswap, zswap_compressor, zswap_max_pool_percent, "
                                "zswap_accept_threshold_percent, zswap_shrinker_enabled, "
                                "demotion)")
        # YAML's true is a boolean's value; for a number reclaimctl refuses it
        run = self.play(root, knobs={"throttle": True})
        self.expect_failed(run, "reclaimctl: invalid value 'true' for max_direct_reclaimers: "
                                "expected an integer from 0 to 1024")
        run = self.play(root, knobs={"throttle": [1]})
        self.expect_failed(run, "knobs: the value of throttle must be a number, a boolean or a "
                                "string such as 2M or auto, not [1]")
        self.expect(self.changed_files(before, self.tree(root)) == [],
                    f"a failed task changed {self.changed_files(before, self.tree(root))}")

    def test_rollback(self):
        root = self.root()
        before = self.tree(root)
        run = self.play(root, knobs={"swappiness": 20, "throttle": 4, "threads": 4})
        self.expect_failed(run, "reclaimctl: vm.kswapd_threads=4 did not take effect (node 0 "
                                "runs 3, node 1 runs 3, expected 4); restored "
                                "vm.kswapd_threads=3, vm.max_direct_reclaimers=3, "
                                "vm.swappiness=60")
        changed = self.changed_files(before, self.tree(root))
        self.expect(changed == ["run/reclaimctl/lock"],
                    f"a rolled back change left {changed}")

    def test_conflict_force(self):
        setup = {"etc/sysctl.d/10-other.conf": "vm.swappiness = 30\n"}
        root = self.root(setup=setup)
        run = self.play(root, knobs={"throttle": 4, "swappiness": 10})
        self.expect_failed(run, "reclaimctl: vm.swappiness left alone: "
                                "/etc/sysctl.d/10-other.conf:1 sets vm.swappiness = 30; "
                                "use --force to override it")
        self.expect(self.knob(root, "max_direct_reclaimers") == 3, "throttle written")
        run = self.play(root, knobs={"throttle": 4, "swappiness": 10}, force=True)
        self.expect_ok(run, True)
        self.expect(self.knob(root, "swappiness") == 10 and
                    self.knob(root, "max_direct_reclaimers") == 4, "force did not set both")

    def test_persist(self):
        root = self.root()
        path = os.path.join(root, "etc/sysctl.d/90-reclaimctl.conf")
        # diff mode shows the file --persist writes: in check mode what it would be
        before = self.tree(root)
        check = self.play(root, check=True, diff=True, knobs={"throttle": 6}, persist=True)
        self.expect_ok(check, True)
        self.expect(self.changed_files(before, self.tree(root)) == [], "check mode wrote")
        run = self.play(root, diff=True, knobs={"throttle": 6}, persist=True)
        self.expect_ok(run, True)
        with open(path) as f:
            text = f.read()
        self.expect("vm.max_direct_reclaimers = 6\n" in text, f"persisted file: {text!r}")
        for r, what in ((check, "check mode"), (run, "the run")):
            self.expect("+++ after: /etc/sysctl.d/90-reclaimctl.conf" in r.out and
                        "+vm.max_direct_reclaimers = 6\n" in r.out,
                        f"{what}: no diff of the persisted file: {r}")
        # the preview is the file the run wrote
        shown = [ln[1:] for ln in check.out.split("+++ after: /etc/sysctl.d/90-reclaimctl.conf")[1]
                 .splitlines() if ln.startswith("+") and not ln.startswith("+++")]
        self.expect("".join(x + "\n" for x in shown) == text,
                    f"check mode's preview {shown!r} is not the file written {text!r}")
        before = self.tree(root)
        run = self.play(root, knobs={"throttle": 6}, persist=True)
        self.expect_ok(run, False)
        self.expect(self.changed_files(before, self.tree(root)) == [], "second persist wrote")

    def test_sysfs_knobs(self):
        """The knobs of sysfs: YAML's booleans, a choice, the diff by path, persisted in tmpfiles.d."""
        zswap = "sys/module/zswap/parameters/"
        root = self.root(name=UNPATCHED, setup={zswap + "enabled": "N\n",
                                                zswap + "compressor": "lzo\n",
                                                "sys/kernel/mm/numa/demotion_enabled": "false\n"})
        knobs = {"zswap": True, "zswap_compressor": "lz4", "demotion": False}
        before = self.tree(root)
        check = self.play(root, check=True, diff=True, knobs=knobs)
        self.expect_ok(check, True)
        self.expect(self.changed_files(before, self.tree(root)) == [], "check mode wrote")
        self.expect("-/sys/module/zswap/parameters/enabled = false\n" in check.out and
                    "+/sys/module/zswap/parameters/enabled = true\n" in check.out and
                    "+/sys/module/zswap/parameters/compressor = lz4\n" in check.out,
                    f"the diff names the files of sysfs: {check}")
        # check mode's diff of the tmpfiles.d file --persist writes: reclaimctl's own preview
        tmpfiles = "/etc/tmpfiles.d/90-reclaimctl.conf"
        preview = self.play(root, check=True, diff=True, knobs=knobs, persist=True)
        self.expect_ok(preview, True)
        self.expect(self.changed_files(before, self.tree(root)) == [], "check mode wrote")
        self.expect("+++ after: " + tmpfiles in preview.out and
                    "+w /sys/module/zswap/parameters/enabled - - - - Y\n" in preview.out,
                    f"check mode: no diff of {tmpfiles}: {preview}")
        self.expect("+++ after: /etc/sysctl.d/90-reclaimctl.conf" not in preview.out,
                    f"check mode: a diff of the sysctl.d file, which no knob here goes to: {preview}")
        run = self.play(root, knobs=knobs, persist=True)
        self.expect_ok(run, True)
        with open(os.path.join(root, tmpfiles.lstrip("/"))) as f:
            written = f.read()
        shown = [ln[1:] for ln in preview.out.split("+++ after: " + tmpfiles)[1].splitlines()
                 if ln.startswith("+") and not ln.startswith("+++")]
        self.expect("".join(x + "\n" for x in shown) == written,
                    f"check mode's preview {shown!r} is not the file written {written!r}")
        for name, text in (("enabled", "Y\n"), ("compressor", "lz4\n")):
            with open(os.path.join(root, zswap + name)) as f:
                got = f.read()
            self.expect(got == text, f"{zswap}{name}: {got!r}, expected {text!r}")
        with open(os.path.join(root, "etc/tmpfiles.d/90-reclaimctl.conf")) as f:
            lines = [ln for ln in f.read().splitlines() if not ln.startswith("#")]
        self.expect(lines == ["w /sys/module/zswap/parameters/enabled - - - - Y",
                              "w /sys/module/zswap/parameters/compressor - - - - lz4",
                              "w /sys/kernel/mm/numa/demotion_enabled - - - - false"],
                    f"the persisted tmpfiles.d lines: {lines}")
        entries = {e["knob"]: (e["old"], e["new"], e["action"]) for e in run.result["plan"]["entries"]}
        self.expect(entries == {"zswap_enabled": (False, True, "set"),
                                "zswap_compressor": ("lzo", "lz4", "set"),
                                "numa_demotion_enabled": (False, False, "unchanged")},
                    f"the plan's entries: {entries}")
        before = self.tree(root)
        again = self.play(root, knobs=knobs, persist=True)
        self.expect_ok(again, False)
        self.expect(self.changed_files(before, self.tree(root)) == [], "the second run wrote")

    def test_preset(self):
        setup = {"etc/reclaimctl/presets/web.preset":
                 "# Web servers\nthrottle = 4\nswappiness = 20\nswap-quota = 4M\n"}
        root = self.root(setup=setup)
        before = self.tree(root)
        run = self.play(root, check=True, preset="web")
        self.expect_ok(run, True)
        self.expect(self.changed_files(before, self.tree(root)) == [], "check mode wrote")
        run = self.play(root, preset="web")
        self.expect_ok(run, True)
        self.expect((self.knob(root, "max_direct_reclaimers"), self.knob(root, "swappiness"),
                     self.knob(root, "swap_round_robin_quota_kb")) == (4, 20, 4096),
                    "the preset was not applied")
        self.expect(run.result["plan"]["preset"] == "web", f"plan: {run.result['plan']}")
        run = self.play(root, preset="web")
        self.expect_ok(run, False)
        run = self.play(root, preset="nosuch")
        self.expect_failed(run, f"reclaimctl: no preset nosuch (looked in "
                                f"/etc/reclaimctl/presets, {self.env['RECLAIMCTL_PRESET_DIR']})")

    def test_autotune_check(self):
        root = self.root()
        before = self.tree(root)
        run = self.play(root, check=True, autotune=True)
        self.expect_ok(run, True)
        self.expect(self.changed_files(before, self.tree(root)) == [], "check mode wrote")
        entries = run.result["plan"]["entries"]
        self.expect(run.result["plan"]["command"] == "autotune" and
                    [(e["knob"], e["action"]) for e in entries]
                    == [("kswapd_threads", "set"), ("max_direct_reclaimers", "unchanged"),
                        ("zswap_enabled", "skipped"), ("numa_demotion_enabled", "skipped")],
                    f"autotune plan: {run.result['plan']}")

    def test_restore_boot(self):
        root = self.root()
        self.expect_ok(self.play(root, knobs={"throttle": 8}), True)
        self.expect_ok(self.play(root, knobs={"swap-quota": "4M", "swappiness": 5}), True)
        run = self.play(root, check=True, restore="boot")
        self.expect_ok(run, True)
        self.expect(self.knob(root, "max_direct_reclaimers") == 8, "check mode restored")
        run = self.play(root, restore="boot")
        self.expect_ok(run, True)
        self.expect((self.knob(root, "max_direct_reclaimers"),
                     self.knob(root, "swap_round_robin_quota_kb"),
                     self.knob(root, "swappiness")) == (3, 2048, 60), "not restored")
        self.expect_ok(self.play(root, restore="boot"), False)
        run = self.play(root, restore="last", force=True)
        self.expect_failed(run, "force does not apply to restore, which puts back every knob")

    def test_unpatched_knobs(self):
        root = self.root(UNPATCHED)
        before = self.tree(root)
        msg = ("reclaimctl: this kernel has no vm.kswapd_threads (no /proc/sys/vm/kswapd_threads):"
               " it needs reclaimctl's kernel patches (KNOBS in reclaimctl(8))")
        run = self.play(root, knobs={"swappiness": 10, "threads": 4})
        self.expect_failed(run, msg)
        self.expect(run.result.get("unsupported") == ["vm.kswapd_threads"], f"{run.result}")
        run = self.play(root, knobs={"swappiness": 10, "threads": 4}, unsupported="fail")
        self.expect_failed(run, msg)
        run = self.play(root, knobs={"swappiness": 10, "threads": 4}, unsupported="skip")
        self.expect_skipped(run, msg)
        self.expect(run.result["ansible_facts"]["reclaimctl_facts"]["kernel"]["features"]
                    == {"kswapd_threads": False, "max_direct_reclaimers": False,
                        "swap_round_robin_quota_kb": False}, f"facts: {run.result}")
        self.expect(self.changed_files(before, self.tree(root)) == [],
                    f"unsupported changed {self.changed_files(before, self.tree(root))}")
        # A knob every kernel has is set all the same.
        run = self.play(root, knobs={"swappiness": 10}, unsupported="skip")
        self.expect_ok(run, True)
        self.expect(self.knob(root, "swappiness") == 10, "swappiness not set")

    def test_unpatched_preset(self):
        root = self.root(UNPATCHED)
        before = self.tree(root)
        run = self.play(root, preset="latency")
        reasons = [e["reason"] for e in run.result.get("plan", {}).get("entries", [])
                   if e["old"] is None]
        self.expect(len(reasons) == 3 and reasons[2] == "the running kernel lacks "
                    "vm.swap_round_robin_quota_kb: it needs reclaimctl's kernel patches (KNOBS in reclaimctl(8))",
                    f"the plan's reasons: {run.result}")
        self.expect_failed(run, "; ".join(reasons))
        self.expect(run.result["unsupported"] == ["vm.kswapd_threads", "vm.max_direct_reclaimers",
                                                  "vm.swap_round_robin_quota_kb"],
                    f"{run.result}")
        run = self.play(root, preset="latency", unsupported="skip")
        self.expect_skipped(run, "; ".join(reasons))
        run = self.play(root, check=True, autotune=True, unsupported="skip")
        self.expect(run.recap["skipped"] == 1, f"autotune on unpatched: {run}")
        self.expect(self.changed_files(before, self.tree(root)) == [],
                    f"unsupported changed {self.changed_files(before, self.tree(root))}")

    def test_facts(self):
        root = self.root()
        run = self.play(root)
        self.expect_ok(run, False)
        facts = run.result["ansible_facts"]["reclaimctl_facts"]
        self.expect(facts["schema"] == 2 and all(facts["kernel"]["features"].values()),
                    f"kernel: {facts.get('kernel')}")
        self.expect(facts["knobs"]["kswapd_threads"]["value"] == 3, f"knobs: {facts['knobs']}")
        self.expect([n["id"] for n in facts["nodes"]] == [0, 1], "nodes")
        names = [t["name"] for t in facts["threads"]]
        self.expect(names == ["kswapd0", "kswapd0:1", "kswapd0:2",
                              "kswapd1", "kswapd1:1", "kswapd1:2"], f"threads: {names}")
        self.expect("plan" not in run.result, "a plan without a change")

    def test_usage(self):
        root = self.root()
        run = self.play(root, knobs={"throttle": 4}, preset="web")
        self.expect_failed(run, "parameters are mutually exclusive: knobs|preset|autotune|restore")
        run = self.play(root, knobs={"throttle": 4}, autotune=True)
        self.expect_failed(run, "parameters are mutually exclusive: knobs|preset|autotune|restore")
        run = self.play(root, knobs={"throttle": 4}, autotune=False, check=True)
        self.expect_ok(run, True)
        run = self.play(root, restore="later")
        self.expect(run.rc == 2 and "value of restore must be one of: last, boot, got: later"
                    in run.result.get("msg", ""), f"restore=later: {run}")
        # A root that does not exist: reclaimctl's usage error, for a change and for facts.
        missing = os.path.join(self.work, "no-such-root")
        for opts in ({"knobs": {"throttle": 4}}, {}):
            run = self.play(missing, **opts)
            self.expect(run.rc == 2 and run.recap["failed"] == 1
                        and run.result.get("msg", "").startswith("reclaimctl: ")
                        and missing in run.result.get("msg", "")
                        and "Traceback" not in run.out, f"no root, {opts}: {run}")
        # A binary that does not exist: a failure, not a traceback.
        saved, self.reclaimctl = self.reclaimctl, os.path.join(self.work, "no-such-reclaimctl")
        try:
            run = self.play(root, knobs={"throttle": 4})
        finally:
            self.reclaimctl = saved
        self.expect(run.rc == 2 and run.recap["failed"] == 1 and "No such file" in
                    run.result.get("msg", "") and "MODULE FAILURE" not in run.out,
                    f"no binary: {run}")

    def test_readme(self):
        srcdir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        for readme in ("README.md", "contrib/ansible/README.md"):
            with open(os.path.join(srcdir, readme)) as f:
                text = f.read()
            m = re.search(r"^```yaml\n(- name: Tune memory reclaim\n.*?)^```$", text, re.M | re.S)
            self.expect(m is not None, f"{readme}: no playbook")
            book = m.group(1)
            for old, new in (("  hosts: all\n  become: true\n", "  hosts: localhost\n"),
                             ("        persist: true\n", "        persist: true\n"
                              "        sysroot: \"{{ root }}\"\n"
                              "        binary: \"{{ reclaimctl }}\"\n")):
                self.expect(old in book, f"{readme}: the playbook has no {old!r}")
                book = book.replace(old, new)
            path = os.path.join(self.work, "readme.yml")
            with open(path, "w") as f:
                f.write(book)
            root = self.root()
            run = self.play(root, playbook=path)
            self.expect(run.rc == 0 and run.recap["failed"] == 0 and run.recap["changed"] == 1,
                        f"{readme}: {run}")
            self.expect(self.knob(root, "max_direct_reclaimers") == 5, f"{readme}: not applied")
            with open(os.path.join(root, "etc/sysctl.d/90-reclaimctl.conf")) as f:
                self.expect("vm.max_direct_reclaimers = 5\n" in f.read(),
                            f"{readme}: not persisted")
            self.expect('"msg": {\n        "kswapd_threads": true,' in run.out,
                        f"{readme}: no features shown: {run}")


def main():
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        return 2
    if not shutil.which("ansible-playbook") or not shutil.which("ansible-doc"):
        print("SKIP: no ansible-playbook (Debian package ansible-core)")
        return 77
    c = Checker(*(os.path.abspath(a) for a in sys.argv[1:]))
    tests = sorted(m for m in dir(c) if m.startswith("test_"))
    errors = []
    print(f"1..{len(tests)}")
    for n, name in enumerate(tests, 1):
        try:
            getattr(c, name)()
            print(f"ok {n} - {name}")
        except Failed as e:
            errors.append(name)
            print(f"not ok {n} - {name}: {e}")
    print(f"# {len(tests) - len(errors)}/{len(tests)} ansible tests passed ({c.checks} checks)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

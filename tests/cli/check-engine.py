#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The change engine's preview is exactly the evaluation its apply runs.

For every fixture root with /proc/sys/vm, and variants of some made in a
temporary copy (an administrator's sysctl.d file, a value persisted by a real
"set --persist", a masked vendor file, a knob the kernel lacks, /run/sysctl.d
and /etc/sysctl.conf entries, a history of changes), for every preset and
every preview command of the engine (preset diff, preset apply --dry-run,
autotune [--apply --dry-run], boot --dry-run, set --dry-run, restore
--dry-run [--boot], with --force / --persist where they apply):

- the preview changes no file of the root;
- the matching apply, on a fresh copy of the same root, writes exactly the
  knobs whose entry is "set", each to the entry's "new"; nothing else under
  proc/ changes, and nothing else at all but /run/reclaimctl/{history,lock}
  and, with --persist, /etc/sysctl.d/90-reclaimctl.conf;
- the apply's own plan equals the preview's but for dry_run (and
  verified_nodes, which only an apply knows);
- "changed" is true iff an entry is "set" or the persisted file changes;
- the history gains one record per knob set, all of one new change;
- a preview that fails fails its apply the same way, which then writes nothing.

kswapd_threads is verified against the threads running under the root
(/proc/2/task/2/children, or a scan of /proc): before an apply that sets it
to N, the copy is trimmed to N threads per node; a node that runs fewer than
N in the fixture cannot be made to match, and the apply must then fail and
put everything back.

usage: check-engine.py RECLAIMCTL FIXTURES_DIR PRESET_DIR [-k SUBSTRING] [-v]
"""
import argparse
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from collections import Counter

# libreclaim/src/knobs.c: name -> (alias, min, max)
KNOBS = {
    "kswapd_threads": ("threads", 1, 16),
    "max_direct_reclaimers": ("throttle", 0, 1024),
    "swap_round_robin_quota_kb": ("swap-quota", 0, 1048576),
    "swappiness": (None, 0, 200),
    "watermark_scale_factor": (None, 1, 3000),
    "watermark_boost_factor": (None, 0, 2**31 - 1),
    "min_free_kbytes": (None, 0, 2**31 - 1),
    "zone_reclaim_mode": (None, 0, 7),
    "page-cluster": (None, 0, 31),
    "vfs_cache_pressure": (None, 0, 2**31 - 1),
}
# the knobs of sysfs: name -> (path under the root, type, min, max); a type says how the
# file shows a value and how the JSON has it (json_value(), file_text())
SYSFS = {
    "lru_gen_enabled": ("sys/kernel/mm/lru_gen/enabled", "flags", 0, 7),
    "lru_gen_min_ttl_ms": ("sys/kernel/mm/lru_gen/min_ttl_ms", "int", 0, 2**32 - 1),
    "zswap_enabled": ("sys/module/zswap/parameters/enabled", "yn", 0, 1),
    "zswap_compressor": ("sys/module/zswap/parameters/compressor", "choice", 0, 6),
    "zswap_max_pool_percent": ("sys/module/zswap/parameters/max_pool_percent", "int", 0, 100),
    "zswap_accept_threshold_percent": ("sys/module/zswap/parameters/accept_threshold_percent",
                                       "int", 0, 100),
    "zswap_shrinker_enabled": ("sys/module/zswap/parameters/shrinker_enabled", "yn", 0, 1),
    "numa_demotion_enabled": ("sys/kernel/mm/numa/demotion_enabled", "tf", 0, 1),
}
COMPRESSORS = ["deflate", "lzo", "lzo-rle", "842", "lz4", "lz4hc", "zstd"]
ALL_KNOBS = list(KNOBS) + list(SYSFS)
PERSIST = "etc/sysctl.d/90-reclaimctl.conf"
PERSIST_TMPFILES = "etc/tmpfiles.d/90-reclaimctl.conf"
HISTORY = "run/reclaimctl/history"
# besides the knobs, what an apply may write
MAY_CHANGE = {HISTORY, "run/reclaimctl/lock", "run/reclaimctl", "run"}
# what only boot writes, ok or failed: how it ended (status --prometheus exports it)
BOOT_RESULT = "run/reclaimctl/boot"
HISTORY_KEYS = ["change", "time", "command", "source", "knob", "old", "new"]
KSWAPD_NAME = re.compile(r"kswapd(\d+)(?::(\d+))?$")
ACTIONS = {"set", "unchanged", "skipped"}


class Ctx:
    def __init__(self, reclaimctl, presets, verbose):
        self.reclaimctl = reclaimctl
        self.env = dict(os.environ, RECLAIMCTL_PRESET_DIR=presets, NO_COLOR="1")
        self.verbose = verbose
        self.failures = []
        self.counts = Counter()
        self.tmp = tempfile.mkdtemp(prefix="check-engine.")
        self.serial = 0

    def run(self, root, args):
        return subprocess.run([self.reclaimctl, "--sysroot", root, "--json", *args],
                              capture_output=True, text=True, env=self.env, timeout=60)

    def copy(self, src):
        self.serial += 1
        dst = os.path.join(self.tmp, f"c{os.getpid()}-{self.serial}")
        shutil.copytree(src, dst, symlinks=True)
        return dst

    def fail(self, where, msg):
        self.failures.append((where, msg))


# ---------------------------------------------------------------- the tree


def snapshot(root):
    """Every path under root: (kind, content hash or link target, mode)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", st.st_mode)
            else:
                with open(path, "rb") as f:
                    out[rel] = ("file", hashlib.sha256(f.read()).hexdigest(), st.st_mode)
    return out


def diff_paths(before, after):
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


def read(root, rel):
    try:
        with open(os.path.join(root, rel)) as f:
            return f.read()
    except FileNotFoundError:
        return None


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def knob_path(knob):
    """The knob's file under the root."""
    return SYSFS[knob][0] if knob in SYSFS else f"proc/sys/vm/{knob}"


def json_value(knob, text):
    """The value a knob's file shows, as the plan's JSON has it; the text itself if malformed."""
    kind = SYSFS[knob][1] if knob in SYSFS else "int"
    text = text.strip()
    try:
        if kind == "int":
            return int(text)
        if kind == "flags":
            return int(text, 16)
    except ValueError:
        return text
    if kind == "yn":
        return {"Y": True, "N": False}.get(text, text)
    if kind == "tf":
        return {"true": True, "false": False}.get(text, text)
    return text


def history_text(knob, value):
    """A value as the history file has it: the int64 of the library (a boolean 0 or 1, a
    choice its index)."""
    kind = SYSFS[knob][1] if knob in SYSFS else "int"
    if kind in ("yn", "tf"):
        return str(int(value))
    if kind == "choice":
        return str(COMPRESSORS.index(value))
    return str(value)


def file_text(knob, value):
    """What the knob's file shows after a write of @value (a JSON value)."""
    kind = SYSFS[knob][1] if knob in SYSFS else "int"
    if kind == "flags":
        return f"0x{value:04x}"
    if kind == "yn":
        return "Y" if value else "N"
    if kind == "tf":
        return "true" if value else "false"
    return str(value)


# ------------------------------------------------------------ kswapd threads


def kswapd_threads(root):
    """pid -> (node, index) of the kswapd threads reclaimctl would see."""
    proc = os.path.join(root, "proc")
    children = read(root, "proc/2/task/2/children")
    if children is not None:
        pids = children.split()
    else:
        pids = [d for d in os.listdir(proc) if d.isdigit()] if os.path.isdir(proc) else []
    out = {}
    for pid in pids:
        st = read(root, f"proc/{pid}/stat")
        if not st or "(" not in st:
            continue
        m = KSWAPD_NAME.match(st[st.index("(") + 1:st.rindex(")")])
        if m:
            out[pid] = (int(m.group(1)), int(m.group(2) or 0))
    return out


def trim_threads(root, n):
    """Leaves the first n kswapd threads of each node; True if each node then runs n."""
    threads = kswapd_threads(root)
    if not threads:
        return False
    drop = {pid for pid, (_, idx) in threads.items() if idx >= n}
    per_node = Counter(node for pid, (node, _) in threads.items() if pid not in drop)
    children = read(root, "proc/2/task/2/children")
    if children is not None:
        write(root, "proc/2/task/2/children",
              " ".join(p for p in children.split() if p not in drop) + "\n")
    else:
        for pid in drop:
            shutil.rmtree(os.path.join(root, "proc", pid))
    return all(c == n for c in per_node.values())


# ----------------------------------------------------------------- history


def history(root):
    """The terminated records of the history, as dicts (an unterminated last line is not one).
    A change's records follow its line "# intent change=N records=K"; "_done" is whether
    "# done change=N" follows them (records outside an intent: True)."""
    text = read(root, HISTORY)
    out, left, intent = [], 0, []
    for line in (text or "").split("\n")[:-1]:
        m = re.fullmatch(r"# intent change=\d+ records=(\d+)", line)
        if m:
            left, intent = int(m.group(1)), []
        elif re.fullmatch(r"# done change=\d+", line):
            for r in intent:
                r["_done"] = True
            left, intent = 0, []
        elif line and not line.startswith("#"):
            r = dict(kv.split("=", 1) for kv in line.split(" "))
            r["_done"] = left == 0
            if left:
                left -= 1
                intent.append(r)
            else:
                intent = []
            out.append(r)
    return out


# -------------------------------------------------------------- the roots


def variant_admin(ctx, root):
    write(root, "etc/sysctl.d/50-admin.conf",
          "# set by the administrator\nvm.swappiness = 30\nvm.max_direct_reclaimers = 2\n")


def variant_persisted(knob, value):
    def make(ctx, root):
        r = ctx.run(root, ["set", "--persist", knob, value])
        if r.returncode:
            raise RuntimeError(f"set --persist {knob} {value}: exit {r.returncode}: {r.stderr}")
    return make


def variant_masked(ctx, root):
    write(root, "usr/lib/sysctl.d/50-vendor.conf", "vm.watermark_scale_factor = 20\n")
    os.makedirs(os.path.join(root, "etc/sysctl.d"), exist_ok=True)
    os.symlink("/dev/null", os.path.join(root, "etc/sysctl.d/50-vendor.conf"))


def variant_unsupported(ctx, root):
    os.unlink(os.path.join(root, "proc/sys/vm/swap_round_robin_quota_kb"))


def variant_run_conf(ctx, root):
    write(root, "run/sysctl.d/60-runtime.conf", "vm.watermark_boost_factor = 100\n")
    write(root, "etc/sysctl.conf", "# the old file\nvm.zone_reclaim_mode = 0\n")


def variant_tuned(ctx, root):
    """tuned's profiles as tuned-profiles/README has them: db-guest including virtual-guest."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "tuned-profiles")
    shutil.copytree(src, root, dirs_exist_ok=True)


def variant_sysfs(ctx, root):
    """The knobs of sysfs of a Debian 6.1 kernel (no zswap shrinker_enabled, added in 6.8), an
    administrator's tmpfiles.d line, and zswap on the kernel command line."""
    for knob, text in (("lru_gen_enabled", "0x0007"), ("lru_gen_min_ttl_ms", "0"),
                       ("zswap_enabled", "N"), ("zswap_compressor", "lzo"),
                       ("zswap_max_pool_percent", "20"), ("zswap_accept_threshold_percent", "90"),
                       ("numa_demotion_enabled", "false")):
        write(root, knob_path(knob), text + "\n")
    write(root, "etc/tmpfiles.d/50-zswap.conf",
          "# the administrator's\nw /sys/module/zswap/parameters/max_pool_percent - - - - 25\n")
    write(root, "proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro zswap.enabled=0 quiet\n")


def variant_sysfs_persisted(ctx, root):
    variant_sysfs(ctx, root)
    variant_persisted("mglru", "n")(ctx, root)


def variant_history(*changes):
    def make(ctx, root):
        for args in changes:
            r = ctx.run(root, ["set", *args])
            if r.returncode:
                raise RuntimeError(f"set {' '.join(args)}: exit {r.returncode}: {r.stderr}")
    return make


# (name, base fixture, make(ctx, root), {knob: file that sets it} the rules expect)
VARIANTS = [
    ("patched+admin", "patched-2node-3threads", variant_admin,
     {"swappiness": "/etc/sysctl.d/50-admin.conf:2", "max_direct_reclaimers": "/etc/sysctl.d/50-admin.conf:3"}),
    ("patched+persisted", "patched-2node-3threads",
     variant_persisted("throttle", "7"), {}),
    ("patched+masked", "patched-2node-3threads", variant_masked, {}),
    ("patched+unsupported", "patched-2node-3threads", variant_unsupported, {}),
    ("patched+run-conf", "patched-2node-3threads", variant_run_conf,
     {"watermark_boost_factor": "/run/sysctl.d/60-runtime.conf:1",
      "zone_reclaim_mode": "/etc/sysctl.conf:2"}),
    ("patched+history", "patched-2node-3threads",
     variant_history(["throttle", "8"], ["swap-quota", "4M"], ["swappiness", "20"]), {}),
    ("patched+tuned", "patched-2node-3threads", variant_tuned,
     {"swappiness": "/usr/lib/tuned/virtual-guest/tuned.conf:22",
      "watermark_scale_factor": "/etc/tuned/db-guest/tuned.conf:11",
      "min_free_kbytes": "/etc/tuned/db-guest/tuned.conf:12"}),
    ("unpatched+admin", "unpatched-6.1", variant_admin,
     {"swappiness": "/etc/sysctl.d/50-admin.conf:2"}),
    ("unpatched+persisted", "unpatched-6.1", variant_persisted("swappiness", "33"), {}),
    ("unpatched+sysfs", "unpatched-6.1", variant_sysfs,
     {"zswap_max_pool_percent": "/etc/tmpfiles.d/50-zswap.conf:2",
      "zswap_enabled": "/proc/cmdline:1"}),
    ("unpatched+sysfs-persisted", "unpatched-6.1", variant_sysfs_persisted,
     {"zswap_max_pool_percent": "/etc/tmpfiles.d/50-zswap.conf:2",
      "zswap_enabled": "/proc/cmdline:1"}),
    ("unpatched+history", "unpatched-6.1",
     variant_history(["swappiness", "20"], ["watermark_scale_factor", "30"]), {}),
]


# ------------------------------------------------------------ the commands


class Triple:
    """A preview and the apply it stands for, on one root."""

    def __init__(self, label, preview, apply, command, prep=None, persist=False,
                 force=False, source=None, preset=None, knob=None, value=None):
        self.label, self.preview, self.apply = label, preview, apply
        self.command, self.prep, self.persist, self.force = command, prep, persist, force
        self.source, self.preset, self.knob, self.value = source, preset, knob, value


FLAG_SETS = [([], False, False), (["--force"], True, False), (["--persist"], False, True),
             (["--force", "--persist"], True, True)]
# --one-flag-set (the sanitizer build): each command with one of the flag sets
# in turn rather than all four. Its part is the memory errors of every path,
# and each flag set still runs on every root; the other build compares all.
ONE_FLAG_SET = False
_turn = 0


def flag_sets():
    global _turn
    if not ONE_FLAG_SET:
        return FLAG_SETS
    _turn += 1
    return [FLAG_SETS[_turn % len(FLAG_SETS)]]


def boot_conf(name):
    def prep(root):
        write(root, "etc/reclaimctl/reclaimctl.conf", f"# for the test\npreset = {name}\n")
    return prep


def other_sysfs_value(knob, current):
    """(the text set takes, the JSON value) of a value of a knob of sysfs other than @current."""
    _, kind, lo, hi = SYSFS[knob]
    if kind in ("yn", "tf"):
        return ("false" if current else "true"), not current
    if kind == "choice":
        name = "lz4" if current != "lz4" else "zstd"
        return name, name
    if kind == "flags":
        return ("n", 0) if current else ("y", hi)
    v = (current if isinstance(current, int) else lo) + 1
    v = v if v <= hi else lo
    return str(v), v


def other_value(knob, current):
    _, lo, hi = KNOBS[knob]
    if current is None:
        return lo + 1
    if knob == "kswapd_threads":
        return current - 1 if current > 1 else current + 1
    step = 1024 if knob in ("min_free_kbytes", "swap_round_robin_quota_kb") else 1
    return current + step if current + step <= hi else current - step


def triples(ctx, root):
    global _turn
    _turn = 0  # the same flag sets on a root whichever worker takes it
    r = ctx.run(root, ["preset", "list"])
    presets = [p["name"] for p in json.loads(r.stdout)["presets"]] if r.returncode == 0 else []
    if r.returncode:
        ctx.fail(root, f"preset list --json: exit {r.returncode}: {r.stderr.strip()}")
    out = []
    for name in presets:
        out.append(Triple(f"preset diff {name}", ["preset", "diff", name],
                          ["preset", "apply", name], "preset", source=f"preset:{name}", preset=name))
        for flags, force, persist in flag_sets():
            out.append(Triple(" ".join(["preset apply --dry-run", *flags, name]),
                              ["preset", "apply", "--dry-run", *flags, name],
                              ["preset", "apply", *flags, name], "preset", persist=persist,
                              force=force, source=f"preset:{name}", preset=name))
        out.append(Triple(f"boot --dry-run (preset = {name})", ["boot", "--dry-run"], ["boot"],
                          "boot", prep=boot_conf(name), source=f"preset:{name}", preset=name))
    out.append(Triple("boot --dry-run (no reclaimctl.conf)", ["boot", "--dry-run"], ["boot"],
                      "boot", source="preset:balanced", preset="balanced"))
    out.append(Triple("boot --dry-run (preset = off)", ["boot", "--dry-run"], ["boot"], "boot",
                      prep=boot_conf("off"), preset="off"))
    for preview in (["autotune"], ["autotune", "--dry-run"]):
        out.append(Triple(" ".join(preview), preview, ["autotune", "--apply"], "autotune",
                          source="autotune"))
    for flags, force, persist in flag_sets():
        out.append(Triple(" ".join(["autotune --apply --dry-run", *flags]),
                          ["autotune", "--apply", "--dry-run", *flags],
                          ["autotune", "--apply", *flags], "autotune", persist=persist,
                          force=force, source="autotune"))
    for knob in ALL_KNOBS:
        text = read(root, knob_path(knob))
        current = json_value(knob, text) if text is not None else None
        if knob in SYSFS:
            value, want = other_sysfs_value(knob, current)
        else:
            value = str(other_value(knob, current if isinstance(current, int) else None))
            want = int(value)
        # a knob the kernel lacks fails the same way whatever the flags: one of them
        for flags, force, persist in flag_sets() if text is not None else FLAG_SETS[:1]:
            out.append(Triple(" ".join(["set --dry-run", *flags, knob, value]),
                              ["set", "--dry-run", *flags, knob, value], ["set", *flags, knob, value],
                              "set", persist=persist, force=force, source="value", knob=knob,
                              value=want))
    for alias, knob in (("threads", "kswapd_threads"), ("throttle", "max_direct_reclaimers")):
        out.append(Triple(f"set --dry-run {alias} auto", ["set", "--dry-run", alias, "auto"],
                          ["set", alias, "auto"], "set", source="auto", knob=knob))
    out.append(Triple("restore --dry-run", ["restore", "--dry-run"], ["restore"], "restore"))
    out.append(Triple("restore --boot --dry-run", ["restore", "--boot", "--dry-run"],
                      ["restore", "--boot"], "restore-boot", source="boot"))
    return out


# ---------------------------------------------------------------- checking


def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ValueError(f"duplicate key(s) {dup} in one object")
    return dict(pairs)


def parse_plan(where, what, proc, ctx):
    try:
        doc = json.loads(proc.stdout, object_pairs_hook=no_duplicates)
    except ValueError as e:
        if "duplicate key" in str(e):
            ctx.fail(where, f"{what}: {e}")
            doc = json.loads(proc.stdout)
            return doc if isinstance(doc, dict) and isinstance(doc.get("entries"), list) else None
        ctx.fail(where, f"{what}: stdout is not one JSON document (exit {proc.returncode}): "
                 f"{proc.stdout[:300]!r} stderr {proc.stderr.strip()[:300]!r}")
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("entries"), list):
        ctx.fail(where, f"{what}: no plan document (no \"entries\"): {proc.stdout[:300]!r}")
        return None
    return doc


def check_plan_shape(ctx, where, t, doc, dry_run, rules, root_state):
    """What one plan must say by itself, whatever the root."""
    f = lambda msg: ctx.fail(where, msg)  # noqa: E731
    if doc.get("schema") != 2:
        f(f"schema is {doc.get('schema')!r}, not 2")
    if doc.get("command") != t.command:
        f(f"command is {doc.get('command')!r}, expected {t.command!r}")
    if doc.get("dry_run") is not dry_run:
        f(f"dry_run is {doc.get('dry_run')!r}, expected {dry_run}")
    for key in ("changed", "persist", "verified_nodes"):
        if key not in doc:
            f(f"no key {key!r} in the plan")
    if "persist" in doc and doc["persist"] is not t.persist:
        f(f"persist is {doc['persist']!r}, expected {t.persist}")
    if t.preset is not None and doc.get("preset") != t.preset:
        f(f"preset is {doc.get('preset')!r}, expected {t.preset!r}")
    if t.command in ("preset", "boot") and t.preset != "off" and "path" not in doc:
        f("no key 'path' in a preset plan")
    if t.preset == "off" and doc["entries"]:
        f(f"preset = off yet {len(doc['entries'])} entries")
    if t.command == "autotune" and "swap" not in doc:
        f("no key 'swap' in the autotune plan")
    knobs_seen = Counter()
    for e in doc["entries"]:
        name = e.get("knob")
        knobs_seen[name] += 1
        missing = {"knob", "sysctl", "path", "old", "new", "action", "reason", "source"} - set(e)
        if missing:
            f(f"entry {name}: no key(s) {sorted(missing)}")
            continue
        if name not in ALL_KNOBS or e["sysctl"] != (None if name in SYSFS else f"vm.{name}"):
            f(f"entry {name}: sysctl {e['sysctl']!r}")
        if name in ALL_KNOBS and e["path"] != "/" + knob_path(name):
            f(f"entry {name}: path {e['path']!r}")
        if e["action"] not in ACTIONS:
            f(f"entry {name}: action {e['action']!r}")
        present = root_state.get(name) is not None
        if present and e["old"] != root_state[name]:
            f(f"entry {name}: old {e['old']!r}, but the file has {root_state[name]!r}")
        if not present and (e["old"] is not None or e["action"] != "skipped"):
            f(f"entry {name}: the kernel lacks it, yet old {e['old']!r} action {e['action']!r}")
        # a "set" of the value the knob has: only kswapd_threads, to start or stop
        # threads that do not match it (not in the spec; the engine's reason says so)
        if e["action"] == "set" and e["old"] == e["new"] and not (
                name == "kswapd_threads" and "writing the value again" in str(e["reason"])):
            f(f"entry {name}: action set, but old == new == {e['new']!r}: {e['reason']!r}")
        if e["action"] == "unchanged" and e["old"] != e["new"]:
            f(f"entry {name}: action unchanged, but old {e['old']!r} new {e['new']!r}")
        src = e["source"]
        if t.command == "restore":
            ok = re.fullmatch(r"change:\d+", str(src)) is not None
        else:
            ok = src == t.source
        if not ok and src != "adapt":
            f(f"entry {name}: source {src!r}, expected {t.source or 'change:N'!r}")
        # the one precedence: another sysctl file wins unless --force; restores ignore it
        conflict = rules.get(name)
        if conflict and present and not t.force and t.command not in ("restore", "restore-boot"):
            if e["action"] != "skipped" or conflict not in str(e["reason"]):
                f(f"entry {name}: {conflict} sets it, yet action {e['action']!r} "
                  f"reason {e['reason']!r} (expected skipped, naming {conflict})")
        if "50-vendor.conf" in str(e["reason"]):
            f(f"entry {name}: the masked /usr/lib/sysctl.d/50-vendor.conf is named: {e['reason']!r}")
        if t.command == "boot" and present and name in root_state.get("_persisted", {}):
            if e["action"] != "skipped" or "persist" not in str(e["reason"]):
                f(f"entry {name}: persisted in {PERSIST}, yet boot says {e['action']!r} "
                  f"({e['reason']!r}); expected skipped as persisted")
        elif (t.command != "boot" and e["action"] == "skipped" and present and not conflict
              and "persist" in str(e["reason"])):
            f(f"entry {name}: only boot skips persisted knobs, yet {e['reason']!r}")
    for name, n in knobs_seen.items():
        if n > 1:
            f(f"entry {name} appears {n} times")
    if t.command == "set":
        mine = [e for e in doc["entries"] if e.get("knob") == t.knob]
        if len(doc["entries"]) != 1 or not mine:
            f(f"set {t.knob}: entries {[e.get('knob') for e in doc['entries']]}")
        elif t.value is not None and mine[0].get("new") != t.value and mine[0].get("old") is not None:
            f(f"set {t.knob} {t.value}: new is {mine[0].get('new')!r}")
    any_set = any(e.get("action") == "set" for e in doc["entries"])
    if not t.persist and doc.get("changed") is not any_set:
        f(f"changed is {doc.get('changed')!r}, but {'an' if any_set else 'no'} entry is set")
    if t.persist and any_set and doc.get("changed") is not True:
        f(f"changed is {doc.get('changed')!r}, but an entry is set")


def knob_values(root):
    out = {}
    for knob in ALL_KNOBS:
        text = read(root, knob_path(knob))
        out[knob] = json_value(knob, text) if text is not None else None
    persisted = {}
    for line in (read(root, PERSIST) or "").splitlines():
        m = re.fullmatch(r"vm\.([\w-]+)\s*=\s*(\S+)", line.strip())
        if m:
            persisted[m.group(1)] = m.group(2)
    paths = {"/" + SYSFS[k][0]: k for k in SYSFS}
    for line in (read(root, PERSIST_TMPFILES) or "").splitlines():
        m = re.fullmatch(r"w (\S+) - - - - (\S+)", line.strip())
        if m and m.group(1) in paths:
            persisted[paths[m.group(1)]] = m.group(2)
    out["_persisted"] = persisted
    return out


def prepared_copy(ctx, base, t):
    root = ctx.copy(base)
    if t.prep:
        t.prep(root)
    return root


def check_triple(ctx, base, rname, t, rules):
    where = f"{rname}: {t.label}"
    ctx.counts["triples"] += 1
    # the preview must not change a thing; the copy it ran on is then as fresh
    # as a new one, and the apply runs on it (after a preview that changed
    # something, on a new copy)
    a = prepared_copy(ctx, base, t)
    state = knob_values(a)
    before = snapshot(a)
    prev = ctx.run(a, t.preview)
    fresh = snapshot(a)
    changed = diff_paths(before, fresh)
    if changed:
        ctx.fail(where, f"the preview changed files: {changed}")
        shutil.rmtree(a)
        a = prepared_copy(ctx, base, t)
        fresh = snapshot(a)
    # preset diff exits 1 when the apply would change something, as diff(1)
    is_diff = t.preview[:2] == ["preset", "diff"]
    if prev.returncode != 0 and not (is_diff and prev.returncode == 1 and not prev.stderr):
        return check_error_pair(ctx, where, a, t, prev, fresh)
    plan = parse_plan(where, "preview", prev, ctx)
    if plan is None:
        return
    if is_diff and prev.returncode != (1 if plan.get("changed") else 0):
        ctx.fail(where, f"preset diff exits {prev.returncode} with \"changed\": "
                 f"{plan.get('changed')}")
    check_plan_shape(ctx, where, t, plan, True, rules, state)
    threads = [e for e in plan["entries"]
               if e.get("knob") == "kswapd_threads" and e.get("action") in ("set", "unchanged")]
    verifiable = True
    before = fresh
    if threads:
        verifiable = trim_threads(a, threads[0]["new"])
        again = ctx.run(a, t.preview)
        try:
            same = again.returncode == prev.returncode and json.loads(again.stdout) == plan
        except ValueError:
            same = False
        if not same:
            ctx.fail(where, "the preview differs once the copy runs "
                     f"{threads[0]['new']} kswapd threads per node: {again.stdout[:400]!r}")
            return
        before = snapshot(a)
    hist_before = history(a)
    app = ctx.run(a, t.apply)
    after = snapshot(a)
    changed = diff_paths(before, after)
    proc_changed = [c for c in changed if c.startswith(("proc/", "sys/"))]
    sets = {e["knob"]: e for e in plan["entries"] if e.get("action") == "set"}

    if threads and sets.get("kswapd_threads") and not verifiable:
        # no copy can run that many threads: the documented rollback
        ctx.counts["rollbacks"] += 1
        if app.returncode != 1 or "did not take effect" not in app.stderr:
            ctx.fail(where, f"{t.apply}: expected the rollback (exit 1, 'did not take effect'), got "
                     f"exit {app.returncode}: {app.stderr.strip()[:300]!r}")
        if proc_changed or PERSIST in changed or PERSIST_TMPFILES in changed or \
                HISTORY in changed:
            ctx.fail(where, f"the rolled back apply left changes: {changed}")
        return
    if app.returncode != 0:
        ctx.fail(where, f"the preview succeeded, the apply failed: exit {app.returncode}: "
                 f"{app.stderr.strip()[:400]!r}")
        return
    got = parse_plan(where, "apply", app, ctx)
    if got is None:
        return
    check_plan_shape(ctx, where, t, got, False, rules, state)
    for key in sorted(set(plan) | set(got)):
        if key in ("dry_run", "verified_nodes", "persist_files"):
            continue
        if plan.get(key) != got.get(key):
            ctx.fail(where, f"the apply's {key!r} differs from the preview's:\n"
                     f"      preview: {json.dumps(plan.get(key))}\n"
                     f"      apply:   {json.dumps(got.get(key))}")
    expect = {knob_path(k) for k, e in sets.items() if e["old"] != e["new"]}
    if set(proc_changed) != expect:
        ctx.fail(where, f"files changed under proc/ and sys/: {proc_changed}; entries set: "
                 f"{sorted(expect)}")
    for k, e in sets.items():
        content = read(a, knob_path(k))
        if content is None or content.strip() != file_text(k, e["new"]):
            ctx.fail(where, f"{knob_path(k)} is {content!r}, the plan says {e['new']!r}")
    persist_changed = PERSIST in changed or PERSIST_TMPFILES in changed
    check_persist_files(ctx, where, t, plan, before, after, a)
    if persist_changed and not t.persist:
        ctx.fail(where, f"{PERSIST} or {PERSIST_TMPFILES} changed without --persist")
    if t.persist:
        persisted = knob_values(a)["_persisted"]
        for k, e in sets.items():
            if persisted.get(k) != file_text(k, e["new"]):
                ctx.fail(where, f"--persist: {PERSIST if k in KNOBS else PERSIST_TMPFILES} has "
                         f"{k} = {persisted.get(k)!r}, the plan sets {e['new']!r}")
    want_changed = bool(sets) or persist_changed
    if got.get("changed") is not want_changed:
        ctx.fail(where, f"changed is {got.get('changed')!r}, but {len(sets)} knob(s) written and "
                 f"{PERSIST} {'changed' if persist_changed else 'unchanged'}")
    # the persisted files without --persist: above
    allowed = MAY_CHANGE | {PERSIST, "etc/sysctl.d", PERSIST_TMPFILES, "etc/tmpfiles.d", "etc"}
    if t.command == "boot":
        allowed |= {BOOT_RESULT}
        check_boot_result(ctx, where, a, "ok")
    others = [c for c in changed if c not in expect and c not in allowed]
    if others:
        ctx.fail(where, f"the apply changed other files: {others}")
    check_history(ctx, where, t, sets, hist_before, history(a), HISTORY in changed)
    ctx.counts["applied"] += 1
    shutil.rmtree(a)


def check_boot_result(ctx, where, root, want):
    """boot recorded how it ended: result=ok or result=failed, and the time."""
    try:
        with open(os.path.join(root, BOOT_RESULT)) as f:
            lines = f.read().splitlines()
    except OSError as e:
        ctx.fail(where, f"boot left no {BOOT_RESULT}: {e}")
        return
    if len(lines) != 2 or lines[0] != f"result={want}" or not re.fullmatch(r"time=\d+\.\d{9}", lines[1]):
        ctx.fail(where, f"{BOOT_RESULT} says {lines}, expected result={want} and the time")


def check_history(ctx, where, t, sets, old, new, file_changed):
    if not sets:
        if file_changed:
            ctx.fail(where, "nothing was set, yet the history changed")
        return
    if new[:len(old)] != old:
        ctx.fail(where, "the apply rewrote earlier history records")
        return
    added = new[len(old):]
    if sorted(r.get("knob", "") for r in added) != sorted(sets):
        ctx.fail(where, f"history: records for {[r.get('knob') for r in added]}, "
                 f"knobs set {sorted(sets)}")
        return
    ids = {r.get("change") for r in added}
    last = max((int(r["change"]) for r in old if r.get("change", "").isdigit()), default=0)
    if len(ids) != 1 or not all(i and i.isdigit() and int(i) > last for i in ids):
        ctx.fail(where, f"history: change ids {sorted(ids)} after {last}")
    for r in added:
        e = sets[r["knob"]]
        want = {"command": t.command, "source": e["source"], "old": history_text(r["knob"], e["old"]),
                "new": history_text(r["knob"], e["new"])}
        have = {k: r.get(k) for k in want}
        if have != want:
            ctx.fail(where, f"history record {r} differs from the entry: {want}")
        if list(r)[:len(HISTORY_KEYS)] != HISTORY_KEYS:
            ctx.fail(where, f"history record keys {list(r)}")
        if not r["_done"]:
            ctx.fail(where, f"history record {r} not marked done after its intent")


def check_error_pair(ctx, where, a, t, prev, before):
    """A failing preview: its apply (on a, whose files are before) fails the
    same way and writes nothing."""
    ctx.counts["error pairs"] += 1
    app = ctx.run(a, t.apply)
    may_change = MAY_CHANGE | ({BOOT_RESULT} if t.command == "boot" else set())
    changed = [c for c in diff_paths(before, snapshot(a)) if c not in may_change]
    if t.command == "boot":
        check_boot_result(ctx, where, a, "failed")
    if app.returncode != prev.returncode:
        ctx.fail(where, f"the preview failed (exit {prev.returncode}: {prev.stderr.strip()!r}), "
                 f"the apply exits {app.returncode}: {app.stderr.strip()[:300]!r}")
    elif app.stderr != prev.stderr:
        ctx.fail(where, f"the preview and the apply fail differently:\n"
                 f"      preview: {prev.stderr.strip()!r}\n      apply:   {app.stderr.strip()!r}")
    if changed:
        ctx.fail(where, f"a failing apply changed files: {changed}")
    shutil.rmtree(a)


def check_boot_in_check(ctx, base, rname):
    """check --json's "boot" is the plan of boot --dry-run, without schema."""
    for label, prep in (("no reclaimctl.conf", None), ("preset = latency", boot_conf("latency"))):
        where = f"{rname}: check --json boot ({label})"
        ctx.counts["check boot"] += 1
        r = ctx.copy(base)
        if prep:
            prep(r)
        chk, boot = ctx.run(r, ["check"]), ctx.run(r, ["boot", "--dry-run"])
        try:
            got = json.loads(chk.stdout).get("boot", "no key")
            # boot --dry-run fails: check has no plan to show (null; the spec is silent)
            want = json.loads(boot.stdout) if boot.returncode == 0 else None
        except ValueError:
            ctx.fail(where, f"not JSON: check {chk.stdout[:200]!r} boot {boot.stdout[:200]!r}")
            continue
        if want is not None:
            want.pop("schema", None)
        if got != want:
            ctx.fail(where, f"check's \"boot\" differs from boot --dry-run:\n"
                     f"      check: {json.dumps(got)}\n      boot:  {json.dumps(want)}")
        shutil.rmtree(r)


CTX = None


def check_persist_files(ctx, where, t, plan, before, after, root):
    """A preview with --persist names each persisted file the apply changes, with the text
    it had and the text the apply wrote; the apply's plan has none."""
    if not t.persist:
        if "persist_files" in plan:
            ctx.fail(where, "persist_files without --persist")
        return
    files = plan.get("persist_files")
    if not isinstance(files, list):
        ctx.fail(where, f"a preview with --persist has no persist_files list: {files!r}")
        return
    named = {f.get("path", "").lstrip("/"): f for f in files}
    for rel in (PERSIST, PERSIST_TMPFILES):
        changed = before.get(rel) != after.get(rel)
        f = named.get(rel)
        if changed != (f is not None):
            ctx.fail(where, f"{rel} {'changed' if changed else 'unchanged'} by the apply, "
                     f"persist_files {'names' if f else 'does not name'} it")
            continue
        if f is None:
            continue
        now = read(root, rel)
        was = f.get("before")
        if f.get("after") != now:
            ctx.fail(where, f"persist_files: {rel} after {f.get('after')!r}, the apply wrote {now!r}")
        had = before.get(rel)
        if (was is None) != (had is None) or \
                (was is not None and hashlib.sha256(was.encode()).hexdigest() != had[1]):
            ctx.fail(where, f"persist_files: {rel} before {was!r} is not the file the apply found")


def check_root(only, rname, root, rules):
    ctx = CTX
    ctx.failures, ctx.counts = [], Counter()
    if only and only not in rname:
        ts = [t for t in triples(ctx, root) if only in t.label]
    else:
        ts = triples(ctx, root)
        check_boot_in_check(ctx, root, rname)
    ctx.counts["roots"] += 1
    for t in ts:
        check_triple(ctx, root, rname, t, rules)
    return ctx.failures, ctx.counts, f"{rname}: {len(ts)} commands, {len(ctx.failures)} mismatches"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("reclaimctl")
    ap.add_argument("fixtures")
    ap.add_argument("presets")
    ap.add_argument("-k", dest="only", help="only roots or commands containing this")
    ap.add_argument("-v", dest="verbose", action="store_true")
    ap.add_argument("--variants-only", action="store_true",
                    help="only the variants and the fixture roots they are made from (the "
                         "sanitizer build: its part is the memory errors of every path, "
                         "which these cover; the other build checks every root)")
    ap.add_argument("--one-flag-set", action="store_true",
                    help="each command with one flag set in turn, not all four (the sanitizer "
                         "build)")
    args = ap.parse_args()
    global ONE_FLAG_SET
    ONE_FLAG_SET = args.one_flag_set
    ctx = Ctx(os.path.abspath(args.reclaimctl), os.path.abspath(args.presets), args.verbose)
    try:
        roots = []
        for name in sorted(os.listdir(args.fixtures)):
            path = os.path.join(args.fixtures, name)
            if args.variants_only and name not in {v[1] for v in VARIANTS}:
                continue
            if os.path.isdir(os.path.join(path, "proc/sys/vm")):
                roots.append((name, ctx.copy(path), {}))
        for name, base, make, rules in VARIANTS:
            root = ctx.copy(os.path.join(args.fixtures, base))
            try:
                make(ctx, root)
            except RuntimeError as e:
                ctx.fail(name, f"cannot make the variant: {e}")
                continue
            roots.append((name, root, rules))
        # One root per worker process (forked: each has its own copy of the
        # Ctx, whose findings come back with the result); the roots are
        # independent and this is the longest CLI test.
        global CTX
        CTX = ctx
        jobs = [(args.only, *r) for r in roots]
        with multiprocessing.get_context("fork").Pool(os.cpu_count() or 1) as pool:
            for failures, counts, line in pool.starmap(check_root, jobs):
                ctx.failures += failures
                ctx.counts += counts
                if args.verbose:
                    print(line)
    finally:
        shutil.rmtree(ctx.tmp, ignore_errors=True)

    for where, msg in ctx.failures[:200]:
        print(f"MISMATCH {where}: {msg}")
    if len(ctx.failures) > 200:
        print(f"... and {len(ctx.failures) - 200} more")
    if ctx.failures:
        by = Counter()
        for where, _ in ctx.failures:
            label = where.split(": ", 1)[1] if ": " in where else where
            by[" ".join(w for w in label.split()[:3] if not w[0].isdigit())] += 1
        print("mismatches by command: " + ", ".join(f"{k}: {n}" for k, n in by.most_common()))
    c = ctx.counts
    print(f"{c['triples']} (root, preset, command) triples on {c['roots']} roots: "
          f"{c['applied']} applied and compared, {c['rollbacks']} rollbacks, "
          f"{c['error pairs']} failing previews, {c['check boot']} check --json boot plans; "
          f"{len(ctx.failures)} mismatches")
    return 1 if ctx.failures else 0


if __name__ == "__main__":
    sys.exit(main())

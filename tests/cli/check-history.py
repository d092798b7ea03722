#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The history of changes, /run/reclaimctl/history, and the restores it drives.

On copies of the patched fixture root:
- parallel: 20 "set" at once, of different knobs and values: every record
  there exactly once, none torn, change ids unique and in file order, and
  each knob's records a chain (a record's old is the previous one's new);
- torn: an unterminated last record (a crash mid-append) is ignored by
  "history" and by the next "set", which rewrites the file without it (the
  records before kept) and records its own whole; a malformed line
  elsewhere refuses the history with FILE:N;
- bound: a history of more than 1,000 records filled by hand, then one
  "set": at most the first record of each knob plus the last 1,000 remain,
  the first of each knob among them;
- restore: each restore undoes one change, the newest first, each knob back
  to its old value, then "nothing to restore"; the two changes of the issue
  (set throttle 8; set swap-quota 4M) both come back;
- restore --boot: every knob back to the old value of its first record;
- overwritten: a knob written outside reclaimctl since the change: restore
  says so and puts back the value from before the first change since boot;
- history --json and the text table say the same;
- killed: a "set --persist" killed (SIGKILL, the test hook
  RECLAIMCTL_TEST_AFTER_WRITE=kill of a test build) after its knob write and
  before its record is done: "history" shows it interrupted (the exact
  table, --json), "restore" undoes it (the knob back to the value before it,
  not "changed since by something else"), the history stays a chain and the
  next restores undo the rest;
- signal: SIGTERM and SIGINT sent to "set" while it pauses between its write
  and its record (RECLAIMCTL_TEST_AFTER_WRITE=MS): the change is completed
  and recorded done, the knob has the recorded value, and set ends by the
  signal (a shell shows 128+N) after the pause, not during it;
- drift race: a command that notes knobs written outside reclaimctl, paused
  (RECLAIMCTL_TEST_BEFORE_NOTE=MS) between its read of the history and its
  reads of the knobs while a "set" changes one: no "# outside" line (the
  set's own value is not another writer's); the same pause with the knob
  written by hand: the line is there;
- race: "set throttle 9" and "restore" at the same time, 20 rounds after a
  first change: each exits 0, the knob's records stay a chain (nothing was
  read before the lock: a stale read would break it), the file has the last
  record's value, one of the two orders' outcomes (4 or 9), and restores
  then undo everything back to the value before the first change.

usage: check-history.py RECLAIMCTL FIXTURES_DIR PRESET_DIR
"""
import datetime
import json
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import checker
from checker import Failed

HISTORY = "run/reclaimctl/history"
KEYS = ["change", "time", "command", "source", "knob", "old", "new"]
# a change's records come after its intent line, and its done line after them
INTENT = re.compile(r"# intent change=(\d+) records=(\d+)")
DONE = re.compile(r"# done change=(\d+)")
HOOK = "RECLAIMCTL_TEST_AFTER_WRITE"
NOTHING = "nothing to restore: no change since boot or the last restore"


class Checker(checker.Checker):
    def __init__(self, reclaimctl, fixtures, presets):
        super().__init__(reclaimctl, fixtures, "history", RECLAIMCTL_PRESET_DIR=presets)

    # -- helpers

    def root(self, name="patched-2node-3threads"):
        return super().root(name)

    def run(self, root, *args, json_out=True, ok=True, env=None):
        cmd = [self.reclaimctl, "--sysroot", root, *(["--json"] if json_out else []), *args]
        p = subprocess.run(cmd, capture_output=True, text=True, env=dict(self.env, **(env or {})),
                           timeout=60)
        if ok and p.returncode != 0:
            raise Failed(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
        if json_out and p.returncode == 0:
            try:
                p.doc = json.loads(p.stdout)
            except ValueError:
                raise Failed(f"{' '.join(args)} --json: not JSON: {p.stdout[:300]!r}")
        return p

    def knob(self, root, name):
        with open(os.path.join(root, "proc/sys/vm", name)) as f:
            return int(f.read())

    def write_knob(self, root, name, value):
        with open(os.path.join(root, "proc/sys/vm", name), "w") as f:
            f.write(f"{value}\n")

    def raw(self, root):
        try:
            with open(os.path.join(root, HISTORY)) as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def records(self, root, comments=False):
        """Parses the history file strictly: whole lines, keys in the spec's order.
        A change's records follow its line "# intent change=N records=K" (K of
        them) and precede "# done change=N"; without that line they are
        interrupted (rec["interrupted"]). Records outside an intent (a history
        written before intents, or by hand) are taken as done.
        comments: lets other "#" lines by (the "# trimmed=N" the bound writes first)."""
        text = self.raw(root)
        self.expect(text == "" or text.endswith("\n"), f"the history does not end with a newline: "
                    f"{text[-120:]!r}")
        out, intent = [], None  # intent: [change, records left, its records]
        for n, line in enumerate(text.split("\n")[:-1], 1):
            m = INTENT.fullmatch(line) or DONE.fullmatch(line)
            if m and m.re is INTENT:
                intent = [m.group(1), int(m.group(2)), []]
                continue
            if m:
                self.expect(intent is not None and intent[0] == m.group(1) and intent[1] == 0,
                            f"{HISTORY}:{n}: {line!r} does not end the intent before it ({intent})")
                for rec in intent[2]:
                    rec["interrupted"] = False
                intent = None
                continue
            if comments and line.startswith("#"):
                continue
            pairs = [kv.split("=", 1) for kv in line.split(" ")]
            self.expect(all(len(p) == 2 and p[1] != "" for p in pairs),
                        f"{HISTORY}:{n}: not key=value pairs: {line!r}")
            rec = dict(pairs)
            keys = [p[0] for p in pairs]
            want = KEYS + (["undoes"] if rec.get("command", "").startswith("restore") else [])
            self.expect(keys == want, f"{HISTORY}:{n}: keys {keys}, expected {want}: {line!r}")
            self.expect(re.fullmatch(r"\d+", rec["change"]) is not None
                        and re.fullmatch(r"\d+\.\d{9}", rec["time"]) is not None,
                        f"{HISTORY}:{n}: change or time malformed: {line!r}")
            rec["interrupted"] = False
            if intent is not None and intent[1] > 0:
                self.expect(rec["change"] == intent[0],
                            f"{HISTORY}:{n}: a record of change {rec['change']} in the intent of "
                            f"change {intent[0]}: {line!r}")
                rec["interrupted"] = True
                intent[1] -= 1
                intent[2].append(rec)
            else:
                intent = None
            out.append(rec)
        return out

    def history_json(self, root):
        doc = self.run(root, "history").doc
        self.expect(doc.get("schema") == 2 and isinstance(doc.get("records"), list)
                    and "trimmed" in doc, f"history --json: {json.dumps(doc)[:300]}")
        return doc

    def entries(self, doc, what):
        self.expect(isinstance(doc.get("entries"), list), f"{what}: no entries: {json.dumps(doc)[:300]}")
        return {e["knob"]: e for e in doc["entries"]}

    def set_knob(self, root, *args):
        return self.run(root, "set", *args).doc

    def last_change(self, root):
        recs = self.records(root)
        return int(recs[-1]["change"]) if recs else 0

    # -- the tests

    def test_parallel(self):
        root = self.root()
        start = {k: self.knob(root, k) for k in ("max_direct_reclaimers", "swappiness",
                                                 "watermark_scale_factor", "watermark_boost_factor",
                                                 "zone_reclaim_mode", "min_free_kbytes",
                                                 "swap_round_robin_quota_kb")}
        values = {"max_direct_reclaimers": [4, 5, 6], "swappiness": [11, 12, 13],
                  "watermark_scale_factor": [21, 22, 23], "watermark_boost_factor": [100, 200, 300],
                  "zone_reclaim_mode": [1, 2, 4], "min_free_kbytes": [70000, 71000, 72000],
                  "swap_round_robin_quota_kb": [512, 1024]}
        jobs = [(k, v) for k, vs in values.items() for v in vs]
        self.expect(len(jobs) == 20, "20 jobs")
        with ThreadPoolExecutor(max_workers=20) as pool:
            procs = list(pool.map(lambda kv: self.run(root, "set", kv[0], str(kv[1]), ok=False), jobs))
        bad = [(kv, p.returncode, p.stderr.strip()) for kv, p in zip(jobs, procs) if p.returncode]
        self.expect(not bad, f"parallel sets failed: {bad}")
        recs = self.records(root)
        got = sorted((r["knob"], int(r["new"])) for r in recs)
        self.expect(got == sorted(jobs), f"20 parallel sets left records {got}, expected {sorted(jobs)}")
        ids = [int(r["change"]) for r in recs]
        self.expect(len(set(ids)) == len(ids) and ids == sorted(ids),
                    f"change ids not unique and increasing in file order: {ids}")
        for k in values:
            chain = [r for r in recs if r["knob"] == k]
            prev = start[k]
            for r in chain:
                self.expect(int(r["old"]) == prev, f"{k}: record {r} has old {r['old']}, but the "
                            f"change before it left {prev} (sets not serialized)")
                prev = int(r["new"])
            self.expect(self.knob(root, k) == prev, f"{k}: the file has {self.knob(root, k)}, "
                        f"the last record says {prev}")
        self.expect(not os.path.exists(os.path.join(root, "run/reclaimctl/saved")),
                    "/run/reclaimctl/saved still written")
        doc = self.history_json(root)
        self.expect(len(doc["records"]) == 20, f"history --json lists {len(doc['records'])} records")
        self.compare_text(root)

    def chain(self, root, knob, start):
        prev = start
        for r in (r for r in self.records(root) if r["knob"] == knob):
            if int(r["old"]) != prev:
                return f"record {r} has old {r['old']}, the change before it left {prev}"
            prev = int(r["new"])
        if self.knob(root, knob) != prev:
            return f"the file has {self.knob(root, knob)}, the last record says {prev}"
        return None

    def test_race(self):
        knob = "max_direct_reclaimers"
        outcomes = {}
        for rnd in range(20):
            root = self.root()
            start = self.knob(root, knob)
            self.set_knob(root, "throttle", "4")
            with ThreadPoolExecutor(max_workers=2) as pool:
                a = pool.submit(self.run, root, "set", "throttle", "9", ok=False)
                b = pool.submit(self.run, root, "restore", ok=False)
                pa, pb = a.result(), b.result()
            self.expect(pa.returncode == 0 and pb.returncode == 0,
                        f"round {rnd}: set exited {pa.returncode} ({pa.stderr.strip()}), "
                        f"restore exited {pb.returncode} ({pb.stderr.strip()})")
            broken = self.chain(root, knob, start)
            self.expect(broken is None, f"round {rnd}: set and restore at once: {broken}")
            final = self.knob(root, knob)
            self.expect(final in (4, 9), f"round {rnd}: {knob} is {final}: neither order gives that "
                        f"(set then restore: 4, restore then set: 9)")
            outcomes[final] = outcomes.get(final, 0) + 1
            for _ in range(3):
                if NOTHING in self.run(root, "restore", json_out=False).stdout:
                    break
            self.expect(self.knob(root, knob) == start,
                        f"round {rnd}: after restoring everything {knob} is "
                        f"{self.knob(root, knob)}, not {start} from before the first change")
            self.expect(self.chain(root, knob, start) is None,
                        f"round {rnd}: after the restores: {self.chain(root, knob, start)}")
        print(f"  race: final values over 20 rounds: {outcomes}")

    def test_torn(self):
        root = self.root()
        self.set_knob(root, "throttle", "8")
        self.set_knob(root, "swappiness", "20")
        before = self.records(root)
        with open(os.path.join(root, HISTORY), "a") as f:
            f.write("change=99 time=1764579199.000000001 command=set source=val")
        doc = self.history_json(root)
        self.expect([(r["knob"], r["new"]) for r in doc["records"]]
                    == [("max_direct_reclaimers", 8), ("swappiness", 20)],
                    f"history with a torn last line: {json.dumps(doc['records'])}")
        text = self.run(root, "history", json_out=False)
        self.expect(text.returncode == 0 and "change=99" not in text.stdout,
                    f"history (text) with a torn last line: exit {text.returncode} {text.stderr!r}")
        self.set_knob(root, "watermark_scale_factor", "30")
        recs = self.records(root)
        # the set rewrites the file without the torn line: the same records, then its own
        self.expect(recs[:2] == before and len(recs) == 3
                    and recs[-1]["knob"] == "watermark_scale_factor" and recs[-1]["new"] == "30"
                    and int(recs[-1]["change"]) > int(recs[1]["change"]),
                    f"the set after a torn line: history is {self.raw(root)!r}")
        doc = self.history_json(root)
        self.expect(len(doc["records"]) == 3, f"history after the set: {json.dumps(doc['records'])}")
        # a malformed line that is not the last: refused, FILE:N
        lines = self.raw(root).split("\n")
        lines[1] = "change=2 time=oops"
        with open(os.path.join(root, HISTORY), "w") as f:
            f.write("\n".join(lines))
        p = self.run(root, "history", ok=False)
        self.expect(p.returncode == 1 and "/run/reclaimctl/history:2:" in p.stderr,
                    f"a malformed line 2: history exits {p.returncode}: {p.stderr.strip()!r} "
                    "(expected 1 and /run/reclaimctl/history:2: ...)")

    def test_bound(self):
        root = self.root()
        now = time.time() - 3600
        lines, change = [], 0
        state = {"swappiness": 60, "watermark_scale_factor": 10, "max_direct_reclaimers": 3}
        knobs = list(state)
        for i in range(1200):
            change += 1
            k = knobs[i % 3] if i < 3 else knobs[(i % 2) + 1]  # swappiness only in the first 3
            new = 20 + (i % 50) if state[k] != 20 + (i % 50) else 21 + (i % 50)
            lines.append(f"change={change} time={now + i:.9f} command=set source=value knob={k} "
                         f"old={state[k]} new={new}")
            state[k] = new
        os.makedirs(os.path.join(root, "run/reclaimctl"), exist_ok=True)
        with open(os.path.join(root, HISTORY), "w") as f:
            f.write("\n".join(lines) + "\n")
        for k, v in state.items():
            self.write_knob(root, k, v)
        firsts = {}
        for line in lines:
            k = re.search(r"knob=(\S+)", line).group(1)
            firsts.setdefault(k, line)
        self.set_knob(root, "zone_reclaim_mode", "1")
        recs = self.records(root, comments=True)
        text = [line for line in self.raw(root).split("\n")[:-1] if not line.startswith("#")]
        header = [line for line in self.raw(root).split("\n") if line.startswith("#")
                  and not INTENT.fullmatch(line) and not DONE.fullmatch(line)]
        self.expect(len(recs) <= len(firsts) + 1 + 1000,
                    f"after a set on 1,200 records: {len(recs)} remain (at most "
                    f"{len(firsts) + 1} first records + 1,000)")
        self.expect(len(recs) < 1201, f"the history was not bounded: {len(recs)} records")
        for k, line in firsts.items():
            self.expect(line in text, f"the first record of {k} was dropped: {line}")
        self.expect(recs[-1]["knob"] == "zone_reclaim_mode" and text[-2] == lines[-1],
                    "the newest records are not the last ones kept")
        self.expect(set(text) - {text[-1]} <= set(lines), "the bound rewrote records")
        doc = self.history_json(root)
        self.expect(len(doc["records"]) == len(recs), f"history --json: {len(doc['records'])} records, "
                    f"the file {len(recs)}")
        self.expect(doc["trimmed"] == 1201 - len(recs),
                    f"history --json: trimmed {doc['trimmed']}, {1201 - len(recs)} records dropped")
        # the one line that is not a record: how many the bound dropped (reclaimctl(8), history)
        self.expect(header == [f"# trimmed={1201 - len(recs)}"],
                    f"the bounded history's comment lines: {header}, expected one "
                    f"'# trimmed={1201 - len(recs)}'")

    def restore(self, root, boot=False):
        args = ["restore", "--boot"] if boot else ["restore"]
        dry = self.run(root, *args, "--dry-run").doc
        done = self.run(root, *args).doc
        d = {k: v for k, v in dry.items() if k != "dry_run"}
        a = {k: v for k, v in done.items() if k not in ("dry_run", "verified_nodes")}
        d.pop("verified_nodes", None)
        self.expect(d == a, f"{' '.join(args)}: the dry run and the restore differ:\n"
                    f"  dry run: {json.dumps(dry)}\n  restore: {json.dumps(done)}")
        return done

    def test_restore(self):
        root = self.root()
        kinds = ["max_direct_reclaimers", "swap_round_robin_quota_kb", "swappiness",
                 "watermark_scale_factor"]
        states = [{k: self.knob(root, k) for k in kinds}]
        os.makedirs(os.path.join(root, "etc/reclaimctl/presets"))
        with open(os.path.join(root, "etc/reclaimctl/presets/web.preset"), "w") as f:
            f.write("throttle = 5\nswappiness = 25\nwatermark_scale_factor = 40\n")
        steps = [["set", "throttle", "8"], ["set", "swap-quota", "4M"],
                 ["preset", "apply", "web"], ["set", "swappiness", "33"]]
        ids = []
        for args in steps:
            self.run(root, *args)
            ids.append(self.last_change(root))
            states.append({k: self.knob(root, k) for k in kinds})
        self.expect(len(set(ids)) == 4, f"change ids {ids}")
        preset_recs = [r for r in self.records(root) if r["change"] == str(ids[2])]
        self.expect(sorted(r["knob"] for r in preset_recs)
                    == ["max_direct_reclaimers", "swappiness", "watermark_scale_factor"]
                    and all(r["source"] == "preset:web" and r["command"] == "preset" for r in preset_recs),
                    f"preset apply web: records {preset_recs}")
        for i in range(4, 0, -1):
            doc = self.restore(root)
            want = states[i - 1]
            self.expect({k: self.knob(root, k) for k in kinds} == want,
                        f"restore #{5 - i} (undoing change {ids[i - 1]}, {' '.join(steps[i - 1])}): "
                        f"knobs {({k: self.knob(root, k) for k in kinds})}, expected {want}")
            srcs = {e["source"] for e in doc["entries"]}
            self.expect(srcs == {f"change:{ids[i - 1]}"} and doc["command"] == "restore",
                        f"restore #{5 - i}: sources {srcs}, expected change:{ids[i - 1]}")
            last = self.records(root)[-1]
            self.expect(last["command"] == "restore" and last["undoes"] == str(ids[i - 1])
                        and last["source"] == f"change:{ids[i - 1]}",
                        f"restore #{5 - i}: last record {last}")
        self.expect(self.knob(root, "max_direct_reclaimers") == 3
                    and self.knob(root, "swap_round_robin_quota_kb") == 2048,
                    "the issue's two changes were not both restored")
        p = self.run(root, "restore", json_out=False)
        self.expect(p.returncode == 0 and NOTHING in p.stdout,
                    f"a fifth restore: exit {p.returncode} stdout {p.stdout!r} stderr {p.stderr!r}")
        doc = self.run(root, "restore").doc
        self.expect(doc.get("entries") == [] and doc.get("changed") is False,
                    f"restore --json with nothing to restore: {json.dumps(doc)}")
        doc = self.history_json(root)
        undone = {r["change"] for r in doc["records"] if r["undone"]}
        self.expect(set(ids) <= undone, f"history --json: undone changes {sorted(undone)}, "
                    f"expected at least {ids}")
        self.compare_text(root)

    def test_issue_two_restores(self):
        root = self.root()
        self.set_knob(root, "throttle", "8")
        self.set_knob(root, "swap-quota", "4M")
        self.restore(root)
        self.expect(self.knob(root, "swap_round_robin_quota_kb") == 2048
                    and self.knob(root, "max_direct_reclaimers") == 8,
                    f"first restore: quota {self.knob(root, 'swap_round_robin_quota_kb')}, "
                    f"throttle {self.knob(root, 'max_direct_reclaimers')} (expected 2048, 8)")
        self.restore(root)
        self.expect(self.knob(root, "max_direct_reclaimers") == 3,
                    f"second restore: throttle {self.knob(root, 'max_direct_reclaimers')}, expected 3")

    def test_restore_boot(self):
        root = self.root()
        first = {k: self.knob(root, k) for k in ("max_direct_reclaimers", "swappiness",
                                                 "watermark_scale_factor")}
        for args in (["throttle", "8"], ["swappiness", "20"], ["throttle", "9"],
                     ["watermark_scale_factor", "50"], ["swappiness", "21"]):
            self.set_knob(root, *args)
        self.restore(root)  # undoes swappiness 21
        doc = self.restore(root, boot=True)
        got = {k: self.knob(root, k) for k in first}
        self.expect(got == first, f"restore --boot: knobs {got}, expected {first}")
        self.expect(doc["command"] == "restore-boot"
                    and all(e["source"] == "boot" for e in doc["entries"]),
                    f"restore --boot: {json.dumps(doc)[:400]}")
        recs = self.records(root)
        last = [r for r in recs if r["command"] == "restore-boot"]
        self.expect(last and all(r["undoes"] == "all" and r["source"] == "boot" for r in last),
                    f"restore --boot records: {last}")
        p = self.run(root, "restore", json_out=False)
        self.expect(p.returncode == 0 and NOTHING in p.stdout,
                    f"restore after restore --boot: exit {p.returncode} {p.stdout!r} {p.stderr!r}")
        self.compare_text(root)

    def test_overwritten(self):
        root = self.root()
        self.set_knob(root, "swappiness", "20")
        self.set_knob(root, "swappiness", "30")
        self.write_knob(root, "swappiness", 45)
        # another writer's value is left alone (issue 30): skipped, and said why
        doc = self.restore(root)
        e = self.entries(doc, "restore").get("swappiness")
        self.expect(e is not None and e["old"] == 45 and e["action"] == "skipped" and
                    e["source"] == "outside",
                    f"restore of a change overwritten since (45, not 30): entry {e}, expected "
                    "it skipped (another writer's value)")
        self.expect(e["reason"] and re.search(r"45.*another writer", e["reason"]),
                    f"the entry does not say the knob changed since: reason {e['reason']!r}")
        self.expect(self.knob(root, "swappiness") == 45,
                    f"swappiness is {self.knob(root, 'swappiness')} after the restore, expected 45")
        # with --force it goes back to its value before the first change since boot
        dry = self.run(root, "restore", "--force", "--dry-run").doc
        done = self.run(root, "restore", "--force").doc
        e = self.entries(done, "restore").get("swappiness")
        self.expect(dry["entries"] == done["entries"] and e is not None and e["old"] == 45 and
                    e["new"] == 60 and e["action"] == "set",
                    f"restore --force of a change overwritten since: entry {e}, expected "
                    "old 45 new 60 (the value before the first change since boot)")
        self.expect(self.knob(root, "swappiness") == 60,
                    f"swappiness is {self.knob(root, 'swappiness')} after restore --force, "
                    "expected 60")
        text = self.run(root, "restore", "--dry-run", json_out=False)
        self.expect(text.returncode == 0, f"restore --dry-run after: {text.stderr!r}")
        self.compare_text(root)

    def compare_text(self, root):
        doc = self.history_json(root)
        text = self.run(root, "history", json_out=False).stdout.splitlines()
        if not doc["records"]:
            self.expect(text == ["no changes since boot"], f"empty history: {text}")
            return
        spec = ["TIME", "CHANGE", "COMMAND", "SOURCE", "KNOB", "OLD", "NEW"]
        head = text[0].split()
        # the engine adds a NOTE column (undone / undoes N): beyond the spec, checked too
        self.expect(head[:7] == spec and head[7:] in ([], ["NOTE"]), f"history header: {text[0]!r}")
        rows = [line.split() for line in text[1:] if line.strip()]
        self.expect(len(rows) == len(doc["records"]),
                    f"history: {len(rows)} rows, --json {len(doc['records'])} records")
        for row, r in zip(rows, doc["records"]):
            # one instant twice: RFC 3339 with the offset, and seconds since the epoch
            at = datetime.datetime.fromisoformat(r["time"])
            self.expect(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d",
                                     r["time"]) is not None and
                        abs(at.timestamp() - r["epoch"]) < 1e-6,
                        f"history --json: time {r['time']!r} is not epoch {r['epoch']!r}")
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(int(r["epoch"])))
            want = stamp.split() + [str(r["change"]), r["command"], r["source"], r["knob"],
                                    str(r["old"]), str(r["new"])]
            if r.get("outside"):
                # another writer's value: no change of reclaimctl's
                want = (stamp.split() + ["-", "outside", "another", "writer", r["knob"],
                                         str(r["old"]), str(r["new"])] +
                        (["changed", "outside", "reclaimctl"] if head[7:] else []))
                self.expect(row == want, f"history row {row} vs --json {want}")
                continue
            if head[7:]:
                what = ("undone" if r.get("undone") else
                        f"undoes {r['undoes']}" if r.get("undoes") is not None else "")
                note = (("interrupted, " + what if what else "interrupted")
                        if r.get("interrupted") else what or "-")
                want += note.split()
            self.expect(row == want, f"history row {row} vs --json {want}")

    def history_table(self, root):
        """The table without its times, which are the clock's."""
        p = self.run(root, "history", "-o", "CHANGE,COMMAND,SOURCE,KNOB,OLD,NEW,NOTE", json_out=False)
        return p.stdout

    def test_killed(self):
        root = self.root()
        knob = "max_direct_reclaimers"
        self.set_knob(root, "throttle", "5")
        p = self.run(root, "set", "--persist", "throttle", "8", json_out=False, ok=False,
                     env={HOOK: "kill"})
        self.expect(p.returncode == -signal.SIGKILL,
                    f"set with {HOOK}=kill: exit {p.returncode} {p.stderr!r}, expected SIGKILL "
                    "(a build with the tests has the hook)")
        with open(os.path.join(root, "etc/sysctl.d/90-reclaimctl.conf")) as f:
            persisted = f.read()
        self.expect(self.knob(root, knob) == 8 and f"vm.{knob} = 8\n" in persisted,
                    f"killed after the write: the knob is {self.knob(root, knob)}, persisted "
                    f"{persisted!r} (expected 8 in both)")
        table = self.history_table(root)
        want = ("CHANGE COMMAND SOURCE KNOB                  OLD NEW NOTE\n"
                "     1 set     value  max_direct_reclaimers   3   5 -\n"
                "     2 set     value  max_direct_reclaimers   5   8 interrupted\n")
        self.expect(table == want, f"history after the kill:\n{table}expected:\n{want}")
        doc = self.history_json(root)
        self.expect([r["interrupted"] for r in doc["records"]] == [False, True]
                    and [r["undone"] for r in doc["records"]] == [False, False],
                    f"history --json after the kill: {json.dumps(doc['records'])}")
        self.expect([r["interrupted"] for r in self.records(root)] == [False, True],
                    f"the file after the kill: {self.raw(root)!r}")
        self.compare_text(root)
        doc = self.restore(root)
        e = self.entries(doc, "restore").get(knob)
        self.expect(e is not None and (e["old"], e["new"], e["action"], e["source"])
                    == (8, 5, "set", "change:2"),
                    f"restore of the interrupted change: entry {e}, expected 8 -> 5 from change:2")
        self.expect(e["reason"].startswith("undoes interrupted change 2 (set at ")
                    and "something else" not in e["reason"],
                    f"restore of the interrupted change: reason {e['reason']!r}")
        self.expect(self.knob(root, knob) == 5, f"after the restore {knob} is {self.knob(root, knob)}")
        table = self.history_table(root)
        want = ("CHANGE COMMAND SOURCE   KNOB                  OLD NEW NOTE\n"
                "     1 set     value    max_direct_reclaimers   3   5 -\n"
                "     2 set     value    max_direct_reclaimers   5   8 interrupted, undone\n"
                "     3 restore change:2 max_direct_reclaimers   8   5 undoes 2\n")
        self.expect(table == want, f"history after the restore:\n{table}expected:\n{want}")
        self.expect([r["interrupted"] for r in self.records(root)] == [False, True, False],
                    f"the file after the restore: {self.raw(root)!r}")
        self.compare_text(root)
        self.restore(root)
        self.expect(self.knob(root, knob) == 3, f"the second restore left {self.knob(root, knob)}")
        p = self.run(root, "restore", json_out=False)
        self.expect(NOTHING in p.stdout, f"a third restore: {p.stdout!r} {p.stderr!r}")
        self.expect(self.chain(root, knob, 3) is None, f"the history: {self.chain(root, knob, 3)}")

    def test_drift_race(self):
        pause = 1.5
        for writer in ("set", "hand"):
            root = self.root()
            self.run(root, "set", "swappiness", "11")
            cmd = [self.reclaimctl, "--sysroot", root, "get", "swappiness"]
            env = dict(self.env, RECLAIMCTL_TEST_BEFORE_NOTE=str(int(pause * 1000)))
            start = time.monotonic()
            p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
            time.sleep(pause / 3)  # it has read the history, and waits to read the knob
            if writer == "set":
                self.run(root, "set", "swappiness", "12")
            else:
                self.write_knob(root, "swappiness", 30)
            out, err = p.communicate(timeout=60)
            self.expect(p.returncode == 0 and time.monotonic() - start >= pause,
                        f"get paused before noting drift: exit {p.returncode} {err!r}")
            outside = [l for l in self.raw(root).splitlines() if l.startswith("# outside ")]
            if writer == "set":
                self.expect(outside == [], "a set between the drift noting's reads of the history "
                            f"and of the knob was taken for another writer: {outside}")
            else:
                self.expect(len(outside) == 1 and outside[0].endswith(
                    " knob=swappiness expected=11 value=30"),
                            f"a knob written by hand during the pause: {outside}")

    def test_signal(self):
        knob, pause = "max_direct_reclaimers", 1.5
        for sig in (signal.SIGTERM, signal.SIGINT):
            root = self.root()
            cmd = [self.reclaimctl, "--sysroot", root, "set", "throttle", "8"]
            env = dict(self.env, **{HOOK: str(int(pause * 1000))})
            start = time.monotonic()
            # the signal's default action, even if this script's caller ignores it
            p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
            while self.knob(root, knob) != 8 and p.poll() is None and time.monotonic() < start + 10:
                time.sleep(0.01)
            p.send_signal(sig)  # between the write and its record being done
            out, err = p.communicate(timeout=60)
            took = time.monotonic() - start
            name = signal.Signals(sig).name
            self.expect(p.returncode == -sig, f"{name} during set: exit {p.returncode} "
                        f"{out!r} {err!r}, expected to end by {name} after the change")
            self.expect(took >= pause, f"{name} during set: it ended after {took:.2f} s, "
                        f"before the {pause} s between its write and its record")
            recs = self.records(root)
            self.expect([(r["knob"], r["old"], r["new"], r["interrupted"]) for r in recs]
                        == [(knob, "3", "8", False)],
                        f"{name} during set: the history is {self.raw(root)!r}, expected the "
                        "change recorded and done")
            self.expect(self.knob(root, knob) == 8, f"{name} during set: the knob is "
                        f"{self.knob(root, knob)}, the record says 8")
            doc = self.history_json(root)
            self.expect([r["interrupted"] for r in doc["records"]] == [False],
                        f"{name}: history --json {json.dumps(doc['records'])}")

    def test_empty(self):
        root = self.root()
        doc = self.history_json(root)
        self.expect(doc["records"] == [], f"fresh root: {doc}")
        self.compare_text(root)
        p = self.run(root, "restore", json_out=False)
        self.expect(p.returncode == 0 and NOTHING in p.stdout,
                    f"restore on a fresh root: exit {p.returncode} {p.stdout!r} {p.stderr!r}")

    def test_time_format(self):
        """One form of time in the JSON: RFC 3339 in local time with its offset and
        milliseconds (rounded down), and "epoch", the same instant, in seconds."""
        root = self.root()
        os.makedirs(os.path.join(root, "run/reclaimctl"), mode=0o700, exist_ok=True)
        with open(os.path.join(root, HISTORY), "w") as f:
            f.write("change=1 time=1796000000.123456789 command=set source=value "
                    "knob=swappiness old=60 new=10\n"
                    "# outside time=1796000099.999999999 knob=swappiness expected=10 value=30\n")
        self.write_knob(root, "swappiness", 30)
        # POSIX TZ strings, no zoneinfo needed: UTC-3:30 and UTC+5:45
        for tz, first, outside in [
                ("XST+3:30", "2026-11-29T21:23:20.123-03:30", "2026-11-29T21:24:59.999-03:30"),
                ("YST-5:45", "2026-11-30T06:38:20.123+05:45", "2026-11-30T06:39:59.999+05:45"),
                ("UTC0", "2026-11-30T00:53:20.123+00:00", "2026-11-30T00:54:59.999+00:00")]:
            doc = self.run(root, "history", env={"TZ": tz}).doc
            got = [(r["time"], r["epoch"]) for r in doc["records"]]
            self.expect(got == [(first, 1796000000.123), (outside, 1796000099.999)],
                        f"history --json with TZ={tz}: {got}")
            p = self.run(root, "verify", ok=False, env={"TZ": tz})
            self.expect(p.returncode == 1, f"verify: exit {p.returncode}, not 1 (drifted)")
            doc = json.loads(p.stdout)
            since = [k["since"] for k in doc["knobs"] if k["knob"] == "swappiness"]
            self.expect(since == [outside], f"verify --json with TZ={tz}: since {since}")


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    c = Checker(os.path.abspath(sys.argv[1]), sys.argv[2], os.path.abspath(sys.argv[3]))
    return checker.run(c, "history")


if __name__ == "__main__":
    sys.exit(main())

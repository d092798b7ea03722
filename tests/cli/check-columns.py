#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The column tables against what users see of them.

  check-columns.py DUMP_COLUMNS RECLAIMCTL FIXTURES MAN_SCD

DUMP_COLUMNS prints the tables the commands are built with. For each table:
  - the command's --help lists exactly its columns, in order, with their help;
  - reclaimctl(8)'s TABLES section lists them too, with the default columns;
  - -o NAME prints that column alone, --output-all every column in order,
    -o +NAME the defaults and then NAME;
  - each column's JSON key is in every row of the command's --json output,
    with the type the table says (null allowed: "unknown"): table.c builds
    the rows from the same columns, this checks that the command puts them
    where the table says (its "rows");
  - status SECTION --json is status --json's key of that section, and
    swap devices -b gives --json's sizes in bytes.
stalls is run by check-stalls-live.sh (it needs taskstats), latency by the VM
scenario latency (it needs a kernel with hist triggers): here only their
--help and man page are compared.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

dump, reclaimctl, fixtures, man = sys.argv[1:5]
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print(f"FAIL: {msg}")


def run(root, args):
    env = dict(os.environ, NO_COLOR="1", TZ="UTC")
    return subprocess.run([reclaimctl, "--sysroot", root, *args], capture_output=True,
                          text=True, env=env)


tables = json.loads(subprocess.run([dump], check=True, capture_output=True,
                                   text=True).stdout)

work = tempfile.mkdtemp()
roots = {}
for name in ("patched-2node-3threads", "swap-mixed", "unpatched-6.1"):
    roots[name] = os.path.join(work, name)
    shutil.copytree(os.path.join(fixtures, name), roots[name], symlinks=True)
os.makedirs(os.path.join(roots["patched-2node-3threads"], "run/reclaimctl"))
with open(os.path.join(roots["patched-2node-3threads"], "run/reclaimctl/history"), "w") as f:
    f.write("change=1 time=1796000000.000000000 command=boot source=preset:balanced "
            "knob=kswapd_threads old=1 new=3\n"
            "change=2 time=1796000060.500000000 command=set source=value "
            "knob=max_direct_reclaimers old=0 new=2\n"
            "change=3 time=1796000120.000000000 command=restore source=change:2 "
            "knob=max_direct_reclaimers old=2 new=0 undoes=2\n")
os.makedirs(os.path.join(roots["unpatched-6.1"], "etc/sysctl.d"), exist_ok=True)
with open(os.path.join(roots["unpatched-6.1"], "etc/sysctl.d/50-tuning.conf"), "w") as f:
    f.write("vm.swappiness = 10\n-vm.min_free_kbytes = 65536\nvm.*_factor = 20\n")

P, S, U = "patched-2node-3threads", "swap-mixed", "unpatched-6.1"
# command usage -> (fixture, text args, JSON args)
RUNS = {
    "status knobs": (P, ["status", "knobs"], ["status", "--json"]),
    "status nodes": (P, ["status", "nodes"], ["status", "--json"]),
    "status threads": (P, ["status", "threads"], ["threads", "--json"]),
    "status rings": (S, ["status", "rings"], ["status", "--json"]),
    "status devices": (S, ["status", "devices"], ["status", "--json"]),
    "status zones": (P, ["status", "zones"], ["status", "--json"]),
    "status counters": (P, ["status", "counters"], ["status", "--json"]),
    "status pressure": (P, ["status", "pressure"], ["status", "--json"]),
    "threads": (P, ["threads"], ["threads", "--json"]),
    "swap rings": (S, ["swap", "rings"], ["swap", "--json"]),
    "swap devices": (S, ["swap", "devices"], ["swap", "--json"]),
    "autotune": (S, ["autotune"], ["autotune", "--json"]),
    "preset list": (P, ["preset", "list"], ["preset", "list", "--json"]),
    "preset show": (P, ["preset", "show", "balanced"], ["preset", "show", "balanced", "--json"]),
    "history": (P, ["history"], ["history", "--json"]),
    "check": (U, ["check"], ["check", "--json"]),
    "verify": (P, ["verify"], ["verify", "--json"]),
    "figures": (P, ["figures"], ["figures", "--json"]),
}
# where the rows of "status rings" are: under the "swap" key of status
JSON_PREFIX = {"status rings": "swap.", "status devices": "swap."}


def help_columns(cmd):
    """{title: [(name, help)]} from CMD --help."""
    out = subprocess.run([reclaimctl, cmd, "--help"], check=True, capture_output=True,
                         text=True).stdout
    found, current = {}, None
    for line in out.splitlines():
        m = re.match(r"^(Available output columns|Columns of .*):$", line)
        if m:
            current = found.setdefault(m.group(1), [])
            continue
        m = re.match(r"^ +(\S+)  (.*)$", line) if current is not None else None
        if m:
            current.append((m.group(1), m.group(2)))
        elif current is not None:
            current = None
    return found


def man_tables():
    """{usage: (defaults, [names])} from the TABLES section of reclaimctl(8)."""
    text = open(man).read()
    start = text.index("\n# TABLES\n")
    end = text.index("\n# ", start + 1)
    found = {}
    for block in re.split(r"\n## ", text[start:end])[1:]:
        heading, _, body = block.partition("\n")
        m = re.search(r"Default columns: (.*?)\.\n", body)
        defaults = re.findall(r"\*([^*]+)\*", m.group(1)) if m else []
        names = re.findall(r"^\*([^*]+)\*$", body, re.M)
        for usage in heading.split(", "):
            found[usage] = (defaults, names)
    return found


def rows_at(doc, path):
    """The row objects at PATH ("nodes[].zones[]", "knobs{}") of a JSON document."""
    items = [doc]
    for part in path.split("."):
        key, kind = (part[:-2], part[-2:]) if part[-2:] in ("[]", "{}") else (part, "")
        nxt = []
        for it in items:
            value = it.get(key) if isinstance(it, dict) else None
            if kind == "[]" and isinstance(value, list):
                nxt.extend(value)
            elif kind == "{}" and isinstance(value, dict):
                nxt.extend(value.values())
            elif kind == "" and value is not None:
                nxt.append(value)
        items = nxt
    return items


def json_value(row, key):
    for part in key.split("."):
        if not isinstance(row, dict) or part not in row:
            return KeyError
        row = row[part]
    return row


TYPES = {"string": str, "number": (int, float), "bool": bool, "array": list,
         "number|string": (int, float, str), "number|bool|string": (int, float, bool, str)}

manual = man_tables()
for cmd, cmd_tables in tables.items():
    listed = help_columns(cmd)
    for t in cmd_tables:
        names = [c["name"] for c in t["columns"]]
        usage = cmd if len(cmd_tables) == 1 else f"{cmd} {t['table']}"
        title = "Available output columns" if len(cmd_tables) == 1 else f"Columns of {usage}"
        check(listed.get(title) == [(c["name"], c["help"]) for c in t["columns"]],
              f"{cmd} --help: '{title}' lists {listed.get(title)}, the table has {names}")
        defaults, man_names = manual.get(usage, ([], []))
        check(man_names == names, f"reclaimctl(8) TABLES: {usage}: {man_names}, want {names}")
        check(defaults == t["defaults"].split(","),
              f"reclaimctl(8) TABLES: {usage}: default columns {defaults}, want {t['defaults']}")
        if usage not in RUNS:
            check(cmd in ("stalls", "latency"), f"{usage}: no run for this table in check-columns.py")
            continue
        root, args, json_args = RUNS[usage]
        root = roots[root]
        for name in names:
            r = run(root, args + ["-o", name.lower()])
            check(r.returncode != 2 and name in [line.strip() for line in r.stdout.splitlines()],
                  f"{usage} -o {name.lower()}: exit {r.returncode}, no line '{name}' alone: "
                  f"{r.stdout!r} {r.stderr!r}")
        r = run(root, args + ["--output-all"])
        check(any(line.split() == names for line in r.stdout.splitlines()),
              f"{usage} --output-all: no header {names}: {r.stdout!r}")
        extra = next((n for n in names if n not in t["defaults"].split(",")), None)
        if extra:
            want = t["defaults"].split(",") + [extra]
            r = run(root, args + ["-o", "+" + extra])
            check(any(line.split() == want for line in r.stdout.splitlines()),
                  f"{usage} -o +{extra}: no header {want}: {r.stdout!r}")
        r = run(root, json_args)
        # check's exit status has bits for what it found; 2 alone is an error here
        check(r.returncode != 2, f"{json_args}: exit {r.returncode} {r.stderr}")
        doc = json.loads(r.stdout)
        rows = rows_at(doc, JSON_PREFIX.get(usage, "") + t["rows"])
        check(len(rows) > 0, f"{usage}: no rows at {t['rows']} in {json_args}")
        for c in t["columns"]:
            if not c["json"]:
                continue
            for row in rows:
                if row is None:
                    continue
                v = json_value(row, c["json"])
                check(v is not KeyError, f"{usage}: {c['name']}: no key {c['json']} in {row}")
                ok = v is None or v is KeyError or (isinstance(v, TYPES[c["type"]]) and
                                                    not (c["type"].startswith("number") and
                                                         "bool" not in c["type"] and
                                                         isinstance(v, bool)))
                check(ok, f"{usage}: {c['name']}: {c['json']} = {v!r} is not a {c['type']}")

# Two answers to one question agree: status SECTION --json is that key of
# status --json, and swap devices -b prints the sizes --json has, in bytes.
SECTION_KEYS = {"knobs": "knobs", "nodes": "nodes", "threads": "nodes", "throttle": "throttle",
                "swap": "swap", "rings": "swap", "devices": "swap", "zones": "nodes",
                "counters": "vmstat", "pressure": "pressure"}
for root in (roots[P], roots[S]):
    whole = json.loads(run(root, ["status", "--json"]).stdout)
    for section, key in SECTION_KEYS.items():
        part = json.loads(run(root, ["status", section, "--json"]).stdout)
        check(part == {"schema": 2, key: whole[key]},
              f"status {section} --json is not status --json's {key} ({root})")
swap = json.loads(run(roots[S], ["swap", "--json"]).stdout)
want = [[d["path"].replace(" ", "\\x20"), str(d["size_kb"] * 1024), str(d["used_kb"] * 1024)]
        for ring in swap["rings"] for d in ring["devices"]]
got = [line.split() for line in
       run(roots[S], ["swap", "devices", "-b", "-n", "-r", "-o", "DEVICE,SIZE,USED"]).stdout.splitlines()]
check(got == want and len(want) > 0, f"swap devices -b: {got}, swap --json in bytes: {want}")

for usage in manual:
    check(usage in [cmd if len(ts) == 1 else f"{cmd} {t['table']}"
                    for cmd, ts in tables.items() for t in ts],
          f"reclaimctl(8) TABLES has '{usage}', which is no command's table")

shutil.rmtree(work)
if failures:
    sys.exit(1)
print(f"ok: {sum(len(ts) for ts in tables.values())} tables of {len(tables)} commands")

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""contrib/grafana/reclaimctl.json: valid JSON that Grafana imports (a
title, a uid, panels with queries), its data source a variable of type
datasource that every panel and query uses, and every metric its queries
name is one `status --prometheus` exports on the patched fixture (see
metric-names.py) or a node_exporter metric reclaimctl(8) names: a metric
renamed or dropped fails here instead of leaving an empty panel. The
panels the dashboard is for are each there.

    check-dashboard.py RECLAIMCTL FIXTURES SRCDIR

TAP; exit status 0 pass, 1 fail.
"""
import importlib
import json
import os
import sys

# metric-names.py and tap.py beside it, without a __pycache__ in the source tree
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
names = importlib.import_module("metric-names")
from tap import done, result  # noqa: E402

reclaimctl, fixtures, srcdir = (os.path.abspath(a) for a in sys.argv[1:4])
path = os.path.join(srcdir, "contrib", "grafana", "reclaimctl.json")
# what the dashboard shows: kswapd threads and their CPU, scans and steals by
# kswapd and direct reclaim, stalls, throttled waits, the p99 of direct
# reclaims and throttle waits, PSI, swap rings
WANTED = {
    "reclaim_kswapd_threads", "reclaim_kswapd_cpu_seconds_total",
    "reclaim_vmstat_pgscan_kswapd_total", "reclaim_vmstat_pgscan_direct_total",
    "reclaim_vmstat_pgsteal_kswapd_total", "reclaim_vmstat_pgsteal_direct_total",
    "reclaim_vmstat_allocstall_total", "reclaim_vmstat_direct_reclaim_throttled_total",
    "node_pressure_memory_waiting_seconds_total", "node_pressure_memory_stalled_seconds_total",
    "reclaim_swap_ring_used_bytes", "reclaim_swap_ring_balance_ratio",
    "reclaim_direct_reclaim_seconds_bucket", "reclaim_throttle_wait_seconds_bucket",
}



try:
    with open(path) as f:
        dash = json.load(f)
    result(True, "reclaimctl.json is valid JSON")
except (OSError, ValueError) as e:
    result(False, "reclaimctl.json is valid JSON", e)
    done()


def walk(panels):
    for p in panels:
        yield p
        yield from walk(p.get("panels", []))


panels = [p for p in walk(dash.get("panels", [])) if p.get("type") != "row"]
targets = [(p, t) for p in panels for t in p.get("targets", [])]
result(isinstance(dash.get("title"), str) and isinstance(dash.get("uid"), str) and
       isinstance(dash.get("schemaVersion"), int) and panels and
       all(isinstance(p.get("gridPos"), dict) and p.get("targets") for p in panels),
       f"a dashboard: title, uid, schemaVersion, {len(panels)} panels, each placed and with queries")

variables = dash.get("templating", {}).get("list", [])
ds = [v for v in variables if v.get("type") == "datasource" and v.get("query") == "prometheus"]
result(len(ds) == 1, "the data source is a variable of type datasource (prometheus)",
       json.dumps(variables)[:500])
uid = "${%s}" % ds[0]["name"] if ds else None
users = [p for p in panels] + [t for _, t in targets] + [v for v in variables if "datasource" in v]
fixed = [x.get("title") or x.get("refId") or x.get("name") for x in users
         if not isinstance(x.get("datasource"), dict) or x["datasource"].get("uid") != uid]
result(uid and not fixed, f"every panel, query and variable uses {uid}", f"not: {fixed}")

queries = [t.get("expr", "") for _, t in targets]
for v in variables:
    q = v.get("query")
    queries.append(q.get("query", "") if isinstance(q, dict) else v.get("definition", ""))
used = set().union(*(names.used(q) for q in queries))
known = names.exported(reclaimctl, fixtures) | names.latency(reclaimctl) | names.alongside(
    os.path.join(srcdir, "man", "reclaimctl.8.scd"))
unknown = sorted(used - known)
result(used and not unknown,
       f"the {len(queries)} queries use {len(used)} metrics, each exported by status --prometheus "
       "on the patched fixture or named in reclaimctl(8)", f"unknown: {', '.join(unknown)}")
# one machine or a group of them: a job variable, and every query under it
job = [v for v in variables if v.get("name") == "job" and v.get("type") == "query"]
result(len(job) == 1 and "reclaim_info" in job[0].get("definition", ""),
       "a job variable, from reclaim_info", json.dumps(variables)[:300])
unjobbed = [t.get("expr") for _, t in targets if 'job=~"$job"' not in t.get("expr", "")]
result(not unjobbed, "every query selects job=~\"$job\"", f"not: {unjobbed}")
by_title = {p.get("title"): p for p in panels}
cpu = by_title.get("kswapd CPU per node", {})
result(cpu.get("fieldConfig", {}).get("defaults", {}).get("unit") == "percentunit" and
       all("node_cpu_seconds_total" not in t.get("expr", "") for t in cpu.get("targets", [])),
       "kswapd CPU per node: in CPUs (percentunit), kswapd's CPU alone",
       json.dumps(cpu.get("fieldConfig"))[:300])
boot = by_title.get("Boot unit", {})
texts = json.dumps(boot.get("fieldConfig", {}).get("defaults", {}))
result("not run since boot" in texts and " or on " in boot.get("targets", [{}])[0].get("expr", ""),
       "Boot unit: \"not run since boot\" where the unit has not run, not \"No data\"", texts[:300])
drift = by_title.get("Knobs drifted / persisted values overridden", {})
result("reclaimctl verify" in drift.get("description", ""),
       "the drift panel points at reclaimctl verify", drift.get("description"))
missing = sorted(WANTED - used)
result(not missing, "the panels it is for: kswapd threads and CPU, scans and steals, stalls, "
       "throttled waits, direct reclaim and throttle latency, PSI, swap rings", f"no query of: {', '.join(missing)}")
done()

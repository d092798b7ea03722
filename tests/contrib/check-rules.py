#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""contrib/prometheus: the rules pass `promtool check rules`, their unit
tests (tests.yml) pass `promtool test rules`, every alert has a test in
which it fires, the drift alert points at `reclaimctl verify`, and every metric the rules query is one `status
--prometheus` exports or a node_exporter metric reclaimctl(8) names.

    check-rules.py RECLAIMCTL FIXTURES SRCDIR

TAP; exit status 0 pass, 1 fail, 77 (skip) without promtool (Debian
package prometheus).
"""
import os
import re
import shutil
import subprocess
import sys

# metric-names.py and tap.py beside it, without a __pycache__ in the source tree
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import importlib  # noqa: E402

from tap import done, result  # noqa: E402

names = importlib.import_module("metric-names")

reclaimctl, fixtures, srcdir = (os.path.abspath(a) for a in sys.argv[1:4])
promtool = shutil.which("promtool")
if not promtool:
    print("skipped: no promtool (Debian package prometheus; scripts/deps.sh test installs it)")
    sys.exit(77)
contrib = os.path.join(srcdir, "contrib", "prometheus")
rules = os.path.join(contrib, "reclaimctl.rules.yml")
tests = os.path.join(contrib, "tests.yml")



for args, what in (
    (["check", "rules", rules], "promtool check rules reclaimctl.rules.yml"),
    (["test", "rules", tests], "promtool test rules tests.yml: every alert fires where it should, "
     "and only there"),
):
    p = subprocess.run([promtool, *args], cwd=contrib, capture_output=True, text=True, timeout=120)
    result(p.returncode == 0, what, p.stdout + p.stderr)

with open(rules) as f:
    rules_text = f.read()
with open(tests) as f:
    tests_text = f.read()
alerts = re.findall(r"^\s*- alert: (\w+)", rules_text, re.M)
# a test expecting the alert to fire: an exp_labels naming it
firing = set(re.findall(r"exp_labels: \{alertname: (\w+)", tests_text))
untested = [a for a in alerts if a not in firing]
result(bool(alerts) and not untested,
       f"each of the {len(alerts)} alerts has a test in which it fires",
       f"no firing test for: {', '.join(untested)}")

# the drift alert sends the admin to the command that answers it
drifted = re.search(r"- alert: ReclaimKnobDrifted\n(.*?)(?=\n\s*- alert:|\Z)", rules_text, re.S)
drift_text = " ".join(drifted.group(1).split()) if drifted else ""
result("reclaimctl verify" in drift_text and "history shows" not in drift_text,
       "ReclaimKnobDrifted points at reclaimctl verify", drifted.group(1) if drifted else "no alert")


def expressions(text):
    """The PromQL of each expr: key, a block scalar's lines included."""
    out, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^(\s+)expr: (.*)$", line)
        if not m:
            continue
        if m.group(2).strip() not in ("|", ">", "|-", ">-"):
            out.append(m.group(2))
            continue
        for more in lines[i + 1:]:
            if more.strip() and len(more) - len(more.lstrip()) <= len(m.group(1)):
                break
            out.append(more)
    return "\n".join(out)


exprs = expressions(rules_text)
known = names.exported(reclaimctl, fixtures) | names.latency(reclaimctl) | names.alongside(
    os.path.join(srcdir, "man", "reclaimctl.8.scd"))
unknown = sorted(names.used(exprs) - known)
result(names.used(exprs) and not unknown,
       f"the rules query {len(names.used(exprs))} metrics, each exported by status --prometheus "
       "or named in reclaimctl(8)", f"unknown: {', '.join(unknown)}")
done()

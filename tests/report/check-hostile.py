#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-hostile.py RECLAIMCTL RECORD - report refuses absurd numbers and escapes every string.

From a real recording (RECORD), makes hostile copies and runs `reclaimctl report`:
  - every string a recording holds (but the line types) is '<script>...</script>"'&'
    (a knob event's knob too, as "swappiness <script>..."): the page has no
    '<script', no raw '"'&' run, and the markup stays well formed;
  - an elapsed of 1e400 (infinity), one of 1e300, a negative counter and one
    beyond 64 bits: exit 1, one line naming the file, the line and the key,
    no page written, in bounded time (the chart's tick loop once never ended);
  - a pid, a node and a timestamp beyond int: read, never converted.
Prints TAP.
"""
import json
import os
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

from tap import done, result

reclaimctl, record = sys.argv[1], sys.argv[2]
HOSTILE = "<script>alert(1)</script>\"'&"
KEEP = {"type", "event"}


def hostile(value, key=None):
    if isinstance(value, dict):
        return {k: (v if k in KEEP else hostile(v, k)) for k, v in value.items()}
    if isinstance(value, list):
        return [hostile(v, key) for v in value]
    if isinstance(value, str):
        return ("swappiness " + HOSTILE) if key == "knob" else HOSTILE
    return value


def report(lines, tmp, name):
    src = os.path.join(tmp, name + ".jsonl")
    out = os.path.join(tmp, name + ".html")
    with open(src, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    try:
        p = subprocess.run([reclaimctl, "report", src, "--html", out], capture_output=True,
                           text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return None, src, out
    return p, src, out


class Checker(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors = [], []

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.errors.append("a <script> element")
        if tag not in ("meta", "br", "line", "rect", "polyline", "circle", "path", "link"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in ("meta", "br", "line", "rect", "polyline", "circle", "path", "link"):
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()


with open(record) as f:
    base = [json.loads(line) for line in f if line.strip()]

with tempfile.TemporaryDirectory() as tmp:
    lines = [json.dumps(hostile(o)) for o in base]
    p, src, out = report(lines, tmp, "strings")
    result(p is not None and p.returncode == 0, "report of a recording with hostile strings",
           p.stderr if p else "timed out")
    page = open(out).read() if os.path.exists(out) else ""
    result("<script" not in page.lower(), "no <script in the page",
           page[max(0, page.lower().find("<script") - 200):][:400])
    result("\"'&" not in page, "no raw \"'& in the page")
    result("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;" in page,
           "the strings are there, escaped")
    c = Checker()
    c.feed(page)
    result(not c.errors, "the markup is well formed", "\n".join(c.errors[:10]))

    def broken(name, mutate, key):
        at = next(i for i, o in enumerate(base) if o.get("type") == "sample" and
                  o.get("elapsed", 0) > 0)
        obj = json.loads(json.dumps(base[at]))
        mutate(obj)
        lines = [json.dumps(o) for o in base]
        # json.dumps writes infinity as "Infinity", which is no JSON: spell it 1e400
        lines[at] = json.dumps(obj).replace("Infinity", "1e400")
        p, src, out = report(lines, tmp, name)
        want = f"reclaimctl: {src}:{at + 1}: \"{key}\" is not a number a recording holds\n"
        result(p is not None and p.returncode == 1 and p.stderr == want and
               not os.path.exists(out), f"{name}: refused with the file, line and key",
               "timed out" if p is None else f"exit {p.returncode}, stderr {p.stderr!r}, "
               f"want {want!r}, page written: {os.path.exists(out)}")

    broken("elapsed-infinite", lambda o: o.update(elapsed=float("inf")), "elapsed")
    broken("elapsed-absurd", lambda o: o.update(elapsed=1e300), "elapsed")
    broken("counter-negative", lambda o: o["counters"].update(pgscan_kswapd=-5), "pgscan_kswapd")
    broken("counter-huge", lambda o: o["counters"].update(pswpin=1e25), "pswpin")

    # numbers a recording may hold that no thread or time has: accepted, never converted
    # into an int (the sanitizer build would stop at that), the sample still read
    at = next(i for i, o in enumerate(base) if o.get("type") == "sample" and
              o.get("elapsed", 0) > 0 and o.get("threads"))
    odd = json.loads(json.dumps(base[at]))
    odd["timestamp"] = 1.5e19
    odd["threads"][0].update(pid=1e19, node=1e19)
    odd["threads"].append({"pid": 77, "name": "kswapd9", "node": -5, "cpu_seconds": 1})
    lines = [json.dumps(o) for o in base]
    lines[at] = json.dumps(odd)
    p, src, out = report(lines, tmp, "odd-numbers")
    result(p is not None and p.returncode == 0 and os.path.exists(out),
           "a pid, node and timestamp beyond int: the page is written",
           "timed out" if p is None else f"exit {p.returncode}, stderr {p.stderr!r}")

done("report")

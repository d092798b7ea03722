# SPDX-License-Identifier: GPL-2.0-or-later
"""TAP for the report checks: result() prints a line per check, done() the
plan and a count, and exits 0 or 1."""
import sys

results = []


def result(ok, name, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {name}")
    if not ok and detail:
        for line in str(detail).splitlines()[:20]:
            print(f"#   {line}")


def done(what):
    print(f"1..{len(results)}")
    failed = results.count(False)
    print(f"# {what}: {len(results)} checks, {failed} failed")
    sys.exit(1 if failed else 0)

# SPDX-License-Identifier: GPL-2.0-or-later
"""TAP for the contrib checks: result() prints one test's line (and the
detail of a failure as comments), done() the plan and the exit status."""
import sys

n = failed = 0


def result(ok, what, detail=""):
    global n, failed
    n += 1
    print(f"{'ok' if ok else 'not ok'} {n} - {what}")
    if not ok:
        failed += 1
        for line in str(detail).strip().splitlines()[:40]:
            print(f"#   {line}")
    return ok


def done():
    print(f"1..{n}")
    sys.exit(1 if failed else 0)

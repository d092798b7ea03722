# SPDX-License-Identifier: GPL-2.0-or-later
"""What the checkers of reclaimctl on copies of fixture roots share: each
check is a method test_* of a Checker, which raises Failed; run() runs them
all, prints a line each and a count, and removes the scratch copies."""

import os
import shutil
import tempfile


class Failed(Exception):
    pass


class Checker:
    def __init__(self, reclaimctl, fixtures, name, **env):
        self.reclaimctl, self.fixtures = reclaimctl, fixtures
        self.env = dict(os.environ, NO_COLOR="1", **env)
        self.tmp = tempfile.mkdtemp(prefix=f"check-{name}.")
        self.serial = 0
        self.checks = 0
        self.errors = []

    def root(self, name):
        """A scratch copy of the fixture root name."""
        self.serial += 1
        dst = os.path.join(self.tmp, f"r{self.serial}")
        shutil.copytree(os.path.join(self.fixtures, name), dst, symlinks=True)
        return dst

    def expect(self, cond, msg):
        self.checks += 1
        if not cond:
            raise Failed(msg)


def run(checker, what):
    """Runs every test_* method of checker; the exit status of the script."""
    tests = [m for m in dir(checker) if m.startswith("test_")]
    try:
        for name in tests:
            try:
                getattr(checker, name)()
                print(f"ok {name}")
            except Failed as e:
                checker.errors.append(name)
                print(f"FAIL {name}: {e}")
    finally:
        shutil.rmtree(checker.tmp, ignore_errors=True)
    print(f"{len(tests) - len(checker.errors)}/{len(tests)} {what} tests passed "
          f"({checker.checks} checks)")
    return 1 if checker.errors else 0

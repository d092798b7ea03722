#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs one CLI case on a copy of a fixture root and compares stdout, stderr,
the exit status and every file the command changed with the expected file.

usage: run-case.py RECLAIMCTL CASE_FILE EXPECTED_FILE FIXTURES_DIR

A case file has "root: NAME" (a directory under FIXTURES_DIR), "args: ARGS"
(words; $ROOT stands for the copy's path) and any number of "setup: CMD"
lines, shell commands run in the copy before the command (to damage a file,
say); $SRCDIR in them is the project's source directory (to copy a shipped
file such as conf/reclaimctl.conf.example into the root). With --json or -J,
stdout must be one JSON document, or with "json: lines" one per line.
UPDATE=1 rewrites the expected file instead of comparing.
"expect-file: PATH NAME" lines compare the copy's PATH after the command byte
for byte with NAME beside the expected file (UPDATE=1 writes NAME).

Files the command adds are shown whole ("added: PATH:"), removed ones by name
("removed: PATH"), changed ones as the lines that changed, in unified diff
form ("changed: PATH:"); the times in the history and in a restore's reasons
are replaced by T and HH:MM:SS, and so is the time a value of another
writer was first seen ("first seen T"). The shipped presets are those of the source
tree (RECLAIMCTL_PRESET_DIR, presets/ unless set), shown as $PRESETS; admin
presets are made by setup lines in the copy's etc/reclaimctl/presets.

One process does what a shell script would start some twenty for: this runs
once per case and build, several hundred times in a run of the suite.
"""
import json
import locale
import os
import re
import shutil
import subprocess
import sys
import tempfile

SRCDIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# status --textfile's reclaim_textfile_timestamp_seconds is the clock's too
TEXTFILE_TIME = (re.compile(rb"^( *reclaim_textfile_timestamp_seconds) [0-9.e+]+$", re.M), rb"\1 T")
# the history's times, a restore's HH:MM:SS
CLOCK = [(re.compile(rb"time=[0-9]+\.[0-9]{9}"), b"time=T"),
         (re.compile(rb" at [0-9]{2}:[0-9]{2}:[0-9]{2}\)"), b" at HH:MM:SS)"), TEXTFILE_TIME,
         # when a command first saw another writer's value (verify, status, check)
         (re.compile(rb"first seen [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}\)"), b"first seen T)")]


def fields(case_text, key):
    """The values of the case's "KEY: value" lines, in order."""
    return [m.group(1) for m in re.finditer(rf"^{key}: *(.*)$", case_text, re.M)]


def regular_files(root):
    """./PATH of every regular file under root, sorted as sort(1) would."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            if os.path.isfile(path) and not os.path.islink(path):
                out.append("./" + os.path.relpath(path, root))
    return sorted(out, key=locale.strxfrm)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def lines(text):
    """text's lines, each with its newline (the last may have none): lines as
    sed and tail count them, split at newlines only."""
    parts = text.split(b"\n")
    return [p + b"\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def indented(text):
    """text with two spaces before each line, as sed 's/^/  /' has it."""
    return b"".join(b"  " + line for line in lines(text))


def changed_lines(old, new_path):
    """diff -U1 of the old content and the file, without its two header lines."""
    with tempfile.NamedTemporaryFile() as f:
        f.write(old)
        f.flush()
        diff = subprocess.run(["diff", "-U1", f.name, new_path], stdout=subprocess.PIPE).stdout
    return b"".join(lines(diff)[2:])


def file_changes(root, before, pristine):
    """The "--- changed files" part: removed, added and changed files."""
    after = regular_files(root)
    gone, new = set(before) - set(after), set(after) - set(before)
    out = [b"removed: %s\n" % f[2:].encode() for f in before if f in gone]
    for f in after:
        if f in new:
            out.append(b"added: %s:\n" % f[2:].encode() + indented(read(os.path.join(root, f))))
    for f in before:
        path = os.path.join(root, f)
        if os.path.isfile(path) and read(path) != pristine[f]:
            out.append(b"changed: %s:\n" % f[2:].encode() + indented(changed_lines(pristine[f], path)))
    return b"".join(out)


def json_ok(stdout, mode):
    try:
        text = stdout.decode()
        if mode == "lines":
            for line in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"):
                json.loads(line)
        else:
            json.loads(text)
        return True
    except ValueError:
        return False


def main():
    reclaimctl, case_file, expected, fixtures = sys.argv[1:5]
    try:
        locale.setlocale(locale.LC_COLLATE, "")
    except locale.Error:
        pass  # a locale the system lacks: sort(1) then sorts as in C, and so does this
    presets = os.environ.get("RECLAIMCTL_PRESET_DIR") or os.path.join(SRCDIR, "presets")
    env = dict(os.environ, RECLAIMCTL_PRESET_DIR=presets)
    with open(case_file) as f:
        case = f.read()
    root_name, args_line = fields(case, "root")[:1], fields(case, "args")[:1]
    if not root_name or not root_name[0] or not args_line or not args_line[0]:
        print(f"{case_file}: needs root: and args: lines", file=sys.stderr)
        return 1

    with tempfile.TemporaryDirectory() as work:
        root = os.path.join(work, "root")
        shutil.copytree(os.path.join(fixtures, root_name[0]), root, symlinks=True)
        for cmd in fields(case, "setup"):
            r = subprocess.run(["bash", "-euc", cmd], cwd=root, env=dict(env, SRCDIR=SRCDIR))
            if r.returncode:
                print(f"{case_file}: setup failed (exit {r.returncode}): {cmd}", file=sys.stderr)
                return r.returncode
        before = regular_files(root)
        pristine = {f: read(os.path.join(root, f)) for f in before}

        args = args_line[0].replace("$ROOT", root).split()
        run = subprocess.run([reclaimctl, "--sysroot", root, *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=dict(env, TZ="UTC", NO_COLOR="1"))
        if ("--json" in args or "-J" in args) and run.stdout:
            mode = (fields(case, "json") or ["document"])[0]
            if not json_ok(run.stdout, mode):
                print(f"stdout is not valid JSON{f' ({mode})' if mode != 'document' else ''}",
                      file=sys.stderr)
                return 1

        actual = (run.stdout + b"--- stderr\n" + run.stderr + b"--- exit %d\n" % run.returncode
                  + b"--- changed files\n" + file_changes(root, before, pristine))
        actual = actual.replace(root.encode(), b"$ROOT").replace(presets.encode(), b"$PRESETS")
        for pattern, repl in CLOCK:
            actual = pattern.sub(repl, actual)

        update = os.environ.get("UPDATE", "0") == "1"
        status = 0
        for line in fields(case, "expect-file"):
            words = line.split()
            if len(words) < 2:
                print(f"{case_file}: expect-file: needs PATH NAME", file=sys.stderr)
                return 1
            path, want = os.path.join(root, words[0]), os.path.join(os.path.dirname(expected), words[1])
            got = TEXTFILE_TIME[0].sub(TEXTFILE_TIME[1], read(path))
            if update:
                with open(want, "wb") as f:
                    f.write(got)
                print(f"updated {want}")
            elif not os.path.exists(want) or read(want) != got:
                print(f"{words[0]} differs from {want}:", file=sys.stderr, flush=True)
                with open(path, "wb") as f:
                    f.write(got)
                subprocess.run(["diff", "-u", want, path], stdout=sys.stderr)
                status = 1

        if update:
            with open(expected, "wb") as f:
                f.write(actual)
            print(f"updated {expected}")
            return 0
        if not os.path.isfile(expected):
            print(f"no expected file {expected}; actual output:", file=sys.stderr, flush=True)
            sys.stderr.buffer.write(actual)
            return 1
        if read(expected) != actual:
            mine = os.path.join(work, "actual")
            with open(mine, "wb") as f:
                f.write(actual)
            sys.stdout.flush()
            subprocess.run(["diff", "-u", expected, mine])
            status = 1
        return status


if __name__ == "__main__":
    sys.exit(main())

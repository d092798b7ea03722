#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""reclaimctl-textfile.service feeds node_exporter's textfile collector.

The build is installed with DESTDIR into a temporary directory; from the
installed reclaimctl-textfile.service come the textfile directory
(Environment=TEXTFILE_DIR=) and the command (ExecStart=), which is run
with the build's reclaimctl against the patched fixture (--sysroot) and a
temporary directory in place of ${TEXTFILE_DIR}. prometheus-node-exporter
(Debian's package) is started on 127.0.0.1 and a free port with only its
textfile collector, reading that directory; its /metrics must hold every
family of the file, reclaim_textfile_timestamp_seconds, and no scrape
error; after a second run of the command it serves the newer timestamp.
node_exporter is stopped at the end, whatever happens. The installed timer
and service pass systemd-analyze verify, the timer fires every 15 s, and
the service may write the default directory.

    check-textfile-exporter.py CMAKE BUILD_DIR RECLAIMCTL FIXTURES UNITDIR SBINDIR

TAP; exit status 0 pass, 1 fail, 77 (skip) without prometheus-node-exporter.
"""
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

# tap.py beside it, without a __pycache__ in the source tree
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import done, result  # noqa: E402

cmake, build, reclaimctl, fixtures, unitdir, sbindir = sys.argv[1:7]
exporter = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
if not exporter:
    print("skipped: no prometheus-node-exporter (scripts/deps.sh test installs it)")
    sys.exit(77)



def settings(path, section):
    """KEY=VALUE lines of one section of a unit file, in order."""
    out, current = [], None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                current = line
            elif current == f"[{section}]" and "=" in line and not line.startswith("#"):
                key, value = line.split("=", 1)
                out.append((key, value))
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scrape(port, deadline):
    """/metrics, retried until node_exporter answers or @deadline passes."""
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
                return r.read().decode()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


tmp = tempfile.mkdtemp(prefix="reclaimctl-textfile.")
proc = None
try:
    dest = os.path.join(tmp, "dest")
    p = subprocess.run([cmake, "--install", build], env={**os.environ, "DESTDIR": dest},
                       capture_output=True, text=True, timeout=120)
    if not result(p.returncode == 0, "cmake --install with DESTDIR", p.stdout + p.stderr):
        done()
    service = dest + os.path.join(unitdir, "reclaimctl-textfile.service")
    timer = dest + os.path.join(unitdir, "reclaimctl-textfile.timer")
    if not result(os.path.isfile(service) and os.path.isfile(timer),
                  f"installed: {unitdir}/reclaimctl-textfile.service and .timer"):
        done()

    if shutil.which("systemd-analyze"):
        # as tests/check-units.sh: but for the binary, which is not in / here
        p = subprocess.run(["systemd-analyze", "verify", "--man=no", timer, service],
                           capture_output=True, text=True, timeout=60)
        out = [line for line in (p.stdout + p.stderr).splitlines()
               if "is not executable" not in line and "No such file" not in line]
        result(not out, "systemd-analyze verify of the installed timer and service", "\n".join(out))
    t = dict(settings(timer, "Timer"))
    result(t.get("OnUnitActiveSec") == "15s" and t.get("OnBootSec") == "15s",
           "the timer runs the service 15 s after boot, then every 15 s", t)

    s = settings(service, "Service")
    env = dict(v.split("=", 1) for k, v in s if k == "Environment" and "=" in v)
    default_dir = env.get("TEXTFILE_DIR")
    rw = [v.lstrip("-") for k, v in s if k == "ReadWritePaths"]
    result(default_dir and default_dir in rw and ("ProtectSystem", "strict") in s,
           f"TEXTFILE_DIR={default_dir}, the one directory the sandbox (ProtectSystem=strict) "
           "lets it write", s)
    execs = [v for k, v in s if k == "ExecStart"]
    argv = shlex.split(execs[0]) if len(execs) == 1 else []
    if not result(argv[:1] == [os.path.join(sbindir, "reclaimctl")] and "${TEXTFILE_DIR}" in argv,
                  f"ExecStart={execs[0] if execs else ''}", execs):
        done()

    textdir = os.path.join(tmp, "textfile")
    os.mkdir(textdir)
    # the unit's command line: the build's binary, the fixture as the root
    cmd = [reclaimctl, "--sysroot", os.path.join(fixtures, "patched-2node-3threads")] + [
        textdir if a == "${TEXTFILE_DIR}" else a for a in argv[1:]]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    prom = os.path.join(textdir, "reclaimctl.prom")
    if not result(p.returncode == 0 and os.listdir(textdir) == ["reclaimctl.prom"],
                  f"the service's command writes {os.path.basename(prom)}: "
                  f"{' '.join(shlex.quote(a) for a in cmd[1:])}", p.stderr):
        done()
    with open(prom) as f:
        families = re.findall(r"^# TYPE (\S+) ", f.read(), re.M)

    port = free_port()
    log = open(os.path.join(tmp, "exporter.log"), "w+")
    proc = subprocess.Popen([exporter, f"--web.listen-address=127.0.0.1:{port}",
                             "--collector.disable-defaults", "--collector.textfile",
                             f"--collector.textfile.directory={textdir}"],
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        metrics = scrape(port, time.monotonic() + 20)
    except OSError as e:
        log.seek(0)
        result(False, f"node_exporter answers on 127.0.0.1:{port}", f"{e}\n{log.read()}")
        done()
    result(True, f"node_exporter ({os.path.basename(exporter)}) answers on 127.0.0.1:{port}")
    served = set(re.findall(r"^# TYPE (\S+) ", metrics, re.M))
    missing = [f for f in families if f not in served]
    result(families and not missing,
           f"its /metrics holds the {len(families)} families of reclaimctl.prom",
           f"missing: {missing}")
    result(re.search(r'^node_textfile_scrape_error 0$', metrics, re.M) and
           re.search(r'^node_textfile_mtime_seconds\{file="[^"]*reclaimctl.prom"\} ', metrics, re.M),
           "node_exporter read the file without error", "\n".join(
               line for line in metrics.splitlines() if line.startswith("node_textfile")))

    def stamp(text):
        m = re.search(r"^reclaim_textfile_timestamp_seconds (\S+)$", text, re.M)
        return float(m.group(1)) if m else None

    first = stamp(metrics)
    result(first and abs(first - time.time()) < 60,
           f"reclaim_textfile_timestamp_seconds {first} is now", first)
    for want in ('reclaim_kswapd_threads{node="0"} 3',
                 'reclaim_knob_size_bytes{knob="swap_round_robin_quota_kb"} 2.097152e+06',
                 'reclaim_vmstat_allocstall_total{zone="normal"} 18211'):
        result(want in metrics.splitlines(), f"served: {want}")

    time.sleep(1.1)
    subprocess.run(cmd, capture_output=True, timeout=60, check=True)  # the timer's next run
    second = stamp(scrape(port, time.monotonic() + 10))
    result(first and second and second > first,
           f"after the next run it serves the newer timestamp {second}", (first, second))
finally:
    if proc:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    shutil.rmtree(tmp, ignore_errors=True)
if proc:
    result(proc.returncode is not None, f"node_exporter stopped (pid {proc.pid})")
done()

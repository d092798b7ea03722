#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# status-vs-peers.sh - time `reclaimctl status --json` against the tools an
# administrator runs today for the same picture, first on the machine as it
# is, then with EXTRA_PROCS extra sleeping processes. Run by hand; not part
# of any test suite. See bench/README.md.
#
# Usage: bench/status-vs-peers.sh [RECLAIMCTL]
#   RECLAIMCTL   the binary (argument, or env RECLAIMCTL;
#                default ./build/cli/reclaimctl)
# Environment:
#   ROUNDS=20          measured rounds per phase (after WARMUP rounds)
#   WARMUP=2           unmeasured rounds per phase
#   EXTRA_PROCS=5000   sleeping processes added in the second phase (0: skip)
#   SLEEP_LIMIT=900    seconds those processes live at most, whatever happens
#
# Exit status: 0 measured (whether or not the targets were met), 1 failure,
# 2 usage error.

set -euo pipefail

prog=${0##*/}
case ${1:-} in
-h | --help)
	sed -n 's/^# \{0,1\}//; 4,20p' "$0"
	exit 0
	;;
-*)
	echo "$prog: unknown option '$1' (try --help)" >&2
	exit 2
	;;
esac
[ $# -le 1 ] || { echo "$prog: at most one argument, the reclaimctl binary" >&2; exit 2; }

reclaimctl=${1:-${RECLAIMCTL:-./build/cli/reclaimctl}}
rounds=${ROUNDS:-20}
warmup=${WARMUP:-2}
extra=${EXTRA_PROCS:-5000}
sleep_limit=${SLEEP_LIMIT:-900}

for v in rounds warmup extra sleep_limit; do
	[[ ${!v} =~ ^[0-9]+$ ]] || { echo "$prog: $v must be a number" >&2; exit 2; }
done
[ "$rounds" -ge 1 ] || { echo "$prog: ROUNDS must be at least 1" >&2; exit 2; }
[ "$extra" -le 100000 ] || { echo "$prog: EXTRA_PROCS is capped at 100000" >&2; exit 2; }
[ -x "$reclaimctl" ] || { echo "$prog: $reclaimctl: not an executable (build first, or pass the path)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "$prog: python3 is needed for timing" >&2; exit 1; }

if ! "$reclaimctl" status --json >/dev/null 2>&1; then
	echo "$prog: '$reclaimctl status --json' fails here; fix that first" >&2
	exit 1
fi

# The driver forks the extra processes itself and kills and reaps them in a
# finally block; each child also gets PR_SET_PDEATHSIG, so they die with the
# driver even if it is killed outright, and each sleeps SLEEP_LIMIT seconds at
# most. The trap forwards Ctrl-C/TERM to the driver and waits for its cleanup.
driver=
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	if [ -n "$driver" ] && kill -0 "$driver" 2>/dev/null; then
		kill -TERM "$driver" 2>/dev/null || true
		wait "$driver" 2>/dev/null || true
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

python3 - "$reclaimctl" "$rounds" "$warmup" "$extra" "$sleep_limit" <<'PY' &
import ctypes, os, shutil, signal, subprocess, sys, time

reclaimctl, rounds, warmup, extra, sleep_limit = sys.argv[1], *map(int, sys.argv[2:])

def on_term(signum, frame):
    raise KeyboardInterrupt
signal.signal(signal.SIGTERM, on_term)

PEERS = [
    ('lscpu', ['lscpu']),
    ('swapon --show', ['swapon', '--show']),
    ('sysctl vm', ['sysctl', 'vm']),
    ('pgrep kswapd', ['pgrep', 'kswapd']),
    ('cat vmstat+psi', ['cat', '/proc/vmstat', '/proc/pressure/memory']),
]
missing = [name for name, argv in PEERS if not shutil.which(argv[0])]
if missing:
    print('note: not installed, left out of the peers: ' + ', '.join(missing))
PEERS = [(n, a) for n, a in PEERS if n not in missing]
STATUS = ('reclaimctl status --json', [reclaimctl, 'status', '--json'])

CONTROL = ('control: true', [shutil.which('true') or '/bin/true'])
CPU = {}   # name -> CPU times (user + system, ns) of the measured runs, per phase

def run(argv):
    """Wall time (ns) and CPU time (ns) of one run, output discarded."""
    t0 = time.perf_counter_ns()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter_ns() - t0
    p.returncode = 0   # reaped by wait4
    return wall, int((ru.ru_utime + ru.ru_stime) * 1e9)

def phase(label):
    """A B A B ...: A = reclaimctl status, B = every peer in turn (then a
    control, /bin/true, that shows how much the machine itself slowed down)."""
    res = {STATUS[0]: [], 'peers combined': [], CONTROL[0]: []}
    cpu = {STATUS[0]: [], 'peers combined': [], CONTROL[0]: []}
    for n, _ in PEERS:
        res[n], cpu[n] = [], []
    for r in range(warmup + rounds):
        a = run(STATUS[1])
        b = {n: run(argv) for n, argv in PEERS}
        c = run(CONTROL[1])
        if r >= warmup:
            for n, t in [(STATUS[0], a), (CONTROL[0], c)] + list(b.items()):
                res[n].append(t[0])
                cpu[n].append(t[1])
            res['peers combined'].append(sum(t[0] for t in b.values()))
            cpu['peers combined'].append(sum(t[1] for t in b.values()))
    CPU[label] = cpu
    return res

def pct(xs, p):
    s = sorted(xs)
    k = max(0, min(len(s) - 1, -(-p * len(s) // 100) - 1))   # nearest rank
    return s[k]

def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2

def nprocs():
    return sum(1 for d in os.listdir('/proc') if d.isdigit())

libc = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1
children = []

def spawn(n):
    parent = os.getpid()
    sleep = shutil.which('sleep') or '/bin/sleep'
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            try:
                libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
                if os.getppid() != parent:
                    os._exit(0)
                devnull = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(devnull, fd)
                os.execv(sleep, ['sleep', str(sleep_limit)])
            finally:
                os._exit(127)
        children.append(pid)

def reap():
    for pid in children:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for pid in children:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    children.clear()

def table(title, results):
    names = [STATUS[0]] + [n for n, _ in PEERS] + ['peers combined', CONTROL[0]]
    head = '%-26s' % title
    for ph in results:
        head += ' %11s %11s' % ('median', 'p90')
    print('\n%-26s' % '' + ''.join(' %23s' % ('--- %s ---' % ph) for ph in results))
    print(head)
    for n in names:
        row = '%-26s' % n
        for ph in results:
            xs = results[ph][n]
            row += ' %11.2f %11.2f' % (median(xs) / 1e6, pct(xs, 90) / 1e6)
        print(row)

def report(results):
    table('wall time (ms)', results)
    table('CPU time, user+sys (ms)', {ph: CPU[ph] for ph in results})
    print()
    ok = True
    for ph, res in results.items():
        ratio = median(res[STATUS[0]]) / median(res['peers combined'])
        good = ratio <= 0.5
        ok &= good
        print('%-10s status/peers (medians) = %.3f   target <= 0.50: %s'
              % (ph, ratio, 'met' if good else 'NOT met'))
    if len(results) == 2:
        a, b = results.values()
        g = median(b[STATUS[0]]) / median(a[STATUS[0]]) - 1
        gp90 = pct(b[STATUS[0]], 90) / pct(a[STATUS[0]], 90) - 1
        good = g <= 0.10
        ok &= good
        print('status growth with %d processes: median %+.1f%%, p90 %+.1f%%   target <= +10%%: %s'
              % (extra, 100 * g, 100 * gp90, 'met' if good else 'NOT met'))
        ca, cb = (CPU[ph] for ph in results)
        gc = median(cb[STATUS[0]]) / max(1, median(ca[STATUS[0]])) - 1
        gt = median(b[CONTROL[0]]) / median(a[CONTROL[0]]) - 1
        print('  for comparison: status CPU time %+.1f%%; the control (/bin/true) wall time %+.1f%%'
              % (100 * gc, 100 * gt))
        gp = median(b['pgrep kswapd']) / median(a['pgrep kswapd']) - 1 \
            if 'pgrep kswapd' in a else float('nan')
        print('pgrep kswapd growth with %d processes: median %+.1f%%' % (extra, 100 * gp))
    print('\nall targets met' if ok else '\nsome targets NOT met')

try:
    print('reclaimctl: %s' % reclaimctl)
    print('kernel: %s, %d CPUs, %d processes now; %d rounds (+%d warm-up) per phase'
          % (os.uname().release, os.cpu_count(), nprocs(), rounds, warmup))
    results = {}
    print('phase 1: the machine as it is ...', flush=True)
    results['as is'] = phase('as is')
    if extra:
        t0 = time.perf_counter()
        spawn(extra)
        time.sleep(1)   # let the last ones reach sleep(1)
        print('phase 2: %d processes now (%d sleeping children started in %.1f s) ...'
              % (nprocs(), len(children), time.perf_counter() - t0), flush=True)
        label = '+%d procs' % extra
        results[label] = phase(label)
        reap()
    report(results)
except KeyboardInterrupt:
    print('\ninterrupted; reaping %d children' % len(children), file=sys.stderr)
    reap()
    sys.exit(130)
finally:
    reap()
PY
driver=$!
set +e
wait "$driver"
rc=$?
set -e
driver=
[ "$rc" = 0 ] || exit 1

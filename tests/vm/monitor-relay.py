#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Relay the guest's monitor requests to QEMU (run-scenario.sh, "vm-monitor: yes").

Tails the console log that QEMU writes (-serial file:LOG) while the VM runs.
Each complete line that starts with

    RECLAIMCTL-VM-MONITOR: COMMAND

is sent once, in console order, to QEMU's QMP socket: COMMAND is a human
monitor (HMP) command line, e.g. "device_add pc-dimm,id=dimm0,memdev=hp0,node=3",
sent as QMP human-monitor-command, or, when it starts with "{", a QMP command
in JSON, sent as it is. One request is answered before the next is read.

A request FAILS when QMP returns an error, when an HMP command's answer has a
line starting with "Error" or "unknown command" (how HMP reports failures), when
QEMU does not answer within 60 s, or when the line was garbled on the console
(a kernel message, "[    12.345678] ...", printed into the middle of it). Each
failure is one line in FAILED; the requests, answers and QMP events (e.g.
DEVICE_DELETED, ACPI_DEVICE_OST) go to LOG.

Ends when QEMU closes the socket (it exited) or on SIGTERM; exits 0 unless it
could not connect at all.

usage: monitor-relay.py QMP_SOCKET CONSOLE_LOG LOG FAILED
"""
import json
import os
import re
import select
import signal
import socket
import sys
import time

PREFIX = b"RECLAIMCTL-VM-MONITOR: "
# printk.time=1: every kernel message starts with its timestamp
KERNEL_STAMP = re.compile(r"\[\s*\d+\.\d{6}\]")
HMP_FAILURE = re.compile(r"^(Error|unknown command)", re.MULTILINE)
ANSWER_TIMEOUT = 60.0
CONNECT_TIMEOUT = 60.0


class Relay:
    def __init__(self, qmp_path, console_path, log_path, failed_path):
        self.qmp_path = qmp_path
        self.console_path = console_path
        self.log = open(log_path, "a", buffering=1)
        self.failed = open(failed_path, "a", buffering=1)
        self.t0 = time.monotonic()
        self.sock = None
        self.rbuf = b""
        self.console = None
        self.cbuf = b""
        self.seq = 0

    def note(self, text):
        self.log.write("[%7.2f] %s\n" % (time.monotonic() - self.t0, text))

    def fail(self, text):
        self.note("FAILED: " + text)
        self.failed.write(text + "\n")

    # --- QMP ---------------------------------------------------------------

    def connect(self):
        end = time.monotonic() + CONNECT_TIMEOUT
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(self.qmp_path)
                self.sock = s
                break
            except OSError as e:
                s.close()
                if time.monotonic() > end:
                    self.fail("cannot connect to QMP socket %s: %s" % (self.qmp_path, e))
                    return False
                time.sleep(0.1)
        greeting = self.message(CONNECT_TIMEOUT)
        if greeting is None or "QMP" not in greeting:
            self.fail("no QMP greeting from QEMU: %r" % (greeting,))
            return False
        self.note("connected: QEMU %s" % json.dumps(greeting["QMP"].get("version", {}).get("qemu")))
        answer = self.execute({"execute": "qmp_capabilities"})
        if answer is None or "return" not in answer:
            self.fail("qmp_capabilities refused: %r" % (answer,))
            return False
        return True

    def message(self, timeout):
        """The next QMP message (a dict), None on timeout, EOFError when QEMU is gone."""
        end = time.monotonic() + timeout
        while b"\n" not in self.rbuf:
            left = end - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.sock], [], [], left)
            if not r:
                return None
            data = self.sock.recv(65536)
            if not data:
                raise EOFError
            self.rbuf += data
        line, self.rbuf = self.rbuf.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            return {"unparsed": line.decode("utf-8", "replace")}

    def event(self, msg):
        self.note("event %s %s" % (msg.get("event"), json.dumps(msg.get("data", {}), sort_keys=True)))

    def execute(self, cmd):
        """Send one QMP command; its answer (return or error), None on timeout."""
        self.sock.sendall(json.dumps(cmd).encode() + b"\n")
        end = time.monotonic() + ANSWER_TIMEOUT
        while True:
            msg = self.message(max(0.0, end - time.monotonic()))
            if msg is None:
                return None
            if "event" in msg:
                self.event(msg)
                continue
            return msg

    # --- requests ------------------------------------------------------------

    def request(self, raw):
        self.seq += 1
        n = self.seq
        text = raw.decode("utf-8", "replace").strip()
        self.note("#%d request: %s" % (n, text))
        if KERNEL_STAMP.search(text):
            self.fail("#%d %s: garbled on the console by a kernel message, not sent" % (n, text))
            return
        if text.startswith("{"):
            try:
                cmd = json.loads(text)
            except ValueError as e:
                self.fail("#%d %s: not JSON (%s)" % (n, text, e))
                return
            hmp = False
        else:
            cmd = {"execute": "human-monitor-command", "arguments": {"command-line": text}}
            hmp = True
        answer = self.execute(cmd)
        if answer is None:
            self.fail("#%d %s: no answer from QEMU within %ds" % (n, text, ANSWER_TIMEOUT))
            return
        if "error" in answer:
            err = answer["error"]
            self.fail("#%d %s: %s: %s" % (n, text, err.get("class"), err.get("desc")))
            return
        ret = answer.get("return")
        if hmp:
            out = (ret or "").replace("\r", "").rstrip("\n")
            self.note("#%d answer: %s" % (n, out.replace("\n", "\n          | ") if out else "(empty)"))
            if HMP_FAILURE.search(out):
                self.fail("#%d %s: %s" % (n, text, out.replace("\n", " / ")))
                return
        else:
            self.note("#%d answer: %s" % (n, json.dumps(answer)))
        self.note("#%d ok" % n)

    def poll_console(self):
        if self.console is None:
            try:
                self.console = open(self.console_path, "rb")
            except OSError:
                return
        data = self.console.read()
        if not data:
            return
        self.cbuf += data
        *lines, self.cbuf = self.cbuf.split(b"\n")
        for line in lines:
            line = line.replace(b"\r", b"")
            if line.startswith(PREFIX):
                self.request(line[len(PREFIX):])

    def run(self):
        if not self.connect():
            return 1
        try:
            while True:
                self.poll_console()
                msg = self.message(0.1)
                if msg is not None:
                    if "event" in msg:
                        self.event(msg)
                    else:
                        self.note("unexpected: %s" % json.dumps(msg))
        except (EOFError, OSError) as e:
            self.note("QEMU closed the monitor (%s)" % (type(e).__name__,))
        # requests QEMU could no longer get: noted, they come after the end
        try:
            data = self.console.read() if self.console else b""
        except OSError:
            data = b""
        for line in (self.cbuf + data).split(b"\n"):
            line = line.replace(b"\r", b"")
            if line.startswith(PREFIX):
                self.note("not sent (QEMU had exited): %s" % line[len(PREFIX):].decode("utf-8", "replace"))
        return 0


def main():
    if len(sys.argv) != 5:
        sys.stderr.write(__doc__.split("\n\n")[-1].strip() + "\n")
        return 2
    relay = Relay(*sys.argv[1:])

    def stop(signum, frame):
        relay.note("stopped (signal %d)" % signum)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    return relay.run()


if __name__ == "__main__":
    sys.exit(main())

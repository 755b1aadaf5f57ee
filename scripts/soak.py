#!/usr/bin/env python3
"""The Lifebus soak (scripts/soak runs it): rounds of random apps, misbehaviour, events and kill -9s, one journal.

Each round starts lifebusd on the soak's journal (rotated small, so rotation happens often) with random options,
starts random apps — the SDK's examples, `lifebus subscribe -- python3` and `-- sh` programs, installed manifests the
broker spawns, raw protocol peers written here — that misbehave at random (slow, silent, crashing, forking children,
setsid grandchildren, flooding marks, pipelining requests, never reading), fires random events from a controller,
kill -9s apps and the broker (restarted on the same journal), then ends everything and checks:

- every journal line (all files, rotated ones too) is whole JSON, `seq` unique and contiguous across the files;
- every transition a `fire` answer acknowledged is in the journal with the same app, callback and state;
- no process of the round is alive 1 s after the round's end (every child carries LIFEBUS_SOAK_TAG);
- the broker's resident memory stayed under a bound.

Only loopback Unix sockets in a temporary folder; every loop is bounded in count and time; it stops by itself.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------------------------------------------
# Programs the apps run (each reads its behaviour from argv; all inherit LIFEBUS_SOAK_TAG through the environment).

PYTHON_PROGRAM = r"""
import os, sys, time, random, subprocess
kind = sys.argv[1]
lifebus = os.environ.get("SOAK_LIFEBUS", "lifebus")
if kind == "forking":
    for _ in range(3):
        subprocess.Popen(["sleep", "600"])
elif kind == "setsid":
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execvp("sleep", ["sleep", "600"])
        os._exit(0)
    os.wait()
elif kind == "crashing":
    time.sleep(random.uniform(0.3, 4.0))
    os._exit(random.choice([1, 2, 139]))
elif kind == "flooding":
    deadline = time.monotonic() + random.uniform(1, 6)
    n = 0
    while time.monotonic() < deadline:
        subprocess.run([lifebus, "mark", "flood-%d" % n], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        n += 1
time.sleep(600)
"""

SHELL_PROGRAMS = {
    "calm": "sleep 600",
    "setsid": "setsid sh -c 'sleep 600' & sleep 600",
    "forking": "sleep 600 & sleep 600 & wait",
    "crashing": "sleep 1; exit 3",
}

# A raw app peer: hello, then per its kind answer callbacks (or not), pipeline requests, or stop reading.
RAW_PEER = r"""
import json, os, socket, sys, threading, time
path, app_id, kind, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(path)
f = s.makefile("rb")
def send(obj):
    s.sendall((json.dumps(obj, separators=(",", ":")) + "\n").encode())
send({"jsonrpc": "2.0", "id": 1, "method": "hello",
      "params": {"role": "app", "protocolVersion": 1, "app": {"id": app_id}}})
answered = {"n": 0}
def reader():
    for line in f:
        msg = json.loads(line)
        if "method" in msg and "id" in msg and kind != "silent":
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
        elif "id" in msg and "method" not in msg:
            answered["n"] += 1
    os._exit(0)
if kind != "slowReader":
    threading.Thread(target=reader, daemon=True).start()
if kind in ("pipelining", "slowReader"):
    time.sleep(0.2)
    for i in range(count):
        send({"jsonrpc": "2.0", "id": 10 + 2 * i, "method": "mark", "params": {"name": "p%d" % i}})
        send({"jsonrpc": "2.0", "id": 11 + 2 * i, "method": "beginBackgroundTask", "params": {"name": "t"}})
time.sleep(600)
"""

# ---------------------------------------------------------------------------------------------------------------


class Controller:
    """One controller connection: JSON-RPC requests answered in order (the soak sends one at a time)."""

    def __init__(self, path: str, timeout: float) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.file = self.sock.makefile("rb")
        self.next_id = 0
        self.call("hello", {"role": "controller", "protocolVersion": 1, "client": "lifebus-soak"})

    def call(self, method: str, params: dict) -> dict:
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        self.sock.sendall(line.encode() + b"\n")
        while True:
            raw = self.file.readline()
            if not raw:
                raise ConnectionError("the broker closed the controller connection")
            message = json.loads(raw)
            if message.get("id") == self.next_id:
                return message

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


@dataclass
class Totals:
    rounds: int = 0
    events: int = 0
    refused: int = 0
    transitions: int = 0
    app_kills: int = 0
    broker_kills: int = 0
    processes: int = 0
    leftovers: int = 0
    duplicate_seq: int = 0
    gaps: int = 0
    lost: int = 0
    torn: int = 0
    max_rss_kib: int = 0
    rotations_seen: int = 0
    failures: list[str] = field(default_factory=list)


class Round:
    """One round: a broker (restarted after kill -9s) on the soak's journal, apps, events; checked at the end."""

    def __init__(self, soak: "Soak", number: int) -> None:
        self.soak = soak
        self.number = number
        self.rng = soak.rng
        self.tag = "lbsoak-%d-%d" % (os.getpid(), number)
        self.env = dict(os.environ, LIFEBUS_SOCKET=soak.socket, LIFEBUS_SOAK_TAG=self.tag,
                        SOAK_LIFEBUS=soak.lifebus, PATH=soak.bin + os.pathsep + os.environ.get("PATH", ""))
        self.children: list[subprocess.Popen] = []
        self.broker: subprocess.Popen | None = None
        self.broker_args = self.choose_broker_args()
        self.acked: dict[int, tuple] = {}
        self.app_ids: list[str] = []
        self.rss_stop = threading.Event()
        self.max_rss_kib = 0

    # -- the broker -------------------------------------------------------------------------------------------

    def choose_broker_args(self) -> list[str]:
        rng = self.rng
        args = ["--socket", self.soak.socket, "--journal", self.soak.journal, "--journal-max", "256KiB",
                "--log-level", "error", "--write-timeout", "2s", "--hello-timeout", "2s",
                "--budget", "didEnterBackground=1500ms", "--budget", "willTerminate=1s",
                "--time-scale", "0.2"]
        if rng.random() < 0.3:
            args.append("--freeze-suspended")
        if rng.random() < 0.3:
            args.append("--journal-sync")
        if rng.random() < 0.3:
            args += ["--device-memory", "4GiB", "--memory-sample", "100ms"]
        if rng.random() < 0.5:
            args += ["--apps", self.soak.apps_dir]
        return args

    def start_broker(self) -> None:
        self.broker = subprocess.Popen([self.soak.lifebusd, *self.broker_args], env=self.env,
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.soak.processes += 1
        assert self.broker.stdout is not None
        line = self.broker.stdout.readline().decode()
        if not line.startswith("listening on"):
            raise RuntimeError("lifebusd did not start: %r (exit %s)" % (line, self.broker.poll()))
        threading.Thread(target=self.sample_rss, args=(self.broker.pid,), daemon=True).start()

    def sample_rss(self, pid: int) -> None:
        while not self.rss_stop.is_set():
            try:
                with open("/proc/%d/status" % pid) as status:
                    for line in status:
                        if line.startswith("VmRSS:"):
                            self.max_rss_kib = max(self.max_rss_kib, int(line.split()[1]))
            except (OSError, ValueError):
                return
            self.rss_stop.wait(0.2)

    def stop_broker(self, how: int) -> None:
        broker = self.broker
        if broker is None:
            return
        broker.send_signal(how)
        try:
            broker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.soak.totals.failures.append("round %d: lifebusd did not stop within 15 s of %s"
                                             % (self.number, signal.Signals(how).name))
            broker.kill()
            broker.wait()
        if broker.stdout:
            broker.stdout.close()
        self.broker = None

    # -- apps -------------------------------------------------------------------------------------------------

    def spawn(self, argv: list[str]) -> subprocess.Popen:
        child = subprocess.Popen(argv, env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=self.rng.random() < 0.5)
        self.children.append(child)
        self.soak.processes += 1
        return child

    def start_apps(self) -> None:
        rng = self.rng
        for index in range(rng.randint(4, 9)):
            app_id = "soak.r%d.a%d" % (self.number, index)
            kind = rng.choice(["sdk", "python", "python", "shell", "shell", "raw", "installed"])
            delays: list[str] = []
            if rng.random() < 0.25:
                delays = ["--delay", rng.choice(["didEnterBackground=3s", "willTerminate=3s",
                                                 "willResignActive=200ms"])]
            subscribe = [self.soak.lifebus, "subscribe", "--id", app_id, "--connect-timeout", "5s", *delays, "--"]
            if kind == "sdk":
                example = rng.choice(["DeepThoughts", "ReturnMeTo"])
                if any(i.startswith("sdk." + example) for i in self.app_ids):
                    kind = "python"
                else:
                    state = os.path.join(self.soak.folder, "state-%s" % example)
                    self.spawn([os.path.join(self.soak.bin, example), "--state-file", state])
                    self.app_ids.append("sdk." + example)
                    continue
            if kind == "python":
                behaviour = rng.choice(["calm", "forking", "setsid", "crashing", "flooding"])
                self.spawn([*subscribe, "python3", "-c", PYTHON_PROGRAM, behaviour])
            elif kind == "shell":
                self.spawn([*subscribe, "sh", "-c", SHELL_PROGRAMS[rng.choice(list(SHELL_PROGRAMS))]])
            elif kind == "raw":
                behaviour = rng.choice(["silent", "pipelining", "pipelining", "slowReader", "answering"])
                count = rng.choice([200, 2000, 20000])
                self.spawn(["python3", "-c", RAW_PEER, self.soak.socket, app_id, behaviour, str(count)])
            elif kind == "installed":
                self.install(app_id, rng.choice(list(SHELL_PROGRAMS)), delays)
            self.app_ids.append(app_id)

    def install(self, app_id: str, program: str, delays: list[str]) -> None:
        manifest = {"id": app_id, "executable": self.soak.lifebus,
                    "arguments": ["subscribe", "--id", app_id, *delays, "--", "sh", "-c", SHELL_PROGRAMS[program]],
                    "environment": {"LIFEBUS_SOAK_TAG": self.tag}}
        path = os.path.join(self.soak.apps_dir, app_id + ".json")
        with open(path, "w") as out:
            json.dump(manifest, out)
        self.control("install", {"path": path})
        self.control("fire", {"event": "launch", "app": app_id, "wait": True})

    # -- events -----------------------------------------------------------------------------------------------

    def control(self, method: str, params: dict) -> dict | None:
        try:
            controller = Controller(self.soak.socket, timeout=30)
        except OSError:
            return None
        try:
            return controller.call(method, params)
        except (OSError, ConnectionError, ValueError):
            return None
        finally:
            controller.close()

    def random_event(self) -> dict:
        rng = self.rng
        apps = [a for a in self.app_ids if not a.startswith("sdk.")] + \
               ["com.example." + a[4:] for a in self.app_ids if a.startswith("sdk.")]
        event = rng.choice(["call", "call", "sms", "calendar", "sleep", "wake", "home", "home", "launch",
                            "launch", "activate", "memory-warning", "terminate"])
        params: dict = {"event": event, "wait": True}
        if event == "call":
            params["action"] = rng.choice(["ring", "answer", "decline", "end"])
        elif event == "sms":
            params["action"] = rng.choice(["show", "banner", "reply", "dismiss"])
        elif event == "calendar":
            params["action"] = rng.choice(["show", "view", "dismiss"])
        elif event == "memory-warning":
            params["level"] = rng.choice(["warning", "warning", "critical"])
        elif event in ("launch", "activate", "terminate"):
            params["app"] = rng.choice(apps)
            if event == "terminate" and rng.random() < 0.5:
                params["byUser"] = True
        return params

    def fire(self) -> None:
        answer = self.control("fire", self.random_event())
        if answer is None:
            return
        self.soak.totals.events += 1
        if "error" in answer:
            self.soak.totals.refused += 1
            return
        for record in answer["result"].get("transitions", []):
            self.acked[record["seq"]] = (record["app"], record["callback"], record["to"], record["outcome"])

    def kill_an_app(self) -> None:
        status = self.control("status", {})
        if not status or "result" not in status:
            return
        pids = [a["pid"] for a in status["result"]["apps"] if a.get("pid")]
        pids = [p for p in pids if p not in (os.getpid(), self.broker.pid if self.broker else 0)]
        if pids:
            try:
                os.kill(self.rng.choice(pids), signal.SIGKILL)
                self.soak.totals.app_kills += 1
            except ProcessLookupError:
                pass

    # -- the round --------------------------------------------------------------------------------------------

    def run(self, seconds: float) -> None:
        self.start_broker()
        self.start_apps()
        deadline = time.monotonic() + seconds
        broker_kill_at = time.monotonic() + self.rng.uniform(0.3, 0.9) * seconds \
            if self.rng.random() < 0.5 else None
        while time.monotonic() < deadline:
            roll = self.rng.random()
            if broker_kill_at is not None and time.monotonic() >= broker_kill_at:
                broker_kill_at = None
                self.stop_broker(signal.SIGKILL)
                self.soak.totals.broker_kills += 1
                self.start_broker()
            elif roll < 0.06:
                self.kill_an_app()
            else:
                self.fire()
        self.finish()

    def finish(self) -> None:
        rng = self.rng
        ending = rng.choice([signal.SIGTERM, signal.SIGTERM, signal.SIGKILL])
        if ending == signal.SIGKILL:
            self.soak.totals.broker_kills += 1
        self.stop_broker(ending)
        self.rss_stop.set()
        for child in self.children:
            if child.poll() is None:
                child.send_signal(rng.choice([signal.SIGTERM, signal.SIGKILL]))
        for child in self.children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        # A broker started once more on the journal recovers a torn tail left by a kill -9, then stops cleanly.
        self.broker_args = [a for a in self.broker_args if a != self.soak.apps_dir and a != "--apps"]
        self.start_broker()
        self.stop_broker(signal.SIGTERM)
        self.rss_stop.set()
        self.check_processes()
        self.check_journal()
        for name in os.listdir(self.soak.apps_dir):
            os.unlink(os.path.join(self.soak.apps_dir, name))

    def abandon(self) -> None:
        """Stops the round's broker and children (the soak was interrupted)."""
        self.rss_stop.set()
        if self.broker is not None:
            self.broker.send_signal(signal.SIGTERM)
            try:
                self.broker.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.broker.kill()
        for child in self.children:
            if child.poll() is None:
                child.kill()
            child.wait()

    def check_processes(self) -> None:
        deadline = time.monotonic() + 1.0
        alive = tagged_processes(self.tag)
        zombies = orphaned_zombies(self.soak.programs) - self.soak.zombies_before
        if zombies:  # PID 1 may not have reaped them yet: only those still there a moment later count
            time.sleep(2)
            zombies &= orphaned_zombies(self.soak.programs)
        if zombies:
            self.soak.totals.leftovers += len(zombies)
            self.soak.totals.failures.append("round %d: %d zombies left to PID 1: %s"
                                             % (self.number, len(zombies), sorted(zombies)[:5]))
            self.soak.zombies_before |= zombies
        while alive and time.monotonic() < deadline:
            time.sleep(0.05)
            alive = tagged_processes(self.tag)
        if alive:
            self.soak.totals.leftovers += len(alive)
            described = ", ".join("%d %s" % (pid, cmd[:60]) for pid, cmd in alive[:5])
            self.soak.totals.failures.append("round %d: %d processes left: %s" % (self.number, len(alive),
                                                                                 described))
            for pid, _ in alive:
                try:
                    os.kill(pid, signal.SIGCONT)
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def check_journal(self) -> None:
        totals = self.soak.totals
        records: dict[int, dict] = {}
        files = [self.soak.journal + suffix for suffix in ("", ".1", ".2", ".3")]
        for path in files:
            if not os.path.exists(path):
                continue
            with open(path, "rb") as journal:
                for number, raw in enumerate(journal, 1):
                    if not raw.endswith(b"\n"):
                        totals.torn += 1
                        totals.failures.append("round %d: %s:%d is torn" % (self.number, path, number))
                        continue
                    try:
                        record = json.loads(raw)
                    except ValueError:
                        totals.torn += 1
                        totals.failures.append("round %d: %s:%d is not JSON" % (self.number, path, number))
                        continue
                    seq = record.get("seq")
                    if seq in records:
                        totals.duplicate_seq += 1
                        totals.failures.append("round %d: seq %s twice (%s:%d)" % (self.number, seq, path, number))
                    records[seq] = record
        if os.path.exists(self.soak.journal + ".1"):
            totals.rotations_seen += 1
        if not records:
            totals.failures.append("round %d: the journal is empty" % self.number)
            return
        low, high = min(records), max(records)
        if high - low + 1 != len(records):
            missing = [s for s in range(low, high + 1) if s not in records]
            totals.gaps += len(missing)
            totals.failures.append("round %d: %d seq numbers missing between %d and %d (first %s)"
                                   % (self.number, len(missing), low, high, missing[:5]))
        if self.soak.last_high is not None and low > self.soak.last_high + 1 and \
                not os.path.exists(self.soak.journal + ".3"):
            totals.failures.append("round %d: seq restarted or jumped (%d after %d)"
                                   % (self.number, low, self.soak.last_high))
        if self.soak.last_high is not None and high < self.soak.last_high:
            totals.failures.append("round %d: seq went back (%d after %d)" % (self.number, high,
                                                                             self.soak.last_high))
        self.soak.last_high = high
        for seq, (app, callback, to, outcome) in self.acked.items():
            if seq < low:
                continue  # rotated out of the kept files
            record = records.get(seq)
            if record is None or record.get("type") != "transition" or \
                    (record.get("app"), record.get("callback"), record.get("to"), record.get("outcome")) != \
                    (app, callback, to, outcome):
                totals.lost += 1
                totals.failures.append("round %d: acknowledged transition seq %d (%s %s -> %s) is %s"
                                       % (self.number, seq, app, callback, to,
                                          "missing" if record is None else "different: %s" % record))
        totals.transitions += len(self.acked)


def tagged_processes(tag: str) -> list[tuple[int, str]]:
    """Live processes whose environment carries the round's tag (zombies of ours count too: they have no
    environment, so a zombie child of this script is reaped by wait() before the check)."""
    found = []
    needle = ("LIFEBUS_SOAK_TAG=" + tag).encode() + b"\0"
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open("/proc/%s/environ" % name, "rb") as environ:
                if needle not in environ.read() + b"\0":
                    continue
            with open("/proc/%s/cmdline" % name, "rb") as cmdline:
                found.append((int(name), cmdline.read().replace(b"\0", b" ").decode(errors="replace")))
        except OSError:
            continue
    return found


def orphaned_zombies(programs: set[str]) -> set[int]:
    """Zombies re-parented to PID 1 that ran one of the soak's programs (a PID 1 that does not reap keeps them)."""
    found = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as stat:
                text = stat.read()
        except OSError:
            continue
        comm = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        if fields[0] == "Z" and fields[1] == "1" and comm in programs:
            found.add(int(name))
    return found


class Soak:
    def __init__(self, args: argparse.Namespace) -> None:
        self.folder = tempfile.mkdtemp(prefix="lifebus-soak-")
        os.chmod(self.folder, 0o700)
        # The soak runs a copy of the binaries, so a build during the soak does not change them under it.
        self.bin = os.path.join(self.folder, "bin")
        os.mkdir(self.bin)
        for name in ("lifebus", "lifebusd", "DeepThoughts", "ReturnMeTo"):
            shutil.copy2(os.path.join(os.path.abspath(args.bin), name), self.bin)
        self.lifebus = os.path.join(self.bin, "lifebus")
        self.lifebusd = os.path.join(self.bin, "lifebusd")
        self.seed = args.seed if args.seed is not None else random.randrange(1 << 32)
        self.rng = random.Random(self.seed)
        self.socket = os.path.join(self.folder, "bus.sock")
        self.journal = os.path.join(self.folder, "journal.jsonl")
        self.apps_dir = os.path.join(self.folder, "apps")
        os.mkdir(self.apps_dir, 0o700)
        self.totals = Totals()
        self.processes = 0
        self.last_high: int | None = None
        self.max_rss_kib_bound = args.max_rss_mib * 1024
        self.programs = {"sleep", "sh", "python3", "lifebus", "lifebusd", "DeepThoughts", "ReturnMeTo", "setsid"}
        self.zombies_before = orphaned_zombies(self.programs)

    def run(self, minutes: float, round_seconds: float, keep: bool) -> int:
        print("soak: seed %d, %.1f minutes, rounds of %.0f s, in %s" % (self.seed, minutes, round_seconds,
                                                                        self.folder), flush=True)
        end = time.monotonic() + minutes * 60
        started = time.monotonic()
        try:
            while time.monotonic() < end:
                self.totals.rounds += 1
                failures_before = len(self.totals.failures)
                round_ = Round(self, self.totals.rounds)
                try:
                    round_.run(min(round_seconds, max(5.0, end - time.monotonic())))
                except BaseException:
                    round_.abandon()  # interrupted: nothing of the round is left running
                    raise
                self.totals.max_rss_kib = max(self.totals.max_rss_kib, round_.max_rss_kib)
                if round_.max_rss_kib > self.max_rss_kib_bound:
                    self.totals.failures.append("round %d: broker RSS %d KiB over the bound"
                                                % (round_.number, round_.max_rss_kib))
                verdict = "ok" if len(self.totals.failures) == failures_before else "FAILED"
                print("round %4d %-6s apps %2d, events %5d, acked transitions %6d, leftovers %d, max RSS %.1f MiB"
                      % (round_.number, verdict, len(round_.app_ids), self.totals.events, self.totals.transitions,
                         self.totals.leftovers, round_.max_rss_kib / 1024), flush=True)
                for failure in self.totals.failures[failures_before:][:10]:
                    print("   " + failure, flush=True)
        finally:
            if not keep:
                shutil.rmtree(self.folder, ignore_errors=True)
        t = self.totals
        print()
        print("| soak | value |")
        print("|---|---|")
        rows = [("minutes", "%.1f" % ((time.monotonic() - started) / 60)), ("seed", self.seed),
                ("rounds", t.rounds), ("events fired", t.events), ("of them refused", t.refused),
                ("acknowledged transitions checked", t.transitions), ("processes started by the soak", self.processes),
                ("apps killed -9", t.app_kills), ("broker killed -9", t.broker_kills),
                ("rounds that ended with rotated files", t.rotations_seen),
                ("max broker RSS", "%.1f MiB" % (t.max_rss_kib / 1024)), ("leftover processes", t.leftovers),
                ("duplicate seq", t.duplicate_seq), ("seq gaps", t.gaps), ("torn or bad lines", t.torn),
                ("lost acknowledged transitions", t.lost)]
        for name, value in rows:
            print("| %s | %s |" % (name, value))
        print()
        passed = t.rounds - len({f.split(":")[0] for f in t.failures})
        print("soak: %d passed, %d failed" % (passed, t.rounds - passed))
        return 0 if not t.failures else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("minutes", nargs="?", type=float, default=10.0)
    parser.add_argument("--bin", required=True, help="the folder with lifebus, lifebusd and the SDK examples")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--round-seconds", type=float, default=30.0)
    parser.add_argument("--max-rss-mib", type=float, default=64.0, help="the broker's RSS bound (default 64)")
    parser.add_argument("--keep", action="store_true", help="keep the soak's folder (journal, manifests)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    return Soak(args).run(args.minutes, args.round_seconds, args.keep)


if __name__ == "__main__":
    sys.exit(main())

"""Load run: concurrent sessions through the wired hooks while the warm server (and the worker)
are killed at random; every event must be recorded exactly once.

Run: .venv/bin/python benchmarks/bench_load.py [--sessions 8 16] [--calls 100] [--json]

A temp repository gets a 200-rule CLAUDE.md (bench_compile) and `cf-guidance init`. For each
session count, that many sessions run at once, one thread each, each sending `--calls` tool
calls as Claude Code does: the PreToolUse hook (pre-bash, a decision) then the PostToolUse
hook (post-bash), each the exact command `init --scope local` wrote into
`.claude/settings.local.json` (this venv's interpreter and launcher), as a whole
process, with a distinct tool_use_id. Meanwhile a killer sends SIGKILL to the warm hook server
(cf_guidance.hooks.hookd; found by the lock file it holds) every 0.3 to 1.5 s at random,
and to any running worker (`python -m cf_guidance.jobs.worker`) every 1 to 4 s. When all
sessions are done the spool is drained and the ledger read back.

Reported per session count: events sent, records per event (lost: an event with no record;
doubled: one with more than one; both must be 0), kills, and p50/p99 wall time of the pre- and
post-event hooks under that load, with the floor (`python -S -c pass`, run by each session
every tenth call, through the same shell) measured in the same run for the ratio. The rate limit is switched off
(GUIDANCE_RATE_LIMIT_PER_MIN=0): a session here sends several calls a second for minutes,
which is what it is for, and this run measures recording, not policy.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_compile import generate_policy  # noqa: E402
from bench_hook import RACY_WAIT_S, wired_commands  # noqa: E402

from cf_guidance.installer import install  # noqa: E402
from cf_guidance.installer.wiring import parse  # noqa: E402
from cf_guidance.jobs import spool, worker  # noqa: E402
from cf_guidance.ledger.store import Ledger  # noqa: E402

COMMANDS = ("git status --short", "npm test -- --watch=false", "ls -la src", "cat README.md", "rm -rf /",
            "git diff HEAD~1 -- src/app.py", "python -m pytest -q tests/test_app.py", "git push --force origin main")


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def holders(suffix: str, inside: str) -> list[int]:
    """Processes holding open a file in directory `inside` whose name ends with `suffix` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            targets = [os.readlink(fd) for fd in (entry / "fd").iterdir()]
        except OSError:
            continue
        if any(t.startswith(inside + os.sep) and t.endswith(suffix) for t in targets):
            found.append(int(entry.name))
    return found


def _server_pids(state: str) -> list[int]:
    """The warm servers: each holds its socket's lock file for its whole life."""
    return holders(".sock.lock", state)


def _worker_pids(root: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"cf_guidance.jobs.worker" in argv and root.encode() in argv:
            found.append(int(entry.name))
    return found


class Killer(threading.Thread):
    """SIGKILL the warm server and the worker at random moments until stopped."""

    def __init__(self, root: str, state: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.root, self.state = root, state
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        self.hookd_kills = 0
        self.worker_kills = 0

    def run(self) -> None:
        next_server = time.monotonic() + self.rng.uniform(0.3, 1.5)
        next_worker = time.monotonic() + self.rng.uniform(1.0, 4.0)
        while not self.stop.wait(0.05):
            now = time.monotonic()
            if now >= next_server:
                next_server = now + self.rng.uniform(0.3, 1.5)
                killed = [pid for pid in _server_pids(self.state) if self._kill(pid)]  # with any waiting to take over
                self.hookd_kills += bool(killed)
            if now >= next_worker:
                next_worker = now + self.rng.uniform(1.0, 4.0)
                killed = [pid for pid in _worker_pids(self.root) if self._kill(pid)]
                self.worker_kills += bool(killed)

    @staticmethod
    def _kill(pid: int) -> bool:
        try:
            os.kill(pid, signal.SIGKILL)
            return True
        except OSError:
            return False


def _session(sid: str, calls: int, argv: dict[str, list[str]], floor: list[str], env: dict[str, str], root: str,
             times: dict[str, list[float]], sent: list[tuple[str, str, str]], lock: threading.Lock) -> None:
    rng = random.Random(sid)
    common = {"session_id": sid, "transcript_path": f"/tmp/{sid}.jsonl", "cwd": root, "permission_mode": "default"}
    for i in range(calls):
        command = rng.choice(COMMANDS)
        tool_use_id = f"toolu_{sid}_{i}"
        pre = {**common, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
               "tool_use_id": tool_use_id}
        post = {**pre, "hook_event_name": "PostToolUse", "tool_response": {"stdout": "ok\n", "stderr": "", "interrupted": False}}
        for name, kind, payload in (("pre", spool.DECISION, pre), ("post", "post-bash", post)):
            started = time.perf_counter()
            result = subprocess.run(argv[name], input=json.dumps(payload).encode(), capture_output=True, env=env, cwd=root,
                                    check=False)
            elapsed = (time.perf_counter() - started) * 1000.0
            if result.returncode != 0:
                raise SystemExit(f"{name} hook failed: exit {result.returncode}: {result.stderr[:300]!r}")
            with lock:
                times[name].append(elapsed)
                sent.append((kind, sid, tool_use_id))
        if i % 10 == 0:
            started = time.perf_counter()
            subprocess.run(floor, env=env, cwd=root, check=False)
            with lock:
                times["floor"].append((time.perf_counter() - started) * 1000.0)


def _drain(root: str, state: str) -> None:
    """Wait for the hooks' workers, then drain what is left (stranded temp files included)."""
    deadline = time.monotonic() + 120
    while _worker_pids(root) and time.monotonic() < deadline:
        time.sleep(0.2)
    directory = spool.spool_dir(state)
    youngest = max((os.lstat(os.path.join(directory, n)).st_mtime for n in os.listdir(directory) if n.endswith(".tmp")), default=0.0)
    wait = youngest + getattr(spool, "STRANDED_AGE_S", 0.0) + 1 - time.time()
    if wait > 0:  # a temp file left by a killed server: the drain takes it once no writer can own it
        time.sleep(wait)
    while True:
        result = worker.drain(state, project_dir=root)
        if not result.busy and not spool.pending(state):
            return


def run_load(root: str, sessions: int, calls: int, seed: int) -> dict[str, Any]:
    state = os.path.join(root, ".claude-flow", "guidance")
    if not os.path.exists(os.path.join(root, ".claude", "settings.local.json")):
        install(root, agent="claude", verify=False, scope="local")  # absolute paths: this venv, no PATH lookup
    commands = wired_commands(root, "settings.local.json")
    # As the agent runs them: through a shell (the wired command is a guarded shell line).
    argv = {"pre": ["/bin/sh", "-c", commands["pre-bash allow"]], "post": ["/bin/sh", "-c", commands["post-bash"]]}
    parsed = parse(commands["pre-bash allow"])
    assert parsed is not None and parsed.python
    floor = ["/bin/sh", "-c", f"{shlex.quote(parsed.python)} -S -c pass"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_"))}
    env.update(CLAUDE_PROJECT_DIR=root, GUIDANCE_RATE_LIMIT_PER_MIN="0")
    before = {record["seq"] for record in Ledger(state).records()}
    times: dict[str, list[float]] = {"pre": [], "post": [], "floor": []}
    sent: list[tuple[str, str, str]] = []
    lock = threading.Lock()
    killer = Killer(root, state, seed)
    failures: list[str] = []

    def session(sid: str) -> None:
        try:
            _session(sid, calls, argv, floor, env, root, times, sent, lock)
        except BaseException as exc:  # noqa: BLE001  (reported after the run, never lost in a thread)
            failures.append(f"{sid}: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=session, args=(f"load{sessions}-{n}",)) for n in range(sessions)]
    started = time.monotonic()
    killer.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    killer.stop.set()
    killer.join()
    if failures:
        raise SystemExit(f"{len(failures)} session(s) failed; the first: {failures[0]}")
    wall = time.monotonic() - started
    _drain(root, state)
    recorded = Counter()
    for record in Ledger(state).records():
        if record["seq"] in before or record.get("kind") not in (spool.DECISION, "post-bash"):
            continue
        event = record.get("event") or {}
        recorded[(record["kind"], record.get("session_id", ""), event.get("tool_use_id", ""))] += 1
    expected = set(sent)
    floor_p50 = statistics.median(times["floor"])
    return {
        "sessions": sessions,
        "calls_per_session": calls,
        "events": len(sent),
        "lost": sum(1 for key in expected if recorded[key] == 0),
        "doubled": sum(1 for key in expected if recorded[key] > 1),
        "unexpected": sum(1 for key in recorded if key not in expected),
        "hookd_kills": killer.hookd_kills,
        "worker_kills": killer.worker_kills,
        "wall_s": round(wall, 1),
        "ledger_verifies": Ledger(state).verify().ok,
        "latency_ms": {
            name: {"p50": round(statistics.median(samples), 1), "p99": round(_percentile(samples, 0.99), 1),
                   "p50_vs_floor": round(statistics.median(samples) / floor_p50, 2)}
            for name, samples in times.items()
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[8, 16])
    parser.add_argument("--calls", type=int, default=100, help="tool calls per session (two hook events each)")
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    reports = []
    with tempfile.TemporaryDirectory(prefix="cf-guidance load ", ignore_cleanup_errors=True) as tmp:
        root = os.path.join(tmp, "repo")
        os.makedirs(root)
        subprocess.run(["git", "init", "-q", root], check=True)
        Path(root, "CLAUDE.md").write_text(generate_policy(args.rules))
        install(root, agent="claude", verify=False, scope="local")
        time.sleep(RACY_WAIT_S)  # CLAUDE.md older than the racy window: cache hits are stat checks
        for count in args.sessions:
            reports.append(run_load(root, count, args.calls, args.seed + count))
        for name in os.listdir(os.path.join(root, ".claude-flow", "guidance")):
            if name.startswith("hookd-") and name.endswith(".sock"):  # the server exits when its socket goes
                os.unlink(os.path.join(root, ".claude-flow", "guidance", name))
    if args.json:
        print(json.dumps(reports, indent=2))
        return
    print(f"load run: {args.calls} tool calls per session (pre + post hook each), hookd and worker killed at random, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'sessions':>8} {'events':>7} {'lost':>5} {'doubled':>8} {'hookd kills':>12} {'worker kills':>13}"
          f" {'pre p50/p99 ms':>16} {'post p50/p99 ms':>16} {'floor p50':>10} {'pre/floor':>10}")
    for r in reports:
        lat = r["latency_ms"]
        print(f"{r['sessions']:>8} {r['events']:>7} {r['lost']:>5} {r['doubled']:>8} {r['hookd_kills']:>12} {r['worker_kills']:>13}"
              f" {lat['pre']['p50']:>7.1f}/{lat['pre']['p99']:<8.1f} {lat['post']['p50']:>7.1f}/{lat['post']['p99']:<8.1f}"
              f" {lat['floor']['p50']:>10.1f} {lat['pre']['p50_vs_floor']:>9.2f}x")
        if r["unexpected"] or not r["ledger_verifies"]:
            print(f"  !! {r['unexpected']} unexpected records; ledger verifies: {r['ledger_verifies']}")
    print("goal: lost = doubled = 0 at every session count")


if __name__ == "__main__":
    main()

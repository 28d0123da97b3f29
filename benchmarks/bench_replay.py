"""Benchmark: `cf-guidance replay` over a large history made by the real clients.

Run: .venv/bin/python benchmarks/bench_replay.py [--sessions 10000] [--small 1000]

1. Seeds: the real `claude` (and `codex`, when installed) run scripted working sessions
   against the scripted model server in a guarded project (tests/replay/real_sessions.py):
   reads, searches, edits, tests, commits, a failing target, a denied deploy. The clients
   write their own logs.
2. History: the seeds copied, each copy with a new session id (in the file name and in every
   line), until there are `--sessions` of them: a Claude Code projects directory and a Codex
   sessions tree.
3. Figures, each beside a baseline measured in the same run (the history is read once first,
   so every figure reads it from the page cache; each replay is timed right after its floor,
   because the machine's load drifts):
   - tool calls replayed per second, under the current policy and with a candidate (two
     decisions per call), vs the floor of reading the same logs (`json.loads` of every line);
   - peak memory (max RSS of a fresh process) replaying `--small` sessions and all of them: a
     replay holds one session at a time, so the ratio stays near 1 however long the history.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.e2e.e2e_harness import find_codex, require_claude  # noqa: E402
from tests.replay.real_sessions import BAN_FAILING, LIVE_POLICY, SEQUENCE, History, bash, patch  # noqa: E402

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def tool(name: str, **tool_input: object) -> dict[str, object]:
    return {"tool_uses": [{"name": name, "input": tool_input}]}


def claude_workday(project: Path) -> list[dict[str, object]]:
    """A scripted working session: 30 calls of the kinds a real one makes."""
    app, readme = str(project / "src" / "app.py"), str(project / "README.md")
    return [
        tool("Write", file_path=readme, content="# Service\n\nRun `make test`.\n"),
        tool("Read", file_path=readme), tool("Glob", pattern="**/*.py"), tool("Grep", pattern="def ", path=str(project)),
        bash("git status --short"), bash("ls -la"), bash("mkdir -p src"),
        tool("Write", file_path=app, content="def add(a, b):\n    return a + b\n"),
        tool("Edit", file_path=app, old_string="return a + b", new_string="return a + b  # sum"),
        tool("Read", file_path=app), bash("python3 -c 'import ast,sys; ast.parse(open(\"src/app.py\").read())'"),
        bash("make test"), bash("make fail"), bash("cat src/app.py | grep -n def"), bash("find . -name '*.py' | head -20"),
        bash("git add -A && git commit -qm 'add app'"), bash("git log --oneline | head -5"), bash("make deploy"),
        bash("sed -n 1,5p README.md"), tool("Edit", file_path=readme, old_string="Run", new_string="Always run"),
        bash("git diff --stat"), bash("echo done > /tmp/cf-guidance-bench-marker && rm -f /tmp/cf-guidance-bench-marker"),
        bash("git stash && git stash pop"), bash("wc -l src/app.py README.md"), bash("make test && git commit -qam docs"),
        bash("git status"), bash("grep -rn TODO . || true"), bash("ls src"), bash("git branch --show-current"),
        bash("echo bye"), {"text": "done"},
    ]


def codex_workday() -> list[dict[str, object]]:
    return [
        bash("ls"), bash("git status --short"), patch("docs/notes.md", "notes"), bash("cat docs/notes.md"),
        bash("make test"), bash("make fail"), bash("make deploy"), bash("git add -A && git commit -qm notes"),
        bash("grep -rn notes docs"), bash("echo done"), {"text": "DONE"},
    ]


def make_seeds(root: Path) -> tuple[History, list[Path], list[Path]]:
    claude, codex = require_claude(), find_codex()
    history = History(root, LIVE_POLICY, claude=claude, codex=codex)
    claude_logs = [history.run_claude(claude_workday(history.project))]
    codex_logs = [history.run_codex(codex_workday())] if codex is not None else []
    return history, claude_logs, codex_logs


def multiply(claude_logs: list[Path], codex_logs: list[Path], out: Path, sessions: int) -> tuple[Path, int]:
    """`sessions` copies of the seeds with new session ids; returns the directory and its bytes."""
    claude_dir, codex_dir = out / "claude", out / "codex" / "2026" / "11" / "24"
    claude_dir.mkdir(parents=True)
    codex_dir.mkdir(parents=True)
    seeds = [(p, "claude") for p in claude_logs] + [(p, "codex") for p in codex_logs]
    texts = {p: p.read_text() for p, _ in seeds}
    size = 0
    for n in range(sessions):
        path, agent = seeds[n % len(seeds)]
        old = path.stem if agent == "claude" else _UUID.findall(path.stem)[-1]
        new = str(uuid.uuid4())
        text = texts[path].replace(old, new)
        target = claude_dir / f"{new}.jsonl" if agent == "claude" else codex_dir / path.name.replace(old, new)
        target.write_text(text)
        size += len(text)
    return out, size


def replay_child(paths: list[str], project: Path, candidate: Path | None) -> dict[str, float]:
    """Replay in a fresh process; its calls, seconds and max RSS."""
    code = (
        "import json, resource, sys, time\n"
        "from pathlib import Path\n"
        "from cf_guidance.policy.compiler import compile_project, compile_sources\n"
        "from cf_guidance.replay.calls import LogStats\n"
        "from cf_guidance.replay.evaluate import Policy, replay_sessions\n"
        "from cf_guidance.replay.locate import find_logs\n"
        "from cf_guidance.replay.summary import Summariser\n"
        "paths, project, candidate = json.loads(sys.argv[1])\n"
        "policies = [Policy('current', compile_project(project))]\n"
        "if candidate: policies.append(Policy('candidate', compile_sources(Path(candidate).read_text(), None, root=project)))\n"
        "start = time.perf_counter()\n"
        "stats = LogStats(); summary = Summariser([p.name for p in policies])\n"
        "for _, replayed in replay_sessions(find_logs(paths, project).logs, policies, project_dir=project, stats=stats):\n"
        "    for item in replayed: summary.add(item)\n"
        "seconds = time.perf_counter() - start\n"
        "result = summary.finish(stats)\n"
        "print(json.dumps({'calls': result.calls, 'sessions': result.sessions, 'seconds': seconds,\n"
        "                  'unknown': result.skipped_unknown, 'unreadable': result.unreadable,\n"
        "                  'maxrss_kb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))\n"
    )
    argv = [sys.executable, "-c", code, json.dumps([paths, str(project), str(candidate) if candidate else ""])]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def read_floor(paths: list[Path]) -> tuple[int, float]:
    """Every line of every log through json.loads: the floor of reading the history."""
    lines = 0
    start = time.perf_counter()
    for path in paths:
        with open(path, "rb") as handle:
            for raw in handle:
                json.loads(raw)
                lines += 1
    return lines, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=1_000)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="cf-guidance-bench-replay-"))
    try:
        history, claude_logs, codex_logs = make_seeds(root / "seed")
        versions = subprocess.run([str(history.claude_bin), "--version"], capture_output=True, text=True).stdout.split()[0]
        if history.codex_bin is not None:
            versions += " / codex " + subprocess.run([str(history.codex_bin), "--version"], capture_output=True, text=True).stdout.split()[-1]
        candidate = root / "candidate.md"
        candidate.write_text(LIVE_POLICY + "\n## Build\n\n" + BAN_FAILING + "\n" + SEQUENCE + "\n")
        big, size = multiply(claude_logs, codex_logs, root / "big", args.sessions)
        small, _ = multiply(claude_logs, codex_logs, root / "small", args.small)
        print(f"seeds: claude {versions}; {len(claude_logs)} Claude Code and {len(codex_logs)} Codex sessions, "
              f"copied to {args.sessions:,} sessions ({size / 1e6:,.0f} MB)")
        files = sorted(big.rglob("*.jsonl"))
        for path in files:  # into the page cache: no figure pays for the first read from disk
            path.read_bytes()
        results = {}
        for label, policy in (("replay, current policy", None), ("replay, current + candidate", candidate)):
            lines, floor_s = read_floor(files)
            run = replay_child([str(big)], history.project, policy)
            results[label] = run
            print(f"{label}: {run['calls']:,.0f} calls from {run['sessions']:,.0f} sessions in {run['seconds']:.2f} s = "
                  f"{run['calls'] / run['seconds']:,.0f} calls/s, {run['seconds'] / floor_s:.2f}x the floor "
                  f"(json.loads of all {lines:,} lines just before: {floor_s:.2f} s); "
                  f"{run['unknown']:.0f} unknown and {run['unreadable']:.0f} unreadable lines")
        current, both = results["replay, current policy"], results["replay, current + candidate"]
        few = replay_child([str(small)], history.project, None)
        calls = current["calls"]
        print(f"peak memory (max RSS): {few['maxrss_kb'] / 1024:,.0f} MB for {args.small:,} sessions, "
              f"{current['maxrss_kb'] / 1024:,.0f} MB for {args.sessions:,} "
              f"({current['maxrss_kb'] / few['maxrss_kb']:.2f}x for {args.sessions / args.small:.0f}x the sessions)")
        assert calls == both["calls"] > 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()

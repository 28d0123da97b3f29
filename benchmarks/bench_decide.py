"""Benchmark: in-process decision time for typical Bash, Edit and Read events, 200-rule bundle.

Run: .venv/bin/python benchmarks/bench_decide.py [--rules 200] [--iterations 5000]

The bundle is compiled from a generated CLAUDE.md (bench_compile.generate_policy). Each event
is normalised once; `evaluate(bundle, event, extras=...)` is then timed call by call (shell
analysis included: the engine analyses the command on every call, as the hook does; the extras
are a session history of 120 commands, a trust tier and a rate, as the hook passes them). Reported: p50
and p99 in microseconds (goal: p50 ≤ 50 µs), each also as a ratio to a baseline measured in
the same run, interleaved with the events: a call of a no-op Python function that takes the
same arguments (the floor of "calling something"), and a dict lookup loop over the bundle's
checks (the floor of "looking at every rule"). "Bash everyday" cycles through twelve command
lines agents send all day (EVERYDAY), one per call, and a table shows each line's p50. The shell analysis of the Bash command is also
timed alone; "… gates" rows time the Bash events with the command analysed beforehand (the
gates and the engine only, each call with a fresh context and the commands' file effects
cleared, as in a real event); a per-gate table (p50 per event) shows where the rest goes.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_compile import generate_policy  # noqa: E402

from cf_guidance.engine import evaluate  # noqa: E402
from cf_guidance.event import Event, normalise  # noqa: E402
from cf_guidance.gates._base import GateContext  # noqa: E402
from cf_guidance.gates.registry import GATES  # noqa: E402
from cf_guidance.policy.compiler import compile_sources  # noqa: E402
from cf_guidance.shell import analyze  # noqa: E402

ROOT = "/home/dev/project"

EVENTS = {
    "Bash": {"tool_name": "Bash", "tool_input": {"command": "git status --short && npm test -- --watch=false"}},
    "Bash deny": {"tool_name": "Bash", "tool_input": {"command": "rm -rf ~/"}},
    "Edit": {
        "tool_name": "Edit",
        "tool_input": {"file_path": "src/app/handlers.py", "old_string": "return None\n", "new_string": "return Response(status=204)\n"},
    },
    "Read": {"tool_name": "Read", "tool_input": {"file_path": "src/app/handlers.py"}},
}
#: Command lines agents send all day (quotes, redirections, pipes, globs, `cd`, commits): the
#: "Bash everyday" series cycles through them, one per call, so the goal is not met on one
#: convenient line. All are allowed by the benchmark's policy.
EVERYDAY = (
    "git status --short && npm test -- --watch=false",
    "ls -la",
    "cat README.md",
    'grep -rn "def main" src/',
    "python -m pytest -q tests/test_app.py",
    "npm run build 2>&1 | tail -20",
    'git commit -m "fix: handle empty body"',
    'git add -A && git commit -m "feat: add retry"',
    'find . -name "*.py" | head -20',
    "git diff HEAD~1 -- src/app.py",
    "cd src && ls",
    "git log --oneline -10",
)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_calls(fn: Callable[[], object], iterations: int) -> list[float]:
    out = []
    clock = time.perf_counter_ns
    for _ in range(iterations):
        start = clock()
        fn()
        out.append((clock() - start) / 1000.0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=5000)
    args = parser.parse_args()
    os.environ["HOME"] = "/home/dev"

    bundle = compile_sources(generate_policy(args.rules), None, root=ROOT)
    bundle["root"] = ROOT
    checks = bundle.get("checks") or []
    print(f"bundle: {len(bundle['shards'])} rules, {len(checks)} checks, level {bundle['settings']['level']}")

    def noop(bundle: object, event: object) -> None:
        return None

    def scan_checks() -> int:
        hits = 0
        for item in checks:
            if item.get("kind") == "command":
                hits += 1
        return hits

    extras = session_extras(bundle)
    events = {name: normalise(dict(payload, cwd=ROOT), project_dir=ROOT) for name, payload in EVENTS.items()}
    for name, event in events.items():  # warm-up, and show what was decided
        decision = evaluate(bundle, event, extras=extras)
        print(f"  {name:<10} -> {decision.verdict} {decision.rule}")

    everyday = [normalise({"tool_name": "Bash", "tool_input": {"command": line}, "cwd": ROOT}, project_dir=ROOT) for line in EVERYDAY]
    for line, event in zip(EVERYDAY, everyday):
        decision = evaluate(bundle, event, extras=extras)
        if decision.verdict == "deny":
            raise SystemExit(f"everyday line denied ({decision.rule}): {line}")
    rotation = itertools.cycle(everyday)
    events_timed: dict[str, Callable[[], object]] = {name: (lambda event=event: evaluate(bundle, event, extras=extras)) for name, event in events.items()}
    events_timed["Bash everyday"] = lambda: evaluate(bundle, next(rotation), extras=extras)
    bash_command = str(EVENTS["Bash"]["tool_input"]["command"])  # type: ignore[index]
    baselines = {"no-op call": lambda: noop(bundle, None), "scan checks": scan_checks, "shell only": lambda: analyze(bash_command)}
    gates_only = {f"{name} gates": event for name, event in events.items() if event.command is not None}
    samples: dict[str, list[float]] = {name: [] for name in list(events_timed) + list(gates_only) + list(baselines)}
    gc.disable()
    rounds = 10
    per_round = max(1, args.iterations // rounds)
    for _ in range(rounds):  # interleave so machine load hits every series alike
        for name, fn in events_timed.items():
            samples[name].extend(time_calls(fn, per_round))
        for name, event in gates_only.items():
            samples[name].extend(time_gates(bundle, event, extras, per_round))
        for name, fn in baselines.items():
            samples[name].extend(time_calls(fn, per_round))
    gc.enable()

    floor = statistics.median(samples["no-op call"])
    scan = statistics.median(samples["scan checks"])
    print(f"\n{'series':<15} {'p50 µs':>9} {'p99 µs':>9} {'× no-op':>9} {'× scan':>8}  goal p50 ≤ 50 µs")
    for name, values in samples.items():
        p50 = statistics.median(values)
        p99 = percentile(values, 0.99)
        mark = "" if name in baselines or name in gates_only else ("  ok" if p50 <= 50 else "  OVER")
        print(f"{name:<15} {p50:9.1f} {p99:9.1f} {p50 / floor:9.1f} {p50 / scan:8.2f}{mark}")
    print("(shell only: cf_guidance.shell.analyze of the Bash command, which every Bash decision includes;")
    print(" … gates: the same event with the command analysed beforehand: gates and engine, fresh context)")
    everyday_table(bundle, everyday, extras, max(200, args.iterations // 10))
    gate_table(bundle, events, extras, max(200, args.iterations // 10))


def session_extras(bundle: dict[str, Any]) -> dict[str, Any]:
    """What the hook passes every decision (cf_guidance.session.extras_for): a session history of
    120 commands, every `before` of the policy's sequence rules among them and run after the last
    commit (so the everyday `git commit` lines are allowed), a trust tier and a rate."""
    befores = [" ".join(item["before"]) for item in bundle.get("checks") or [] if item.get("kind") == "sequence"]
    commands = [*EVERYDAY[1:], "git commit -m 'wip'"] * 6 + befores
    commands = commands[-120:]
    history = [{"command": line, "ok": True, "seq": k, "ts": ""} for k, line in enumerate(commands)]
    return {"history": history, "trust_score": 0.8, "trust_tier": "trusted", "rate_per_min": 3, "rate_base": 60}


def everyday_table(bundle: dict[str, object], everyday: list[Event], extras: dict[str, Any], iterations: int) -> None:
    """p50 µs of each everyday line's decision, interleaved, to show which lines cost most."""
    times: list[list[float]] = [[] for _ in everyday]
    clock = time.perf_counter_ns
    for _ in range(iterations):
        for k, event in enumerate(everyday):
            start = clock()
            evaluate(bundle, event, extras=extras)  # type: ignore[arg-type]
            times[k].append((clock() - start) / 1000.0)
    print(f"\n{'Bash everyday line':<52} {'p50 µs':>8}")
    for event, values in zip(everyday, times):
        print(f"{str(event.command):<52} {statistics.median(values):8.1f}")


def time_gates(bundle: dict[str, object], event: Event, extras: dict[str, Any], iterations: int) -> list[float]:
    """evaluate() with the command analysed once beforehand: what the gates and the engine cost.
    Each call gets a fresh context (evaluate makes one) and the commands' file effects are cleared
    outside the timing, so nothing one call worked out is reused by the next."""
    shell = analyze(str(event.command))
    commands = shell.commands
    out = []
    clock = time.perf_counter_ns
    for _ in range(iterations):
        for cmd in commands:
            cmd.effects = None
        start = clock()
        evaluate(bundle, event, shell=shell, extras=extras)  # type: ignore[arg-type]
        out.append((clock() - start) / 1000.0)
    return out


def gate_table(bundle: dict[str, object], events: dict[str, object], extras: dict[str, Any], iterations: int) -> None:
    """p50 µs of each gate's check() per event, as inside one evaluation: every iteration gets a
    fresh context and a fresh shell analysis (done outside the timing), and the gates run in
    registry order, so per-event work a gate shares with later ones (resolved paths, file
    effects) is charged to the first gate that asks for it."""
    names = list(events)
    print(f"\n{'gate':<16}" + "".join(f"{n:>11}" for n in names))
    level = str(bundle["settings"]["level"])  # type: ignore[index]
    table: dict[str, list[list[float]]] = {gate.GATE: [[] for _ in names] for gate in GATES}
    clock = time.perf_counter_ns
    for _ in range(iterations):
        for column, event in enumerate(events.values()):
            ctx = GateContext(event, bundle, level=level, extras=extras)  # type: ignore[arg-type]
            ctx.shell  # analyse outside the timing
            for gate in GATES:
                start = clock()
                gate.check(ctx)
                table[gate.GATE][column].append((clock() - start) / 1000.0)
    for gate in GATES:
        print(f"{gate.GATE:<16}" + "".join(f"{statistics.median(values):11.1f}" for values in table[gate.GATE]))


if __name__ == "__main__":
    main()

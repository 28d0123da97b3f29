"""Benchmark: the headless runner's scripted executor, per task, and the speed-up of --jobs 2.

Run: .venv/bin/python benchmarks/bench_headless.py [--rounds 5] [--tasks 10] [--json]

Needs the real claude binary (scripts/test.sh installs it). Reported, as medians over
interleaved rounds so machine load hits every variant alike:

- floor: a bare `claude -p` run of a one-turn script against the model server, in an empty
  directory with no hooks and its own temp dir (E's `run_claude`): what any scripted run costs
  at least;
- runner, no policy: the same one-turn task through `Runner` (workspace, git snapshots,
  stream-json driver, collection, checks) without hooks: its ratio to the floor is the
  runner's own overhead per task;
- runner, policy: the same task with the starter CLAUDE.md installed by `cf-guidance init`
  (hooks fire on session start, prompt and stop), with the time per phase;
- --jobs 2 vs --jobs 1 on a suite of `--tasks` scripted tasks (policy installed, two tool
  calls each, one denied): wall time of each and the speed-up (goal: >= 1.6x).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

from cf_guidance.headless.claude import claude_env, find_claude, run_claude  # noqa: E402
from cf_guidance.headless.compliance import STARTER_DIR  # noqa: E402
from cf_guidance.headless.runner import RunOptions, Runner  # noqa: E402
from cf_guidance.headless.suite import load_suite  # noqa: E402
from cf_guidance.modelserver import ModelServer  # noqa: E402

ONE_TURN = {"turns": [{"text": "done"}]}


def suite_text(tasks: int, *, policy: bool, tool_calls: bool) -> str:
    lines = ["version: 1", "name: bench", "defaults:", "  executor: scripted", "  timeout: 120"]
    if policy:
        lines.append(f"  policy: {STARTER_DIR / 'CLAUDE.md'}")
    lines.append("tasks:")
    for index in range(tasks):
        if tool_calls:
            script = ('{turns: [{tool_uses: [{name: Bash, input: {command: "ls"}}]}, '
                      '{tool_uses: [{name: Bash, input: {command: "git push --force origin main"}}]}, {text: done}]}')
        else:
            script = json.dumps(ONE_TURN)
        lines += [f"  - id: task-{index:02d}", "    prompt: go", f"    script: {script}",
                  "    assertions: [{type: exit-status}]"]
    return "\n".join(lines) + "\n"


def run_suite(directory: Path, text: str, jobs: int) -> tuple[float, list[dict[str, int]]]:
    path = directory / f"suite-{time.monotonic_ns()}.yaml"
    path.write_text(text, encoding="utf-8")
    suite = load_suite(path)
    started = time.monotonic()
    result = Runner(suite, RunOptions(jobs=jobs, base_dir=directory, retries=0)).run()
    elapsed = time.monotonic() - started
    bad = [t.task.id for t in result.tasks if t.verdict != "pass"]
    if bad:
        errors = {a.error for t in result.tasks for a in t.attempts if a.error}
        raise SystemExit(f"benchmark tasks did not pass: {bad} {errors}")
    return elapsed, [a.phases for t in result.tasks for a in t.attempts]


def floor_run(directory: Path, binary: Path) -> float:
    project = Path(tempfile.mkdtemp(dir=directory))
    home = Path(tempfile.mkdtemp(dir=directory))
    # its own temp dir, as the runner gives each run: the client's default one (/tmp/claude-<uid>)
    # fills up with every run's entries and costs a crowded machine ~50 ms a start
    scratch = Path(tempfile.mkdtemp(dir=directory))
    with ModelServer(ONE_TURN) as server:
        env = claude_env(server.url, home, extra={"TMPDIR": str(scratch), "CLAUDE_CODE_TMPDIR": str(scratch)})
        started = time.monotonic()
        run = run_claude("go", project, env, binary=binary, timeout=120)
        elapsed = time.monotonic() - started
    if run.exit_code != 0:
        raise SystemExit(f"bare claude run failed: {run.stderr[-300:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tasks", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    binary = find_claude()
    samples: dict[str, list[float]] = {"floor": [], "runner, no policy": [], "runner, policy": []}
    phases: list[dict[str, int]] = []
    suite_times: dict[int, list[float]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory(prefix="bench-headless-") as tmp:
        directory = Path(tmp)
        bare = suite_text(1, policy=False, tool_calls=False)
        with_policy = suite_text(1, policy=True, tool_calls=False)
        many = suite_text(args.tasks, policy=True, tool_calls=True)
        run_suite(directory, with_policy, 1)  # warm caches (binary, bytecode) before measuring
        for _ in range(args.rounds):
            samples["floor"].append(floor_run(directory, binary))
            samples["runner, no policy"].append(run_suite(directory, bare, 1)[0])
            elapsed, phase = run_suite(directory, with_policy, 1)
            samples["runner, policy"].append(elapsed)
            phases += phase
        for round_index in range(max(1, args.rounds // 2)):
            order = (1, 2) if round_index % 2 == 0 else (2, 1)
            for jobs in order:
                suite_times[jobs].append(run_suite(directory, many, jobs)[0])
    floor = statistics.median(samples["floor"])
    figures: dict[str, Any] = {
        "cpus": os.cpu_count(),
        "rounds": args.rounds,
        "per_task_s": {name: round(statistics.median(values), 3) for name, values in samples.items()},
        "ratio_to_floor": {name: round(statistics.median(values) / floor, 2) for name, values in samples.items()},
        "runner_overhead_s": round(statistics.median(samples["runner, no policy"]) - floor, 3),
        "phases_ms_median": {key: int(statistics.median(p.get(key, 0) for p in phases))
                             for key in ("prepare", "execute", "collect", "check")},
        "suite_tasks": args.tasks,
        "suite_s": {f"jobs {jobs}": round(statistics.median(times), 2) for jobs, times in suite_times.items()},
    }
    figures["jobs2_speedup"] = round(statistics.median(suite_times[1]) / statistics.median(suite_times[2]), 2)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"cpus {figures['cpus']}, {args.rounds} rounds, medians")
    for name, value in figures["per_task_s"].items():
        print(f"  {name:<20} {value:7.3f} s   {figures['ratio_to_floor'][name]:5.2f}x floor")
    print(f"  runner overhead per task (no policy - floor): {figures['runner_overhead_s']:.3f} s")
    print(f"  phases (policy task): {figures['phases_ms_median']}")
    print(f"  {args.tasks}-task suite: jobs 1 {figures['suite_s']['jobs 1']} s, jobs 2 {figures['suite_s']['jobs 2']} s, "
          f"speed-up {figures['jobs2_speedup']}x (goal >= 1.6x)")


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: the hook as settings.json wires it, as a whole process, vs `python -S -c pass`.

Run: .venv/bin/python benchmarks/bench_hook.py [--rules 200] [--rounds 60] [--dirs N --subdirs M] [--json]

A temp repository gets a generated CLAUDE.md (`--rules` rules, from bench_compile) and
`cf-guidance init`; the commands are parsed from the `.claude/settings.json` init wrote and
executed with the event on stdin, cache warm, in interleaved rounds with the floor
(`<the same interpreter> -S -c pass`), so machine load hits both alike. Reported: p50 and
p95 wall time of each, and the ratio of the p50s to the floor's (goal: ≤ 2.0×), plus the
hook process's own CPU time (user + system, from rusage) and its ratio, for

- pre-bash allow  (PreToolUse Bash `git status --short && npm test`: evaluated, no output);
- pre-bash deny   (PreToolUse Bash `rm -rf /`: denied by the catastrophe guard);
- post-bash       (PostToolUse Bash: spooled for the detached worker);
- pre-bash bad input (truncated JSON: the fail-open answer, a warning, one stderr line);

each as wired (answered by the project's warm hook server, cf_guidance.hooks.hookd, which the
first call started) and in-process (`GUIDANCE_HOOKD=0`: the process imports and decides).

Commands are exec'd from their parsed argv; `--shell` runs them through `bash -c` instead,
as the agent does (the shell's cost is the agent's, the same for every hook), and adds the
floor through `bash -c` for the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_compile import generate_policy, generate_tree  # noqa: E402

from cf_guidance.installer import install  # noqa: E402

#: The cache trusts a source's stat only once it is older than this (cf_guidance.policy.cache.RACY_NS).
RACY_WAIT_S = 2.2


def _events(root: str) -> dict[str, dict[str, object]]:
    common = {"session_id": "bench", "transcript_path": "/tmp/bench.jsonl", "cwd": root, "permission_mode": "default"}
    return {
        "pre-bash allow": {**common, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                           "tool_input": {"command": "git status --short && npm test", "description": "check"}, "tool_use_id": "toolu_1"},
        "pre-bash deny": {**common, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                          "tool_input": {"command": "rm -rf /", "description": "wipe"}, "tool_use_id": "toolu_2"},
        "post-bash": {**common, "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "npm test"},
                      "tool_response": {"stdout": "ok\n" * 20, "stderr": "", "interrupted": False, "isImage": False},
                      "tool_use_id": "toolu_3", "duration_ms": 812},
    }


def wired_commands(root: str) -> dict[str, str]:
    """Command strings for pre-bash and post-bash, exactly as `init` wrote them."""
    settings = json.loads(Path(root, ".claude", "settings.json").read_text())
    found = {}
    for event, matcher in (("PreToolUse", "Bash"), ("PostToolUse", "Bash")):
        for group in settings["hooks"][event]:
            if group.get("matcher") == matcher:
                found[event] = group["hooks"][0]["command"]
    return {"pre-bash allow": found["PreToolUse"], "pre-bash deny": found["PreToolUse"], "post-bash": found["PostToolUse"],
            "pre-bash bad input": found["PreToolUse"]}


def _time(argv: list[str], stdin: bytes, env: dict[str, str], cwd: str) -> tuple[float, float, subprocess.CompletedProcess[bytes]]:
    """Wall time and CPU time (user + system of the process, from its rusage) in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(argv, input=stdin, capture_output=True, env=env, cwd=cwd, check=False)
    wall = (time.perf_counter() - started) * 1000.0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000.0
    return wall, cpu, result


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _wait_for_worker(root: str, limit_s: float = 20.0) -> None:
    from cf_guidance.jobs.spool import pending
    from cf_guidance.state import state_dir

    deadline = time.monotonic() + limit_s
    while pending(state_dir(root, {})) and time.monotonic() < deadline:
        time.sleep(0.1)


def _wait_for_server(root: str, limit_s: float = 20.0) -> None:
    """The first hook call forks the warm server (cf_guidance.hooks.hookd); wait until it listens."""
    state = Path(root, ".claude-flow", "guidance")
    deadline = time.monotonic() + limit_s
    while not list(state.glob("hookd-*.sock")) and time.monotonic() < deadline:
        time.sleep(0.05)


def run(rules: int, rounds: int, shell: bool, dirs: int = 0, subdirs: int = 0) -> dict[str, object]:
    # A space in the path on purpose (quoting). The detached worker may still be draining the
    # spool when the run ends: wait for it a little, and never fail on cleanup.
    with tempfile.TemporaryDirectory(prefix="cf-guidance bench ", ignore_cleanup_errors=True) as tmp:
        root = os.path.join(tmp, "repo")
        os.makedirs(root)
        subprocess.run(["git", "init", "-q", root], check=True)
        if dirs:  # a project tree: subdirectory CLAUDE.md files and an import (bench_compile.generate_tree)
            generate_tree(Path(root), dirs, subdirs, rules)
        else:
            Path(root, "CLAUDE.md").write_text(generate_policy(rules))
        install(root, agent="claude", verify=False)
        commands = wired_commands(root)
        events = {name: (json.dumps(event) + "\n").encode() for name, event in _events(root).items()}
        events["pre-bash bad input"] = b'{"hook_event_name": "PreToolUse", "tool_input": '  # truncated JSON
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_"))}
        env["CLAUDE_PROJECT_DIR"] = root
        python = shlex.split(commands["pre-bash allow"])[0]
        floors = {"floor": [python, "-S", "-c", "pass"]}
        if shell:
            floors["floor (bash -c)"] = ["bash", "-c", shlex.join(floors["floor"])]
        argvs = {name: (["bash", "-c", command] if shell else shlex.split(command)) for name, command in commands.items()}

        in_process = dict(env, GUIDANCE_HOOKD="0")
        time.sleep(RACY_WAIT_S)  # let CLAUDE.md age past the racy window, then compile once: a warm cache
        for name, argv in argvs.items():
            _, _, result = _time(argv, events[name], env, root)
            if name == "pre-bash deny":
                assert b'"permissionDecision":"deny"' in result.stdout, result
            elif name == "pre-bash bad input":
                assert result.returncode == 0 and b"systemMessage" in result.stdout, result
            else:
                assert result.returncode == 0 and not result.stdout, result
        _wait_for_server(root)
        runs = [(name, argv, events[name], env) for name, argv in argvs.items()]
        runs += [(name + " (in-process)", argv, events[name], in_process) for name, argv in argvs.items()]
        names = list(floors) + [run[0] for run in runs]
        walls: dict[str, list[float]] = {name: [] for name in names}
        cpus: dict[str, list[float]] = {name: [] for name in names}
        for _ in range(rounds):
            for name, argv in floors.items():
                wall, cpu, _ = _time(argv, b"", env, root)
                walls[name].append(wall)
                cpus[name].append(cpu)
            for name, argv, stdin, run_env in runs:
                wall, cpu, _ = _time(argv, stdin, run_env, root)
                walls[name].append(wall)
                cpus[name].append(cpu)
        floor_name = "floor (bash -c)" if shell else "floor"
        floor = statistics.median(walls[floor_name])
        floor_cpu = statistics.median(cpus[floor_name]) or 1.0
        _wait_for_worker(root)
        return {
            "rules": rules,
            "dirs": dirs,
            "subdirs": subdirs,
            "rounds": rounds,
            "shell": shell,
            "load_average": os.getloadavg()[0],
            "command": commands["pre-bash allow"],
            "results": {
                name: {
                    "p50_ms": round(statistics.median(walls[name]), 2),
                    "p95_ms": round(_p95(walls[name]), 2),
                    "ratio_p50": round(statistics.median(walls[name]) / floor, 2),
                    "cpu_p50_ms": round(statistics.median(cpus[name]), 2),
                    "cpu_ratio_p50": round(statistics.median(cpus[name]) / floor_cpu, 2),
                }
                for name in names
            },
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--shell", action="store_true", help="run every command through `bash -c`, as the agent does")
    parser.add_argument("--dirs", type=int, default=0, help="a project tree of this many directories")
    parser.add_argument("--subdirs", type=int, default=0, help="of them holding a CLAUDE.md")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run(args.rules, args.rounds, args.shell, args.dirs, args.subdirs)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    tree = f", {report['dirs']} directories with {report['subdirs']} subdirectory CLAUDE.md" if report["dirs"] else ""
    print(f"hook wall time, {report['rules']}-rule CLAUDE.md{tree}, warm cache, {report['rounds']} interleaved rounds"
          f" (load average {report['load_average']:.1f})")
    print(f"wired command: {report['command']}")
    print(f"{'':<34} {'p50 ms':>8} {'p95 ms':>8} {'p50/floor':>10} {'cpu p50':>8} {'cpu/floor':>10}")
    for name, row in report["results"].items():  # type: ignore[attr-defined]
        print(f"{name:<34} {row['p50_ms']:>8.2f} {row['p95_ms']:>8.2f} {row['ratio_p50']:>9.2f}x"
              f" {row['cpu_p50_ms']:>8.2f} {row['cpu_ratio_p50']:>9.2f}x")
    print("goal: wall p50 <= 2.0x the floor for pre- and post-event hooks"
          " (cpu: the hook process only; through the server the deciding happens in the server)")


if __name__ == "__main__":
    main()

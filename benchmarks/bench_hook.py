"""Benchmark: the hook as the settings files wire it, as a whole process, vs `python -S -c pass`.

Run: .venv-test/bin/python benchmarks/bench_hook.py [--rules 200] [--rounds 60] [--dirs N --subdirs M] [--json]

A regular install of this checkout (benchmarks/regular_install.py: the wheel, as pip or pipx
installs it; an editable install would time its import finder) wires a temp repository with a
generated CLAUDE.md (`--rules` rules, from bench_compile) twice: the portable command of the
project scope (`.claude/settings.json`: the guard, then `cf-guidance-hook` found on PATH) and the
absolute command of the local scope (`.claude/settings.local.json`: the guard, then
`<venv python> -S <launcher>`). Each runs with the event on stdin, cache warm, through `/bin/sh -c`
as Claude Code runs it, in interleaved rounds with the floor (`<the venv's python> -S -c pass`,
also through `/bin/sh -c`), so machine load hits all alike. Reported: p50 and p95 wall time, the
ratio of the p50s to the floor's (goal: <= 2.0x), and the hook process's own CPU time (user +
system, from rusage) and its ratio, for

- pre-bash allow  (PreToolUse Bash `git status --short && npm test`: evaluated, no output);
- pre-bash deny   (PreToolUse Bash `rm -rf /`: denied by the catastrophe guard);
- post-bash       (PostToolUse Bash: spooled for the detached worker);
- pre-bash bad input (truncated JSON: the fail-open answer, a warning, one stderr line);

each as wired (answered by the project's warm hook server, cf_guidance.hooks.hookd, which the
first call started) and in-process (`GUIDANCE_HOOKD=0`: the process imports and decides).
`--direct` also times the absolute command's interpreter exec'd without a shell, against the
floor exec'd likewise.
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
from regular_install import build_wheel, make_venv  # noqa: E402

from cf_guidance.installer.wiring import parse  # noqa: E402

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


def wired_commands(root: str, settings_file: str) -> dict[str, str]:
    """Command strings for pre-bash and post-bash, exactly as `init` wrote them into `settings_file`."""
    settings = json.loads(Path(root, ".claude", settings_file).read_text())
    found = {}
    for event, matcher in (("PreToolUse", "Bash"), ("PostToolUse", "Bash")):
        for group in settings["hooks"][event]:
            if group.get("matcher") == matcher:
                found[event] = group["hooks"][0]["command"]
    return {"pre-bash allow": found["PreToolUse"], "pre-bash deny": found["PreToolUse"], "post-bash": found["PostToolUse"],
            "pre-bash bad input": found["PreToolUse"]}


#: pip's template for a generated console script (distlib's ScriptMaker), as `[project.scripts]` would install it.
PIP_ENTRY_POINT = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from cf_guidance.hooks.hookd import launch
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(launch())
"""
#: A POSIX sh script that finds its installation's interpreter (through the symlink pipx or uv make).
SH_WRAPPER = """#!/bin/sh
here=$0
[ -x "${here%/*}/python" ] || here=$(readlink -f -- "$0")
exec "${here%/*}/python" -P -c 'import sys; from cf_guidance.hooks.hookd import launch; sys.exit(launch(sys.argv[1:]))' "$@"
"""


def _alternatives(venv: Path, linked: Path, portable: str) -> dict[str, str]:
    """The portable pre-bash command with other shapes of the tool in its place, for the choice
    docs/install.md explains: the shipped script through a pipx-style symlink, pip's generated
    entry point (imports `re` first), and a sh wrapper (one more exec, a readlink through a symlink)."""
    linked.mkdir()
    bin_dir = venv / "bin"
    shapes = {"hook-entry-point": PIP_ENTRY_POINT.format(python=bin_dir / "python"), "hook-sh-wrapper": SH_WRAPPER}
    for name, text in shapes.items():
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    (linked / "hook-linked").symlink_to(bin_dir / "cf-guidance-hook")
    (linked / "hook-sh-wrapper-linked").symlink_to(bin_dir / "hook-sh-wrapper")
    tool = "cf-guidance-hook"
    return {
        "pre-bash allow [portable, via symlink]": portable.replace(tool, "hook-linked").replace('PATH="$PATH', f'PATH="{linked}:$PATH'),
        "pre-bash allow [portable, pip entry point]": portable.replace(tool, "hook-entry-point"),
        "pre-bash allow [portable, sh wrapper]": portable.replace(tool, "hook-sh-wrapper"),
        "pre-bash allow [portable, sh wrapper via symlink]": portable.replace(tool, "hook-sh-wrapper-linked")
        .replace('PATH="$PATH', f'PATH="{linked}:$PATH'),
    }


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


def run(rules: int, rounds: int, direct: bool, alternatives: bool = False, dirs: int = 0, subdirs: int = 0) -> dict[str, object]:
    # A space in the path on purpose (quoting). The detached worker may still be draining the
    # spool when the run ends: wait for it a little, and never fail on cleanup.
    with tempfile.TemporaryDirectory(prefix="cf-guidance bench ", ignore_cleanup_errors=True) as tmp, \
            tempfile.TemporaryDirectory(prefix="cf-guidance-bench-venv-") as venv_tmp:
        # The venv's path has no space: a script's #! line cannot hold one (docs/install.md).
        wheel, _ = build_wheel(Path(venv_tmp, "build"))
        venv = make_venv(Path(venv_tmp, "venv"), wheel)
        python = str(venv / "bin" / "python")
        root = os.path.join(tmp, "repo")
        os.makedirs(root)
        subprocess.run(["git", "init", "-q", root], check=True)
        if dirs:  # a project tree: subdirectory CLAUDE.md files and an import (bench_compile.generate_tree)
            generate_tree(Path(root), dirs, subdirs, rules)
        else:
            Path(root, "CLAUDE.md").write_text(generate_policy(rules))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_", "VIRTUAL_ENV"))}
        env["PATH"] = f"{venv / 'bin'}:/usr/bin:/bin"  # the installed tool on PATH, as after `pipx install`
        env["CLAUDE_PROJECT_DIR"] = root
        cli = str(venv / "bin" / "cf-guidance")
        for scope in ("project", "local"):
            subprocess.run([cli, "init", "--no-verify", "--scope", scope, "--target", root], env=env, check=True, capture_output=True)
        wirings = {"portable": wired_commands(root, "settings.json"), "absolute": wired_commands(root, "settings.local.json")}
        events = {name: (json.dumps(event) + "\n").encode() for name, event in _events(root).items()}
        events["pre-bash bad input"] = b'{"hook_event_name": "PreToolUse", "tool_input": '  # truncated JSON
        floors = {"floor (sh -c)": ["/bin/sh", "-c", f"{shlex.quote(python)} -S -c pass"]}
        argvs = {f"{name} [{form}]": ["/bin/sh", "-c", command] for form, commands in wirings.items()
                 for name, command in commands.items()}
        if alternatives:
            for name, command in _alternatives(venv, Path(venv_tmp, "linked"), wirings["portable"]["pre-bash allow"]).items():
                argvs[name] = ["/bin/sh", "-c", command]
                events[name.split(" [")[0]] = events["pre-bash allow"]
        if direct:
            floors["floor (exec)"] = [python, "-S", "-c", "pass"]
            parsed = parse(wirings["absolute"]["pre-bash allow"])
            assert parsed is not None
            argvs["pre-bash allow [absolute, exec]"] = [parsed.python, "-S", parsed.launcher, parsed.name]
        in_process = dict(env, GUIDANCE_HOOKD="0")
        time.sleep(RACY_WAIT_S)  # let CLAUDE.md age past the racy window, then compile once: a warm cache
        for name, argv in argvs.items():
            kind = name.split(" [")[0]
            _, _, result = _time(argv, events[kind], env, root)
            if kind == "pre-bash deny":
                assert b'"permissionDecision":"deny"' in result.stdout, result
            elif kind == "pre-bash bad input":
                assert result.returncode == 0 and b"systemMessage" in result.stdout, result
            else:
                assert result.returncode == 0 and not result.stdout, result
        _wait_for_server(root)
        runs = [(name, argv, events[name.split(" [")[0]], env) for name, argv in argvs.items()]
        runs += [(name + " (in-process)", argv, events[name.split(" [")[0]], in_process) for name, argv in argvs.items()
                 if "allow" in name]
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
        _wait_for_worker(root)

        def floor_of(name: str) -> str:
            return "floor (exec)" if name in ("floor (exec)", "pre-bash allow [absolute, exec]") else "floor (sh -c)"

        return {
            "rules": rules,
            "dirs": dirs,
            "subdirs": subdirs,
            "rounds": rounds,
            "load_average": os.getloadavg()[0],
            "commands": {form: commands["pre-bash allow"] for form, commands in wirings.items()},
            "results": {
                name: {
                    "p50_ms": round(statistics.median(walls[name]), 2),
                    "p95_ms": round(_p95(walls[name]), 2),
                    "ratio_p50": round(statistics.median(walls[name]) / statistics.median(walls[floor_of(name)]), 2),
                    "cpu_p50_ms": round(statistics.median(cpus[name]), 2),
                    "cpu_ratio_p50": round(statistics.median(cpus[name]) / (statistics.median(cpus[floor_of(name)]) or 1.0), 2),
                }
                for name in names
            },
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--direct", action="store_true", help="also exec the absolute command's interpreter without a shell")
    parser.add_argument("--alternatives", action="store_true",
                        help="also time the portable command with the tool shapes not chosen (see _alternatives)")
    parser.add_argument("--dirs", type=int, default=0, help="a project tree of this many directories")
    parser.add_argument("--subdirs", type=int, default=0, help="of them holding a CLAUDE.md")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run(args.rules, args.rounds, args.direct, args.alternatives, args.dirs, args.subdirs)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    tree = f", {report['dirs']} directories with {report['subdirs']} subdirectory CLAUDE.md" if report["dirs"] else ""
    print(f"hook wall time, {report['rules']}-rule CLAUDE.md{tree}, warm cache, {report['rounds']} interleaved rounds"
          f" (load average {report['load_average']:.1f}), a regular install, every command through /bin/sh -c")
    for form, command in report["commands"].items():  # type: ignore[attr-defined]
        print(f"{form} command: {command[:150]}...")
    print(f"{'':<44} {'p50 ms':>8} {'p95 ms':>8} {'p50/floor':>10} {'cpu p50':>8} {'cpu/floor':>10}")
    for name, row in report["results"].items():  # type: ignore[attr-defined]
        print(f"{name:<44} {row['p50_ms']:>8.2f} {row['p95_ms']:>8.2f} {row['ratio_p50']:>9.2f}x"
              f" {row['cpu_p50_ms']:>8.2f} {row['cpu_ratio_p50']:>9.2f}x")
    print("goal: wall p50 <= 2.0x the floor for pre- and post-event hooks"
          " (cpu: the hook process only; through the server the deciding happens in the server)")


if __name__ == "__main__":
    main()

"""Benchmark: shell analysis on the hook's hot path, vs `str.split` and the available parsers.

Run: .venv/bin/python benchmarks/bench_shell.py [--rounds 200] [--json]

To compare with bashlex and tree-sitter-bash, run it with an interpreter that has them:
    python3 -m venv /tmp/venv-shell && /tmp/venv-shell/bin/pip install bashlex tree-sitter tree-sitter-bash
    /tmp/venv-shell/bin/python benchmarks/bench_shell.py

Reported, all measured in this run:
- per-command time (p50 and p99 over the corpus, each command's median of `--rounds`) of
  `guidance.shell.analyze` (full analysis: parse, unwrap, nested shells, interpreters), of
  `str.split` (the baseline every ratio refers to), of `bashlex.parse` and of tree-sitter-bash
  parse + a walk over every node (parse only would hide the cost of reading the tree);
- import cost: the cumulative `-X importtime` figure of each module in a fresh process, and
  the wall time of a fresh process importing it and analysing one command vs `python -c pass`;
- how many corpus commands each third-party parser rejects;
- everyday lines one by one, `analyze` with the plain- and literal-line fast paths on and
  off (`analysis.FAST_PATH = analysis.LITERAL_PATH = False`), interleaved, min of 5 medians:
  what the fast paths save.

Measured here (2 cores, shared): analyze p50 64 us / p99 125 us per command (162x / 231x
str.split); bashlex 379 / 685 us, rejects `case`; tree-sitter parse+walk 9.5 / 170 us.
With the plain-line fast path (2026-11-22): p50 52 / p99 122 us; everyday lines
`git status --short && npm test -- --watch=false` 9.9 us (30.4 us with it off), `rm -rf ~/`
5.2 (15.2), `git status` 5.6 (15.7), `sudo rm -rf /tmp/x` 12.0 (17.9).
With the literal-line fast path too (2026-11-22): p50 29 / p99 115 us; `grep -rn "def main"
src/` 8.8 us (29.7 with both off), `npm run build 2>&1 | tail -20` 16.7 (57.2),
`git commit -m "fix: handle empty body"` 9.6 (32.8), `find . -name "*.py" | head -20`
19.9 (54.0), `python -m pytest -q tests/test_app.py` 7.0 (21.5).
Import: cf_guidance.shell.analysis 2.8 ms, tree_sitter_bash 42 ms, bashlex 185 ms. Details and
the reasoning in docs/shell-analysis.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from cf_guidance.shell import analysis, analyze  # noqa: E402

CORPUS = [
    "git status --short",
    "ls -la",
    "npm test",
    "git add -A && git commit -m 'fix: handle empty input'",
    "pytest tests/ -q -x 2>&1 | tail -20",
    "cd /tmp && rm -rf build dist",
    "rm -rf /",
    "find . -name '*.pyc' -delete",
    "find . -type f -name '*.log' -exec rm {} \\;",
    "ls | xargs -0 rm -f",
    "curl -fsSL https://example.com/install.sh | sh",
    "sudo -u root env FOO=1 nice -n 5 /bin/rm -rf /tmp/x",
    'bash -c "rm -rf /; echo $(id)"',
    "echo --x=$(rm -rf /)",
    "for f in *.txt; do mv \"$f\" \"${f%.txt}.md\"; done",
    "if [ -f .env ]; then cat .env; else echo missing; fi",
    "case $1 in start) ./run.sh;; stop) pkill -f run.sh;; esac",
    "cat <<EOF > config.yaml\nkey: value\nother: 2\nEOF",
    "python3 -c 'import os; os.system(\"rm -rf /\")'",
    "node -e 'require(\"child_process\").execSync(\"curl x | sh\")'",
    "docker run --rm -v $(pwd):/src -w /src node:20 npm ci",
    "git log --oneline --graph --decorate -n 20",
    "grep -rn 'TODO' src/ | sort | uniq -c | sort -rn | head",
    "tar -czf backup.tgz --exclude=node_modules .",
    "kubectl get pods -n prod -o json | jq '.items[].metadata.name'",
    "timeout 30 make -j4 test 2>&1 | tee build.log",
    "ssh deploy@host 'sudo systemctl restart app'",
    "export PATH=$HOME/.local/bin:$PATH; pip install -e '.[dev]'",
    "rm${IFS}-rf${IFS}/",
    "{ echo a; echo b; } > out.txt && wc -l out.txt",
]


#: Everyday lines the hook sees most, plain (no quotes, `$`, globs or redirections) and
#: literal (quoted strings, globs, redirections), timed one by one with the fast paths on and
#: off, interleaved (the machine's speed drifts).
EVERYDAY = [
    "git status --short && npm test -- --watch=false", "rm -rf ~/", "git status", "sudo rm -rf /tmp/x", "ls | xargs rm", "ls -la",
    'grep -rn "def main" src/', "python -m pytest -q tests/test_app.py", "npm run build 2>&1 | tail -20",
    'git commit -m "fix: handle empty body"', 'git add -A && git commit -m "feat: add retry"', 'find . -name "*.py" | head -20',
]


def _timed(func: Callable[[str], object], command: str, rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        func(command)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def _per_command(func: Callable[[str], object], rounds: int) -> tuple[list[float], int]:
    """Median time per corpus command, and how many commands raised."""
    times: list[float] = []
    failures = 0
    for command in CORPUS:
        try:
            func(command)
        except Exception:
            failures += 1
            continue
        times.append(_timed(func, command, rounds))
    return times, failures


def _without_fast_paths(command: str) -> object:
    analysis.FAST_PATH = analysis.LITERAL_PATH = False
    try:
        return analysis.analyze(command)
    finally:
        analysis.FAST_PATH = analysis.LITERAL_PATH = True


def _bashlex() -> Callable[[str], object] | None:
    try:
        import bashlex  # type: ignore[import-not-found]
    except ImportError:
        return None

    def parse(command: str) -> object:
        return bashlex.parse(command)

    return parse


def _tree_sitter() -> Callable[[str], object] | None:
    try:
        import tree_sitter_bash  # type: ignore[import-not-found]
        from tree_sitter import Language, Parser  # type: ignore[import-not-found]
    except ImportError:
        return None
    parser = Parser(Language(tree_sitter_bash.language()))

    def parse_and_walk(command: str) -> object:
        tree = parser.parse(command.encode("utf-8", "surrogateescape"))
        cursor = tree.walk()
        visited = 0
        while True:
            visited += 1
            if cursor.goto_first_child() or cursor.goto_next_sibling():
                continue
            while cursor.goto_parent():
                if cursor.goto_next_sibling():
                    break
            else:
                return visited

    return parse_and_walk


def _import_cost(module: str, statement: str, runs: int) -> dict[str, float] | None:
    """Cumulative -X importtime of `module` (ms), and fresh-process wall time (ms) of
    `statement` vs `pass` (medians of `runs`). Bytecode caching is forced on and warmed
    first, as for an installed package (PYTHONDONTWRITEBYTECODE would time the compiler)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(REPO)
    if subprocess.run([sys.executable, "-c", statement], env=env, capture_output=True).returncode != 0:
        return None
    probes = [subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], capture_output=True, text=True, env=env) for _ in range(5)]
    cumulative = statistics.median(_cumulative_ms(probe.stderr, module) for probe in probes)
    floor: list[float] = []
    wall: list[float] = []
    for _ in range(runs):
        for target, code in ((floor, "pass"), (wall, statement)):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, env=env)
            target.append((time.perf_counter() - start) * 1000)
    return {"importtime_ms": cumulative, "process_ms": statistics.median(wall), "floor_ms": statistics.median(floor)}


def _cumulative_ms(stderr: str, module: str) -> float:
    for line in stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() == module:
            return int(parts[1]) / 1000
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="timed repetitions per command")
    parser.add_argument("--processes", type=int, default=15, help="fresh processes per import figure")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()

    baseline, _ = _per_command(str.split, args.rounds)
    base50, base99 = _percentile(baseline, 0.5), _percentile(baseline, 0.99)
    contenders: dict[str, Callable[[str], object] | None] = {
        "cf_guidance.shell.analyze": analyze,
        "bashlex.parse": _bashlex(),
        "tree-sitter-bash parse+walk": _tree_sitter(),
    }
    figures: dict[str, object] = {"commands": len(CORPUS), "baseline": "str.split", "baseline_p50_us": base50 * 1e6, "baseline_p99_us": base99 * 1e6}
    rows = []
    for name, func in contenders.items():
        if func is None:
            rows.append({"name": name, "available": False})
            continue
        times, failures = _per_command(func, args.rounds)
        p50, p99 = _percentile(times, 0.5), _percentile(times, 0.99)
        rows.append({
            "name": name, "available": True, "p50_us": p50 * 1e6, "p99_us": p99 * 1e6,
            "p50_ratio": p50 / base50, "p99_ratio": p99 / base99, "rejected": failures,
        })
    figures["parsers"] = rows
    imports = {
        "cf_guidance.shell.analysis": _import_cost("cf_guidance.shell.analysis", "from cf_guidance.shell import analyze; analyze('git status && rm -rf build')", args.processes),
        "bashlex": _import_cost("bashlex", "import bashlex; bashlex.parse('git status && rm -rf build')", args.processes),
        "tree_sitter_bash": _import_cost("tree_sitter_bash", "import tree_sitter_bash, tree_sitter; tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language())).parse(b'git status')", args.processes),
    }
    figures["imports"] = imports
    everyday = []
    for command in EVERYDAY:
        fast = off = float("inf")
        for _ in range(5):
            fast = min(fast, _timed(analyze, command, args.rounds))
            off = min(off, _timed(_without_fast_paths, command, args.rounds))
        everyday.append({"command": command, "fast_us": fast * 1e6, "off_us": off * 1e6})
    figures["everyday"] = everyday

    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{len(CORPUS)} commands, {args.rounds} rounds each; baseline str.split p50 {base50 * 1e6:.2f} us, p99 {base99 * 1e6:.2f} us")
    print(f"{'parser':32} {'p50 us':>9} {'p99 us':>9} {'p50 x':>8} {'p99 x':>8} {'rejected':>9}")
    for row in rows:
        if not row["available"]:
            print(f"{row['name']:32} not installed")
            continue
        print(f"{row['name']:32} {row['p50_us']:9.1f} {row['p99_us']:9.1f} {row['p50_ratio']:8.0f} {row['p99_ratio']:8.0f} {row['rejected']:9}")
    print()
    print(f"{'everyday line (min of 5 medians)':50} {'analyze us':>11} {'off us':>8} {'ratio':>6}")
    for line in everyday:
        print(f"{line['command']:50} {line['fast_us']:11.1f} {line['off_us']:8.1f} {line['fast_us'] / line['off_us']:6.2f}")
    print()
    print(f"{'import (fresh process)':32} {'importtime ms':>14} {'process ms':>11} {'floor ms':>9} {'ratio':>6}")
    for name, cost in imports.items():
        if cost is None:
            print(f"{name:32} not installed")
            continue
        print(f"{name:32} {cost['importtime_ms']:14.1f} {cost['process_ms']:11.1f} {cost['floor_ms']:9.1f} {cost['process_ms'] / cost['floor_ms']:6.2f}")


if __name__ == "__main__":
    main()

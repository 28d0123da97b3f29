"""Benchmark: compile a generated 1,000-rule CLAUDE.md, and load cached bundles.

Run: .venv/bin/python benchmarks/bench_compile.py [--rules N] [--repeat N]

Figures are medians, each also printed as a ratio to a baseline measured in the same run:
- compile (goal ≤ 300 ms for 1,000 rules) vs markdown-it-py parsing the same text alone;
- cached-bundle load on a hit (goal ≤ 2 ms) vs reading the cache file and vs `json.loads` of it,
  for the whole bundle and for the decision part a pre-tool call loads (`part="decide"`),
  both as a fresh process does it and as a warm process (memo per cache version) does;
- a fresh `python -S` process loading the cached bundle vs `python -S -c pass`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from cf_guidance.policy import cache  # noqa: E402
from cf_guidance.policy.cache import cache_path, load_bundle  # noqa: E402
from cf_guidance.policy import compiler, sources  # noqa: E402
from cf_guidance.policy.compiler import compile_sources  # noqa: E402

_FORMS = [
    "Never run `tool{i} deploy --env prod{i}`",
    "Do not use `git push --force origin branch{i}`",
    "Avoid `npm install pkg{i}` (low) #performance",
    "Ask before running `terraform apply -target=mod{i}` @deployment",
    "Never edit `generated/module{i}/`",
    "Never read `secrets/key{i}.pem` (critical)",
    "Always run `make test{i}` before committing #testing",
    "Keep handler {i} small and focused on one concern priority: 40",
    "Prefer composition for service {i} over inheritance",
    "Write a regression test for bug {i} #bug-fix [edit]",
]


def generate_policy(rules: int) -> str:
    """A CLAUDE.md with `rules` rules: prose bullets of every form plus a ```guidance block."""
    machine = rules // 10
    prose = rules - machine
    lines = ["# Generated service", "", "Context paragraph mentioning `rm -rf build` and `git push`.", ""]
    for i in range(prose):
        if i % 50 == 0:
            heading = "Safety" if (i // 50) % 4 == 0 else f"Area {i // 50}"
            lines += ["", f"## {heading}", ""]
        lines.append(f"- {_FORMS[i % len(_FORMS)].format(i=i)}")
    lines += ["", "```guidance"]
    for i in range(machine):
        lines.append(f"[M{i:04d}] deny command tool{i} wipe --all -- generated machine rule {i}")
    lines += ["level strict", "max-diff-lines 400", "```", ""]
    return "\n".join(lines)


def median_seconds(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm-up: imports, caches
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def process_seconds(args: list[str], repeat: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, check=True, env=env, capture_output=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def stage_medians(text: str, repeat: int) -> dict[str, float]:
    """Where compile time goes: each named compiler stage on its own."""
    samples: dict[str, list[float]] = {name: [] for name, _ in compiler.STAGES}
    for _ in range(repeat):
        shared, local = compiler.Source(compiler.SHARED, "shared"), compiler.Source(compiler.LOCAL, "local")
        sources.load_bytes(shared, text)
        sources.load_bytes(local, None)
        state = compiler.Compilation("", [shared, local])
        for name, stage in compiler.STAGES:
            start = time.perf_counter()
            stage(state)
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in samples.items()}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=20)
    options = parser.parse_args()

    from markdown_it import MarkdownIt

    text = generate_policy(options.rules)
    bundle = compile_sources(text)
    print(f"policy: {options.rules} rules requested, {len(bundle['shards'])} shards, "
          f"{len(bundle['checks'])} checks, {len(text) // 1024} KiB, {len(bundle['diagnostics'])} diagnostics")

    md = MarkdownIt("commonmark")
    parse_only = median_seconds(lambda: md.parse(text), options.repeat)
    compile_time = median_seconds(lambda: compile_sources(text), options.repeat)
    print(f"compile {options.rules} rules      {ms(compile_time)}   "
          f"= {compile_time / parse_only:5.1f}x markdown-it parse alone ({ms(parse_only).strip()})   goal <= 300 ms")

    print("  stages (median ms): " + ", ".join(
        f"{name} {value * 1000:.1f}" for name, value in stage_medians(text, options.repeat).items()))

    for rules in (200, options.rules):
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp)
            (project / "CLAUDE.md").write_text(generate_policy(rules))
            os.utime(project / "CLAUDE.md", ns=(time.time_ns() - 10**10, time.time_ns() - 10**10))
            load_bundle(str(project))  # miss: compile and write
            load_bundle(str(project))  # settle the racy-window rewrite
            cached = Path(cache_path(str(project)))
            raw = cached.read_text()
            def cold_hit() -> object:
                cache._MEMO.clear()  # as in a fresh hook process: read, decode, stat
                return load_bundle(str(project))

            hit = median_seconds(cold_hit, options.repeat * 10)
            warm = median_seconds(lambda: load_bundle(str(project)), options.repeat * 10)
            read = median_seconds(cached.read_bytes, options.repeat * 10)
            decode = median_seconds(lambda: json.loads(raw), options.repeat * 10)
            print(f"cache hit {rules:5d} rules      {ms(hit)}   = {hit / read:5.1f}x reading the file, "
                  f"{hit / decode:4.2f}x json.loads of it ({len(raw) // 1024} KiB)   goal <= 2 ms")
            print(f"warm hit  {rules:5d} rules      {ms(warm)}   = {warm / read:5.2f}x reading the file "
                  "(hook server: decoded once per cache version)")

            part_file = Path(cache_path(str(project), part="decide"))
            part_raw = part_file.read_text()

            def cold_part() -> object:
                cache._MEMO.clear()
                return load_bundle(str(project), part="decide")

            part_hit = median_seconds(cold_part, options.repeat * 10)
            part_decode = median_seconds(lambda: json.loads(part_raw), options.repeat * 10)
            print(f"decide hit {rules:4d} rules      {ms(part_hit)}   = {part_hit / decode:4.2f}x json.loads of bundle.json, "
                  f"{part_hit / part_decode:4.2f}x json.loads of decide.json ({len(part_raw) // 1024} KiB)   goal <= 2 ms")

            probe = f"from cf_guidance.policy.cache import load_bundle; load_bundle({str(project)!r})"
            cold = process_seconds([sys.executable, "-S", "-c", probe], max(5, options.repeat // 2))
            floor = process_seconds([sys.executable, "-S", "-c", "pass"], max(5, options.repeat // 2))
            print(f"fresh process hit {rules:5d} rules {ms(cold)}   = {cold / floor:5.2f}x `python -S -c pass` ({ms(floor).strip()})")


if __name__ == "__main__":
    main()

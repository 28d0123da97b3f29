"""Benchmark: compile a generated 1,000-rule CLAUDE.md, and load cached bundles.

Run: .venv/bin/python benchmarks/bench_compile.py [--rules N] [--repeat N]

Figures are medians, each also printed as a ratio to a baseline measured in the same run:
- compile (goal ≤ 300 ms for 1,000 rules) vs markdown-it-py parsing the same text alone;
- cached-bundle load on a hit (goal ≤ 2 ms) vs reading the cache file and vs `json.loads` of it,
  for the whole bundle and for the decision part a pre-tool call loads (`part="decide"`),
  both as a fresh process does it and as a warm process (memo per cache version) does;
- a fresh `python -S` process loading the cached bundle vs `python -S -c pass`;
- each real CLAUDE.md of ../shared/corpus (skipped when absent): in-process compile (goal ≤ 100 ms
  for the ~20 KB files) vs markdown-it-py parsing it alone, and the extractor's part of it;
- a project tree (`--dirs` directories, `--subdirs` of them with a CLAUDE.md, and an @import):
  compile (walk + read + compile) and a cache hit, vs the same root CLAUDE.md with no tree in
  the same run (the hit's extra cost is one stat per directory; guidance/policy/tree.py).
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


def generate_tree(root: Path, dirs: int, subdirs: int, rules: int) -> None:
    """A project: a root CLAUDE.md of `rules` rules importing docs/agents.md, `dirs` directories
    (ten per level, like packages of a monorepo, each with a source file) and, in `subdirs` of
    them spread over the tree, a CLAUDE.md of three scoped rules. Aged out of the racy window."""
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "CLAUDE.md").write_text(generate_policy(rules) + "\nSee @docs/agents.md for the agent rules.\n")
    (root / "docs" / "agents.md").write_text("- Never run `make release`\n")
    names: list[str] = []
    frontier = [""]
    while len(names) < dirs:
        parent = frontier.pop(0)
        for i in range(10):
            if len(names) >= dirs:
                break
            rel = f"{parent}/pkg{i}" if parent else f"pkg{i}"
            names.append(rel)
            frontier.append(rel)
    step = max(1, len(names) // subdirs) if subdirs else 0
    for n, rel in enumerate(names):
        folder = root / rel
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "main.py").write_text("print()\n")
        if subdirs and n % step == 0 and n // step < subdirs:
            (folder / "CLAUDE.md").write_text(f"- Never run `make regen{n}`\n- Never edit `*.gen.{n}`\n"
                                              f"- Avoid `npm install pkg{n}`\n")
    past = time.time_ns() - 10**10
    for path in [root, *root.rglob("*")]:
        os.utime(path, ns=(past, past))


def median_seconds(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm-up: imports, caches
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def package_path(tmp: str) -> str:
    """A directory holding `cf_guidance` laid out as installed, for `python -S` (no editable finder)."""
    tree = Path(tmp) / "cf_guidance"
    if not tree.exists():
        tree.mkdir(parents=True)
        for entry in (REPO / "guidance").iterdir():
            if entry.name != "__pycache__":
                (tree / entry.name).symlink_to(entry)
        (tree / "hooks").symlink_to(REPO / "hooks")
    return tmp


def process_seconds(args: list[str], repeat: int) -> float:
    env = dict(os.environ, PYTHONPATH=package_path(f"{tempfile.gettempdir()}/cf-guidance-bench-path-{abs(hash(str(REPO))) % 10**8}"))
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
    parser.add_argument("--dirs", type=int, default=500, help="directories of the project-tree figures")
    parser.add_argument("--subdirs", type=int, default=20, help="of them holding a CLAUDE.md")
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

    corpus_figures(options)
    tree_figures(options)


def corpus_figures(options: argparse.Namespace) -> None:
    from markdown_it import MarkdownIt

    from cf_guidance.policy.extract import extract
    from cf_guidance.policy.markdown import parse

    corpus = REPO.parent / "shared" / "corpus" / "claude-md"
    files = sorted(corpus.glob("[0-9][0-9]-*.md"))
    if not files:
        print(f"corpus: {corpus} is absent; per-file compile figures skipped")
        return
    md = MarkdownIt("commonmark")
    print("real CLAUDE.md files (median ms): compile, x markdown-it parse alone, extract (structure, frames, checks); goal <= 100 ms")
    worst = 0.0
    for path in files:
        text = path.read_text(encoding="utf-8")
        raw = path.read_bytes()
        blocks = parse(text)
        build = median_seconds(lambda: compile_sources(raw), options.repeat)
        alone = median_seconds(lambda: md.parse(text), options.repeat)
        read = median_seconds(lambda: extract("CLAUDE.md", blocks), options.repeat)
        worst = max(worst, build)
        print(f"  {path.name[:34]:<34} {len(raw) // 1024:3d} KiB  compile {ms(build)} = {build / alone:5.1f}x parse   "
              f"extract {ms(read)}")
    print(f"  slowest {ms(worst).strip()} (goal <= 100 ms)")


def tree_figures(options: argparse.Namespace) -> None:
    """Compile and cache hits of a project tree vs the same root CLAUDE.md alone, in one run.

    A pre-tool call passes the paths it works in (`near`): only the directories on their way
    are stat'd. Measured for a call at the root and one three levels down; "all" checks every
    walked directory (what a caller without `near` gets)."""
    with tempfile.TemporaryDirectory() as tmp:
        flat, tree = Path(tmp) / "flat", Path(tmp) / "tree"
        generate_tree(flat, 0, 0, 200)
        generate_tree(tree, options.dirs, options.subdirs, 200)
        compiled = compiler.compile_project(tree)
        found = [s for s in compiled["sources"] if s["status"] == "read"]
        print(f"project tree: {options.dirs} directories, {len(compiled['tree']['dirs'])} walked, {len(found)} files read "
              f"({options.subdirs} subdirectory CLAUDE.md), {len(compiled['checks'])} checks; warm hits (hook server), ms:")
        for name, project in (("root CLAUDE.md only", flat), ("tree", tree)):
            build = median_seconds(lambda: compiler.compile_project(project), max(3, options.repeat // 4))
            load_bundle(str(project))
            past = time.time_ns() - 10**10
            os.utime(project, ns=(past, past))  # the compile made the state directory in the root
            load_bundle(str(project))
            load_bundle(str(project))
            deep = str(project / "pkg0" / "pkg0" / "pkg0" / "main.py")
            figures = []
            for label, near in (("root call", [str(project)]), ("deep call", [deep]), ("all", None)):
                figures.append(f"{label} {median_seconds(lambda: load_bundle(str(project), part='decide', near=near), options.repeat * 10) * 1000:.3f}")

            def cold() -> object:
                cache._MEMO.clear()
                return load_bundle(str(project), part="decide", near=[str(project)])

            hit = median_seconds(cold, options.repeat * 10)
            size = len(Path(cache_path(str(project), part="decide")).read_bytes()) // 1024
            print(f"  {name:<20} compile {ms(build)}   {', '.join(figures)}   fresh-process decide hit {ms(hit)}   decide.json {size} KiB")


if __name__ == "__main__":
    main()

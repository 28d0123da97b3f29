"""Twenty real CLAUDE.md files: all compile without errors, and every check comes from an
imperative bullet (never from a code block, a heading, a paragraph or a mere mention).

The files are read from the shared corpus (tests/conftest.py CORPUS); they are not copied here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.policy import grammar
from cf_guidance.policy.compiler import compile_sources
from cf_guidance.policy.markdown import parse
from tests.conftest import CORPUS, require_shared

FILES = sorted(CORPUS.glob("[0-9][0-9]-*.md"))

#: Every check the corpus yields, reviewed by hand: (file, line, kind, verdict, pattern).
EXPECTED_CHECKS = {
    ("01-oven-sh-bun.md", 11, "command", "deny", "bun test"),  # "Never use `bun test` directly"
    ("01-oven-sh-bun.md", 242, "command", "deny", "bun test"),
    ("06-tldraw-tldraw.md", 157, "sequence", "deny", "yarn typecheck -> git commit"),  # "Run `yarn typecheck` before commits"
    ("11-syntrixbase-pepasus.md", 24, "command", "deny", "git push --force"),
    ("11-syntrixbase-pepasus.md", 24, "command", "deny", "git push -f"),
    ("11-syntrixbase-pepasus.md", 32, "write", "deny", "data/**"),  # "NEVER delete or modify files under `data/`"
    ("11-syntrixbase-pepasus.md", 32, "command", "deny", "rm -rf data/"),  # "Never `rm -rf data/`"
    ("11-syntrixbase-pepasus.md", 33, "command", "ask", "git worktree remove"),  # "... on them"
    ("12-vabole-patcher.md", 107, "command", "deny", "npm publish"),
    ("12-vabole-patcher.md", 108, "command", "deny", "npm login"),
    ("13-papay0-appily-web.md", 355, "command", "ask", "npm run dev"),  # "... unless I tell you to do it"
    ("13-papay0-appily-web.md", 333, "write", "deny", "middleware.ts"),  # "Don't create `middleware.ts`"
    ("14-cirra-ai-skills.md", 7, "write", "deny", "plugins/cirra-ai-sf/skills/*/SKILL.md"),
    ("14-cirra-ai-skills.md", 49, "write", "deny", "plugins/cirra-ai-sf/skills/*/SKILL.md"),  # "the plugin mirror at `...`"
}


def compiled(path: Path) -> dict[str, Any]:
    return compile_sources(path.read_bytes())


def flat(name: str, check: dict[str, Any]) -> tuple[str, int, str, str, str]:
    line = int(check["source"].rsplit(":", 1)[1])
    if check["kind"] == "sequence":
        shown = f"{' '.join(check['before'])} -> {' '.join(check['then'])}"
    else:
        pattern = check["pattern"]
        shown = " ".join(pattern) if isinstance(pattern, list) else pattern
    return (name, line, check["kind"], check["verdict"], shown)


def test_corpus_is_present() -> None:
    require_shared(CORPUS)
    assert len(FILES) == 20


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_compiles_without_errors(path: Path) -> None:
    bundle = compiled(path)
    assert [d for d in bundle["diagnostics"] if d["level"] == "error"] == []
    assert all(s["enforcement"] in ("enforced", "advisory") for s in bundle["shards"])


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_checks_come_only_from_imperative_bullets(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    bullets = {b.line: b for b in parse(text) if b.kind == "bullet"}
    for check in compiled(path)["checks"]:
        line = int(check["source"].rsplit(":", 1)[1])
        assert line in bullets, f"{path.name}:{line} is not a bullet"
        assert grammar.is_imperative(grammar.extract_tags(bullets[line].inline.masked)[0])
        assert text.splitlines()[line - 1].lstrip()[:1] in "-*+0123456789"


def test_every_corpus_check_was_reviewed() -> None:
    require_shared(CORPUS)
    found = {flat(path.name, check) for path in FILES for check in compiled(path)["checks"]}
    assert found == EXPECTED_CHECKS


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_same_words_outside_bullets_compile_to_nothing(path: Path) -> None:
    # Remove every list marker: the imperative sentences become paragraphs, which are context.
    text = re.sub(r"(?m)^(\s*)(?:[-*+]|\d+[.)])\s+", r"\1", path.read_text(encoding="utf-8"))
    bundle = compile_sources(text)
    assert bundle["checks"] == [] and bundle["shards"] == []

"""Which files a patch writes, and where its text comes from."""

from __future__ import annotations

import pytest

from cf_guidance.gates.commands.patches import patch_sources, patched_files
from cf_guidance.shell import analyze

GIT_PATCH = """diff --git a/.claude/settings.json b/.claude/settings.json
index 1..2 100644
--- a/.claude/settings.json
+++ b/.claude/settings.json
@@ -1 +1 @@
-{"hooks": {}}
+{}
"""
RENAME = """diff --git a/src/a.py b/src/b.py
similarity index 100%
rename from src/a.py
rename to src/b.py
"""
PLAIN = "--- CLAUDE.md\t2026-01-01 00:00:00\n+++ CLAUDE.md\t2026-01-02 00:00:00\n@@ -1 +1 @@\n-x\n+y\n"
CODEX = "*** Begin Patch\n*** Update File: .codex/hooks.json\n-a\n+b\n*** End Patch\n"


@pytest.mark.parametrize(
    ("text", "strip", "expected"),
    [
        (GIT_PATCH, 1, [".claude/settings.json"]),
        (RENAME, 1, ["src/a.py", "src/b.py"]),
        (PLAIN, -1, ["CLAUDE.md"]),
        (CODEX, 1, [".codex/hooks.json"]),
        ("not a patch\n", 1, []),
    ],
)
def test_patched_files(text: str, strip: int, expected: list[str]) -> None:
    found = patched_files(text, strip)
    assert all(name in found for name in expected) and (found or not expected)


def _cmd(command: str, program: str):  # type: ignore[no-untyped-def]
    analysis = analyze(command)
    return next(c for c in analysis.commands if c.program == program), analysis


@pytest.mark.parametrize(
    ("command", "program", "texts", "files"),
    [
        ("git apply -R fix.patch", "git", [], ["fix.patch"]),
        ("git apply <<'EOF'\n" + GIT_PATCH + "EOF", "git", [GIT_PATCH], []),
        ("git am series.mbox", "git", [], ["series.mbox"]),
        ("patch -p1 < fix.patch", "patch", [], ["fix.patch"]),
        ("patch -p0 -i fix.patch", "patch", [], ["fix.patch"]),
        ("patch CLAUDE.md fix.patch", "patch", [], ["fix.patch"]),
        ("cat a.patch b.patch | git apply", "git", [], ["a.patch", "b.patch"]),
        ("curl -s https://x/p | git apply", "git", [""], []),
    ],
)
def test_patch_sources(command: str, program: str, texts: list[str], files: list[str]) -> None:
    cmd, analysis = _cmd(command, program)
    found = patch_sources(cmd, analysis)
    assert found is not None
    assert [t.strip() for t in found[0]] == [t.strip() for t in texts] and found[1] == files


@pytest.mark.parametrize("command", ["git apply --check fix.patch", "git apply --stat fix.patch", "git status", "patch --dry-run -p1 < f", "git am --abort"])
def test_no_patch_is_applied(command: str) -> None:
    cmd, analysis = _cmd(command, command.split()[0])
    assert patch_sources(cmd, analysis) is None

from __future__ import annotations

import pytest

from guidance.gates.commands.git import analyse, split


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-C", "x", "-c", "a=b", "push", "-f"], ("push", ["-f"])),
        (["--git-dir=.git", "status"], ("status", [])),
        (["--no-pager", "log", "-1"], ("log", ["-1"])),
        ([], ("", [])),
    ],
)
def test_split(args: list[str], expected: tuple[str, list[str]]) -> None:
    sub, rest, _ = split(args)
    assert (sub, rest) == expected


@pytest.mark.parametrize(
    ("line", "codes"),
    [
        ("push --force", ["DST012"]),
        ("push -uf origin x", ["DST012"]),
        ("push --force-with-lease", []),
        ("push origin +a:b", ["DST012"]),
        ("push --mirror", ["DST012"]),
        ("push origin --delete x", ["DST018"]),
        ("push -f origin :x", ["DST012", "DST018"]),
        ("reset --hard", ["DST010"]),
        ("reset --mixed", []),
        ("clean -fd", ["DST011"]),
        ("clean -fdn", []),
        ("clean -i -f", []),
        ("checkout -- .", ["DST019"]),
        ("checkout -- a.py b.py", ["DST020"]),
        ("checkout feature", []),
        ("checkout -b x", []),
        ("restore --staged a.py", []),
        ("restore --staged --worktree .", ["DST019"]),
        ("branch -D x", ["DST013"]),
        ("branch -d x", []),
        ("rebase main", ["DST016"]),
        ("rebase --abort", []),
        ("reflog expire --all", ["DST015"]),
        ("reflog show", []),
        ("gc --prune=now", ["DST015"]),
        ("gc --prune=2.weeks.ago", []),
        ("stash drop", ["DST017"]),
        ("filter-branch --force HEAD", ["DST014"]),
    ],
)
def test_analyse(line: str, codes: list[str]) -> None:
    assert [code for code, _ in analyse(line.split())] == codes

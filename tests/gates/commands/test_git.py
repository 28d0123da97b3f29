from __future__ import annotations

import pytest

from cf_guidance.gates.commands.git import analyse, split


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
        ("push --force", []),  # what a push does to the remote is the effect model's (tests/gates/commands/test_effect_tables.py)
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
        # shared branches moved or overwritten (DST021); feature branches and renames are fine
        ("branch -f main HEAD~10", ["DST021"]),
        ("branch --force release/2.1 v2.0.3", ["DST021"]),
        ("branch -M wip main", ["DST021"]),
        ("branch -m -f wip master", ["DST021"]),
        ("branch -C scratch develop", ["DST021"]),
        ("branch -f feature/x", []),
        ("branch -f feature/x origin/feature/x", []),
        ("branch -M main", []),
        ("branch -m old-name new-name", []),
        ("branch -m wip main", []),  # refuses when main exists
        ("checkout -B main origin/old", ["DST021"]),
        ("checkout -B feature/y", []),
        ("switch -C main HEAD~5", ["DST021"]),
        ("switch --force-create=trunk x", ["DST021"]),
        ("switch -c feat/y", []),
        ("switch main", []),
        ("switch --discard-changes main", ["DST019"]),
        ("switch -f main", ["DST019"]),
        ("update-ref refs/heads/main 1a2b3c4", ["DST021"]),
        ("update-ref HEAD HEAD~3", ["DST021"]),
        ("update-ref --stdin", ["DST021"]),
        ("update-ref -d refs/heads/main", ["DST017"]),
        ("update-ref refs/heads/feature/x HEAD", []),
        ("read-tree -u --reset HEAD", ["DST019"]),
        ("read-tree HEAD", []),
        ("read-tree -m -u HEAD other", []),
    ],
)
def test_analyse(line: str, codes: list[str]) -> None:
    assert [code for code, _ in analyse(line.split())] == codes


_SUBCOMMANDS = (
    "add", "am", "apply", "bisect", "blame", "branch", "cat-file", "checkout", "cherry-pick", "clean", "clone", "commit",
    "config", "describe", "diff", "fetch", "filter-branch", "filter-repo", "gc", "grep", "init", "log", "ls-files", "merge",
    "mv", "notes", "prune", "pull", "push", "rebase", "reflog", "remote", "reset", "restore", "revert", "rm", "show",
    "stash", "status", "submodule", "switch", "tag", "update-ref", "worktree", "read-tree",
)
_TAILS = ("", "--force", "-f", "--hard", "-fd", "-- .", ". x", "-D x", "--prune=now", "expire --all", "drop", "clear", "-d refs/x", "origin +a:b",
          "-f main", "-M x main", "-B main", "-C main", "refs/heads/main x", "-u --reset HEAD", "--discard-changes")


@pytest.mark.parametrize("sub", _SUBCOMMANDS)
def test_the_fast_path_of_analyse_changes_no_finding(sub: str) -> None:
    """`analyse` skips lines whose words hold no branched subcommand and no `-c`: exactly the lines `_analyse` finds nothing in."""
    from cf_guidance.gates.commands import git

    for tail in _TAILS:
        for prefix in ("", "-C dir ", "--no-pager ", "-c core.pager=less "):
            args = (prefix + sub + " " + tail).split()
            assert git.analyse(args) == git._analyse(args), args
    for alias in (["-c", "alias.c=clean -fd", "c"], ["-c=alias.r=reset --hard", "r"], ["-c", "alias.r=reset --hard", "r"]):
        assert git.analyse(alias) == git._analyse(alias) != [], alias
    assert "-c" not in git.BRANCHED and {"status", "log", "diff", "commit"}.isdisjoint(git.BRANCHED)

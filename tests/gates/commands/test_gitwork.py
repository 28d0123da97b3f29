"""How a git command rewrites the work tree, read from its words (no repository needed)."""

from __future__ import annotations

import pytest

from cf_guidance.gates.commands.gitwork import IGNORED, KEEP, REWRITING, TRACKED, UNTRACKED, change

#: (arguments, discards, paths, source, brings)
CASES = [
    ("stash", TRACKED, None, None, []),
    ("stash push -u", UNTRACKED, None, None, []),
    ("stash -a", IGNORED, None, None, []),
    ("stash push -- src", TRACKED, ["src"], None, []),
    ("stash pop", KEEP, None, None, [("stash", "stash@{0}")]),
    ("stash apply stash@{2}", KEEP, None, None, [("stash", "stash@{2}")]),
    ("checkout main", KEEP, None, None, [("tree-or-path", "main")]),
    ("checkout -f", TRACKED, None, None, [("tree", "HEAD")]),
    ("checkout -- .", KEEP, ["."], "", []),
    ("checkout HEAD~2 -- a b", KEEP, ["a", "b"], "HEAD~2", []),
    ("checkout v1 src", KEEP, ["src"], "v1", []),
    ("switch -", KEEP, None, None, [("tree-or-path", "@{-1}")]),
    ("switch -c topic origin/main", KEEP, None, None, [("tree", "origin/main")]),
    ("restore .", KEEP, ["."], "", []),
    ("restore --source=v1 --staged --worktree x", KEEP, ["x"], "v1", []),
    ("reset --hard", TRACKED, None, None, [("tree", "HEAD")]),
    ("reset --keep v2", TRACKED, None, None, [("tree", "v2")]),
    ("merge topic", KEEP, None, None, [("range", "HEAD...topic")]),
    ("rebase --onto main topic", KEEP, None, None, [("range", "HEAD...main")]),
    ("cherry-pick abc", KEEP, None, None, [("commits", "abc~1 abc")]),
    ("revert a..b", KEEP, None, None, [("commits", "a b")]),
    ("-c alias.s=stash s", TRACKED, None, None, []),
]

UNCHANGED = ["status", "diff", "log -5", "add -A", "commit -m x", "stash list", "stash show -p", "stash drop", "reset --soft HEAD~1",
             "reset -- x", "restore --staged x", "checkout -b topic", "switch -c topic", "checkout --orphan x", "rm --cached x",
             "clean -n", "clean -fn", "merge --abort", "rebase --continue", "worktree add ../x", "push", "fetch", "branch -d x",
             "read-tree HEAD", "sparse-checkout list"]


@pytest.mark.parametrize(("args", "discards", "paths", "source", "brings"), CASES)
def test_change(args: str, discards: int, paths: list[str] | None, source: str | None, brings: list[tuple[str, str]]) -> None:
    found = change(args.split())
    assert found is not None
    assert (found.discards, found.paths, found.source, found.brings) == (discards, paths, source, brings)


@pytest.mark.parametrize("args", UNCHANGED)
def test_no_change(args: str) -> None:
    assert change(args.split()) is None


def test_rewriting_lists_every_subcommand_with_a_branch() -> None:
    import inspect

    from cf_guidance.gates.commands import gitwork

    source = inspect.getsource(gitwork)
    for sub in REWRITING:
        assert f'"{sub}"' in source.split("def change", 1)[1].split("def _stash", 1)[0] or sub == "stash", sub


@pytest.mark.parametrize(("args", "kind"), [("clean -fdx", "clean"), ("rm -r .", "tracked"), ("sparse-checkout set src", "tracked"),
                                            ("worktree remove --force ../wt", "tree")])
def test_other_kinds(args: str, kind: str) -> None:
    found = change(args.split())
    assert found is not None
    assert {"clean": found.clean is not None, "tracked": found.tracked, "tree": bool(found.tree)}[kind]

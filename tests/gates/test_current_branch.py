"""A rule that work stays off the default branch, at a commit or a push that names no branch.

"Never commit directly to main" and "always work on a feature branch" are broken by a plain
`git commit` made while main is checked out, and by a bare `git push` from it. The compiled-rules
gate reads the branch checked out from the repository's HEAD file (a worktree's own HEAD, no
branch when it is detached) and warns: scratch and new repositories sit on their default
branch, and a denial there would stop ordinary work. What the line itself names stays denied
(`git checkout main && git commit`, `git checkout main && git push`, `git push origin main`), and so does a commit or push after
the session itself moved onto the protected branch (`git checkout main` earlier in its history)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cf_guidance.engine import evaluate
from cf_guidance.event import normalise
from cf_guidance.gates._base import STANDARD
from cf_guidance.gates.commands.git import current_branch
from cf_guidance.policy.compiler import compile_sources
from tests.gates.support import home

NEVER_MAIN = "- Never commit directly to `main`.\n"
NEVER_PUSH = "- Don't push to `master`.\n"
FEATURE = "- Always work on a feature branch.\n"


def _repo(root: Path, head: str) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text(head + "\n", encoding="utf-8")
    (root / "src").mkdir()
    return root


def _decide(policy: str, command: str, root: Path, cwd: Path | None = None, history: list[str] | None = None) -> str:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    bundle = {"root": str(root), "settings": {"level": STANDARD}, "checks": checks}
    event = normalise({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(cwd or root)}, project_dir=str(root))
    extras = None if history is None else {"history": [{"command": c, "ok": True} for c in history]}
    with home():
        return evaluate(bundle, event, extras=extras).verdict


CASES = [
    # the branch checked out is the protected one: a plain commit or push warns
    (NEVER_MAIN, "refs/heads/main", "git commit -m 'fix: x'", "warn"),
    (NEVER_MAIN, "refs/heads/main", "git add . && git commit -m x", "warn"),
    (NEVER_MAIN, "refs/heads/main", "git push", "warn"),
    (NEVER_MAIN, "refs/heads/main", "git push -u origin HEAD", "warn"),
    (NEVER_PUSH, "refs/heads/master", "git push origin", "warn"),
    (FEATURE, "refs/heads/main", "git commit -m x", "warn"),
    (FEATURE, "refs/heads/master", "git commit -m x", "warn"),
    # the line names the branch: denied as before
    (NEVER_MAIN, "refs/heads/feat/x", "git checkout main && git commit -m x", "deny"),
    (NEVER_MAIN, "refs/heads/feat/x", "git push origin main", "deny"),
    # the line moves onto the protected branch, then a bare push updates it
    (NEVER_PUSH, "refs/heads/feat/x", "git checkout master && git merge feat/x && git push", "deny"),
    (NEVER_PUSH, "refs/heads/master", "git checkout master && git pull && git push", "deny"),
    (NEVER_PUSH, "refs/heads/master", "git checkout -b feat/z && git push -u origin HEAD", "allow"),
    (NEVER_PUSH, "refs/heads/feat/x", "git checkout master && git pull", "allow"),
    # another branch checked out, or made on the line before the commit
    (NEVER_MAIN, "refs/heads/feat/x", "git commit -m x", "allow"),
    (NEVER_MAIN, "refs/heads/feat/x", "git push", "allow"),
    (NEVER_MAIN, "refs/heads/main", "git checkout -b feat/y && git commit -m x", "allow"),
    (NEVER_MAIN, "refs/heads/main", "git switch -c feat/y && git commit -m x && git push -u origin HEAD", "allow"),
    (NEVER_MAIN, "refs/heads/main-docs", "git commit -m x", "allow"),
    (FEATURE, "refs/heads/fix/parser", "git commit -m x", "allow"),
    # a push that does not update the branch checked out, and commands that are no commit
    (NEVER_MAIN, "refs/heads/main", "git push origin feat/x", "allow"),
    (NEVER_MAIN, "refs/heads/main", "git push --tags", "allow"),
    (NEVER_MAIN, "refs/heads/main", "git status", "allow"),
    (NEVER_MAIN, "refs/heads/main", "git log --oneline -5", "allow"),
    (NEVER_PUSH, "refs/heads/master", "git commit -m x", "allow"),
    # a detached HEAD is no branch
    (NEVER_MAIN, "0123456789abcdef0123456789abcdef01234567", "git commit -m x", "allow"),
]


@pytest.mark.parametrize(("policy", "head", "command", "verdict"), CASES, ids=[f"{c[2]}@{c[1]}->{c[3]}" for c in CASES])
def test_commit_on_the_branch_checked_out(tmp_path: Path, policy: str, head: str, command: str, verdict: str) -> None:
    root = _repo(tmp_path / "repo", head if len(head) == 40 else f"ref: {head}")
    assert _decide(policy, command, root) == verdict


SWITCHED = [
    # the session moved onto the protected branch itself: the check's own verdict
    (["git checkout main"], "git commit -m x", "deny"),
    (["git switch main", "git pull"], "git commit -am x", "deny"),
    (["git checkout main"], "git push", "deny"),
    (["cd src && git checkout main"], "git commit -m x", "deny"),
    # it moved elsewhere after, or never moved: the branch checked out only warns
    (["git checkout main", "git checkout -b feat/x"], "git commit -m x", "warn"),
    (["git checkout src/app.py"], "git commit -m x", "warn"),
    (["git status"], "git commit -m x", "warn"),
    ([], "git commit -m x", "warn"),
]


@pytest.mark.parametrize(("history", "command", "verdict"), SWITCHED, ids=[f"{h}->{c}" for h, c, _ in SWITCHED])
def test_a_switch_of_the_session_onto_the_branch_denies(tmp_path: Path, history: list[str], command: str, verdict: str) -> None:
    root = _repo(tmp_path / "repo", "ref: refs/heads/main")
    assert _decide(NEVER_MAIN, command, root, history=history) == verdict


def test_a_failed_switch_counts_for_nothing(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", "ref: refs/heads/main")
    checks = compile_sources(f"# Rules\n\n{NEVER_MAIN}")["checks"]
    bundle = {"root": str(root), "settings": {"level": STANDARD}, "checks": checks}
    event = normalise({"tool_name": "Bash", "tool_input": {"command": "git commit -m x"}, "cwd": str(root)}, project_dir=str(root))
    with home():
        assert evaluate(bundle, event, extras={"history": [{"command": "git checkout main", "ok": False}]}).verdict == "warn"


def test_subdirectory_and_git_c(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", "ref: refs/heads/main")
    other = _repo(tmp_path / "other", "ref: refs/heads/feat/x")
    assert _decide(NEVER_MAIN, "git commit -m x", root, cwd=root / "src") == "warn"
    assert _decide(NEVER_MAIN, f"git -C {other} commit -m x", root) == "allow"
    assert _decide(NEVER_MAIN, "cd src && git commit -m x", root) == "warn"


def test_worktree_reads_its_own_head(tmp_path: Path) -> None:
    main = _repo(tmp_path / "repo", "ref: refs/heads/main")
    own = main / ".git" / "worktrees" / "wt"
    own.mkdir(parents=True)
    (own / "HEAD").write_text("ref: refs/heads/feat/wt\n", encoding="utf-8")
    (own / "commondir").write_text("../..\n", encoding="utf-8")
    tree = tmp_path / "wt"
    tree.mkdir()
    (tree / ".git").write_text(f"gitdir: {own}\n", encoding="utf-8")
    assert current_branch(str(tree)) == "feat/wt"
    assert current_branch(str(main / "src")) == "main"
    assert _decide(NEVER_MAIN, "git commit -m x", tree) == "allow"
    relative = tmp_path / "wt2"
    relative.mkdir()
    (relative / ".git").write_text("gitdir: ../repo/.git/worktrees/wt\n", encoding="utf-8")
    assert current_branch(str(relative)) == "feat/wt"


def test_no_repository(tmp_path: Path) -> None:
    assert current_branch(str(tmp_path)) == ""
    assert _decide(NEVER_MAIN, "git commit -m x", tmp_path) == "allow"

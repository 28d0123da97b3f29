"""Self-protection gate: git operations judged by what git says they do to the wiring, package
managers that remove the guard, agents started without its hooks. Git cases run in real
repositories in the three states a user's repository can be in after `cf-guidance init`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cf_guidance.engine import evaluate
from cf_guidance.event import normalise
from cf_guidance.gates import self_protection
from tests.gates.support import bash, codes

WIRED = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard pre-bash"}]}]}}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _repo(tmp_path: Path, state: str) -> Path:
    """A repository whose `.claude/settings.json` is
    - "untracked": created by init in a repository that had none (how most users start);
    - "modified": committed without hooks, then changed by init and not committed;
    - "committed": committed with the hooks; branch `bare` has the file without them.
    The state directory is there and ignored, as init leaves it."""
    repo = tmp_path / state
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    (repo / "README.md").write_text("x\n")
    (repo / ".gitignore").write_text(".claude-flow/\n")
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("print(1)\n")
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    if state in ("modified", "committed"):
        settings.write_text("{}\n" if state == "modified" else json.dumps(WIRED))
        _git(repo, "add", "-A")
        _git(repo, "commit", "-qm", "base")
        if state == "committed":
            _git(repo, "checkout", "-qb", "bare")
            settings.write_text("{}\n")
            _git(repo, "commit", "-qam", "no hooks")
            _git(repo, "checkout", "-q", "main")
        else:
            settings.write_text(json.dumps(WIRED))
    else:
        _git(repo, "add", "-A")
        _git(repo, "commit", "-qm", "base")
        settings.write_text(json.dumps(WIRED))
    (repo / "src" / "app.py").write_text("print(2)\n")  # ordinary work in progress
    (repo / ".claude-flow" / "guidance" / "ledger").mkdir(parents=True)
    (repo / ".claude-flow" / "guidance" / "ledger" / "ledger.jsonl").write_text("")
    return repo


def _decide(repo: Path, command: str) -> list[str]:
    event = normalise({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(repo)}, project_dir=str(repo))
    decision = evaluate({"root": str(repo), "settings": {}}, event)
    return [f.rule for f in decision.findings if f.rule.startswith("GRD")]


#: (state, command, GRD001 expected)
GIT_CASES = [
    ("modified", "git stash", True),
    ("modified", "git stash push -m wip", True),
    ("modified", "git stash -- src", False),
    ("modified", "git stash push -- .claude", True),
    ("untracked", "git stash", False),  # an untracked file is not stashed: the wiring stays
    ("untracked", "git stash -u", True),
    ("committed", "git stash", False),  # the wiring is committed and unchanged
    ("committed", "git stash -u", False),
    ("committed", "git stash --all", True),  # takes the ignored state directory
    ("modified", "git reset --hard", True),
    ("untracked", "git reset --hard", False),
    ("committed", "git reset --hard bare", True),
    ("modified", "git reset --soft HEAD", False),
    ("modified", "git checkout -- .", True),
    ("modified", "git checkout .", True),
    ("modified", "git restore .", True),
    ("modified", "git restore .claude", True),
    ("modified", "git restore src", False),
    ("modified", "git restore --staged .", False),
    ("untracked", "git checkout -- .", False),
    ("committed", "git checkout bare", True),
    ("committed", "git switch bare", True),
    ("committed", "git checkout -b feature", False),
    ("committed", "git checkout bare -- .claude", True),
    ("committed", "git restore --source=bare .", True),
    ("committed", "git merge bare", True),
    ("committed", "git cherry-pick bare", True),
    ("committed", "git read-tree -u --reset bare", True),
    ("committed", "git sparse-checkout set src", True),
    ("untracked", "git sparse-checkout set src", False),
    ("committed", "git rm -r -q .", True),
    ("committed", "git rm --cached -r -q .", False),
    ("untracked", "git clean -fd", True),
    ("untracked", "git clean -fdx", True),
    ("committed", "git clean -fdx", True),  # the ignored state directory
    ("committed", "git clean -fd", False),
    ("untracked", "git clean -fd src", False),
    ("modified", "git -c alias.s=stash s", True),
    ("modified", "git -C . stash", True),
    ("modified", "git --work-tree=. --git-dir=/tmp/elsewhere/.git checkout -f", True),
    ("modified", "GIT_WORK_TREE=. git checkout -f", True),
    ("modified", "git worktree remove --force .", True),
]

ORDINARY = ["git status", "git diff", "git log --oneline -5", "git add src/app.py", "git commit -qm wip src/app.py",
            "git stash list", "git branch feature", "git fetch", "git show HEAD"]


@pytest.mark.parametrize(("state", "command", "denied"), GIT_CASES)
def test_git(tmp_path: Path, state: str, command: str, denied: bool) -> None:
    repo = _repo(tmp_path, state)
    assert _decide(repo, command) == (["GRD001"] if denied else [])


@pytest.mark.parametrize("state", ["untracked", "modified", "committed"])
def test_ordinary_git_stays_allowed_and_asks_git_nothing(tmp_path: Path, state: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from cf_guidance.gates.commands import gitwork

    def no_git(self: object, args: list[str]) -> None:
        raise AssertionError(f"git was asked {args}")

    monkeypatch.setattr(gitwork._Git, "run", no_git)
    repo = _repo(tmp_path, state)
    for command in ORDINARY:
        assert _decide(repo, command) == [], command


def test_a_git_that_cannot_answer_counts_as_a_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cf_guidance.gates.commands import gitwork

    monkeypatch.setattr(gitwork._Git, "run", lambda self, args: None)
    repo = _repo(tmp_path, "committed")
    assert _decide(repo, "git stash") == ["GRD001"]


def test_a_repository_that_does_not_hold_the_project_is_not_judged(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "modified")
    other = tmp_path / "other"
    other.mkdir()
    _git(other, "init", "-q")
    event = normalise({"tool_name": "Bash", "tool_input": {"command": f"git -C {other} stash"}, "cwd": str(repo)}, project_dir=str(repo))
    assert [f.rule for f in evaluate({"root": str(repo), "settings": {}}, event).findings if f.rule.startswith("GRD")] == []


@pytest.mark.parametrize(("command", "expected"), [
    ("pip uninstall -y cf-guidance", ["GRD002:deny"]),
    ("python -m pip uninstall cf-guidance", ["GRD002:deny"]),
    ("pipx uninstall cf-guidance", ["GRD002:deny"]),
    ("claude --bare -p hi", ["GRD003:deny"]),
    ("cd /tmp && claude -p hi", ["GRD003:deny"]),
    ("codex -C /tmp exec hi", ["GRD003:deny"]),
    ("codex --disable hooks exec hi", ["GRD003:deny"]),
    ("pip install -r requirements.txt", []),
    ("claude -p 'run the tests'", []),
    ("codex exec 'run the tests'", []),
    ("npm test", []),
])
def test_packages_and_agents(command: str, expected: list[str]) -> None:
    assert codes(self_protection, bash(command)) == expected

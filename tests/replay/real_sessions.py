"""Session logs written by the real clients, for the replay tests and the replay benchmark.

`History.run_claude` / `run_codex` drive the real `claude` / `codex` binaries against the
scripted model server (tests/e2e/e2e_harness.py has the recipes) in one project that
`cf-guidance init --agent both` guards, so denials at the time are real hook denials. The
clients write their own logs: Claude Code under `<home>/.claude/projects/<slug>/`, Codex under
`<home>/.codex/sessions/`. Nothing here writes a log line by hand.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cf_guidance.headless.claude import claude_env, run_claude
from cf_guidance.modelserver import ModelServer
from tests.e2e.e2e_harness import HOOK_ENV, RUN_TIMEOUT_S, cf_guidance, run_codex


class History:
    """A guarded git project and an isolated HOME whose client config dirs collect the logs."""

    def __init__(self, root: Path, policy: str, *, claude: Path | None, codex: Path | None) -> None:
        self.root = root
        self.project = root / "project"
        self.home = root / "home"
        self.claude_bin, self.codex_bin = claude, codex
        self.claude_sessions: list[Path] = []
        self.codex_sessions: list[Path] = []
        self.project.mkdir(parents=True)
        self.home.mkdir()
        subprocess.run(["git", "init", "-q", str(self.project)], check=True)
        for key, value in (("user.email", "t@example.com"), ("user.name", "t"), ("commit.gpgsign", "false")):
            subprocess.run(["git", "-C", str(self.project), "config", key, value], check=True)
        (self.project / "CLAUDE.md").write_text(policy)
        (self.project / "Makefile").write_text("test:\n\t@echo tests pass\nfail:\n\t@exit 3\n")
        done = subprocess.run(cf_guidance("init", "--agent", "both", "--target", str(self.project)),
                              capture_output=True, text=True, timeout=120, env=dict(os.environ, HOME=str(self.home)))
        assert done.returncode == 0, done.stdout + done.stderr

    @property
    def claude_config(self) -> Path:
        return self.home / ".claude"

    @property
    def codex_home(self) -> Path:
        return self.home / ".codex"

    def environ(self) -> dict[str, str]:
        """Where the clients keep their logs, as `replay` finds them by default."""
        return {"CLAUDE_CONFIG_DIR": str(self.claude_config), "CODEX_HOME": str(self.codex_home), "HOME": str(self.home)}

    def run_claude(self, turns: Sequence[Mapping[str, Any]], *, prompt: str = "Do the task.") -> Path:
        """One Claude Code session; returns its transcript."""
        assert self.claude_bin is not None
        before = set(self.claude_config.rglob("*.jsonl"))
        with ModelServer({"turns": list(turns)}) as server:
            run = run_claude(prompt, self.project, claude_env(server.url, self.home, extra=HOOK_ENV),
                             max_turns=60, timeout=RUN_TIMEOUT_S, binary=self.claude_bin)
        assert not run.timed_out and run.exit_code == 0, run.stderr[-2000:]
        (transcript,) = set(self.claude_config.rglob("*.jsonl")) - before
        return transcript

    def run_codex(self, turns: Sequence[Mapping[str, Any]]) -> Path:
        """One Codex session; returns its rollout."""
        assert self.codex_bin is not None
        before = set(self.codex_home.rglob("rollout-*.jsonl"))
        run = run_codex(self, self.codex_bin, turns)  # type: ignore[arg-type]  # uses .home and .project
        assert run.exit_code == 0, run.stderr[-2000:]
        (rollout,) = set(self.codex_home.rglob("rollout-*.jsonl")) - before
        return rollout


def bash(command: str) -> dict[str, Any]:
    return {"tool_uses": [{"name": "Bash", "input": {"command": command, "description": "step"}}]}


def patch(path: str, text: str) -> dict[str, Any]:
    """A Codex apply_patch call adding `path`."""
    body = "".join(f"+{line}\n" for line in text.splitlines())
    return {"tool_uses": [{"name": "apply_patch", "input": {"input": f"*** Begin Patch\n*** Add File: {path}\n{body}*** End Patch\n"}}]}


#: The policy the sessions ran under (the hooks denied by it at the time).
LIVE_POLICY = "# Service\n\n## Safety\n\n- Never run `make deploy`.\n"
#: Rules the tests replay as candidates: a ban on a command that only ever failed, a sequence
#: rule that would have stopped commits that were kept (and one that was reset), an advisory rule.
BAN_FAILING = "- Never run `make fail`."
SEQUENCE = "- `make test` must pass before every `git commit`."
ADVISORY = "- Prefer small, focused commits."


def standard_history(root: Path, *, claude: Path, codex: Path | None) -> History:
    """Two Claude Code sessions and (with the binary) one Codex session in one guarded project.

    Claude 1: echo (ok), `make fail` (fails), Write notes.txt, Read it and `ls` in one message,
    `make deploy` (denied by the hook), add and commit without tests (kept), `make test`, commit.
    Claude 2: commit without tests (kept), commit `wip` then `git reset --soft HEAD~1` (undone).
    Codex: echo, `make fail`, `make deploy` (denied), apply_patch docs/a.md, `make test`, commit.
    """
    history = History(root, LIVE_POLICY, claude=claude, codex=codex)
    notes = str(history.project / "notes.txt")
    history.claude_sessions = [
        history.run_claude([
            bash("echo hi"), bash("make fail"),
            {"tool_uses": [{"name": "Write", "input": {"file_path": notes, "content": "notes\n"}}]},
            {"tool_uses": [{"name": "Read", "input": {"file_path": notes}},
                           {"name": "Bash", "input": {"command": "ls", "description": "list"}}]},
            bash("make deploy"), bash("git add notes.txt && git commit -qm notes"), bash("make test"),
            bash("git commit --allow-empty -qm second"), {"text": "done"},
        ]),
        history.run_claude([
            bash("git commit --allow-empty -qm third"), bash("git commit --allow-empty -qm wip"),
            bash("git reset --soft HEAD~1"), {"text": "done"},
        ]),
    ]
    history.codex_sessions = []
    if codex is not None:
        history.codex_sessions.append(history.run_codex([
            bash("echo codex"), bash("make fail"), bash("make deploy"), patch("docs/a.md", "hello"),
            bash("make test"), bash("git commit --allow-empty -qm codex"), {"text": "DONE"},
        ]))
    return history

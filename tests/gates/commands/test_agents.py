"""Agents started from the shell: each option of cf_guidance.gates.commands.agents with
commands that must and must not count as starting an unguarded session."""

from __future__ import annotations

import pytest

from cf_guidance.gates.commands.agents import CLAUDE_UNGUARDED, CODEX_UNGUARDED, starts_session, unguarded
from cf_guidance.shell import analyze

UNGUARDED = [
    "claude --bare -p 'hi'",
    "claude --safe-mode",
    "claude --restricted -p x",
    "claude --dangerously-skip-permissions -p x",
    "claude --allow-dangerously-skip-permissions -p x",
    "claude --settings /tmp/off.json -p x",
    "claude --settings '{\"disableAllHooks\": true}' -p x",
    "claude --setting-sources user -p x",
    "claude --setting-sources user,project -p x",
    "claude --permission-mode bypassPermissions -p x",
    "claude --permission-mode=bypassPermissions -p x",
    "claude -w -p x",
    "claude --worktree feature -p x",
    "CLAUDE_CODE_SIMPLE=1 claude -p x",
    "env CLAUDE_CODE_SAFE_MODE=1 claude -p x",
    "npx @anthropic-ai/claude-code --bare -p x",
    "codex --dangerously-bypass-approvals-and-sandbox exec x",
    "codex exec --dangerously-bypass-hook-trust x",
    "codex --yolo",
    "codex exec --ignore-user-config x",
    "codex --disable hooks exec x",
    "codex -c features.hooks=false exec x",
    "codex -c 'hooks={}' exec x",
    "codex -p loose exec x",
    "codex --profile loose exec x",
    "codex --worktree exec x",
]

GUARDED = [
    "claude -p 'run the tests'",
    "claude -p x --output-format json --max-turns 3",
    "claude --setting-sources user,project,local -p x",
    "claude --permission-mode acceptEdits -p x",
    "claude mcp list",
    "claude --version",
    "codex exec 'run the tests'",
    "codex -s workspace-write exec x",
    "codex -c model=o3 exec x",
    "codex login",
]


def _argv(command: str) -> tuple[str, list[str], list[tuple[str, str]]]:
    cmd = analyze(command).commands[-1]
    return cmd.program, cmd.args, cmd.assignments


@pytest.mark.parametrize("command", UNGUARDED)
def test_unguarded(command: str) -> None:
    assert unguarded(*_argv(command))


@pytest.mark.parametrize("command", GUARDED)
def test_guarded(command: str) -> None:
    assert unguarded(*_argv(command)) == ""


def test_every_option_has_an_example() -> None:
    text = "\n".join(UNGUARDED)
    assert [o for o in [*CLAUDE_UNGUARDED, *CODEX_UNGUARDED] if o not in text] == []


@pytest.mark.parametrize(("command", "expected"), [("claude -p x", True), ("claude mcp add x", False), ("codex login", False),
                                                    ("codex --version", False), ("codex exec x", True)])
def test_starts_session(command: str, expected: bool) -> None:
    program, args, _ = _argv(command)
    assert starts_session(program, args) is expected

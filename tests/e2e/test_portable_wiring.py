"""The real Claude Code through the committed, portable wiring (`init`, scope project): it blocks
with cf-guidance-hook on PATH, and without it every tool call is denied with the one line that
says how to install it (never a silent allow)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from e2e_harness import Sandbox, bash, cf_guidance

pytestmark = pytest.mark.e2e

CLAUDE_MD = "# Rules\n\n## Safety\n\n- Never run `make deploy`.\n"


@pytest.fixture
def wired(sandbox: Sandbox) -> Sandbox:
    project = sandbox.project
    (project / "CLAUDE.md").write_text(CLAUDE_MD)
    (project / "Makefile").write_text("deploy:\n\ttouch deployed\n")
    sandbox.home.mkdir(exist_ok=True)
    done = subprocess.run(cf_guidance("init", "--target", str(project)), capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, HOME=str(sandbox.home)))
    assert done.returncode == 0, done.stdout + done.stderr
    command = json.loads((project / ".claude/settings.json").read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert command.startswith('PATH="$PATH:$HOME/.local/bin:${CLAUDE_PROJECT_DIR:-.}/.claude-flow/guidance/bin"; ')
    assert sys.prefix not in command
    return sandbox


def test_the_portable_wiring_blocks_with_the_tool_on_path(wired: Sandbox) -> None:
    run = wired.run([bash("make deploy"), bash("touch ok"), {"text": "done"}])
    assert run.claude.exit_code == 0, run.claude.stderr
    assert "Not allowed: `make deploy`. (CLAUDE.md:5)" in run.told(0).content
    assert not (wired.project / "deployed").exists() and (wired.project / "ok").exists()


def test_without_the_tool_every_call_is_denied_in_one_line(wired: Sandbox) -> None:
    # A teammate's machine: the committed wiring, but cf-guidance-hook nowhere on PATH or in ~/.local/bin,
    # and no link from an init of their own.
    (wired.project / ".claude-flow" / "guidance" / "bin" / "cf-guidance-hook").unlink()
    run = wired.run([bash("touch ran"), {"text": "done"}], env={"PATH": "/usr/bin:/bin"})
    assert run.claude.exit_code == 0, run.claude.stderr
    told = run.told(0)
    assert told.is_error and "cf-guidance is not installed: install it (pipx install cf-guidance" in told.content
    assert not (wired.project / "ran").exists()


def test_the_machine_that_wired_it_works_with_the_tool_off_path(wired: Sandbox) -> None:
    # `init` run from a venv nobody activated: its link in the project's state finds the tool.
    run = wired.run([bash("make deploy"), bash("touch ok"), {"text": "done"}], env={"PATH": "/usr/bin:/bin"})
    assert run.claude.exit_code == 0, run.claude.stderr
    assert "Not allowed: `make deploy`. (CLAUDE.md:5)" in run.told(0).content
    assert not (wired.project / "deployed").exists() and (wired.project / "ok").exists()

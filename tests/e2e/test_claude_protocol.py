"""The client facts the hooks rely on (DESIGN.md section 1), re-checked on the pinned binary.

A hand-written PreToolUse hook answers in each protocol form; the scripted session then
tries to delete a victim directory. If a Claude Code upgrade changes what blocks, these
fail before the product tests do.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from e2e_harness import Sandbox, bash

pytestmark = pytest.mark.e2e

HOOK = """\
import json, sys
event = json.load(sys.stdin)
command = event.get("tool_input", {}).get("command", "")
if "victim" not in command:
    sys.exit(0)
mode = sys.argv[1]
if mode == "json-deny":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
          "permissionDecision": "deny", "permissionDecisionReason": "[T001] hand hook says no"}}))
elif mode == "exit2":
    print("[T002] hand hook exit 2", file=sys.stderr)
    sys.exit(2)
elif mode == "exit1":
    print("[T003] hand hook exit 1", file=sys.stderr)
    sys.exit(1)
"""


def _install_hand_hook(project: Path, mode: str) -> None:
    script = project / ".claude" / "hand_hook.py"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(HOOK)
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {mode}"
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": command, "timeout": 30}]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))


@pytest.mark.parametrize(
    ("mode", "exit_code", "blocks", "told"),
    [
        ("json-deny", 0, True, "PreToolUse:Bash hook error: [T001] hand hook says no"),
        ("exit2", 2, True, "]: [T002] hand hook exit 2"),
        ("exit1", 1, False, "(Bash completed with no output)"),
    ],
)
def test_what_blocks(
    sandbox: Sandbox, mode: str, exit_code: int, blocks: bool, told: str
) -> None:
    _install_hand_hook(sandbox.project, mode)
    turns = [bash(f"rm -rf {sandbox.victim}"), bash("touch safe-ran"), {"text": "ok"}]
    run = sandbox.run(turns, hook_events=True)
    assert run.claude.exit_code == 0, run.claude.stderr
    assert run.result["result"] == "ok"
    assert (sandbox.project / "safe-ran").exists()
    assert sandbox.victim.exists() is blocks
    assert run.denied() == ({"toolu_0_0"} if blocks else set())
    result = run.told(0)
    assert result.is_error is blocks
    assert told in result.content
    assert [r["exit_code"] for r in run.hook_responses("PreToolUse:Bash")] == [exit_code, 0]


def test_no_hook_means_no_protection(sandbox: Sandbox) -> None:
    """The baseline: with --allowedTools Bash and no hook, the victim is deleted."""
    run = sandbox.run([bash(f"rm -rf {sandbox.victim}"), {"text": "ok"}])
    assert run.claude.exit_code == 0
    assert not sandbox.victim.exists()
    assert run.told(0).is_error is False


def test_stream_json_shows_tool_calls_and_results(sandbox: Sandbox) -> None:
    run = sandbox.run([bash("echo hello-from-bash"), {"text": "ok"}], output_format="stream-json")
    kinds = [m.get("type") for m in run.claude.messages]
    assert kinds[-1] == "result"
    assert "assistant" in kinds and "user" in kinds
    assert run.told(0).content == "hello-from-bash"

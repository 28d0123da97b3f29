"""Codex rollouts: which belong to a project, and the calls of real rollouts with their outcomes.

The rollouts are written by the real `codex` (0.169) against the scripted Responses API. The
older-format tests rewrite a real rollout into the shapes earlier clients wrote (items without
the `payload` wrapper, the argv `shell` tool, `local_shell_call`, JSON outputs) rather than
writing lines by hand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from cf_guidance.replay import codex_log
from cf_guidance.replay.calls import DENIED, FAILED, SUCCEEDED, LogStats, rule_in
from tests.replay.real_sessions import History


def outcomes(path: Path, stats: LogStats | None = None) -> list[tuple[str, str, str, str]]:
    return [(c.tool, c.brief(500), c.outcome, rule_in(c.denial)) for c in codex_log.read_session(path, stats or LogStats())]


def test_calls_of_a_real_rollout_in_order_with_their_outcomes(codex_history: History) -> None:
    (rollout,) = codex_history.codex_sessions
    stats = LogStats()
    got = outcomes(rollout, stats)
    deny = got[2][3]
    assert got == [
        ("Bash", "echo codex", SUCCEEDED, ""),
        ("Bash", "make fail", FAILED, ""),
        ("Bash", "make deploy", DENIED, deny),
        ("apply_patch", "apply_patch *** Begin Patch *** Add File: docs/a.md +hello *** End Patch", SUCCEEDED, ""),
        ("Bash", "make test", SUCCEEDED, ""),
        ("Bash", "git commit --allow-empty -qm codex", SUCCEEDED, ""),
    ]
    assert deny.startswith("S-")
    assert stats.unknown == stats.unreadable == 0 and list(stats.versions) == ["codex 0.169.0"]
    calls = codex_log.read_session(rollout, LogStats())
    lines = rollout.read_text().splitlines()
    for call in calls:
        assert json.loads(lines[call.line - 1])["payload"]["call_id"] == call.tool_use_id
        assert call.session in rollout.name and call.cwd == str(codex_history.project)
    assert (codex_history.project / "docs" / "a.md").read_text() == "hello\n"  # the patch really ran


def test_a_project_owns_the_rollouts_started_in_it_or_below(codex_history: History) -> None:
    (rollout,) = codex_history.codex_sessions
    env = codex_history.environ()
    assert list(codex_log.rollouts(env)) == [rollout]
    cwd = codex_log.session_cwd(rollout)
    assert cwd == str(codex_history.project)
    assert codex_log.belongs_to(cwd, str(codex_history.project))
    assert codex_log.belongs_to(cwd, str(codex_history.project.parent))
    assert not codex_log.belongs_to(cwd, str(codex_history.project) + "-other")
    assert not codex_log.belongs_to(cwd, str(codex_history.project / "docs"))


def _rewrite(rollout: Path, target: Path, change: Any) -> Path:
    out = []
    for number, raw in enumerate(rollout.read_text().splitlines(), start=1):
        line = change(number, json.loads(raw))
        if line is not None:
            out.append(json.dumps(line))
    target.write_text("\n".join(out) + "\n")
    return target


def _old_shell(number: int, line: dict[str, Any]) -> dict[str, Any] | None:
    """As Codex before 0.4x: no wrapper, the shell an argv `shell` call, JSON outputs."""
    if line["type"] == "session_meta":
        return {k: v for k, v in line["payload"].items() if k != "type"}
    if line["type"] != "response_item":
        return None
    item = dict(line["payload"])
    if item["type"] == "function_call" and item["name"] == "exec_command":
        item["name"] = "shell"
        item["arguments"] = json.dumps({"command": ["bash", "-lc", json.loads(item["arguments"])["cmd"]]})
    elif item["type"] == "function_call_output":
        code = re.search(r"Process exited with code (\d+)", item["output"])
        if code:
            item["output"] = json.dumps({"output": "", "metadata": {"exit_code": int(code.group(1))}})
    return item


def _local_shell(number: int, line: dict[str, Any]) -> dict[str, Any]:
    payload = line.get("payload") or {}
    if payload.get("type") == "function_call" and payload.get("name") == "exec_command":
        command = json.loads(payload["arguments"])["cmd"]
        line = {**line, "payload": {"type": "local_shell_call", "call_id": payload["call_id"], "status": "completed",
                                    "action": {"type": "exec", "command": ["bash", "-lc", command]}}}
    return line


def test_older_rollout_shapes_give_the_same_calls(codex_history: History, tmp_path: Path) -> None:
    (rollout,) = codex_history.codex_sessions
    expected = outcomes(rollout)
    for change in (_old_shell, _local_shell):
        stats = LogStats()
        assert outcomes(_rewrite(rollout, tmp_path / f"rollout-{change.__name__}.jsonl", change), stats) == expected
        assert stats.unknown == 0


def test_unknown_and_torn_lines_are_counted(codex_history: History, tmp_path: Path) -> None:
    (rollout,) = codex_history.codex_sessions
    expected = outcomes(rollout)
    lines = rollout.read_text().splitlines()
    extra = [json.dumps({"timestamp": "t", "type": "telepathy", "payload": {}}),
             json.dumps({"timestamp": "t", "type": "response_item", "payload": {"type": "quantum_call", "call_id": "q"}}),
             json.dumps({"timestamp": "t", "type": "response_item", "payload": {"type": "function_call", "name": 3}}),
             "{torn"]
    altered = tmp_path / rollout.name
    altered.write_text("\n".join(lines[:2] + extra + lines[2:]) + "\n")
    stats = LogStats()
    assert outcomes(altered, stats) == expected
    assert stats.unknown == 3 and stats.unreadable == 1

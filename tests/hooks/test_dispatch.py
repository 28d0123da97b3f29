"""The hook entrypoint end to end in-process: verdicts, fail modes, self-timeout, spool, context."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from guidance.hooks import dispatch, handlers

from .conftest import HookRunner, bash

CLOSED = {"GUIDANCE_EVENT_FAIL_CLOSED": "1"}


def permission(answer: Any) -> str | None:
    if not answer.stdout:
        return None
    return json.loads(answer.stdout).get("hookSpecificOutput", {}).get("permissionDecision")


@pytest.mark.parametrize(
    ("command", "verdict", "rule"),
    [
        ("ls -la", None, None),
        ("rm -rf /", "deny", "CAT001"),
        ("git push --force origin main", "deny", None),
        ("npm install left-pad", None, "warn"),
        ("terraform apply", "ask", None),
    ],
)
def test_pre_bash_verdicts_follow_the_policy(policy_hook: HookRunner, command: str, verdict: str | None, rule: str | None) -> None:
    answer = policy_hook("pre-bash", bash(command))
    assert answer.exit_code == 0 and answer.stderr == ""
    assert permission(answer) == verdict
    if verdict is None and rule is None:
        assert answer.stdout == ""  # allow: no output, never "allow"
    if rule == "warn":
        out = json.loads(answer.stdout)
        assert "npm install" in out["hookSpecificOutput"]["additionalContext"] and out["systemMessage"]
    elif rule:
        assert f"[{rule}]" in json.loads(answer.stdout)["hookSpecificOutput"]["permissionDecisionReason"]


def test_every_pre_tool_decision_is_spooled_for_the_worker(policy_hook: HookRunner) -> None:
    policy_hook("pre-bash", bash("ls"))
    policy_hook("pre-bash", bash("rm -rf /"))
    jobs = policy_hook.jobs()
    assert [job["kind"] for job in jobs] == ["decision", "decision"]
    assert [job["decision"]["decision"] for job in jobs] == ["allow", "deny"]
    assert jobs[1]["decision"]["rule"] == "CAT001" and jobs[1]["decision"]["hook"] == "pre-bash"
    assert jobs[0]["event"]["tool_input"] == {"command": "ls"} and jobs[0]["session_id"] == "s1"
    assert policy_hook.spawned == []  # the next post event starts the worker


@pytest.mark.parametrize(
    ("name", "payload"),
    [
        ("pre-edit", {"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": "migrations/001.sql", "content": "x"}}),
        ("pre-edit", {"hook_event_name": "PreToolUse", "turn_id": "t", "tool_name": "apply_patch",
                      "tool_input": {"command": "*** Begin Patch\n*** Add File: migrations/002.sql\n+x\n*** End Patch"}}),
        ("pre-bash", {"hook_event_name": "PreToolUse", "turn_id": "t", "tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}}),
    ],
)
def test_edits_and_codex_payloads_are_denied_by_the_same_policy(policy_hook: HookRunner, name: str, payload: dict[str, Any]) -> None:
    payload["cwd"] = str(policy_hook.project)
    assert permission(policy_hook(name, payload)) == "deny"


@pytest.mark.parametrize("env", [{}, CLOSED])
def test_the_catastrophe_guard_stands_when_everything_after_it_fails(hook: HookRunner, monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    def broken(call: handlers.Call) -> dict[str, Any]:
        raise RuntimeError("cache exploded")

    monkeypatch.setattr(handlers, "load_bundle", broken)
    assert permission(hook("pre-bash", bash("rm -rf /", **env))) == "deny"
    answer = hook("pre-bash", bash("ls"), **env)
    assert answer.stderr.count("\n") == 1 and "cache exploded" in answer.stderr
    if env:
        assert permission(answer) == "deny"
        assert "[fail-closed]" in json.loads(answer.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    else:
        assert permission(answer) is None and "allowed because" in json.loads(answer.stdout)["systemMessage"]
    assert hook.jobs()[-1]["decision"]["rule"] == ("fail-closed" if env else "fail-open")


@pytest.mark.parametrize("env", [{}, CLOSED])
def test_self_timeout_answers_by_the_fail_mode(hook: HookRunner, monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    def slow(call: handlers.Call) -> dict[str, Any]:
        time.sleep(10)
        return {}

    monkeypatch.setattr(handlers, "load_bundle", slow)
    started = time.monotonic()
    answer = hook("pre-bash", bash("ls"), GUIDANCE_EVENT_SYNC_TIMEOUT_MS="100", **env)
    assert time.monotonic() - started < 5
    assert "timed out after 100 ms" in answer.stderr
    assert permission(answer) == ("deny" if env else None)
    # the guard ran before the slow part, so its deny stands even on a timeout
    assert permission(hook("pre-bash", bash("rm -rf /"), GUIDANCE_EVENT_SYNC_TIMEOUT_MS="100", **env)) == "deny"


def test_a_bad_timeout_setting_is_reported_and_the_default_used(hook: HookRunner) -> None:
    answer = hook("pre-bash", bash("ls"), GUIDANCE_EVENT_SYNC_TIMEOUT_MS="soon")
    assert answer.exit_code == 0 and answer.stdout == ""
    assert "GUIDANCE_EVENT_SYNC_TIMEOUT_MS='soon'" in answer.stderr


@pytest.mark.parametrize("env", [{}, CLOSED])
def test_an_unwritable_spool_warns_and_denies_only_when_fail_closed(hook: HookRunner, tmp_path: Path, env: dict[str, str]) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    answer = hook("pre-bash", bash("ls"), GUIDANCE_STATE_DIR=str(blocker / "state"), **env)
    assert "cannot write a job to the spool" in answer.stderr
    assert permission(answer) == ("deny" if env else None)
    if env:
        assert "[spool-unwritable]" in json.loads(answer.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    post = hook("post-bash", {"hook_event_name": "PostToolUse", "tool_name": "Bash"}, GUIDANCE_STATE_DIR=str(blocker / "s"), **env)
    assert post.exit_code == 0 and post.stdout == "" and "cannot write a job" in post.stderr


@pytest.mark.parametrize(
    ("name", "event"),
    [("post-bash", "PostToolUse"), ("post-edit", "PostToolUse"), ("post-task", "PostToolUse"),
     ("post-failure", "PostToolUseFailure"), ("session-end", "SessionEnd"), ("stop", "Stop")],
)
def test_post_events_are_spooled_silently(hook: HookRunner, name: str, event: str) -> None:
    payload = {"session_id": "s9", "hook_event_name": event, "tool_name": "Bash", "tool_response": {"stdout": "y" * 50_000}}
    answer = hook(name, payload)
    assert (answer.stdout, answer.stderr, answer.exit_code) == ("", "", 0)
    [job] = hook.jobs()
    assert job["kind"] == name and job["session_id"] == "s9" and job["decision"] is None
    assert len(job["event"]["tool_response"]["stdout"]) < 10_000
    assert hook.spawned


def test_user_prompt_injects_the_relevant_rules_only(policy_hook: HookRunner) -> None:
    answer = policy_hook("user-prompt", {"hook_event_name": "UserPromptSubmit", "prompt": "fix the bug in the payments module"})
    specific = json.loads(answer.stdout)["hookSpecificOutput"]
    assert specific["hookEventName"] == "UserPromptSubmit" and "payments module" in specific["additionalContext"]
    assert policy_hook("user-prompt", {"hook_event_name": "UserPromptSubmit", "prompt": "zzz qqq"}).stdout == ""


def test_session_restore_and_compact_carry_the_constitution(policy_hook: HookRunner) -> None:
    answer = policy_hook("session-restore", {"hook_event_name": "SessionStart", "source": "startup"})
    specific = json.loads(answer.stdout)["hookSpecificOutput"]
    assert specific["hookEventName"] == "SessionStart" and "git push --force" in specific["additionalContext"]
    compact = policy_hook("compact", {"hook_event_name": "PreCompact", "trigger": "auto"})
    assert "git push --force" in compact.stdout and not compact.stdout.startswith("{")


def test_no_policy_means_no_context(hook: HookRunner) -> None:
    assert hook("session-restore", {"hook_event_name": "SessionStart"}).stdout == ""


@pytest.mark.parametrize("env", [{}, CLOSED])
def test_an_event_wired_to_the_wrong_command_is_bad_input(hook: HookRunner, env: dict[str, str]) -> None:
    answer = hook("pre-bash", bash("ls", hook_event_name="PostToolUse"), **env)
    assert "pre-bash handles PreToolUse events" in answer.stderr
    # fail-closed cannot trust the event's name for a JSON answer: exit 2 blocks whatever it is
    assert answer.exit_code == (2 if env else 0)
    assert permission(answer) is None


@pytest.mark.parametrize(("env", "exit_code"), [({}, 0), (CLOSED, 2)])
def test_unknown_command(hook: HookRunner, env: dict[str, str], exit_code: int) -> None:
    answer = hook("pre-nothing", bash("ls"), **env)
    assert answer.exit_code == exit_code and "unknown hook command 'pre-nothing'" in answer.stderr


def test_status_and_stats(policy_hook: HookRunner) -> None:
    policy_hook("pre-bash", bash("rm -rf /"))
    policy_hook("pre-bash", bash("ls"))
    status = policy_hook("status", b"")
    assert f"project:      {policy_hook.project}" in status.stdout and "fail mode:    open" in status.stdout
    assert "spool:        2 job(s) waiting" in status.stdout and "rule(s)" in status.stdout
    stats = policy_hook("stats", b"")
    assert "decisions: 2" in stats.stdout and "CAT001" in stats.stdout


def test_main_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch.main([]) == 2
    assert "pre-bash" in capsys.readouterr().out
    assert dispatch.main(["--help"]) == 0

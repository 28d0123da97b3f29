"""The hook entrypoint end to end in-process: verdicts, fail modes, self-timeout, spool, context."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.hooks import dispatch, handlers

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
    def broken(call: handlers.Call, part: str = "full") -> dict[str, Any]:
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
    def slow(call: handlers.Call, part: str = "full") -> dict[str, Any]:
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


# -- the built-in guard survives what fails after it ----------------------------------------

#: Gate-level denies that need no compiled bundle: each must survive a failure while the bundle loads.
BUILTIN_DENIES = [
    ("pre-bash", "Bash", {"command": "rm -rf ../other"}, "DST001"),
    ("pre-bash", "Bash", {"command": "cat .env"}, "SEC002"),
    ("pre-edit", "Write", {"file_path": ".claude/settings.json", "content": "{}"}, "PTH001"),
    ("pre-bash", "Bash", {"command": "git push --force origin main"}, "DST012"),
]
#: A cwd outside the temp directories (the test project is under /tmp, where deletes are scratch).
ELSEWHERE = "/srv/checkout/app"


def _event(project: Path, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    cwd = ELSEWHERE if tool_input.get("command", "").startswith("rm ") else str(project)
    return {"session_id": "s1", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input}


def _sleep_past_the_deadline(call: handlers.Call, *args: object, **kwargs: object) -> dict[str, Any]:
    time.sleep(10)
    return {}


def _raise(call: handlers.Call, *args: object, **kwargs: object) -> dict[str, Any]:
    raise RuntimeError("bundle exploded")


#: (failure name, handlers attribute to replace, replacement, extra env, what stderr says)
FAILURES = [
    ("timeout", "load_bundle", _sleep_past_the_deadline, {"GUIDANCE_EVENT_SYNC_TIMEOUT_MS": "300"}, "timed out after 300 ms"),
    ("load error", "load_bundle", _raise, {}, "bundle exploded"),
    ("engine error", "_evaluate", lambda call, bundle, event, shell: _raise(call), {}, "bundle exploded"),
]
MODES = [pytest.param({}, id="fail-open"), pytest.param(CLOSED, id="fail-closed")]


@pytest.fixture(params=FAILURES, ids=[f[0] for f in FAILURES])
def failing(request: pytest.FixtureRequest, policy_hook: HookRunner, monkeypatch: pytest.MonkeyPatch) -> tuple[HookRunner, dict[str, str], str]:
    _, attribute, replacement, env, said = request.param
    monkeypatch.setattr(handlers, attribute, replacement)
    return policy_hook, env, said


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("name", "tool", "tool_input", "rule"), BUILTIN_DENIES, ids=[d[2].get("command") or d[1] for d in BUILTIN_DENIES])
def test_built_in_denies_stand_when_the_bundle_cannot_be_applied(
    failing: tuple[HookRunner, dict[str, str], str], mode: dict[str, str], name: str, tool: str, tool_input: dict[str, Any], rule: str
) -> None:
    hook, env, said = failing
    answer = hook(name, _event(hook.project, tool, tool_input), **env, **mode)
    assert answer.exit_code == 0 and permission(answer) == "deny", answer
    reason = json.loads(answer.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason.startswith(f"[{rule}]")
    if rule != "PTH001":  # a guard-file write is final before any bundle is loaded: nothing failed
        assert said in answer.stderr


@pytest.mark.parametrize("mode", MODES)
def test_what_only_claude_md_forbids_falls_to_the_fail_mode(failing: tuple[HookRunner, dict[str, str], str], mode: dict[str, str]) -> None:
    hook, env, said = failing
    for name, tool, tool_input in [("pre-bash", "Bash", {"command": "ls"}),
                                   ("pre-edit", "Write", {"file_path": "migrations/001.sql", "content": "x"})]:
        answer = hook(name, _event(hook.project, tool, tool_input), **env, **mode)
        assert said in answer.stderr
        if mode:
            assert permission(answer) == "deny"
            assert "[fail-closed]" in json.loads(answer.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
        else:
            assert permission(answer) is None and answer.exit_code == 0
            message = json.loads(answer.stdout)["systemMessage"]
            assert "could not check this call against this project's CLAUDE.md rules" in message
            assert "the built-in checks passed; allowed because" in message


def test_without_a_failure_claude_md_decides(policy_hook: HookRunner) -> None:
    answer = policy_hook("pre-edit", _event(policy_hook.project, "Write", {"file_path": "migrations/001.sql", "content": "x"}))
    assert permission(answer) == "deny" and answer.stderr == ""


@pytest.mark.parametrize(("mode", "verdict"), [({}, "ask"), (CLOSED, "deny")])
def test_a_built_in_ask_stands_fail_open_and_fail_closed_denies(hook: HookRunner, monkeypatch: pytest.MonkeyPatch, mode: dict[str, str], verdict: str) -> None:
    monkeypatch.setattr(handlers, "load_bundle", _raise)
    answer = hook("pre-edit", _event(hook.project, "Write", {"file_path": ".git/hooks/pre-commit", "content": "x"}), **mode)
    assert permission(answer) == verdict and "bundle exploded" in answer.stderr
    reason = json.loads(answer.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason.startswith("[fail-closed]" if mode else "[PTH005]")
    assert hook.jobs()[-1]["decision"]["decision"] == verdict


def test_a_final_built_in_deny_loads_no_bundle(hook: HookRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[str] = []
    monkeypatch.setattr(handlers, "load_bundle", lambda call, part="full": loads.append(f"{call.name}:{part}") or {})
    assert permission(hook("pre-bash", bash("rm -rf /"))) == "deny"
    assert permission(hook("pre-edit", _event(hook.project, "Write", {"file_path": ".claude/settings.json", "content": "{}"}))) == "deny"
    assert loads == []
    # an allowlistable deny (destructive, secrets) still goes to the full evaluation
    assert permission(hook("pre-bash", bash("cat .env", cwd=str(hook.project)))) == "deny"
    assert loads == ["pre-bash:decide"]  # a decision reads only the checks and settings


def test_both_stages_share_one_shell_analysis(policy_hook: HookRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    import cf_guidance.shell

    analysed: list[str] = []
    real = cf_guidance.shell.analyze
    monkeypatch.setattr(cf_guidance.shell, "analyze", lambda command: analysed.append(command) or real(command))
    assert permission(policy_hook("pre-bash", bash("git push --force origin main"))) == "deny"
    assert analysed == ["git push --force origin main"]


def test_the_project_allowlist_still_relaxes_a_built_in_finding(hook: HookRunner) -> None:
    (hook.project / "CLAUDE.md").write_text("```guidance\nallow command rm -rf ../other\n```\n")
    assert permission(hook("pre-bash", bash("rm -rf ../other", cwd=ELSEWHERE))) is None
    assert permission(hook("pre-bash", bash("rm -rf ../elsewhere", cwd=ELSEWHERE))) == "deny"


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
    assert answer.worker == (str(hook.project), hook.state_dir)  # started by the process that answers


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

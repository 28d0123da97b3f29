"""The answers each verdict becomes, in the protocol Claude Code and Codex share."""

from __future__ import annotations

import json

import pytest

from cf_guidance.decision import ALLOW, ASK, DENY, WARN, Finding, decide
from cf_guidance.hooks import protocol


def _decision(verdict: str):
    findings = [] if verdict == ALLOW else [Finding("g", "R001", verdict, "why it matters", hint="do this instead")]
    return decide(findings)


@pytest.mark.parametrize(
    ("verdict", "permission", "context"),
    [(DENY, "deny", None), (ASK, "ask", None), (WARN, None, "[R001] why it matters Instead: do this instead")],
)
def test_pre_tool_answers_carry_the_rule_code_and_what_to_do(verdict: str, permission: str | None, context: str | None) -> None:
    answer = protocol.for_decision(_decision(verdict))
    assert answer.exit_code == 0
    out = json.loads(answer.stdout)
    specific = out["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse"
    assert specific.get("permissionDecision") == permission
    if permission:
        assert specific["permissionDecisionReason"] == "[R001] why it matters Instead: do this instead"
    else:
        assert specific["additionalContext"] == context
        assert out["systemMessage"].startswith("cf-guidance: [R001]")


def test_allow_is_silent_and_never_says_allow() -> None:
    answer = protocol.for_decision(_decision(ALLOW))
    assert (answer.stdout, answer.stderr, answer.exit_code) == ("", "", 0)


def test_block_has_stderr_because_codex_ignores_a_silent_exit_2() -> None:
    answer = protocol.block("no")
    assert answer.exit_code == 2 and answer.stderr.strip() == "cf-guidance: no" and answer.stdout == ""


@pytest.mark.parametrize("event", ["UserPromptSubmit", "SessionStart"])
def test_context_is_additional_context_of_the_running_event(event: str) -> None:
    out = json.loads(protocol.context(event, "rules").stdout)
    assert out == {"hookSpecificOutput": {"hookEventName": event, "additionalContext": "rules"}}
    assert protocol.context(event, "").stdout == ""


def test_plain_and_notice() -> None:
    assert protocol.plain("text").stdout == "text\n"
    assert protocol.plain("").stdout == ""
    notice = protocol.notice("careful")
    assert json.loads(notice.stdout) == {"systemMessage": "cf-guidance: careful"}
    assert notice.stderr == "cf-guidance: careful\n"


def test_with_warning_appends_one_line() -> None:
    answer = protocol.allow().with_warning("a").with_warning("b")
    assert answer.stderr == "cf-guidance: a\ncf-guidance: b\n" and answer.exit_code == 0

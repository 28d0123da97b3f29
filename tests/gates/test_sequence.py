"""Sequence gate: `git commit` needs a successful `make test` earlier in the session."""

from __future__ import annotations

from typing import Any

import pytest

from guidance.decision import ASK, DENY, WARN
from guidance.event import Event
from guidance.gates import sequence
from guidance.gates._base import STRICT, GateContext

BUNDLE: dict[str, Any] = {
    "root": "/p",
    "checks": [{"id": "R7#1", "rule": "R7", "kind": "sequence", "verdict": "deny", "before": ["make", "test"],
                "then": ["git", "commit"], "message": "Run `make test` before every commit", "source": "CLAUDE.md:7"}],
}


def h(command: str, ok: bool = True) -> dict[str, Any]:
    return {"command": command, "ok": ok, "seq": None, "ts": ""}


def run(command: str, history: list[dict[str, Any]] | None, *, level: str = "standard", bundle: dict[str, Any] = BUNDLE) -> list[Any]:
    event = Event(tool="Bash", command=command, session_id="s", cwd="/p")
    extras = {} if history is None else {"history": history}
    return sequence.check(GateContext(event, bundle, level=level, extras=extras))


@pytest.mark.parametrize(
    ("command", "history", "verdict"),
    [
        ("git commit -m x", [], DENY),
        ("git commit -m x", [h("make test")], None),
        ("git commit -m x", [h("make test", ok=False)], DENY),
        ("git commit -m x", [h("make test"), h("make test", ok=False)], DENY),
        ("git commit -m x", [h("make test", ok=False), h("make test")], None),
        ("git commit -m x", [h("make test"), h("git commit -m a")], DENY),  # each commit needs its own test run
        ("git commit -m x", [h("make test && git commit -m a")], DENY),
        ("git commit -m x", [h("make test"), h("git commit -m a", ok=False)], None),  # the failed commit used nothing up
        ("git commit -m x", [h("make lint"), h("ls")], DENY),
        ("git commit -m x", [h("cd src && make test")], None),
        ("git commit -m x", [h("echo make test")], DENY),  # a mention is not a run
        ("make test && git commit -m x", [], None),
        ("make test; git commit -m x", [], DENY),
        ("make test || git commit -m x", [], DENY),
        ("git status", [], None),
        ("echo 'git commit'", [], None),
        ("bash -c 'git commit -m x'", [], DENY),
        ("git -C sub commit -m x", [], DENY),  # global options before the subcommand do not hide it
    ],
)
def test_sequence_table(command: str, history: list[dict[str, Any]], verdict: str | None) -> None:
    findings = run(command, history)
    assert [f.verdict for f in findings] == ([verdict] if verdict else [])


def test_message_says_what_to_run() -> None:
    finding = run("git commit -m x", [])[0]
    assert finding.rule == sequence.MISSING
    assert "`make test`" in finding.message and "CLAUDE.md:7" in finding.message and "R7" in finding.message
    assert finding.hint.startswith("run `make test` first")


def test_history_unavailable_warns_then_asks_when_strict() -> None:
    assert [f.verdict for f in run("git commit -m x", None)] == [WARN]
    assert [f.verdict for f in run("git commit -m x", None, level=STRICT)] == [ASK]
    assert [f.rule for f in run("git commit -m x", None)] == [sequence.NO_HISTORY]


def test_rule_verdict_is_kept() -> None:
    bundle = {"checks": [dict(BUNDLE["checks"][0], verdict="ask")]}
    assert [f.verdict for f in run("git commit -m x", [], bundle=bundle)] == [ASK]


def test_no_sequence_checks_no_findings() -> None:
    assert run("git commit -m x", [], bundle={"checks": []}) == []


def test_each_rule_reports_once_and_rules_on_the_same_command_are_independent() -> None:
    lint = dict(BUNDLE["checks"][0], id="R8#1", rule="R8", before=["make", "lint"])
    bundle = {"checks": [BUNDLE["checks"][0], lint, {"kind": "command", "pattern": ["git", "commit"]}]}
    findings = run("git commit -m a && git commit --amend", [h("make lint")], bundle=bundle)
    assert [("`make test`" in f.message, f.verdict) for f in findings] == [(True, DENY)]
    findings = run("git commit -m a", [], bundle=bundle)
    assert len(findings) == 2

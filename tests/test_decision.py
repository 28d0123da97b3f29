from __future__ import annotations

import pytest

from cf_guidance.decision import ALLOW, ASK, DENY, MAX_TRACE_STEPS, WARN, Finding, Trace, decide


def f(verdict: str, rule: str = "X001") -> Finding:
    return Finding("gate", rule, verdict, f"{verdict} message", hint="do this" if verdict == DENY else "")


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        ([], ALLOW),
        ([ALLOW], ALLOW),
        ([WARN, ALLOW], WARN),
        ([WARN, ASK], ASK),
        ([ASK, DENY, WARN], DENY),
        ([DENY, DENY], DENY),
    ],
)
def test_most_severe_wins(verdicts: list[str], expected: str) -> None:
    assert decide([f(v) for v in verdicts]).verdict == expected


def test_deciding_finding_is_first_of_winning_verdict() -> None:
    decision = decide([f(WARN, "W1"), f(DENY, "D1"), f(DENY, "D2")])
    assert decision.rule == "D1"
    assert decision.reason == "[D1] deny message Instead: do this"
    out = decision.to_dict()
    assert out["decision"] == DENY and out["rule"] == "D1"
    assert [x["rule"] for x in out["findings"]] == ["W1", "D1", "D2"]  # type: ignore[index, union-attr]


def test_allow_has_no_rule_or_reason() -> None:
    decision = decide([])
    assert decision.rule == "" and decision.reason == "" and decision.deciding is None


def test_trace_is_capped_and_counts_drops() -> None:
    trace = Trace()
    for i in range(MAX_TRACE_STEPS + 7):
        trace.add("note", text=str(i))
    assert len(trace.steps) == MAX_TRACE_STEPS
    assert trace.dropped == 7
    assert decide([], trace).to_dict()["trace_dropped"] == 7

"""Rate-limit gate: runaway loops are stopped, the per-minute backstop follows the trust tier."""

from __future__ import annotations

from typing import Any

import pytest

from cf_guidance.decision import DENY, WARN
from cf_guidance.event import Event
from cf_guidance.gates import rate_limit
from cf_guidance.gates._base import BATCH, GateContext


def run(rate: int | None, tier: str | None, *, base: int = 100, hook: str = "PreToolUse", batch: bool = False,
        **extra: Any) -> list[Any]:
    extras: dict[str, Any] = {"rate_base": base, **extra}
    if batch:
        extras[BATCH] = True
    if rate is not None:
        extras["rate_per_min"] = rate
    if tier is not None:
        extras["trust_tier"] = tier
        extras["trust_score"] = 0.5
    event = Event(hook_event=hook, tool="Bash", command="ls", agent_id="")
    return rate_limit.check(GateContext(event, {}, extras=extras))


@pytest.mark.parametrize(
    ("tier", "limit"),
    [("trusted", 200), ("standard", 100), ("probation", 75), ("untrusted", 50)],
)
def test_limit_follows_tier(tier: str, limit: int) -> None:
    assert rate_limit.limit_for(100, tier) == limit
    assert run(limit - 1, tier) == [] or [f.verdict for f in run(limit - 1, tier)] == [WARN]
    assert [f.verdict for f in run(limit, tier)] == [DENY]
    assert [f.rule for f in run(limit, tier)] == [rate_limit.OVER]


@pytest.mark.parametrize(("rate", "verdicts"), [(0, []), (79, []), (80, [WARN]), (99, [WARN]), (100, [DENY]), (500, [DENY])])
def test_standard_tier_thresholds(rate: int, verdicts: list[str]) -> None:
    assert [f.verdict for f in run(rate, "standard")] == verdicts


def test_recorded_calls_evaluated_in_a_batch_are_never_limited() -> None:
    assert [f.verdict for f in run(500, "untrusted")] == [DENY]
    assert run(500, "untrusted", batch=True, repeats={"denials": 9}) == []


def test_base_zero_turns_the_rate_limit_off() -> None:
    assert run(10_000, "untrusted", base=0) == []


def test_without_extras_the_gate_is_silent() -> None:
    assert run(None, None) == []
    assert run(5, None) == []


def test_only_pre_tool_events_are_limited() -> None:
    assert run(1000, "untrusted", hook="UserPromptSubmit", repeats={"denials": 9}) == []


def test_message_names_agent_tier_and_limit() -> None:
    finding = run(50, "untrusted")[0]
    assert "agent main (untrusted, trust 0.50)" in finding.message and "limit is 50" in finding.message
    assert finding.hint


# Must-stop and must-let-through cases for the loop rules: (extras, rules expected).
LOOPS = [
    ({"denials": 3, "rule": "R012", "failures": 0}, [rate_limit.DENIED_AGAIN]),
    ({"denials": 7, "rule": "PTH001", "failures": 1}, [rate_limit.DENIED_AGAIN]),
    ({"denials": 0, "rule": "", "failures": 5}, [rate_limit.FAILING_AGAIN]),
    ({"denials": 3, "rule": "R012", "failures": 6}, [rate_limit.DENIED_AGAIN, rate_limit.FAILING_AGAIN]),
    ({"denials": 2, "rule": "R012", "failures": 0}, []),
    ({"denials": 0, "rule": "", "failures": 4}, []),
]


@pytest.mark.parametrize(("repeats", "rules"), LOOPS)
def test_runaway_loops(repeats: dict[str, Any], rules: list[str]) -> None:
    found = run(3, "standard", repeats=repeats)
    assert [f.rule for f in found] == rules
    for item in found:
        if item.rule == rate_limit.DENIED_AGAIN:
            assert item.verdict == DENY and "stop retrying" in item.message and repeats["rule"] in item.message
        else:
            assert item.verdict == WARN


def test_the_loop_rule_decides_the_reason_the_agent_reads() -> None:
    """The gate runs right after the catastrophe guard: a fourth identical denied call reads "stop retrying"."""
    from cf_guidance.gates.registry import GATES

    assert GATES.index(rate_limit) == 1

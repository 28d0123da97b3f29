"""Trust: anchor deltas, recovery toward 0.5, tiers and multipliers, neutral rules."""

from __future__ import annotations

from typing import Any

import pytest

from cf_guidance import trust


@pytest.mark.parametrize(("verdict", "score"), [("allow", 0.51), ("warn", 0.48), ("ask", 0.48), ("deny", 0.45), ("other", 0.5)])
def test_one_decision_moves_the_score_by_the_anchor_delta(verdict: str, score: float) -> None:
    agents: dict[str, Any] = {}
    entry = trust.record_outcome(agents, "a1", verdict, "R1", 1000.0)
    assert entry["score"] == pytest.approx(score)


def test_ten_denies_make_an_agent_untrusted_and_scores_are_clamped() -> None:
    agents: dict[str, Any] = {}
    for _ in range(10):
        trust.record_outcome(agents, "", "deny", "R1", 1000.0)
    assert trust.current(agents, "", 1000.0) == (0.0, "untrusted")
    for _ in range(100):
        trust.record_outcome(agents, "x", "allow", "", 1000.0)
    assert trust.current(agents, "x", 1000.0)[0] == 1.0


@pytest.mark.parametrize("rule", ["RAT001", "RAT003", "fail-closed", "fail-open", "GATE-ERROR", "spool-unwritable"])
def test_the_limiters_and_the_hooks_own_denials_do_not_move_trust(rule: str) -> None:
    agents: dict[str, Any] = {}
    for _ in range(40):
        trust.record_outcome(agents, "", "deny", rule, 1000.0)
    assert trust.current(agents, "", 1000.0) == (0.5, "standard")


@pytest.mark.parametrize(
    ("score", "tier", "multiplier"),
    [(1.0, "trusted", 2.0), (0.8, "trusted", 2.0), (0.79, "standard", 1.0), (0.5, "standard", 1.0),
     (0.49, "probation", 0.75), (0.3, "probation", 0.75), (0.29, "untrusted", 0.5), (0.0, "untrusted", 0.5)],
)
def test_tiers_and_multipliers(score: float, tier: str, multiplier: float) -> None:
    assert trust.tier(score) == tier and trust.multiplier(tier) == multiplier


@pytest.mark.parametrize(("score", "seconds", "expected"),
                         [(0.9, 0, 0.9), (0.9, 300, 0.7), (0.0, 300, 0.25), (0.0, 600, 0.375), (0.5, 6000, 0.5)])
def test_scores_recover_toward_half_with_a_five_minute_half_life(score: float, seconds: float, expected: float) -> None:
    assert trust.decayed(score, seconds) == pytest.approx(expected)


def test_an_untrusted_agent_recovers_by_itself() -> None:
    """Before: 1% a minute, so 40 denials kept an agent untrusted for over an hour."""
    agents: dict[str, Any] = {}
    for _ in range(40):
        trust.record_outcome(agents, "", "deny", "R1", 0.0)
    assert trust.current(agents, "", 0.0)[1] == "untrusted"
    assert trust.current(agents, "", 300.0)[1] == "untrusted"
    assert trust.current(agents, "", 420.0)[1] == "probation"
    assert trust.current(agents, "", 1499.0)[1] == "probation"
    assert trust.current(agents, "", 1500.0) == (0.5, "standard")


def test_recovery_is_applied_before_each_outcome_and_on_read() -> None:
    agents: dict[str, Any] = {}
    trust.record_outcome(agents, "a", "deny", "R1", 0.0)  # 0.45
    trust.record_outcome(agents, "a", "deny", "R1", 0.0)  # 0.40
    score, _ = trust.current(agents, "a", 600.0)
    assert score == pytest.approx(0.475)
    trust.record_outcome(agents, "a", "allow", "", 600.0)
    assert agents["a"]["score"] == pytest.approx(0.485, abs=1e-6)


def test_unknown_agent_starts_at_half_and_main_is_the_default_id() -> None:
    assert trust.current({}, "nobody", 0.0) == (0.5, "standard")
    assert trust.current("not a dict", "nobody", 0.0) == (0.5, "standard")
    agents: dict[str, Any] = {}
    trust.record_outcome(agents, "", "allow", "", 0.0)
    assert list(agents) == ["main"]


@pytest.mark.parametrize(
    ("text", "epoch"),
    [("1970-01-01T00:00:00Z", 0.0), ("2026-11-21T23:40:00.123Z", 1795304400.123), ("2000-02-29T12:00:00.5Z", 951825600.5), ("junk", 0.0)],
)
def test_iso_epoch_without_datetime(text: str, epoch: float) -> None:
    assert trust.iso_epoch(text) == pytest.approx(epoch)

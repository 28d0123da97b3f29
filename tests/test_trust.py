"""Trust: anchor constants, decay toward 0.5, tiers and multipliers."""

from __future__ import annotations

import pytest

from cf_guidance import trust


def fresh() -> dict[str, object]:
    return trust.empty_state()


@pytest.mark.parametrize(("verdict", "score"), [("allow", 0.51), ("warn", 0.48), ("ask", 0.48), ("deny", 0.45), ("other", 0.5)])
def test_one_decision_moves_the_score_by_the_anchor_delta(verdict: str, score: float) -> None:
    state = fresh()
    entry = trust.record_outcome(state, "a1", verdict, 1000.0)
    assert entry["score"] == pytest.approx(score)


def test_ten_denies_make_an_agent_untrusted_and_scores_are_clamped() -> None:
    state = fresh()
    for _ in range(10):
        trust.record_outcome(state, "", "deny", 1000.0)
    assert trust.current(state, "", 1000.0) == (0.0, "untrusted")
    for _ in range(100):
        trust.record_outcome(state, "x", "allow", 1000.0)
    assert trust.current(state, "x", 1000.0)[0] == 1.0


@pytest.mark.parametrize(
    ("score", "tier", "multiplier"),
    [(1.0, "trusted", 2.0), (0.8, "trusted", 2.0), (0.79, "standard", 1.0), (0.5, "standard", 1.0),
     (0.49, "probation", 0.5), (0.3, "probation", 0.5), (0.29, "untrusted", 0.1), (0.0, "untrusted", 0.1)],
)
def test_tiers_and_multipliers(score: float, tier: str, multiplier: float) -> None:
    assert trust.tier(score) == tier and trust.multiplier(tier) == multiplier


@pytest.mark.parametrize(("score", "seconds", "expected"), [(0.9, 59, 0.9), (0.9, 60, 0.896), (0.1, 600, 0.5 - 0.4 * 0.99**10), (0.5, 6000, 0.5)])
def test_decay_pulls_toward_half_by_one_percent_per_whole_minute(score: float, seconds: float, expected: float) -> None:
    assert trust.decayed(score, seconds) == pytest.approx(expected)


def test_decay_is_applied_before_each_outcome_and_on_read() -> None:
    state = fresh()
    trust.record_outcome(state, "a", "deny", 0.0)  # 0.45
    trust.record_outcome(state, "a", "deny", 0.0)  # 0.40
    score, _ = trust.current(state, "a", 3600.0)
    assert score == pytest.approx(0.5 - 0.1 * 0.99**60)
    trust.record_outcome(state, "a", "allow", 3600.0)
    assert state["agents"]["a"]["score"] == pytest.approx(0.5 - 0.1 * 0.99**60 + 0.01, abs=1e-6)  # type: ignore[index]


def test_unknown_agent_starts_at_half_and_main_is_the_default_id() -> None:
    assert trust.current(fresh(), "nobody", 0.0) == (0.5, "standard")
    state = fresh()
    trust.record_outcome(state, "", "allow", 0.0)
    assert list(state["agents"]) == ["main"]  # type: ignore[call-overload]


@pytest.mark.parametrize(
    ("text", "epoch"),
    [("1970-01-01T00:00:00Z", 0.0), ("2026-11-21T23:40:00.123Z", 1795304400.123), ("2000-02-29T12:00:00.5Z", 951825600.5), ("junk", 0.0)],
)
def test_iso_epoch_without_datetime(text: str, epoch: float) -> None:
    assert trust.iso_epoch(text) == pytest.approx(epoch)


def test_load_of_a_missing_or_corrupt_file_is_an_empty_state(tmp_path: object) -> None:
    import pathlib

    directory = pathlib.Path(str(tmp_path))
    assert trust.load(str(directory)) == trust.empty_state()
    (directory / trust.FILE).write_text("{broken")
    assert trust.load(str(directory)) == trust.empty_state()

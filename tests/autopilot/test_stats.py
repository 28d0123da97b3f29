from __future__ import annotations

import math

import pytest

from cf_guidance.autopilot.stats import mcnemar_exact, paired_difference_interval, wilson


@pytest.mark.parametrize(
    ("gained", "lost", "p"),
    [
        (0, 0, 1.0),
        (6, 0, 2 / 64),  # six discordant pairs all one way: the smallest n below 0.05
        (5, 0, 2 / 32),
        (12, 2, 2 * (1 + 14 + 91) / 2**14),
        (3, 3, 1.0),
        (0, 6, 2 / 64),
    ],
)
def test_exact_mcnemar(gained: int, lost: int, p: float) -> None:
    assert mcnemar_exact(gained, lost) == pytest.approx(p)


def test_wilson_behaves_at_the_edges() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.2 < high < 0.35
    low, high = wilson(10, 10)
    assert high == pytest.approx(1.0) and 0.65 < low < 0.8
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("both", "lost", "gained", "neither"),
    [(36, 2, 12, 0), (0, 0, 6, 6), (5, 0, 0, 5), (0, 0, 0, 0), (10, 3, 1, 2), (0, 6, 0, 0)],
)
def test_interval_contains_the_estimate_and_stays_in_range(both: int, lost: int, gained: int, neither: int) -> None:
    low, high = paired_difference_interval(both, lost, gained, neither)
    n = both + lost + gained + neither
    theta = (gained - lost) / n if n else 0.0
    assert -1.0 <= low <= theta <= high <= 1.0
    assert not math.isnan(low) and not math.isnan(high)


def test_all_gained_excludes_zero() -> None:
    low, _ = paired_difference_interval(0, 0, 6, 0)
    assert low > 0
    low, high = paired_difference_interval(3, 0, 0, 3)
    assert low < 0 < high

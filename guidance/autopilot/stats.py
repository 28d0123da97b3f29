"""Paired statistics for the A/B benchmark: exact McNemar test and Newcombe's interval.

Each task run under the baseline policy is paired with the same task run under the candidate
(same repeat index). Only discordant pairs carry information about which policy is better:
`gained` pairs failed under the baseline and passed under the candidate, `lost` pairs the
reverse. The exact McNemar test is a two-sided binomial test of gained vs lost at p = 1/2;
the interval on the difference of paired pass rates is Newcombe's (1998) method 10, built from
Wilson score intervals (as worked in Altman et al., *Statistics with Confidence*), which behaves at 0% and 100% where the Wald interval does not.
"""

from __future__ import annotations

import math

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


def mcnemar_exact(gained: int, lost: int) -> float:
    """Two-sided exact McNemar p-value for `gained` vs `lost` discordant pairs."""
    n = gained + lost
    if n == 0:
        return 1.0
    k = min(gained, lost)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; (0, 1) when n is 0."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_difference_interval(
    both: int, lost: int, gained: int, neither: int, z: float = Z95
) -> tuple[float, float]:
    """95% interval on candidate pass rate minus baseline pass rate (Newcombe method 10).

    `both`: pairs passing under both; `lost`: baseline only; `gained`: candidate only;
    `neither`: failing under both.
    """
    n = both + lost + gained + neither
    if n == 0:
        return -1.0, 1.0
    base, cand = both + lost, both + gained
    p1, p2 = base / n, cand / n
    l1, u1 = wilson(base, n, z)
    l2, u2 = wilson(cand, n, z)
    product = (both + lost) * (gained + neither) * (both + gained) * (lost + neither)
    # Newcombe's correction: a positive association is shrunk by n/2 (and never below 0).
    raw = both * neither - lost * gained
    cross: float = raw - n / 2 if raw > n / 2 else min(raw, 0)
    phi = cross / math.sqrt(product) if product else 0.0
    theta = p2 - p1
    lower = theta - math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2))
    upper = theta + math.sqrt(max(0.0, (u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2))
    return max(-1.0, lower), min(1.0, upper)

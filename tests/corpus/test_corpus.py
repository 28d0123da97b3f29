"""Run every labelled corpus line and assert its verdict and rule code."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.corpus.loader import Case, all_cases, run

CASES = all_cases()


CHECKOUT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: Case) -> None:
    if "/tmp" in case.text.split() and CHECKOUT.is_relative_to("/tmp"):
        pytest.skip(f"this checkout lives under /tmp ({CHECKOUT}): deleting /tmp deletes the guard's own installation, "
                    "which is denied (PTH001), not asked")
    decision = run(case)
    verdict = decision.verdict  # type: ignore[attr-defined]
    findings = decision.findings  # type: ignore[attr-defined]
    shown = [f"{f.rule}:{f.verdict}" for f in findings]
    assert verdict == case.verdict, f"{case.id} {case.text!r}: got {verdict} {shown}"
    if case.code:
        assert case.code in [f.rule for f in findings if f.verdict == verdict], f"{case.id} {case.text!r}: {shown}"


def test_the_decision_part_decides_every_case_like_the_whole_bundle() -> None:
    """The pre-tool hook may load only decide.json: no gate may need what it leaves out."""
    for case in CASES:
        whole, part = run(case), run(case, part="decide")
        seen = [[(f.gate, f.rule, f.verdict, f.message) for f in d.findings] for d in (whole, part)]  # type: ignore[attr-defined]
        assert seen[0] == seen[1], case.id


def test_corpus_size() -> None:
    blocking = [c for c in CASES if c.verdict in ("deny", "ask")]
    allowed = [c for c in CASES if c.verdict == "allow"]
    assert len(blocking) >= 250, len(blocking)
    assert len(allowed) >= 150, len(allowed)


def test_every_category_is_covered() -> None:
    prefixes = {c.code[:3] for c in CASES if c.verdict in ("deny", "ask")}
    assert {"CAT", "DST", "SEC", "PTH", "TLS", "SHL"} <= prefixes
    assert any(c.policy for c in CASES if c.verdict == "deny")

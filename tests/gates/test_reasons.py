from __future__ import annotations

from cf_guidance.gates.reasons import HINTS, doc, finding
from cf_guidance.limits import MAX_EVIDENCE_CHARS


def test_evidence_and_segment_are_capped() -> None:
    found = finding("g", "DST001", "deny", "m", segment="s" * 1000, evidence="e" * 1000)
    assert len(found.evidence) == MAX_EVIDENCE_CHARS and found.evidence.endswith("…")
    assert len(found.segment) == MAX_EVIDENCE_CHARS


def test_finding_carries_the_hint() -> None:
    assert finding("g", "DST012", "deny", "m").hint == HINTS["DST012"]
    assert finding("g", "UNKNOWN", "deny", "m").hint == ""


def test_doc_has_the_headings_in_order() -> None:
    text = doc("w", "y", "ex", "in")
    assert text.index("## What it does") < text.index("## Why is this bad?") < text.index("## Example") < text.index("## Use instead")

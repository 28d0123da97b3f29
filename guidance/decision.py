"""Verdicts, findings and decisions: what every gate returns and every hook answers with.

Hot path module: standard library only, no `typing` at run time (see tests/test_hot_path.py).
A decision is the most severe finding: deny > ask > warn > allow.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

ALLOW = "allow"
WARN = "warn"
ASK = "ask"
DENY = "deny"

VERDICTS = (ALLOW, WARN, ASK, DENY)
SEVERITY = {ALLOW: 0, WARN: 1, ASK: 2, DENY: 3}

#: Cap on recorded trace steps; past it steps are counted, not kept.
MAX_TRACE_STEPS = 512


class Finding:
    """One gate's verdict on one part of an event: which rule fired, on what, and why."""

    __slots__ = ("gate", "rule", "verdict", "message", "evidence", "segment", "hint")

    def __init__(
        self,
        gate: str,
        rule: str,
        verdict: str,
        message: str,
        *,
        evidence: str = "",
        segment: str = "",
        hint: str = "",
    ) -> None:
        self.gate = gate
        self.rule = rule
        self.verdict = verdict
        self.message = message
        self.evidence = evidence
        self.segment = segment
        self.hint = hint

    def to_dict(self) -> dict[str, str]:
        out = {"gate": self.gate, "rule": self.rule, "verdict": self.verdict, "message": self.message}
        if self.evidence:
            out["evidence"] = self.evidence
        if self.segment:
            out["segment"] = self.segment
        if self.hint:
            out["hint"] = self.hint
        return out

    def __repr__(self) -> str:
        return f"Finding({self.rule} {self.verdict}: {self.message!r})"


class Trace:
    """An opt-in, size-capped list of typed steps ("segment", "gate", "rule", "note")."""

    __slots__ = ("steps", "dropped")

    def __init__(self) -> None:
        self.steps: list[dict[str, str]] = []
        self.dropped = 0

    def add(self, kind: str, **fields: str) -> None:
        if len(self.steps) >= MAX_TRACE_STEPS:
            self.dropped += 1
            return
        step = {"type": kind}
        step.update(fields)
        self.steps.append(step)


class Decision:
    """The answer for one event: verdict, the deciding finding, all findings, optional trace."""

    __slots__ = ("verdict", "findings", "trace")

    def __init__(self, verdict: str, findings: list[Finding], trace: Trace | None = None) -> None:
        self.verdict = verdict
        self.findings = findings
        self.trace = trace

    @property
    def deciding(self) -> Finding | None:
        """The first finding with the decision's verdict (gates run in a fixed order)."""
        for finding in self.findings:
            if finding.verdict == self.verdict:
                return finding
        return None

    @property
    def rule(self) -> str:
        finding = self.deciding
        return finding.rule if finding else ""

    @property
    def reason(self) -> str:
        finding = self.deciding
        if finding is None:
            return ""
        reason = f"[{finding.rule}] {finding.message}"
        if finding.hint:
            reason += f" Instead: {finding.hint}"
        return reason

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "decision": self.verdict,
            "rule": self.rule,
            "reason": self.reason,
            "findings": [f.to_dict() for f in self.findings],
        }
        if self.trace is not None:
            out["trace"] = self.trace.steps
            if self.trace.dropped:
                out["trace_dropped"] = self.trace.dropped
        return out


def most_severe(findings: Iterable[Finding]) -> str:
    verdict = ALLOW
    for finding in findings:
        if SEVERITY[finding.verdict] > SEVERITY[verdict]:
            verdict = finding.verdict
    return verdict


def decide(findings: list[Finding], trace: Trace | None = None) -> Decision:
    return Decision(most_severe(findings), findings, trace)

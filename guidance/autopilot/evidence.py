"""Replay evidence for each candidate rule: what it would have stopped in the project's own
history, and what became of those actions.

Each rule is judged alone: the baseline is CLAUDE.md as it is, and the rule's candidate is
CLAUDE.md plus that one rule, so no rule's count includes another's. A call the rule's candidate
denies or asks about while the baseline lets it through (allow or warn) is an action the rule
would have stopped. What happened to it at the time says whether stopping it would have hurt:

- it **succeeded and was kept** (nothing later in the session undid it): the work went ahead and
  stayed, so stopping it would most likely have been a false positive;
- it **failed**, was **undone** later in the session (`cf_guidance.replay.reverts`), or was
  **denied** at the time by another rule, a permission rule or the user: evidence the rule helps;
- the log has **no result** for it: counted, neither.

A rule whose likely false positives exceed the share `max_false_positive_rate` of what it would
have stopped is never applied automatically; the proposal shows the examples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from cf_guidance.decision import ASK, DENY, WARN
from cf_guidance.replay.calls import DENIED, FAILED, SUCCEEDED, LogStats
from cf_guidance.replay.evaluate import Policy, replay_sessions
from cf_guidance.replay.locate import find_logs
from cf_guidance.replay.reverts import undone_by
from cf_guidance.replay.summary import Example

#: Examples kept per rule: likely false positives first.
EXAMPLES = 5
STOPS = (DENY, ASK)


class RuleEvidence(BaseModel):
    rule: str
    stopped: int = Field(default=0, description="actions the rule would have denied or asked about that the baseline let through")
    asked: int = Field(default=0, description="of those, asked rather than denied")
    warned: int = Field(default=0, description="actions it would only have warned about")
    kept: int = Field(default=0, description="stopped actions that succeeded and were kept: likely false positives")
    failed: int = 0
    undone: int = 0
    denied: int = Field(default=0, description="stopped actions denied at the time by another rule or the user")
    no_result: int = 0
    examples: list[Example] = []

    @property
    def helped(self) -> int:
        return self.failed + self.undone + self.denied

    @property
    def false_positive_rate(self) -> float | None:
        return round(self.kept / self.stopped, 4) if self.stopped else None

    def line(self) -> str:
        if not self.stopped:
            return f"replay: would have stopped none of the past actions" + (f" (warned on {self.warned})" if self.warned else "")
        return (f"replay: would have stopped {self.stopped} past actions: {self.kept} succeeded and were kept (likely false "
                f"positives), {self.failed} failed, {self.undone} were undone, {self.denied} were denied anyway"
                + (f", {self.no_result} without result" if self.no_result else ""))


class ReplayEvidence(BaseModel):
    searched: list[str]
    sessions: int = 0
    calls: int = 0
    skipped_unknown: int = 0
    unreadable: int = 0
    rules: list[RuleEvidence] = []

    def for_rule(self, rule: str) -> RuleEvidence | None:
        return next((r for r in self.rules if r.rule == rule), None)

    def line(self) -> str:
        if not self.sessions:
            return "replay: no past sessions of this project found (looked in " + "; ".join(self.searched) + ")"
        return (f"replay: {self.calls} tool calls from {self.sessions} past sessions"
                + (f" ({self.skipped_unknown} log lines of an unknown kind skipped)" if self.skipped_unknown else ""))


def replay_evidence(
    baseline: dict[str, Any],
    candidates: Sequence[tuple[str, dict[str, Any]]],
    project: Path,
    *,
    paths: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
    since: datetime | None = None,
) -> ReplayEvidence:
    """Replay the project's past sessions under `baseline` and each (rule id, bundle) candidate."""
    found = find_logs(paths, str(project), environ, since=since)
    stats = LogStats()
    rules = [RuleEvidence(rule=rule) for rule, _ in candidates]
    policies = [Policy("baseline", baseline), *(Policy(rule, bundle) for rule, bundle in candidates)]
    for calls, replayed in replay_sessions(found.logs, policies, project_dir=str(project), stats=stats, since=since):
        for item in replayed:
            base = item.verdicts[0].decision
            if base in STOPS:
                continue
            for evidence, verdict in zip(rules, item.verdicts[1:]):
                if verdict.decision == WARN and base != WARN:
                    evidence.warned += 1
                if verdict.decision not in STOPS:
                    continue
                _count(evidence, item.call, verdict.decision, calls)
    for evidence in rules:
        evidence.examples.sort(key=lambda e: not e.outcome.startswith("succeeded, kept"))
    return ReplayEvidence(searched=found.searched if not paths else list(paths), sessions=stats.sessions, calls=stats.calls,
                          skipped_unknown=stats.unknown, unreadable=stats.unreadable, rules=rules)


def _count(evidence: RuleEvidence, call: Any, verdict: str, calls: list[Any]) -> None:
    evidence.stopped += 1
    evidence.asked += verdict == ASK
    outcome = call.outcome
    if outcome == SUCCEEDED:
        undo = undone_by(call, calls[call.order + 1:])
        if undo is None:
            evidence.kept += 1
            note = "succeeded, kept"
        else:
            evidence.undone += 1
            note = f"succeeded, undone at {undo.link}"
    elif outcome == FAILED:
        evidence.failed += 1
        note = "failed"
    elif outcome == DENIED:
        evidence.denied += 1
        note = f"denied at the time ({call.denied_by})"
    else:
        evidence.no_result += 1
        note = "no result"
    if len(evidence.examples) < EXAMPLES or note.startswith("succeeded, kept"):
        evidence.examples.append(Example.of(call).model_copy(update={"outcome": note}))
        if len(evidence.examples) > EXAMPLES:
            evidence.examples.sort(key=lambda e: not e.outcome.startswith("succeeded, kept"))
            del evidence.examples[EXAMPLES:]

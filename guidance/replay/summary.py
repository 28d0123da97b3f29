"""What a replay found, in counts: per policy and rule, and what changes between two policies.

`Summariser.add` takes each replayed call as it streams by and keeps counts and a few examples
per group (`examples` each), so the summary's size does not grow with the history.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel, Field

from cf_guidance.decision import ALLOW, ASK, DENY, SEVERITY, WARN
from cf_guidance.replay.calls import DENIED, OUTCOMES, LogStats, ToolCall
from cf_guidance.replay.evaluate import Replayed

#: Examples kept per rule and per change.
EXAMPLES = 3


class Example(BaseModel):
    """One call, where it is in its log and what happened to it at the time."""

    link: str = Field(description="file:line of the call in its session log")
    session: str
    tool: str
    call: str = Field(description="the command, path or tool, on one line")
    outcome: str

    @classmethod
    def of(cls, call: ToolCall) -> Example:
        return cls(link=call.link, session=call.session, tool=call.tool, call=call.brief(), outcome=call.outcome)


class RuleCount(BaseModel):
    rule: str
    reason: str = Field(description="the reason given for the first call it decided")
    deny: int = 0
    ask: int = 0
    warn: int = 0
    examples: list[Example] = []


class PolicyCounts(BaseModel):
    name: str
    allow: int = 0
    warn: int = 0
    ask: int = 0
    deny: int = 0
    rules: list[RuleCount] = []


class Change(BaseModel):
    """Calls whose verdict differs between the two policies, by the rule that explains it."""

    rule: str = Field(description="the rule that fires under the stricter side")
    before: str
    after: str
    calls: int = 0
    outcomes: dict[str, int] = Field(default_factory=dict, description="what happened to these calls at the time")
    reason: str = ""
    examples: list[Example] = []


class ReplaySummary(BaseModel):
    files: int
    sessions: int
    calls: int = Field(description="tool calls decided (those before --since only fed the history)")
    agents: dict[str, int]
    at_the_time: dict[str, int] = Field(description="what happened to the decided calls: succeeded, failed, denied, no result")
    denied_by: dict[str, int]
    policies: list[PolicyCounts]
    changes: list[Change] | None = None
    lines: int
    skipped_unknown: int
    unknown_kinds: dict[str, int]
    unreadable: int
    other: int
    before_since: int
    older_files: int = 0
    unusable_calls: int
    clients: dict[str, int]

    def render(self) -> str:
        out = [
            f"replayed {self.calls} tool calls from {self.sessions} sessions "
            f"({', '.join(f'{n} {agent}' for agent, n in sorted(self.agents.items())) or 'no calls'})",
            "at the time: " + ", ".join(f"{self.at_the_time.get(o, 0)} {o}" for o in OUTCOMES)
            + (f" (denied by: {', '.join(f'{k} {v}' for k, v in sorted(self.denied_by.items()))})" if self.denied_by else ""),
        ]
        skipped = []
        if self.skipped_unknown:
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.unknown_kinds.items(), key=lambda kv: -kv[1])[:5])
            skipped.append(f"{self.skipped_unknown} lines of an unknown kind ({kinds})")
        if self.unreadable:
            skipped.append(f"{self.unreadable} unreadable lines")
        if self.unusable_calls:
            skipped.append(f"{self.unusable_calls} calls of a shape the engine cannot read")
        if self.before_since or self.older_files:
            skipped.append(f"{self.before_since} calls and {self.older_files} files before --since")
        if skipped:
            out.append("skipped: " + "; ".join(skipped))
        if self.clients:
            out.append("logs written by: " + ", ".join(f"{k} ({v} sessions)" for k, v in sorted(self.clients.items())))
        names = [p.name for p in self.policies]
        out += ["", f"{'':<6}" + "".join(f"{n:>12}" for n in names)]
        for verdict in (DENY, ASK, WARN):
            out.append(f"{verdict:<6}" + "".join(f"{getattr(p, verdict):>12}" for p in self.policies))
        for policy in self.policies:
            if not policy.rules:
                continue
            out += ["", f"{policy.name}: by rule"]
            for rule in policy.rules:
                counts = ", ".join(f"{getattr(rule, v)} {v}" for v in (DENY, ASK, WARN) if getattr(rule, v))
                out.append(f"  {rule.rule}  {counts}  {rule.reason[:100]}")
                out += [f"      {e.link}  {e.call}  ({e.outcome})" for e in rule.examples]
        if self.changes is not None:
            out += ["", f"changes {names[0]} -> {names[1]}: " + (f"{sum(c.calls for c in self.changes)} calls" if self.changes else "none")]
            for change in self.changes:
                outcomes = ", ".join(f"{n} {o}" for o, n in change.outcomes.items())
                out.append(f"  {change.rule}  {change.before} -> {change.after}  {change.calls} calls ({outcomes})  {change.reason[:100]}")
                out += [f"      {e.link}  {e.call}  ({e.outcome})" for e in change.examples]
        return "\n".join(out) + "\n"


class Summariser:
    """Counts replayed calls as they stream by; `finish` gives the summary."""

    def __init__(self, names: Sequence[str], *, examples: int = EXAMPLES) -> None:
        self.names = list(names)
        self.limit = examples
        self.agents: Counter[str] = Counter()
        self.outcomes: Counter[str] = Counter()
        self.denied_by: Counter[str] = Counter()
        self.verdicts = [Counter[str]() for _ in names]
        self.rules: list[dict[str, RuleCount]] = [{} for _ in names]
        self.changes: dict[tuple[str, str, str], Change] = {}
        self.decided = 0

    def add(self, item: Replayed) -> None:
        call = item.call
        self.decided += 1
        self.agents[call.agent] += 1
        self.outcomes[call.outcome] += 1
        if call.outcome == DENIED:
            self.denied_by[call.denied_by or "?"] += 1
        for index, verdict in enumerate(item.verdicts):
            self.verdicts[index][verdict.decision] += 1
            if verdict.decision != ALLOW:
                count = self.rules[index].get(verdict.rule)
                if count is None:
                    count = self.rules[index][verdict.rule] = RuleCount(rule=verdict.rule, reason=verdict.reason)
                setattr(count, verdict.decision, getattr(count, verdict.decision) + 1)
                if len(count.examples) < self.limit:
                    count.examples.append(Example.of(call))
        if len(item.verdicts) == 2 and item.verdicts[0].decision != item.verdicts[1].decision:
            before, after = item.verdicts
            stricter = after if SEVERITY[after.decision] > SEVERITY[before.decision] else before
            key = (stricter.rule, before.decision, after.decision)
            change = self.changes.get(key)
            if change is None:
                change = self.changes[key] = Change(rule=stricter.rule, before=before.decision, after=after.decision,
                                                    reason=stricter.reason)
            change.calls += 1
            change.outcomes[call.outcome] = change.outcomes.get(call.outcome, 0) + 1
            if len(change.examples) < self.limit:
                change.examples.append(Example.of(call))

    def finish(self, stats: LogStats, *, older_files: int = 0) -> ReplaySummary:
        policies = []
        for name, verdicts, rules in zip(self.names, self.verdicts, self.rules):
            ordered = sorted(rules.values(), key=lambda r: (-(r.deny + r.ask + r.warn), r.rule))
            policies.append(PolicyCounts(name=name, rules=ordered, **{v: verdicts.get(v, 0) for v in (ALLOW, WARN, ASK, DENY)}))
        changes = None
        if len(self.names) == 2:
            changes = sorted(self.changes.values(), key=lambda c: (-c.calls, c.rule))
        return ReplaySummary(
            files=stats.files,
            sessions=stats.sessions,
            calls=self.decided,
            agents=dict(self.agents),
            at_the_time={o: self.outcomes.get(o, 0) for o in OUTCOMES},
            denied_by=dict(self.denied_by),
            policies=policies,
            changes=changes,
            lines=stats.lines,
            skipped_unknown=stats.unknown,
            unknown_kinds=dict(stats.unknown_kinds),
            unreadable=stats.unreadable,
            other=stats.other,
            before_since=stats.before_since,
            older_files=older_files,
            unusable_calls=stats.unusable_calls,
            clients=dict(stats.versions),
        )

"""Runaway loops and tool-call rates, per agent of one session.

Hot path module: standard library only.

What this gate is for is a runaway agent: one that sends the very call that was just denied
again and again, or re-runs a command that keeps failing without changing anything. It says
so and tells the agent to stop retrying (RAT003, RAT004), without touching its other work.
The per-minute rate (RAT001, RAT002) is a backstop far above honest work: each agent of each
session (main agent and every sub-agent apart) gets `floor(base * multiplier)` calls a minute,
base `GUIDANCE_RATE_LIMIT_PER_MIN` (default 240; 0 turns it off) times its tier's multiplier
(cf_guidance.trust: 2, 1, 0.75 or 0.5). The limiter's own denials are not counted, so it
cannot keep an agent locked out. The extras come from cf_guidance.session; without them the
gate says nothing, and it says nothing for recorded calls evaluated in a batch (the `batch`
extra: `cf-guidance replay`, `check`), which are never rate-limited.
"""

from __future__ import annotations

from cf_guidance import trust
from cf_guidance.decision import DENY, WARN
from cf_guidance.gates._base import BATCH, Rule
from cf_guidance.gates.reasons import doc, finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext

GATE = "rate-limit"
OVER = "RAT001"
NEAR = "RAT002"
DENIED_AGAIN = "RAT003"
FAILING_AGAIN = "RAT004"
#: Fraction of the limit from which RAT002 warns.
NEAR_FRACTION = 0.8
#: The same call denied this many times in a row: the next one is a loop.
LOOP_DENIALS = 3
#: The same command failed this many times in a row: the next run is probably a loop.
LOOP_FAILURES = 5

RULES = (
    Rule(OVER, "rate-limit-exceeded", DENY, "The agent used up its tool calls for this minute",
         doc("Denies a tool call when this agent of this session already received `floor(base * multiplier)` decisions "
             "in the last 60 seconds, not counting the rate limiter's own. The base is `GUIDANCE_RATE_LIMIT_PER_MIN` "
             "(default 240, 0 turns the limit off); the multiplier is 2, 1, 0.75 or 0.5 for the trust tiers trusted, "
             "standard, probation and untrusted. Each sub-agent (`agent_id`) and each session counts apart.",
             "Far above honest work (eight sub-agents each get their own limit; 30 parallel reads a turn stay below "
             "it), it stops an agent stuck in a tight loop of varied calls.",
             "# the 241st tool call of one agent within a minute", "# slow down; batch work into fewer tool calls")),
    Rule(NEAR, "rate-limit-near", WARN, "The agent is close to its tool-call limit for this minute",
         doc("Warns from 80% of the per-minute limit, so the agent learns about the limit before it is denied.",
             "A warning costs nothing; a sudden deny in the middle of a task is confusing.",
             "# a standard agent's 192nd call within a minute (limit 240)", "# batch work into fewer tool calls")),
    Rule(DENIED_AGAIN, "repeated-denied-call", DENY, "The agent retries a call that was just denied, again and again",
         doc("Denies a call that this agent sent, unchanged, three times in a row, each time denied by the same kind of "
             "rule (a rule that does not depend on what ran since, under the same CLAUDE.md), and tells it to stop "
             "retrying. Only that call is affected: any other call goes on as usual, and an edited CLAUDE.md starts "
             "afresh.",
             "Retrying a denied call cannot succeed; an agent that does it is looping and burning its budget.",
             "# `git push --force`, denied three times in a row, sent a fourth time",
             "# read the reason of the first denial and do something else, or ask the user")),
    Rule(FAILING_AGAIN, "repeated-failing-call", WARN, "The agent re-runs a command that keeps failing",
         doc("Warns when the session's last five commands were this very command and each failed, with nothing else "
             "run in between.",
             "Re-running a failing command unchanged gives the same failure; the agent should read the error.",
             "# `npm test` failing five times in a row, run a sixth time with no edit in between",
             "# read the error, change something, then run it again")),
)


def _loops(ctx: GateContext, repeats: dict[str, Any]) -> list[Finding]:
    found = []
    denials, failures = repeats.get("denials"), repeats.get("failures")
    if isinstance(denials, int) and denials >= LOOP_DENIALS:
        rule = repeats.get("rule") or "a rule"
        result = finding(GATE, DENIED_AGAIN, DENY,
                         f"this exact call was denied {denials} times in a row (by {rule}); stop retrying it",
                         segment=ctx.event.tool)
        result.hint = f"read why {rule} denies it and change the approach, or ask the user"
        found.append(result)
    if isinstance(failures, int) and failures >= LOOP_FAILURES:
        result = finding(GATE, FAILING_AGAIN, WARN,
                         f"this command failed {failures} times in a row with nothing run in between; stop retrying it unchanged",
                         segment=ctx.event.tool)
        result.hint = "read the last error and change something first"
        found.append(result)
    return found


def limit_for(base: int, tier_name: str) -> int:
    return max(1, int(base * trust.multiplier(tier_name)))


def check(ctx: GateContext) -> list[Finding]:
    if ctx.event.hook_event != "PreToolUse" or ctx.extra(BATCH):
        return []
    repeats = ctx.extra("repeats")  # None for nearly every call: one lookup
    found = _loops(ctx, repeats) if repeats else []
    rate = ctx.extra("rate_per_min")
    tier_name = ctx.extra("trust_tier")
    base = ctx.extra("rate_base")
    if not isinstance(rate, int) or not isinstance(tier_name, str) or not isinstance(base, int) or base <= 0:
        return found
    limit = limit_for(base, tier_name)
    if rate < limit * NEAR_FRACTION:
        return found  # nearly every call: nothing to say, so no message is built
    agent = trust.agent_key(ctx.event.agent_id)
    score = ctx.extra("trust_score")
    about = f"agent {agent} ({tier_name}" + (f", trust {score:.2f}" if isinstance(score, float) else "") + ")"
    if rate >= limit:
        result = finding(GATE, OVER, DENY, f"{about} made {rate} tool calls in the last minute; its limit is {limit}",
                         segment=ctx.event.tool)
        result.hint = result.hint or "wait a little and batch work into fewer tool calls (see `cf-guidance trust`)"
        found.append(result)
    else:
        found.append(finding(GATE, NEAR, WARN, f"{about} made {rate} of its {limit} tool calls for this minute", segment=ctx.event.tool))
    return found

"""Trust-based rate limits: how many tool calls a minute an agent gets, by its trust tier.

Hot path module: standard library only.

The limit is `floor(base * multiplier)` decisions per minute, base `GUIDANCE_RATE_LIMIT_PER_MIN`
(default 120) and the multiplier of the agent's tier (cf_guidance.trust: trusted 2x, standard 1x,
probation 0.5x, untrusted 0.1x). The engine passes `rate_per_min` (decisions this agent got
in the last 60 s), `rate_base` and `trust_tier` as extras (cf_guidance.session); without them
the gate says nothing, and it says nothing for recorded calls evaluated in a batch (the `batch`
extra: replay, check). An agent that keeps getting denied drops to probation or untrusted and
is slowed down, which is the point: a runaway or hijacked agent hammers the guard.
"""

from __future__ import annotations

from cf_guidance import trust
from cf_guidance.decision import DENY, WARN
from cf_guidance.gates._base import BATCH, Rule
from cf_guidance.gates.reasons import doc, finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext

GATE = "rate-limit"
OVER = "RAT001"
NEAR = "RAT002"
#: Fraction of the limit from which RAT002 warns.
NEAR_FRACTION = 0.8

RULES = (
    Rule(OVER, "rate-limit-exceeded", DENY, "The agent used up its tool calls for this minute",
         doc("Denies a tool call when the agent already received `floor(base * multiplier)` decisions in the last 60 "
             "seconds. The base is `GUIDANCE_RATE_LIMIT_PER_MIN` (default 120); the multiplier is 2, 1, 0.5 or 0.1 for "
             "the trust tiers trusted, standard, probation and untrusted (scores 0.8, 0.5, 0.3).",
             "An agent that was denied again and again, or runs in a tight loop, should slow down and let a person look.",
             "# an untrusted agent (score < 0.3): the 13th tool call within a minute", "# wait a minute; fix what gets denied")),
    Rule(NEAR, "rate-limit-near", WARN, "The agent is close to its tool-call limit for this minute",
         doc("Warns from 80% of the per-minute limit, so the agent learns about the limit before it is denied.",
             "A warning costs nothing; a sudden deny in the middle of a task is confusing.",
             "# a probation agent's 50th call within a minute (limit 60)", "# batch work into fewer tool calls")),
)


def limit_for(base: int, tier_name: str) -> int:
    return max(1, int(base * trust.multiplier(tier_name)))


def check(ctx: GateContext) -> list[Finding]:
    if ctx.event.hook_event != "PreToolUse" or ctx.extra(BATCH):
        return []
    rate = ctx.extra("rate_per_min")
    tier_name = ctx.extra("trust_tier")
    if not isinstance(rate, int) or not isinstance(tier_name, str):
        return []
    base = ctx.extra("rate_base")
    limit = limit_for(base if isinstance(base, int) and base > 0 else 120, tier_name)
    if rate < limit * NEAR_FRACTION:
        return []  # nearly every call: nothing to say, so no message is built
    agent = trust.agent_key(ctx.event.agent_id)
    score = ctx.extra("trust_score")
    about = f"agent {agent} ({tier_name}" + (f", trust {score:.2f}" if isinstance(score, float) else "") + ")"
    if rate >= limit:
        result = finding(GATE, OVER, DENY, f"{about} made {rate} tool calls in the last minute; its limit is {limit}",
                         segment=ctx.event.tool)
        result.hint = result.hint or "wait a minute, and fix what keeps getting denied (see `cf-guidance trust`)"
        return [result]
    return [finding(GATE, NEAR, WARN, f"{about} made {rate} of its {limit} tool calls for this minute", segment=ctx.event.tool)]

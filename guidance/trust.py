"""Trust scores, earned per session and per agent inside it, from the decisions they received.

Hot path module (read by cf_guidance.session): standard library only, no `typing` at run time.

A score is kept for each agent of each session (the main agent, `agent_id` "" → "main", and
every sub-agent by its `agent_id`), inside the session's summary (``sessions/<id>.json``,
written by the worker). What one session or sub-agent did never lowers another's score.

A score starts at 0.5; each allow adds 0.01, each warn (or ask) subtracts 0.02, each deny
subtracts 0.05, clamped to [0, 1]. Denials that say nothing about the agent (the rate
limiter's own, and failures to check or record a call: NEUTRAL_RULES) change nothing. Between
decisions the score recovers toward 0.5: its distance to 0.5 halves every HALF_LIFE_S, and
after SETTLED_AFTER_S (25 minutes) the score is 0.5 again. Tiers:
trusted >= 0.8, standard >= 0.5, probation >= 0.3, else untrusted; the rate limiter
multiplies its base rate by 2, 1, 0.75 or 0.5 for them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

INITIAL = 0.5
DELTAS = {"allow": 0.01, "warn": -0.02, "ask": -0.02, "deny": -0.05}
#: Seconds in which a score's distance to INITIAL halves: an agent at 0 is on probation again
#: after about 7 minutes without new decisions...
HALF_LIFE_S = 300.0
#: ...and after this long without any, every score is back at INITIAL (a standard agent).
SETTLED_AFTER_S = 5 * HALF_LIFE_S
TIERS = (("trusted", 0.8), ("standard", 0.5), ("probation", 0.3), ("untrusted", 0.0))
MULTIPLIERS = {"trusted": 2.0, "standard": 1.0, "probation": 0.75, "untrusted": 0.5}
#: Agent id used when the hook payload names none (the main agent of a session).
MAIN_AGENT = "main"
#: Rules (or rule prefixes) whose verdicts say nothing about the agent: the rate limiter's own,
#: and the hook's failures to check or record a call.
NEUTRAL_RULES = ("RAT", "fail-open", "fail-closed", "GATE-ERROR", "spool-unwritable", "state-untrusted", "policy-unapplied")


def decayed(score: float, elapsed_s: float) -> float:
    """`score` after `elapsed_s` seconds of recovery toward INITIAL."""
    if elapsed_s <= 0:
        return score
    if elapsed_s >= SETTLED_AFTER_S:
        return INITIAL
    return INITIAL + (score - INITIAL) * float(0.5 ** (elapsed_s / HALF_LIFE_S))


def tier(score: float) -> str:
    for name, floor in TIERS:
        if score >= floor:
            return name
    return TIERS[-1][0]


def multiplier(tier_name: str) -> float:
    return MULTIPLIERS.get(tier_name, 1.0)


def agent_key(agent_id: str) -> str:
    return agent_id or MAIN_AGENT


def neutral(rule: str) -> bool:
    """True when a decision by `rule` must not move trust (see NEUTRAL_RULES)."""
    return bool(rule) and rule.startswith(NEUTRAL_RULES)


def new_entry(at: float) -> dict[str, Any]:
    return {"score": INITIAL, "updated": at, "allow": 0, "warn": 0, "ask": 0, "deny": 0}


def record_outcome(agents: dict[str, dict[str, Any]], agent_id: str, verdict: str, rule: str, at: float) -> dict[str, Any]:
    """Apply one decision for `agent_id` at epoch `at` to a session's `agents`; returns its entry."""
    key = agent_key(agent_id)
    entry = agents.get(key)
    if entry is None:
        entry = agents[key] = new_entry(at)
    delta = DELTAS.get(verdict)
    if delta is None or neutral(rule):
        return entry
    score = decayed(float(entry["score"]), at - float(entry["updated"]))
    entry["score"] = round(min(1.0, max(0.0, score + delta)), 6)
    entry["updated"] = max(at, float(entry["updated"]))
    entry[verdict] = int(entry.get(verdict, 0)) + 1
    return entry


def current(agents: object, agent_id: str, now: float) -> tuple[float, str]:
    """(score, tier) of `agent_id` among a session's `agents` at epoch `now`, recovery applied."""
    entry = agents.get(agent_key(agent_id)) if isinstance(agents, dict) else None
    if not isinstance(entry, dict):
        return INITIAL, tier(INITIAL)
    try:
        score = decayed(float(entry["score"]), now - float(entry["updated"]))
    except (KeyError, TypeError, ValueError):
        score = INITIAL
    return score, tier(score)


def iso_epoch(text: str) -> float:
    """Epoch seconds of `YYYY-MM-DDTHH:MM:SS[.fff...]Z` without importing datetime or re."""
    try:
        year, month, day = int(text[0:4]), int(text[5:7]), int(text[8:10])
        hour, minute, second = int(text[11:13]), int(text[14:16]), int(text[17:19])
        frac = text[19:].rstrip("Z")
        fraction = float(frac) if frac.startswith(".") and len(frac) > 1 else 0.0
    except ValueError:
        return 0.0
    # days from civil (Howard Hinnant), proleptic Gregorian, UTC
    y = year - (1 if month <= 2 else 0)
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    days = era * 146097 + doe - 719468
    return days * 86400 + hour * 3600 + minute * 60 + second + fraction

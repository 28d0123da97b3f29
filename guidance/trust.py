"""Per-agent trust from the decisions an agent received (anchor constants, ADR-G017).

Hot path module (read by cf_guidance.session): standard library only, no `typing` at run time.

A score starts at 0.5; each allow adds 0.01, each warn (or ask) subtracts 0.02, each deny
subtracts 0.05, clamped to [0, 1]. Between decisions the score decays toward 0.5 by 1% per
whole minute: `score = 0.5 + (score - 0.5) * 0.99 ** minutes`. Tiers: trusted >= 0.8,
standard >= 0.5, probation >= 0.3, else untrusted; the rate limiter multiplies its base
rate by 2, 1, 0.5 or 0.1 for them. The worker keeps the scores in ``<state>/trust.json``,
derived from the ledger (a cursor says how far), so replaying the ledger rebuilds them.
"""

from __future__ import annotations

import os

from cf_guidance import _fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

INITIAL = 0.5
DELTAS = {"allow": 0.01, "warn": -0.02, "ask": -0.02, "deny": -0.05}
DECAY_RATE = 0.01
DECAY_INTERVAL_S = 60.0
TIERS = (("trusted", 0.8), ("standard", 0.5), ("probation", 0.3), ("untrusted", 0.0))
MULTIPLIERS = {"trusted": 2.0, "standard": 1.0, "probation": 0.5, "untrusted": 0.1}
#: Agent id used when the hook payload names none (the main agent of a session).
MAIN_AGENT = "main"
FILE = "trust.json"


def path(state_dir: str) -> str:
    return os.path.join(state_dir, FILE)


def decayed(score: float, elapsed_s: float) -> float:
    """`score` after `elapsed_s` seconds of decay toward INITIAL (whole intervals only)."""
    steps = int(elapsed_s // DECAY_INTERVAL_S) if elapsed_s > 0 else 0
    if steps <= 0:
        return score
    return INITIAL + (score - INITIAL) * (1.0 - DECAY_RATE) ** steps


def tier(score: float) -> str:
    for name, floor in TIERS:
        if score >= floor:
            return name
    return TIERS[-1][0]


def multiplier(tier_name: str) -> float:
    return MULTIPLIERS.get(tier_name, 1.0)


def agent_key(agent_id: str) -> str:
    return agent_id or MAIN_AGENT


def empty_state() -> dict[str, Any]:
    return {"version": 1, "cursor": {"seq": -1, "bytes": 0}, "agents": {}}


def load(state_dir: str) -> dict[str, Any]:
    """The trust state; an empty one when the file is missing or unreadable."""
    try:
        with open(path(state_dir), "rb") as handle:
            state = _fastjson.loads(handle.read().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return empty_state()
    if not isinstance(state, dict) or not isinstance(state.get("agents"), dict):
        return empty_state()
    return state


def record_outcome(state: dict[str, Any], agent_id: str, verdict: str, at: float) -> dict[str, Any]:
    """Apply one decision for `agent_id` at epoch `at`; returns the agent's entry."""
    agents: dict[str, dict[str, Any]] = state["agents"]
    key = agent_key(agent_id)
    entry = agents.get(key)
    if entry is None:
        entry = agents[key] = {"score": INITIAL, "updated": at, "allow": 0, "warn": 0, "ask": 0, "deny": 0}
    delta = DELTAS.get(verdict)
    if delta is None:
        return entry
    score = decayed(float(entry["score"]), at - float(entry["updated"]))
    entry["score"] = round(min(1.0, max(0.0, score + delta)), 6)
    entry["updated"] = max(at, float(entry["updated"]))
    entry[verdict] = int(entry.get(verdict, 0)) + 1
    return entry


def current(state: dict[str, Any], agent_id: str, now: float) -> tuple[float, str]:
    """(score, tier) of `agent_id` at epoch `now`, decay applied."""
    entry = state.get("agents", {}).get(agent_key(agent_id))
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

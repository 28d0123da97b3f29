"""Session history for rules that need a session's past (sequence rules, trust, rate limits).

Hot path module: standard library only, no `typing` at run time, and no ledger lock.

`extras_for(event, state_dir)` returns the extras the engine passes to gates:

    history        [{"command", "ok", "seq", "ts"}] Bash commands of this session, oldest
                   first: what the worker has applied (``<state>/sessions/<id>.json``) plus
                   post-bash/post-failure jobs still waiting in the spool (seq None)
    trust_score    the agent's decayed trust score (cf_guidance.trust)
    trust_tier     trusted | standard | probation | untrusted
    rate_per_min   decisions this agent received in the last 60 s (applied + spooled)
    rate_base      base decisions per minute before the trust multiplier

The worker keeps one summary file per session with `apply_record`, so a hook reads one
small file instead of the ledger.
"""

from __future__ import annotations

import os
import time

from cf_guidance import _fastjson, trust
from cf_guidance.errors import StateError
from cf_guidance.jobs import spool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from cf_guidance.event import Event

SESSIONS_DIR = "sessions"
#: Bash commands kept per session summary (oldest dropped first). The hook parses the summary
#: on every pre-tool call, so it stays small: ~200 commands is ~1 ms of JSON at most.
MAX_HISTORY = 200
#: Decision timestamps kept per session summary, and how far back (the rate window is 60 s).
MAX_DECISIONS = 1_000
DECISION_WINDOW_S = 120.0
RATE_WINDOW_S = 60.0
#: Spool jobs read per call at most (newest first); the worker normally keeps the spool short.
MAX_PENDING_READ = 256
RATE_BASE_ENV = "GUIDANCE_RATE_LIMIT_PER_MIN"
DEFAULT_RATE_BASE = 120
#: Job kinds that carry a Bash command's outcome: kind -> succeeded.
OUTCOME_KINDS = {"post-bash": True, "post-failure": False}
DECISION_KIND = spool.DECISION


def _safe_name(session_id: str) -> str:
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in session_id)[:128]
    return name.lstrip(".") or "_"


def summary_path(state_dir: str, session_id: str) -> str:
    return os.path.join(state_dir, SESSIONS_DIR, _safe_name(session_id) + ".json")


def empty_summary(session_id: str) -> dict[str, Any]:
    return {"session_id": session_id, "seq": -1, "history": [], "decisions": []}


def load_summary(state_dir: str, session_id: str) -> dict[str, Any]:
    try:
        with open(summary_path(state_dir, session_id), "rb") as handle:
            summary = _fastjson.loads(handle.read().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return empty_summary(session_id)
    if not isinstance(summary, dict) or not isinstance(summary.get("history"), list):
        return empty_summary(session_id)
    return summary


def bash_command(payload: object) -> str | None:
    """The command of a Bash hook payload (Claude `tool_input.command`; Codex argv lists too)."""
    if not isinstance(payload, dict):
        return None
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    command = tool_input.get("command", tool_input.get("cmd"))
    if isinstance(command, list):
        command = " ".join(str(part) for part in command)
    if not isinstance(command, str):
        return None
    tool = payload.get("tool_name")
    if tool not in (None, "", "Bash", "shell", "exec_command", "local_shell"):
        return None
    return command


def outcome_entry(kind: str, payload: object, seq: int | None, ts: str) -> dict[str, Any] | None:
    """A history entry for a post-bash / post-failure record or job, else None."""
    ok = OUTCOME_KINDS.get(kind)
    if ok is None:
        return None
    command = bash_command(payload)
    if command is None:
        return None
    if ok and isinstance(payload, dict):
        response = payload.get("tool_response")
        if isinstance(response, dict) and response.get("interrupted") is True:
            ok = False
    return {"command": command, "ok": ok, "seq": seq, "ts": ts}


def apply_record(summary: dict[str, Any], record: dict[str, Any]) -> bool:
    """Fold one ledger record into its session's summary; False if already applied."""
    seq = record.get("seq")
    if not isinstance(seq, int) or seq <= int(summary.get("seq", -1)):
        return False
    summary["seq"] = seq
    kind = record.get("kind", "")
    ts = record.get("ts", "")
    entry = outcome_entry(kind, record.get("event"), seq, ts)
    if entry is not None:
        history = summary["history"]
        history.append(entry)
        if len(history) > MAX_HISTORY:
            del history[: len(history) - MAX_HISTORY]
    elif kind == DECISION_KIND:
        at = trust.iso_epoch(ts)
        decisions = summary.setdefault("decisions", [])
        decisions.append([at, trust.agent_key(str(record.get("agent_id", ""))), _verdict(record.get("decision"))])
        horizon = at - DECISION_WINDOW_S
        first = decisions[0]
        if len(decisions) > MAX_DECISIONS or not isinstance(first, list) or not first or first[0] < horizon:
            keep = [d for d in decisions if isinstance(d, list) and d and d[0] >= horizon]
            summary["decisions"] = keep[-MAX_DECISIONS:]
    return True


def _verdict(decision: object) -> str:
    if isinstance(decision, dict):
        verdict = decision.get("decision", decision.get("verdict"))
        if isinstance(verdict, str):
            return verdict
    return ""


def _pending_jobs(state_dir: str, session_id: str) -> list[dict[str, Any]]:
    """Spooled jobs of this session not yet applied by the worker, oldest first."""
    jobs: list[dict[str, Any]] = []
    paths = spool.pending(state_dir)[-MAX_PENDING_READ:]
    for job_path in paths:
        try:
            job = spool.read_job(job_path)
        except StateError:  # a job removed by the worker right now: skip it
            continue
        if job.get("session_id") == session_id:
            jobs.append(job)
    return jobs


def extras_for(event: Event, state_dir: str) -> dict[str, Any]:
    now = time.time()
    session_id = event.session_id
    agent = trust.agent_key(event.agent_id)
    summary = load_summary(state_dir, session_id) if session_id else empty_summary("")
    history = [h for h in summary.get("history", []) if isinstance(h, dict)]
    rate = 0
    horizon = now - RATE_WINDOW_S
    for item in summary.get("decisions", []):
        if isinstance(item, list) and len(item) >= 2 and item[1] == agent and isinstance(item[0], (int, float)) and item[0] >= horizon:
            rate += 1
    if session_id:
        for job in _pending_jobs(state_dir, session_id):
            kind = job.get("kind", "")
            created = job.get("created", "")
            entry = outcome_entry(kind, job.get("event"), None, created if isinstance(created, str) else "")
            if entry is not None:
                history.append(entry)
            elif kind == DECISION_KIND and trust.agent_key(str(job.get("agent_id", ""))) == agent:
                if isinstance(created, str) and trust.iso_epoch(created) >= horizon:
                    rate += 1
    score, tier_name = trust.current(trust.load(state_dir), event.agent_id, now)
    try:
        base = int(os.environ.get(RATE_BASE_ENV, "") or DEFAULT_RATE_BASE)
    except ValueError:
        base = DEFAULT_RATE_BASE
    return {
        "history": history,
        "trust_score": score,
        "trust_tier": tier_name,
        "rate_per_min": rate,
        "rate_base": base,
    }

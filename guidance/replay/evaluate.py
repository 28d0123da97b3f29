"""Every tool call of a session through the engine, under one or more policies, in session order.

Each call becomes the PreToolUse event its hook received (`ToolCall.payload`, `normalise`) and
is decided by `cf_guidance.engine.evaluate`, the same function the hook calls, with:

- the session's history as the hook would have had it: the Bash commands of this session that
  ran before the call, oldest first, with whether they succeeded, and the files its file tools
  changed (edits in a row share an entry; bounded like the live summary, `session.MAX_HISTORY`). Calls of the same model message run together, so none of
  them is in another's history; calls that were denied never ran and are not in it. The
  history is what really happened: a call a candidate policy would have stopped is still in
  the history of the calls after it (the session is not re-imagined);
- the `batch` extra, so gates that count live calls (rate limits) say nothing.

Nothing is written: no ledger record, no spool job, no session summary, no trust update. One
session is held in memory at a time (the revert check looks ahead within its session), so the
memory a replay needs is bounded by its largest session, not by the number of sessions.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from cf_guidance.engine import evaluate
from cf_guidance.errors import EventError
from cf_guidance.event import normalise
from cf_guidance.gates._base import BATCH
from cf_guidance.replay import claude_log, codex_log
from cf_guidance.replay.calls import SUCCEEDED, LogStats, ToolCall
from cf_guidance.replay.locate import LogFile, timestamp
from cf_guidance.session import MAX_HISTORY, add_entry, edited_paths


class Policy(NamedTuple):
    """A compiled policy under a name ("current", "candidate", a rule id)."""

    name: str
    bundle: dict[str, Any]


class Verdict(NamedTuple):
    decision: str
    rule: str
    reason: str


class Replayed:
    """One call and its verdict under each policy, in the order the policies were given."""

    __slots__ = ("call", "verdicts")

    def __init__(self, call: ToolCall, verdicts: tuple[Verdict, ...]) -> None:
        self.call = call
        self.verdicts = verdicts


def read_session(log: LogFile, stats: LogStats) -> list[ToolCall]:
    reader = codex_log.read_session if log.agent == codex_log.AGENT else claude_log.read_session
    return reader(log.path, stats)


def history_entry(call: ToolCall) -> dict[str, Any]:
    return {"command": call.input.get("command"), "ok": call.outcome == SUCCEEDED, "seq": call.order, "ts": call.timestamp}


def replay_session(
    calls: Sequence[ToolCall],
    policies: Sequence[Policy],
    *,
    project_dir: str,
    stats: LogStats,
    since: datetime | None = None,
) -> list[Replayed]:
    """The verdicts of every call of one session (calls before `since` only feed the history)."""
    history: list[dict[str, Any]] = []
    running: list[ToolCall] = []  # calls of the current model message: not yet in the history
    turn: str | None = None
    out: list[Replayed] = []
    for call in calls:
        if call.turn != turn:
            _extend(history, running)
            running, turn = [], call.turn
        running.append(call)
        if since is not None:
            at = timestamp(call.timestamp)
            if at is not None and at < since:
                stats.before_since += 1
                continue
        try:
            event = normalise(call.payload(codex_turn=call.agent == codex_log.AGENT), project_dir=project_dir)
        except EventError:
            stats.unusable_calls += 1
            continue
        extras = {"history": history, BATCH: True}
        verdicts = []
        for policy in policies:
            decision = evaluate(policy.bundle, event, extras=extras)
            verdicts.append(Verdict(decision.verdict, decision.rule, decision.reason))
        out.append(Replayed(call, tuple(verdicts)))
    return out


def _extend(history: list[dict[str, Any]], calls: list[ToolCall]) -> None:
    for call in calls:
        if not call.ran:
            continue
        if call.tool == "Bash" and isinstance(call.input.get("command"), str):
            history.append(history_entry(call))
        elif call.outcome == SUCCEEDED:
            paths = edited_paths(call.payload())
            if paths:
                add_entry(history, {"edited": paths, "ok": True, "seq": call.order, "ts": call.timestamp})
    if len(history) > MAX_HISTORY:
        del history[: len(history) - MAX_HISTORY]


def replay_sessions(
    logs: Iterable[LogFile],
    policies: Sequence[Policy],
    *,
    project_dir: str,
    stats: LogStats,
    since: datetime | None = None,
) -> Iterator[tuple[list[ToolCall], list[Replayed]]]:
    """For each log file in turn: its calls and their verdicts. One session in memory at a time."""
    for log in logs:
        calls = read_session(log, stats)
        yield calls, replay_session(calls, policies, project_dir=project_dir, stats=stats, since=since)

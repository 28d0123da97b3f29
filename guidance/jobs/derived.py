"""The derived state files the worker writes, validated when the worker (or the CLI) reads them.

Cold path module (pydantic). The hook reads the same files with cheap type checks only
(cf_guidance.session.summary_problem); here every field is checked before the worker folds
more records into a file. A file that fails is moved to ``<state>/quarantine/`` (with its
reason in ``quarantine/log.jsonl``) and rebuilt from the ledger, which is the only source of
truth: derived state never stops the worker.

    cursor.json           {"version": 2, "seq", "bytes"}: how far the ledger is folded
    sessions/<id>.json    cf_guidance.session's summary (history, decisions, per-agent trust)
    logs/worker.json      the last worker run (state, counts, error)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cf_guidance import session
from cf_guidance._statefile import QUARANTINE_DIR, QUARANTINE_LOG, quarantine, read_bytes
from cf_guidance.state import StateLayout

CURSOR_FILE = "cursor.json"
#: What trust.json held before trust moved into the session summaries (removed when seen).
LEGACY_TRUST_FILE = "trust.json"
MAX_CURSOR_BYTES = 4096


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")


class Cursor(_Strict):
    version: Literal[2]
    seq: int = Field(ge=-1)
    bytes: int = Field(ge=0)


class HistoryEntry(_Strict):
    command: str
    ok: bool
    seq: int | None = None
    ts: str = ""


class AgentTrust(_Strict):
    score: float = Field(ge=0.0, le=1.0)
    updated: float
    allow: int = Field(default=0, ge=0)
    warn: int = Field(default=0, ge=0)
    ask: int = Field(default=0, ge=0)
    deny: int = Field(default=0, ge=0)


class SessionSummary(_Strict):
    session_id: str
    seq: int = Field(ge=-1)
    history: list[HistoryEntry]
    decisions: list[tuple[float, str, str, str, str] | tuple[float, str, str]] = []
    agents: dict[str, AgentTrust] = {}


class WorkerState(_Strict):
    state: str
    pid: int | None = None
    started: str | None = None
    finished: str | None = None
    error: str | None = None
    last: dict[str, int | bool] | None = None


def cursor_path(state_dir: str) -> str:
    return os.path.join(state_dir, CURSOR_FILE)


def _problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "the file"
        return f"{where}: {first.get('msg', 'invalid')}"
    return str(getattr(exc, "strerror", None) or exc)


def _read(path: str, limit: int, model: type[_Strict]) -> tuple[_Strict | None, str]:
    """(the validated model, "") or (None, why not); (None, "") when the file does not exist."""
    try:
        return model.model_validate_json(read_bytes(path, limit)), ""
    except FileNotFoundError:
        return None, ""
    except (OSError, ValueError) as exc:  # ValidationError is a ValueError
        return None, _problem(exc)


def load_cursor(state_dir: str) -> tuple[int, int]:
    """(last folded seq, byte offset after it); (-1, 0), fold everything, when there is no
    usable cursor (a bad one is quarantined first)."""
    path = cursor_path(state_dir)
    legacy = os.path.join(state_dir, LEGACY_TRUST_FILE)
    if os.path.lexists(legacy):
        quarantine(state_dir, legacy, f"{LEGACY_TRUST_FILE}: replaced by per-session trust; rebuilt from the ledger")
    cursor, problem = _read(path, MAX_CURSOR_BYTES, Cursor)
    if problem:
        quarantine(state_dir, path, f"{CURSOR_FILE}: {problem}")
    if not isinstance(cursor, Cursor):
        return -1, 0
    return cursor.seq, cursor.bytes


def cursor_value(seq: int, offset: int) -> dict[str, Any]:
    return {"version": 2, "seq": seq, "bytes": offset}


def load_session(state_dir: str, session_id: str, rebuild: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The session's summary, validated; `rebuild()` (from the ledger) when it is bad."""
    path = session.summary_path(state_dir, session_id)
    summary, problem = _read(path, session.MAX_SUMMARY_BYTES, SessionSummary)
    if problem:
        quarantine(state_dir, path, f"{os.path.join(session.SESSIONS_DIR, os.path.basename(path))}: {problem}")
        return rebuild()
    if summary is None:
        return session.empty_summary(session_id)
    value = summary.model_dump(mode="json")
    value["decisions"] = [list(item) + [""] * (5 - len(item)) for item in value["decisions"]]
    return value


def rebuild_session(records: Iterable[dict[str, Any]], session_id: str, upto_seq: int) -> dict[str, Any]:
    """A session's summary folded afresh from the ledger's records with seq <= `upto_seq`."""
    summary = session.empty_summary(session_id)
    for record in records:
        if record["seq"] > upto_seq:
            break
        if record.get("session_id") == session_id:
            session.apply_record(summary, record)
    return summary


def load_worker_state(state_dir: str) -> dict[str, Any]:
    """The last worker run; {"state": "never ran"} or {"state": "unreadable", "error": ...}."""
    path = StateLayout(state_dir).worker_status
    state, problem = _read(path, 1 << 16, WorkerState)
    if problem:
        return {"state": "unreadable", "error": f"logs/worker.json: {problem}"}
    if state is None:
        return {"state": "never ran"}
    return state.model_dump(mode="json", exclude_none=True)


def quarantined(state_dir: str) -> dict[str, Any]:
    """How many files were set aside, and the last one with its reason (for `status`)."""
    log = os.path.join(state_dir, QUARANTINE_DIR, QUARANTINE_LOG)
    try:
        lines = read_bytes(log, 1 << 24).decode("utf-8", "replace").splitlines()
    except OSError:
        return {"count": 0, "last": None}
    last = None
    for line in reversed(lines):
        try:
            last = json.loads(line)
            break
        except ValueError:
            continue
    return {"count": len(lines), "last": last if isinstance(last, dict) else None}

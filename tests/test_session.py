"""Session extras: history from the worker's summary plus spooled jobs, trust tier, recent rate."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cf_guidance import session, trust
from cf_guidance.event import Event
from cf_guidance.jobs import spool, worker


@pytest.fixture
def state(tmp_path: Path) -> str:
    return str(tmp_path / "state")


_TOOL_USE = iter(range(1_000_000))


def bash(state: str, command: str, ok: bool = True, sid: str = "s1") -> None:
    payload = {"session_id": sid, "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": f"toolu_{next(_TOOL_USE)}"}
    if ok:
        payload["tool_response"] = {"stdout": "", "interrupted": False}
    spool.enqueue(state, "post-bash" if ok else "post-failure", payload)


def decision(state: str, verdict: str = "allow", sid: str = "s1") -> None:
    spool.enqueue(state, spool.DECISION, {"session_id": sid, "tool_name": "Bash", "tool_input": {"command": "ls"},
                                          "tool_use_id": f"toolu_{next(_TOOL_USE)}"},
                  {"decision": verdict, "rule": "", "reason": "", "findings": []})


def extras(state: str, sid: str = "s1") -> dict[str, object]:
    return session.extras_for(Event(session_id=sid, tool="Bash", command="git commit -m x"), state)


def test_empty_state_gives_empty_history_and_standard_tier(state: str) -> None:
    got = extras(state)
    assert got["history"] == [] and got["trust_tier"] == "standard" and got["rate_per_min"] == 0
    assert got["rate_base"] == session.DEFAULT_RATE_BASE


def test_history_joins_applied_summary_and_pending_jobs_in_order(state: str) -> None:
    bash(state, "make lint")
    bash(state, "make test", ok=False)
    worker.drain(state)
    bash(state, "make test")  # still in the spool
    bash(state, "make docs", sid="other")
    history = extras(state)["history"]
    assert [(h["command"], h["ok"]) for h in history] == [("make lint", True), ("make test", False), ("make test", True)]  # type: ignore[index, union-attr]
    assert [h["seq"] for h in history][-1] is None  # type: ignore[index, union-attr]


def test_interrupted_command_counts_as_failed(state: str) -> None:
    spool.enqueue(state, "post-bash", {"session_id": "s1", "tool_name": "Bash", "tool_input": {"command": "make test"},
                                       "tool_response": {"interrupted": True}})
    assert [h["ok"] for h in extras(state)["history"]] == [False]  # type: ignore[union-attr, index]


def test_rate_counts_recent_decisions_of_this_agent_applied_and_spooled(state: str) -> None:
    for _ in range(3):
        decision(state)
    worker.drain(state)
    decision(state)
    decision(state, sid="other")  # another session's job is not read
    assert extras(state)["rate_per_min"] == 4


def test_trust_tier_comes_from_the_worker_state(state: str) -> None:
    for _ in range(4):
        decision(state, "deny")
    worker.drain(state)
    got = extras(state)
    assert got["trust_tier"] == "probation" and got["trust_score"] == pytest.approx(0.3)


def test_summary_apply_is_idempotent_and_bounded() -> None:
    summary = session.empty_summary("s1")
    record = {"seq": 3, "kind": "post-bash", "ts": "2026-01-01T00:00:00Z", "event": {"tool_name": "Bash", "tool_input": {"command": "make test"}}}
    assert session.apply_record(summary, record) and not session.apply_record(summary, record)
    for seq in range(4, 4 + session.MAX_HISTORY + 10):
        session.apply_record(summary, dict(record, seq=seq))
    assert len(summary["history"]) == session.MAX_HISTORY


def test_decisions_older_than_the_window_are_dropped() -> None:
    summary = session.empty_summary("s1")
    now = time.time()
    old = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 2 * session.DECISION_WINDOW_S))
    new = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))
    session.apply_record(summary, {"seq": 0, "kind": "decision", "ts": old, "decision": {"decision": "allow"}})
    session.apply_record(summary, {"seq": 1, "kind": "decision", "ts": new, "decision": {"decision": "deny"}})
    assert [d[2] for d in summary["decisions"]] == ["deny"]


@pytest.mark.parametrize(
    ("payload", "command"),
    [({"tool_name": "Bash", "tool_input": {"command": "ls"}}, "ls"),
     ({"tool_name": "Bash", "tool_input": {"command": ["git", "status"]}}, "git status"),
     ({"tool_name": "Write", "tool_input": {"command": "ls"}}, None),
     ({"tool_name": "Bash", "tool_input": "ls"}, None),
     ("not a dict", None)],
)
def test_bash_command_extraction(payload: object, command: str | None) -> None:
    assert session.bash_command(payload) == command


def test_session_ids_cannot_escape_the_sessions_dir(state: str) -> None:
    path = session.summary_path(state, "../../etc/passwd")
    assert Path(path).parent == Path(state) / session.SESSIONS_DIR


def test_rate_base_env(state: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(session.RATE_BASE_ENV, "30")
    assert extras(state)["rate_base"] == 30
    monkeypatch.setenv(session.RATE_BASE_ENV, "lots")
    assert extras(state)["rate_base"] == session.DEFAULT_RATE_BASE
    assert trust.MAIN_AGENT == "main"

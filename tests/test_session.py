"""Session extras: history from the worker's summary plus spooled jobs, trust tier, recent rate."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

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


def decision(state: str, verdict: str = "allow", sid: str = "s1", *, rule: str = "", call: str = "", agent: str = "") -> None:
    spool.enqueue(state, spool.DECISION, {"session_id": sid, "agent_id": agent, "tool_name": "Bash", "tool_input": {"command": "ls"},
                                          "tool_use_id": f"toolu_{next(_TOOL_USE)}"},
                  {"decision": verdict, "rule": rule, "reason": "", "findings": [], "call": call})


def extras(state: str, sid: str = "s1", command: str = "git commit -m x", agent: str = "") -> dict[str, Any]:
    return session.extras_for(Event(session_id=sid, agent_id=agent, tool="Bash", command=command), state)


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


def test_trust_tier_comes_from_the_session_summary(state: str) -> None:
    for _ in range(4):
        decision(state, "deny", rule="R1")
    worker.drain(state)
    got = extras(state)
    assert got["trust_tier"] == "probation" and got["trust_score"] == pytest.approx(0.3, abs=0.01)


def test_trust_and_rate_belong_to_the_session_and_agent_that_earned_them(state: str) -> None:
    """Before: every session without an agent_id shared the key "main": one session's 40 denials
    locked a new session out after 12 calls."""
    for _ in range(40):
        decision(state, "deny", sid="noisy", rule="R1")
    for _ in range(5):
        decision(state, sid="noisy", agent="sub-1")
    worker.drain(state)
    assert extras(state, sid="noisy")["trust_tier"] == "untrusted"
    fresh = extras(state, sid="new")
    assert (fresh["trust_tier"], fresh["rate_per_min"]) == ("standard", 0)
    sub = extras(state, sid="noisy", agent="sub-1")
    assert (sub["trust_tier"], sub["rate_per_min"]) == ("standard", 5)


def test_the_limiters_own_denials_do_not_count_toward_the_rate(state: str) -> None:
    """Before: RAT001 denials counted, so an agent denied for its rate stayed denied while it worked."""
    for _ in range(3):
        decision(state)
    for _ in range(50):
        decision(state, "deny", rule="RAT001")
    worker.drain(state)
    decision(state, "deny", rule="RAT001")
    got = extras(state)
    assert got["rate_per_min"] == 3 and got["trust_tier"] == "standard"


def test_repeated_denials_of_the_same_call_are_counted_in_a_row(state: str) -> None:
    call = session.call_key(Event(session_id="s1", tool="Bash", command="git push --force"))
    assert call == extras(state, command="git push --force")["call"]
    decision(state, "deny", rule="R7", call=call)
    decision(state, "allow", call="other")  # other work in between: the count starts again
    for _ in range(2):
        decision(state, "deny", rule="R7", call=call)
    worker.drain(state)
    decision(state, "deny", rule="R7", call=call)  # still in the spool
    decision(state, "deny", rule="R7", call=call, agent="sub")  # another agent's retries are its own
    got = extras(state, command="git push --force")
    assert got["repeats"] == {"denials": 3, "rule": "R7", "failures": 0}
    assert extras(state, command="git push")["repeats"] is None


@pytest.mark.parametrize("rule", ["SEQ001", "RAT001", "fail-closed"])
def test_denials_that_depend_on_state_are_not_a_loop(state: str, rule: str) -> None:
    call = extras(state, command="git commit -m x")["call"]
    for _ in range(5):
        decision(state, "deny", rule=rule, call=call)
    assert extras(state)["repeats"] is None


def test_an_edited_policy_makes_a_retry_new_work(state: str) -> None:
    event = Event(session_id="s1", tool="Bash", command="npm publish")
    assert session.call_key(event, "policy-a") != session.call_key(event, "policy-b")


def test_repeated_failures_of_the_same_command(state: str) -> None:
    bash(state, "npm test", ok=False)
    bash(state, "vim x", ok=True)
    for _ in range(5):
        bash(state, "npm test", ok=False)
    assert extras(state, command="npm test")["repeats"] == {"denials": 0, "rule": "", "failures": 5}
    assert extras(state, command="npm run build")["repeats"] is None
    bash(state, "npm test", ok=True)
    assert extras(state, command="npm test")["repeats"] is None


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
    assert summary["agents"]["main"]["deny"] == 1  # trust keeps what the window drops


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
    monkeypatch.setenv(session.RATE_BASE_ENV, "0")
    assert extras(state)["rate_base"] == 0
    for bad in ("lots", "-5"):
        monkeypatch.setenv(session.RATE_BASE_ENV, bad)
        assert extras(state)["rate_base"] == session.DEFAULT_RATE_BASE
    assert trust.MAIN_AGENT == "main"


# -- derived state of the wrong shape ----------------------------------------------------------

BAD_SUMMARIES = [
    b'{"session_id": "s1", "seq": 4, "history": [], "decisions": 5}',
    b'{"session_id": "s1", "seq": "4", "history": []}',
    b'{"session_id": "s1", "seq": 4, "history": [{"command": 7, "ok": true}]}',
    b'{"session_id": "s1", "seq": 4, "history": [], "decisions": [[1, "main", "deny", 9, ""]]}',
    b'{"session_id": "s1", "seq": 4, "history": [], "agents": {"main": {"score": "high"}}}',
    b'[1, 2]',
    b'{broken',
]


@pytest.mark.parametrize("content", BAD_SUMMARIES)
def test_a_summary_of_the_wrong_shape_is_set_aside_and_a_rebuild_asked(state: str, content: bytes) -> None:
    """Before: `"decisions": 5` made every pre-tool call of the session fail open (TypeError)."""
    path = Path(session.summary_path(state, "s1"))
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    got = extras(state)
    assert got["history"] == [] and got["rate_per_min"] == 0
    assert not path.exists() and list((Path(state) / "quarantine").glob("*sessions_s1.json"))
    [job] = [spool.read_job(p) for p in spool.pending(state) if spool.read_job(p)["kind"] == session.REPAIR_KIND]
    assert job["session_id"] == "s1" and job["event"]["file"] == "sessions/s1.json"


@pytest.mark.parametrize("special", ["fifo", "symlink"])
def test_a_special_file_as_summary_is_set_aside_without_blocking(state: str, special: str) -> None:
    path = Path(session.summary_path(state, "s1"))
    path.parent.mkdir(parents=True)
    if special == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    started = time.monotonic()
    assert extras(state)["history"] == []
    assert time.monotonic() - started < 5 and not os.path.lexists(path)


def test_summaries_written_before_decisions_carried_rule_and_call_still_load(state: str) -> None:
    path = Path(session.summary_path(state, "s1"))
    path.parent.mkdir(parents=True)
    path.write_text('{"session_id": "s1", "seq": 2, "history": [], "decisions": [[%f, "main", "deny"]]}' % time.time())
    assert extras(state)["rate_per_min"] == 1 and path.exists()


def test_edits_join_the_history_as_paths() -> None:
    """A file tool's change is an `edited` entry of absolute paths; edits in a row share one
    entry (bounded: past MAX_EDITED_PATHS paths it says `more`); a command ends the run."""
    def edited(path: str) -> dict[str, object]:
        payload = {"tool_name": "Edit", "cwd": "/p", "tool_input": {"file_path": path, "old_string": "a", "new_string": "b"}}
        entry = session.outcome_entry(session.EDIT_KIND, payload, 1, "t")
        assert entry is not None
        return entry

    history: list[dict[str, object]] = []
    session.add_entry(history, edited("/p/a.sql"))
    session.add_entry(history, edited("src/b.py"))
    session.add_entry(history, edited("/p/a.sql"))
    bash = session.outcome_entry("post-bash", {"tool_name": "Bash", "tool_input": {"command": "make gen"}}, 2, "t")
    assert bash is not None
    session.add_entry(history, bash)
    session.add_entry(history, edited("/p/c.sql"))
    assert [e.get("edited", e.get("command")) for e in history] == [["/p/a.sql", "/p/src/b.py"], "make gen", ["/p/c.sql"]]
    assert session.summary_problem({"seq": 2, "history": history}) == ""
    patch = {"tool_name": "apply_patch", "cwd": "/p", "tool_input": {"patch": "*** Update File: x.rs\n"}}
    assert session.edited_paths(patch) == ["/p/x.rs"]
    assert session.outcome_entry(session.EDIT_KIND, {"tool_name": "Read", "tool_input": {"file_path": "/p/a"}}, 3, "t") is None
    many: list[dict[str, object]] = []
    for k in range(session.MAX_EDITED_PATHS + 5):
        session.add_entry(many, edited(f"/p/f{k}.py"))
    assert len(many) == 1 and len(many[0]["edited"]) == session.MAX_EDITED_PATHS and many[0]["more"] is True  # type: ignore[arg-type]


def read_call(state: str, path: str, verdict: str = "allow", sid: str = "s1", tool: str = "Read") -> None:
    """A read tool's pre-tool call as the hook records it: the event and its decision."""
    spool.enqueue(state, spool.DECISION, {"session_id": sid, "cwd": "/p", "tool_name": tool, "tool_input": {"file_path": path},
                                          "tool_use_id": f"toolu_{next(_TOOL_USE)}"},
                  {"decision": verdict, "rule": "", "reason": "", "findings": [], "call": ""})


def test_reads_come_from_the_decisions_that_let_read_calls_through(state: str) -> None:
    """"Read `docs/a.md` before changing `core/`" needs the session's reads: the files of the Read
    calls a pre-tool decision allowed or warned about (applied or still spooled), most recent
    last; a denied or asked call, another session's read, a Grep or a Glob add none."""
    read_call(state, "docs/a.md")
    read_call(state, "/p/secret.env", verdict="deny")
    read_call(state, "/p/b.md", verdict="ask")
    read_call(state, "docs/c.md", sid="other")
    worker.drain(state)
    read_call(state, "/p/d.md", verdict="warn")  # still in the spool
    read_call(state, "/p/docs/a.md")  # again: once, now the most recent
    spool.enqueue(state, spool.DECISION, {"session_id": "s1", "cwd": "/p", "tool_name": "Grep", "tool_input": {"pattern": "x", "path": "/p/e.md"}},
                  {"decision": "allow"})
    assert extras(state)["reads"] == ["/p/d.md", "/p/docs/a.md"]
    summary = session.load_summary(state, "s1")
    assert summary["reads"] == ["/p/docs/a.md"] and session.summary_problem(summary) == ""
    assert session.summary_problem(dict(summary, reads=[3])) == "its reads are not a list of paths"


def test_reads_are_bounded() -> None:
    reads: list[str] = []
    session.add_reads(reads, [f"/p/f{k}" for k in range(session.MAX_READS + 10)])
    assert len(reads) == session.MAX_READS and reads[-1] == f"/p/f{session.MAX_READS + 9}"

"""Detached worker: drains in order, applies each job once, survives kill -9 at any point."""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cf_guidance import session
from cf_guidance.errors import LedgerError
from cf_guidance.jobs import derived, spool, worker
from cf_guidance.ledger.store import Ledger


@pytest.fixture
def state(tmp_path: Path) -> str:
    return str(tmp_path / "state")


def decision_job(state: str, i: int, verdict: str = "allow", session_id: str = "s1") -> str:
    payload = {"session_id": session_id, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": f"echo {i}"},
               "tool_use_id": f"toolu_{i}"}
    return spool.enqueue(state, spool.DECISION, payload, {"decision": verdict, "rule": "", "reason": "", "findings": []})


def bash_job(state: str, command: str, ok: bool = True, session_id: str = "s1") -> str:
    payload = {"session_id": session_id, "hook_event_name": "PostToolUse" if ok else "PostToolUseFailure",
               "tool_name": "Bash", "tool_input": {"command": command}}
    return spool.enqueue(state, "post-bash" if ok else "post-failure", payload)


def main_agent(state: str, session_id: str = "s1") -> dict[str, Any]:
    """The main agent's trust entry in the session's summary."""
    return session.load_summary(state, session_id)["agents"]["main"]  # type: ignore[no-any-return]


def ledger_jobs(state: str) -> list[str]:
    return [r["job"] for r in Ledger(state).records()]


def test_drain_applies_jobs_in_order_and_empties_the_spool(state: str) -> None:
    ids = [decision_job(state, i) for i in range(5)] + [bash_job(state, "make test")]
    result = worker.drain(state)
    assert (result.applied, result.skipped, result.rejected) == (6, 0, 0)
    assert ledger_jobs(state) == ids
    assert spool.pending(state) == []
    assert Ledger(state).verify().ok
    entry = main_agent(state)
    assert (entry["allow"], round(entry["score"], 2)) == (5, 0.55)
    summary = session.load_summary(state, "s1")
    assert [h["command"] for h in summary["history"]] == ["make test"] and summary["seq"] == 5


def test_records_carry_job_fields(state: str) -> None:
    job_id = decision_job(state, 1, "deny")
    worker.drain(state)
    record = next(Ledger(state).records())
    assert record["job"] == job_id and record["kind"] == "decision" and record["session_id"] == "s1"
    assert record["decision"]["decision"] == "deny" and record["event"]["tool_input"]["command"] == "echo 1"


def test_drain_twice_applies_nothing_twice(state: str) -> None:
    for i in range(3):
        decision_job(state, i)
    worker.drain(state)
    again = worker.drain(state)
    assert (again.applied, again.skipped) == (0, 0)
    assert len(ledger_jobs(state)) == 3 and main_agent(state)["allow"] == 3


@pytest.mark.parametrize("stage", ["appended", "removed", "derived"])
def test_a_crash_at_any_stage_loses_nothing_and_applies_nothing_twice(state: str, stage: str) -> None:
    ids = [decision_job(state, i) for i in range(40)]

    class Crash(Exception):
        pass

    def crash(at: str, jobs: list[dict[str, Any]]) -> None:
        if at == stage:
            raise Crash

    with pytest.raises(worker.WorkerError, match="internal error Crash"):
        worker.drain(state, batch=16, fault=crash)
    worker.drain(state)
    assert ledger_jobs(state) == ids
    assert main_agent(state)["allow"] == 40
    assert spool.pending(state) == []


_KILLED_WORKER = """
import os, signal, sys
from cf_guidance.jobs import worker
stage, after = sys.argv[2], int(sys.argv[3])
seen = [0]
def die(at, jobs):
    if at == stage:
        seen[0] += 1
        if seen[0] >= after:
            os.kill(os.getpid(), signal.SIGKILL)
worker.drain(sys.argv[1], batch=10, fault=die)
"""


@pytest.mark.parametrize(("stage", "after"), [("appended", 2), ("removed", 1), ("derived", 1)])
def test_kill_9_mid_drain_loses_no_job_and_applies_none_twice(state: str, stage: str, after: int) -> None:
    ids = [decision_job(state, i, "deny" if i % 5 == 0 else "allow") for i in range(35)]
    proc = subprocess.run([sys.executable, "-c", _KILLED_WORKER, state, stage, str(after)], capture_output=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert spool.pending(state) or stage == "derived"  # killed after removal in "derived": nothing left
    worker.drain(state)
    assert ledger_jobs(state) == ids
    counts = main_agent(state)
    assert (counts["allow"], counts["deny"]) == (28, 7)
    assert spool.pending(state) == [] and Ledger(state).verify().ok


def test_random_kill_9_of_real_worker_processes(state: str, tmp_path: Path) -> None:
    """The real `python -m cf_guidance.jobs.worker`, killed at random moments, then finished by the next one."""
    ids = [decision_job(state, i) for i in range(600)]
    env = dict(os.environ, GUIDANCE_STATE_DIR=state)
    rng = random.Random(4)
    kills = 0
    for _ in range(4):
        proc = subprocess.Popen([sys.executable, "-m", "cf_guidance.jobs.worker", "--project", str(tmp_path)], env=env)
        time.sleep(rng.uniform(0.15, 0.6))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
    done = subprocess.run([sys.executable, "-m", "cf_guidance.jobs.worker", "--project", str(tmp_path)], env=env)
    assert done.returncode == 0
    jobs = ledger_jobs(state)
    assert Counter(jobs).most_common(1)[0][1] == 1 and jobs == ids
    assert main_agent(state)["allow"] == 600
    assert spool.pending(state) == []


def test_unreadable_job_is_moved_aside_not_lost(state: str) -> None:
    decision_job(state, 1)
    bad = Path(spool.spool_dir(state)) / "00000000000000000001-1-bad.json"
    bad.write_text("{not json")
    result = worker.drain(state)
    assert (result.applied, result.rejected) == (1, 1)
    assert (Path(spool.spool_dir(state)) / "rejected" / bad.name).read_text() == "{not json"


def test_one_event_spooled_twice_is_recorded_once(state: str) -> None:
    """A warm server killed after spooling, then the hook's in-process answer: two files, one event."""
    first = decision_job(state, 1)
    decision_job(state, 2)
    assert decision_job(state, 1) == first  # the same event again, in the same batch
    worker.drain(state)
    decision_job(state, 2)  # and again after its first copy was applied
    result = worker.drain(state)
    assert (result.applied, result.skipped) == (0, 1)
    assert ledger_jobs(state) == [first, "decision/s1/toolu_2"]
    assert main_agent(state)["allow"] == 2


def test_stranded_temp_files_are_recovered_or_set_aside(state: str) -> None:
    """A hook killed between writing its job and renaming it leaves a temp file: a complete one is
    applied, a torn one set aside; neither is left in the spool."""
    complete = decision_job(state, 1)
    [path] = spool.pending(state)
    directory = Path(path).parent
    kept = directory / f".{Path(path).name}.77-aaaa.tmp"
    os.replace(path, kept)
    torn = directory / ".00000000000000000002-9-bbbb.json.78-cccc.tmp"
    torn.write_text('{"id": "decision/s1/t')
    young = directory / ".00000000000000000003-9-dddd.json.79-eeee.tmp"
    young.write_text("{")  # its writer may still be at work: left alone
    old = time.time() - 2 * spool.STRANDED_AGE_S
    for stale in (kept, torn):
        os.utime(stale, (old, old))
    result = worker.drain(state)
    assert (result.recovered, result.rejected, result.applied) == (1, 1, 1)
    assert ledger_jobs(state) == [complete]
    assert (directory / worker.REJECTED_DIR / torn.name).exists() and young.exists() and not kept.exists()


@pytest.mark.parametrize("special", ["fifo", "dangling symlink", "symlink to /dev/zero"])
def test_a_special_file_in_the_spool_is_set_aside_never_opened(state: str, special: str) -> None:
    ids = [decision_job(state, i) for i in range(3)]
    odd = Path(spool.spool_dir(state)) / "00000000000000000001-1-odd.json"
    if special == "fifo":
        os.mkfifo(odd)
    else:
        odd.symlink_to("/nonexistent/x" if special.startswith("dangling") else "/dev/zero")
    started = time.monotonic()
    result = worker.drain(state)
    assert time.monotonic() - started < 10
    assert (result.applied, result.rejected) == (3, 1) and ledger_jobs(state) == ids
    assert spool.pending(state) == [] and os.path.lexists(Path(spool.spool_dir(state)) / "rejected" / odd.name)


def test_ledger_failure_keeps_the_jobs(state: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [decision_job(state, i) for i in range(3)]

    def full(stage: str, fd: int, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(LedgerError, match="free disk space"):
        worker.drain(state, ledger=Ledger(state, fault=full))
    assert len(spool.pending(state)) == 3
    assert json.loads(worker.worker_state_path(state).read_text())["state"] == "failed"
    worker.drain(state)
    assert ledger_jobs(state) == ids


def test_worker_main_reports_failure_with_exit_1_not_a_traceback(state: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    decision_job(state, 1)

    def broken(*args: object, **kwargs: object) -> None:
        raise LedgerError("cannot append to ledger: No space left on device; free disk space")

    monkeypatch.setattr(worker, "drain", broken)
    assert worker.main(["--project", str(tmp_path), "--state", state]) == 1
    assert "free disk space" in (Path(state) / "logs" / "worker.log").read_text()


def test_second_worker_waits_or_reports_busy(state: str) -> None:
    decision_job(state, 1)
    holder = worker._WorkerLock(state, 0)
    assert holder.acquire()
    try:
        assert worker.drain(state, wait_s=0).busy
    finally:
        holder.release()
    assert worker.drain(state, wait_s=0).applied == 1


def test_session_end_signs_a_checkpoint_and_starts_the_autopilot_when_enabled(state: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    monkeypatch.setattr(worker, "_spawn_autopilot", lambda project, st: started.append(project) or True)
    decision_job(state, 1)
    spool.enqueue(state, "session-end", {"session_id": "s1", "hook_event_name": "SessionEnd"})
    result = worker.drain(state, project_dir=str(tmp_path))
    assert result.checkpoints == 1 and started == []
    assert Ledger(state).verify().unanchored == 0
    monkeypatch.setenv(worker.AUTOPILOT_ENV, "1")
    spool.enqueue(state, "session-end", {"session_id": "s2", "hook_event_name": "SessionEnd"})
    result = worker.drain(state, project_dir=str(tmp_path))
    assert (result.checkpoints, result.autopilot) == (1, 1) and started == [str(tmp_path)]


def test_derived_state_is_rebuilt_when_the_cursor_does_not_line_up(state: str) -> None:
    for i in range(4):
        decision_job(state, i)
    worker.drain(state)
    Path(derived.cursor_path(state)).write_text(json.dumps(derived.cursor_value(1, 7)))  # into the middle of a line
    decision_job(state, 4)
    worker.drain(state)
    assert main_agent(state)["allow"] == 5


def test_old_session_summaries_are_pruned(state: str) -> None:
    bash_job(state, "make test", session_id="old")
    bash_job(state, "make test", session_id="new")
    worker.drain(state)
    old = Path(session.summary_path(state, "old"))
    past = time.time() - worker.SESSION_TTL_S - 60
    os.utime(old, (past, past))
    decision_job(state, 1)
    worker.drain(state)
    assert not old.exists() and Path(session.summary_path(state, "new")).exists()


def test_verify_smoke_session_does_not_move_anyone_elses_trust(state: str) -> None:
    from cf_guidance.state import SMOKE_SESSION

    decision_job(state, 1, "allow")
    for i in range(2, 12):
        decision_job(state, i, "deny", session_id=SMOKE_SESSION)
    worker.drain(state)
    assert len(ledger_jobs(state)) == 11 and main_agent(state)["score"] == pytest.approx(0.51)


# -- derived state of the wrong shape: quarantined, rebuilt from the ledger ----------------------


@pytest.mark.parametrize("content", [b'{"version": 2, "seq": "x", "bytes": 0}', b'{"cursor": "x"}', b"[]", b"{broken"])
def test_a_bad_cursor_is_quarantined_and_everything_refolded(state: str, content: bytes) -> None:
    """Before: trust.json with `"cursor": "x"` made `jobs drain` print a traceback, the worker stayed
    "draining", and session history froze (a passing `make test` did not count)."""
    bash_job(state, "make test")
    worker.drain(state)
    Path(derived.cursor_path(state)).write_bytes(content)
    bash_job(state, "make lint")
    result = worker.drain(state)
    assert result.applied == 1
    assert [h["command"] for h in session.load_summary(state, "s1")["history"]] == ["make test", "make lint"]
    assert json.loads(worker.worker_state_path(state).read_text())["state"] == "idle"
    assert derived.quarantined(state)["count"] == 1 and "cursor.json" in derived.quarantined(state)["last"]["problem"]


def test_a_legacy_trust_file_is_set_aside(state: str) -> None:
    Path(state).mkdir(parents=True)
    Path(state, "trust.json").write_text('{"version": 1, "cursor": {"seq": -1, "bytes": 0}, "agents": {"main": {}}}')
    decision_job(state, 1)
    worker.drain(state)
    assert not Path(state, "trust.json").exists() and main_agent(state)["allow"] == 1


@pytest.mark.parametrize("content", [b'{"session_id": "s1", "seq": 0, "history": [], "decisions": 5}',
                                     b'{"session_id": "s1", "seq": 0, "history": [], "agents": {"main": {"score": 7, "updated": 0}}}',
                                     b'{"session_id": "s1"}'])
def test_a_bad_summary_found_by_the_worker_is_rebuilt_from_the_ledger(state: str, content: bytes) -> None:
    bash_job(state, "make test")
    decision_job(state, 1, "deny")
    worker.drain(state)
    Path(session.summary_path(state, "s1")).write_bytes(content)
    bash_job(state, "make lint")
    worker.drain(state)
    summary = session.load_summary(state, "s1")
    assert [h["command"] for h in summary["history"]] == ["make test", "make lint"]
    assert summary["agents"]["main"]["deny"] == 1 and derived.quarantined(state)["count"] == 1


def test_a_summary_the_hook_set_aside_is_rebuilt_by_the_worker(state: str) -> None:
    bash_job(state, "make test")
    worker.drain(state)
    path = Path(session.summary_path(state, "s1"))
    path.write_text('{"session_id": "s1", "seq": 0, "history": [], "decisions": 5}')
    assert session.load_summary(state, "s1")["history"] == []  # the hook's read: set aside, repair spooled
    assert not path.exists()
    worker.drain(state)
    assert [h["command"] for h in session.load_summary(state, "s1")["history"]] == ["make test"]
    kinds = [r["kind"] for r in Ledger(state).records()]
    assert kinds == ["post-bash", session.REPAIR_KIND]  # the repair is on the record too


def test_an_internal_error_leaves_a_failed_state_with_the_reason_not_draining(state: str, monkeypatch: pytest.MonkeyPatch) -> None:
    decision_job(state, 1)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise TypeError("unsupported operand")

    monkeypatch.setattr(worker, "derive", broken)
    with pytest.raises(worker.WorkerError, match="internal error TypeError: unsupported operand"):
        worker.drain(state)
    status = json.loads(worker.worker_state_path(state).read_text())
    assert status["state"] == "failed" and "TypeError" in status["error"]
    assert "Traceback" in (Path(state) / "logs" / "worker.log").read_text()

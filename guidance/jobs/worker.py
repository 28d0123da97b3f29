"""The detached worker: drains the spool into the ledger and keeps derived state current.

    python -m cf_guidance.jobs.worker --project DIR [--state DIR]

Hooks spool jobs (cf_guidance.jobs.spool) and start this worker detached. It holds
``<state>/spool/.worker.lock`` while it works, takes jobs oldest first, appends one ledger
record per job (the record carries the job id) and removes a job only after the ledger
fsync. A worker killed at any point leaves jobs that the next one finds; the ledger skips
job ids it already holds (`Ledger.append_many(skip_applied_jobs=True)`), so nothing is
applied twice. Derived state (per-session summaries: history, decisions, per-agent trust) is
folded from the ledger behind a cursor (``cursor.json``); every derived file is validated
when read (cf_guidance.jobs.derived), and a bad one is quarantined and rebuilt from the
ledger. Any other failure leaves the jobs in the spool and ``logs/worker.json`` in state
"failed" with the reason, which `status` shows and the next session start reports. A
session-end record triggers a signed checkpoint and, when `GUIDANCE_AUTOPILOT_ENABLED` is
set, one detached `cf-guidance autopilot --once`. Last, the worker advances the ledger's
witness (cf_guidance.ledger.witness), or records in `logs/worker.json` why it would not move.
"""

from __future__ import annotations

import argparse
import errno
import fcntl
import importlib.util
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cf_guidance import session
from cf_guidance._atomic import write_atomic
from cf_guidance._statefile import QUARANTINE_DIR, QUARANTINE_LOG
from cf_guidance.errors import GuidanceError, StateError
from cf_guidance.jobs import derived, spool
from cf_guidance.ledger.record import parse_line
from cf_guidance.ledger.store import Ledger, utc_now
from cf_guidance.state import STATE_DIR_ENV, StateLayout, state_dir as state_dir_of

#: Jobs appended per ledger lock hold and fsync.
BATCH = 256
#: Seconds a new worker waits for a running one before giving up (the running one drains all).
LOCK_WAIT_S = 60.0
AUTOPILOT_ENV = "GUIDANCE_AUTOPILOT_ENABLED"
SESSION_END_KINDS = ("session-end",)
LOCK_NAME = ".worker.lock"
#: Session summaries untouched for this long are deleted (the ledger keeps the history).
SESSION_TTL_S = 30 * 86400
REJECTED_DIR = "rejected"

#: Called with a stage name ("appended", "removed", "derived") and the jobs of the batch;
#: tests use it to kill the worker at a chosen point.
Fault = Callable[[str, list[dict[str, Any]]], None]


class WorkerError(StateError):
    """The worker met something it could not handle; its jobs stay in the spool."""


def worker_state_path(state_dir: str) -> Path:
    return Path(StateLayout(state_dir).worker_status)


def _write_json_atomic(path: Path, value: Any) -> None:
    data = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    write_atomic(path, data, mode=0o600, parent_mode=0o700)


class DrainResult:
    """What one drain did."""

    __slots__ = ("applied", "skipped", "rejected", "recovered", "checkpoints", "autopilot", "busy")

    def __init__(self) -> None:
        self.applied = 0
        self.skipped = 0
        self.rejected = 0
        self.recovered = 0
        self.checkpoints = 0
        self.autopilot = 0
        self.busy = False

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


class _WorkerLock:
    def __init__(self, state_dir: str, wait_s: float) -> None:
        directory = spool.spool_dir(state_dir)
        os.makedirs(directory, mode=0o700, exist_ok=True)
        self.fd = os.open(os.path.join(directory, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o600)
        self.wait_s = wait_s

    def acquire(self) -> bool:
        deadline = time.monotonic() + self.wait_s
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return False
                time.sleep(0.05)

    def release(self) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def entry_for(job: dict[str, Any]) -> dict[str, Any]:
    """The ledger entry of one job: its kind, ids, event time, hook payload and decision."""
    created = job.get("created")
    entry: dict[str, Any] = {
        "kind": str(job["kind"]),
        "job": str(job["id"]),
        "session_id": str(job.get("session_id") or ""),
        "agent_id": str(job.get("agent_id") or ""),
        "ts": created if isinstance(created, str) and created else utc_now(),
        "event": job.get("event"),
    }
    if job.get("decision") is not None:
        entry["decision"] = job["decision"]
    for key in ("event_altered", "event_sha256"):  # the event was redacted or cut: what it was, by hash
        if key in job:
            entry[key] = job[key]
    return entry


def _reject(path: str, state_dir: str) -> None:
    """Move an unreadable job aside (kept for inspection) so it does not block the queue; a FIFO,
    device or symlink is moved as it is, never opened."""
    target = Path(spool.spool_dir(state_dir)) / REJECTED_DIR
    target.mkdir(mode=0o700, exist_ok=True)
    try:
        os.replace(path, target / os.path.basename(path))
    except FileNotFoundError:
        pass


def recover_stranded(state_dir: str, result: DrainResult) -> None:
    """Temp files of hooks that died between writing a job and renaming it: a complete job (its
    writer fsynced it before the rename) is renamed into place, anything else set aside."""
    for path in spool.stranded(state_dir):
        try:
            spool.read_job(path)
        except StateError:
            _reject(path, state_dir)
            result.rejected += 1
            continue
        try:
            os.replace(path, spool.final_name(path))
            result.recovered += 1
        except FileNotFoundError:
            pass


def drain(
    state_dir: str,
    *,
    project_dir: str = "",
    ledger: Ledger | None = None,
    batch: int = BATCH,
    wait_s: float = LOCK_WAIT_S,
    fault: Fault | None = None,
) -> DrainResult:
    """Apply every pending job; returns counts. Raises StateError/LedgerError on a broken state dir."""
    result = DrainResult()
    lock = _WorkerLock(state_dir, wait_s)
    if not lock.acquire():
        result.busy = True
        os.close(lock.fd)
        return result
    ledger = ledger or Ledger(state_dir)
    status: dict[str, Any] = {"pid": os.getpid(), "started": utc_now(), "state": "draining"}
    try:
        _write_json_atomic(worker_state_path(state_dir), status)
    except OSError:
        pass  # status is informational
    try:
        recover_stranded(state_dir, result)
        while True:
            paths = spool.pending(state_dir)[:batch]
            if not paths:
                # Clear the spawn marker, then look once more: a job spooled after this
                # check finds no marker and starts a new worker (which waits for our lock).
                spool.clear_spawn_marker(state_dir)
                paths = spool.pending(state_dir)[:batch]
                if not paths:
                    break
            _apply_batch(state_dir, ledger, paths, result, fault)
        derive(state_dir, ledger, project_dir=project_dir, result=result, fault=fault)
        prune(state_dir)
        # The witness outside the state directory moves forward only over a ledger that extends it.
        witness_problems = ledger.witness()
        status.update(state="idle", finished=utc_now(), last=result.to_dict())
        if witness_problems:
            status["witness"] = witness_problems
    except GuidanceError as exc:
        status.update(state="failed", finished=utc_now(), error=str(exc))
        raise
    except Exception as exc:  # a bug: never a silent "draining" forever, never a bare traceback
        import traceback

        _log(state_dir, "worker failed:\n" + traceback.format_exc())
        message = (f"the worker failed: internal error {type(exc).__name__}: {' '.join(str(exc).split())[:300]}; "
                   "the jobs stay in the spool (details in logs/worker.log); run `cf-guidance jobs drain` again")
        status.update(state="failed", finished=utc_now(), error=message)
        raise WorkerError(message) from exc
    finally:
        try:
            _write_json_atomic(worker_state_path(state_dir), status)
        except OSError:
            pass
        lock.release()
    return result


def _apply_batch(state_dir: str, ledger: Ledger, paths: list[str], result: DrainResult, fault: Fault | None) -> None:
    jobs: list[tuple[str, dict[str, Any]]] = []
    for path in paths:
        try:
            jobs.append((path, spool.read_job(path)))
        except StateError:
            if os.path.lexists(path):
                _reject(path, state_dir)
                result.rejected += 1
    # The same event spooled twice (a warm server killed after spooling, then the hook's own
    # answer) has one id: the first is applied, the rest dropped here or by the ledger's window.
    entries: list[dict[str, Any]] = []
    seen: set[str] = set()
    for _, job in jobs:
        if job["id"] not in seen:
            seen.add(job["id"])
            entries.append(entry_for(job))
    written = ledger.append_many(entries, sync=True, skip_applied_jobs=True)
    result.applied += len(written)
    result.skipped += len(jobs) - len(written)
    if fault is not None:
        fault("appended", [job for _, job in jobs])
    for path, _ in jobs:
        spool.remove(path)
    if fault is not None:
        fault("removed", [job for _, job in jobs])


def derive(state_dir: str, ledger: Ledger, *, project_dir: str = "", result: DrainResult | None = None, fault: Fault | None = None) -> int:
    """Fold ledger records past the cursor into the session summaries (history, decisions, trust).

    Summaries are written before cursor.json; each summary skips records it already holds, so
    a crash between the two applies nothing twice. A summary or cursor that fails validation
    is quarantined and rebuilt from the ledger, and so is a summary a hook set aside (its
    `state-repair` record). Returns the number of records folded.
    """
    last_seq, offset = derived.load_cursor(state_dir)
    records, end = _records_after(ledger, last_seq, offset)
    if not records:
        return 0
    summaries: dict[str, dict[str, Any]] = {}
    ended: list[dict[str, Any]] = []
    for record in records:
        sid = str(record.get("session_id", ""))
        if sid:
            summary = summaries.get(sid)
            if record.get("kind") == session.REPAIR_KIND:
                summary = summaries[sid] = _rebuilt(ledger, sid, record["seq"] - 1)
            elif summary is None:
                before = record["seq"] - 1
                summary = summaries[sid] = derived.load_session(state_dir, sid, lambda: _rebuilt(ledger, sid, before))
            session.apply_record(summary, record)
        if record.get("kind") in SESSION_END_KINDS:
            ended.append(record)
    for sid, summary in summaries.items():
        _write_json_atomic(Path(session.summary_path(state_dir, sid)), summary)
    _write_json_atomic(Path(derived.cursor_path(state_dir)), derived.cursor_value(records[-1]["seq"], end))
    if fault is not None:
        fault("derived", [])
    for record in ended:
        if ledger.checkpoint() is not None and result is not None:
            result.checkpoints += 1
        if _autopilot_enabled() and project_dir and _spawn_autopilot(project_dir, state_dir) and result is not None:
            result.autopilot += 1
    return len(records)


def _rebuilt(ledger: Ledger, session_id: str, upto_seq: int) -> dict[str, Any]:
    return derived.rebuild_session(ledger.records(), session_id, upto_seq)


def prune(state_dir: str, max_age_s: float = SESSION_TTL_S) -> int:
    """Delete session summaries, rejected jobs and quarantined files not touched for `max_age_s`."""
    removed = 0
    for directory in (Path(state_dir) / session.SESSIONS_DIR, Path(spool.spool_dir(state_dir)) / REJECTED_DIR,
                      Path(state_dir) / QUARANTINE_DIR):
        removed += _prune_dir(directory, max_age_s)
    return removed


def _prune_dir(directory: Path, max_age_s: float) -> int:
    """Delete the files in `directory` (never what they link to) not written for `max_age_s`."""
    horizon = time.time() - max_age_s
    removed = 0
    try:
        entries = list(os.scandir(directory))
    except FileNotFoundError:
        return 0
    for item in entries:
        try:
            if item.name != QUARANTINE_LOG and not item.is_dir(follow_symlinks=False) and item.stat(follow_symlinks=False).st_mtime < horizon:
                os.unlink(item.path)
                removed += 1
        except OSError:
            continue
    return removed


def _records_after(ledger: Ledger, last_seq: int, offset: int) -> tuple[list[dict[str, Any]], int]:
    """Records with seq > last_seq, read from byte `offset` when it lines up, and the end offset."""
    try:
        with open(ledger.path, "rb") as handle:
            handle.seek(offset)
            data = handle.read()
    except FileNotFoundError:
        return [], 0
    start_ok = True
    lines = data.split(b"\n")
    complete = lines[:-1]
    records: list[dict[str, Any]] = []
    for line in complete:
        try:
            records.append(parse_line(line))
        except GuidanceError:
            start_ok = False
            break
    if not start_ok or (records and records[0]["seq"] != last_seq + 1):
        # the cursor does not line up (ledger repaired or replaced): rescan from the start
        records = [r for r in ledger.records() if r["seq"] > last_seq]
        return records, ledger.head().bytes
    return records, offset + sum(len(line) + 1 for line in complete)


def _autopilot_enabled() -> bool:
    return os.environ.get(AUTOPILOT_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def _spawn_autopilot(project_dir: str, state_dir: str) -> bool:
    """Start `cf-guidance autopilot --once` detached; it takes its own lock, so a second is harmless."""
    if importlib.util.find_spec("cf_guidance.cli.autopilot") is None:
        return False
    argv = [sys.executable, "-c", "from cf_guidance.cli import main; main()", "autopilot", "--once", "--target", project_dir, "--source", "session-end"]
    log = Path(StateLayout(state_dir).logs) / "autopilot.log"
    try:
        log.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with open(log, "ab") as out:
            subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True, close_fds=True)
    except OSError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cf_guidance.jobs.worker", description=__doc__.splitlines()[0])
    parser.add_argument("--project", required=True, help="project directory whose spool to drain")
    parser.add_argument("--state", default="", help=f"state directory (default: ${STATE_DIR_ENV} or <project>/.claude-flow/guidance)")
    args = parser.parse_args(argv)
    project = os.path.abspath(args.project)
    state = os.path.abspath(args.state) if args.state else state_dir_of(project)
    try:
        result = drain(state, project_dir=project)
    except GuidanceError as exc:
        _log(state, f"worker failed: {exc}")
        return 1
    except OSError as exc:
        _log(state, f"worker failed: {exc.strerror or exc} ({errno.errorcode.get(exc.errno or 0, '')})")
        return 1
    _log(state, f"worker drained: {json.dumps(result.to_dict())}")
    return 0


def _log(state_dir: str, message: str) -> None:
    try:
        path = Path(StateLayout(state_dir).logs) / "worker.log"
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{utc_now()} pid {os.getpid()} {message}\n")
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main())

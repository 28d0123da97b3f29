"""The spool: durable, ordered, bounded job files, and a rate-limited detached worker spawn."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from cf_guidance.errors import StateError
from cf_guidance.jobs import spool


def test_enqueue_writes_a_complete_job_and_pending_lists_it(tmp_path: Path) -> None:
    payload = {"session_id": "s1", "agent_id": "a1", "hook_event_name": "PostToolUse", "tool_name": "Bash"}
    job_id = spool.enqueue(str(tmp_path), "post-bash", payload, {"decision": "allow"})
    [path] = spool.pending(str(tmp_path))
    assert os.path.basename(path) == job_id + ".json"
    job = spool.read_job(path)
    assert job["id"] == job_id and job["kind"] == "post-bash"
    assert job["session_id"] == "s1" and job["agent_id"] == "a1"
    assert job["event"] == payload and job["decision"] == {"decision": "allow"}
    assert job["created"].endswith("Z")
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_pending_is_in_creation_order_and_skips_temp_and_marker_files(tmp_path: Path) -> None:
    ids = [spool.enqueue(str(tmp_path), "stop", {"n": n}) for n in range(5)]
    directory = tmp_path / "spool"
    (directory / ".tmp-unfinished").write_text("{")
    (directory / ".worker-spawned").write_text("")
    assert [os.path.basename(p)[:-5] for p in spool.pending(str(tmp_path))] == ids


def test_remove_is_idempotent(tmp_path: Path) -> None:
    spool.enqueue(str(tmp_path), "stop", {})
    [path] = spool.pending(str(tmp_path))
    spool.remove(path)
    spool.remove(path)
    assert spool.pending(str(tmp_path)) == []


def test_huge_fields_are_bounded(tmp_path: Path) -> None:
    payload = {"tool_response": {"stdout": "x" * 100_000}, "list": list(range(1000)), "deep": [[[[[[[[[[[[[["z"]]]]]]]]]]]]]]}
    spool.enqueue(str(tmp_path), "post-bash", payload)
    job = spool.read_job(spool.pending(str(tmp_path))[0])
    stdout = job["event"]["tool_response"]["stdout"]
    assert len(stdout) == spool.MAX_JOB_STRING + len(spool.TRUNCATED) and stdout.endswith(spool.TRUNCATED)
    assert len(job["event"]["list"]) == spool.MAX_JOB_ITEMS + 1
    assert "z" not in str(job["event"]["deep"])


def test_unwritable_spool_is_a_state_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(StateError, match="cannot write a job"):
        spool.enqueue(str(blocker / "state"), "stop", {})


@pytest.mark.parametrize("content", [b"{", b"[]", b'{"id": 1}', b"\xff"])
def test_read_job_rejects_what_is_not_a_job(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(StateError):
        spool.read_job(str(path))


def test_concurrent_enqueues_lose_nothing(tmp_path: Path) -> None:
    def writer(n: int) -> None:
        for i in range(50):
            spool.enqueue(str(tmp_path), "decision", {"writer": n, "i": i})

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    jobs = [spool.read_job(p) for p in spool.pending(str(tmp_path))]
    assert len({job["id"] for job in jobs}) == 200
    assert sorted((job["event"]["writer"], job["event"]["i"]) for job in jobs) == [(n, i) for n in range(4) for i in range(50)]


def test_spawn_worker_is_rate_limited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    forks = []
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or 4242)  # the parent's side only
    state = str(tmp_path / "state")
    assert spool.spawn_worker(str(tmp_path), state) is True
    assert spool.spawn_worker(str(tmp_path), state) is False  # within SPAWN_INTERVAL_NS
    assert spool.spawn_worker(str(tmp_path), state, force=True) is True
    spool.clear_spawn_marker(state)
    assert spool.spawn_worker(str(tmp_path), state) is True
    assert len(forks) == 3


def test_the_detached_worker_really_drains_the_spool(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    state = str(tmp_path / "state")
    spool.enqueue(state, "stop", {"session_id": "s1", "hook_event_name": "Stop"})
    assert spool.spawn_worker(str(project), state, force=True) is True
    deadline = time.monotonic() + 30
    while spool.pending(state) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert spool.pending(state) == []

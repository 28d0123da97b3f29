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
    payload = {"session_id": "s1", "agent_id": "a1", "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_9"}
    job_id = spool.enqueue(str(tmp_path), "post-bash", payload, {"decision": "allow"})
    assert job_id == "post-bash/s1/toolu_9"
    [path] = spool.pending(str(tmp_path))
    job = spool.read_job(path)
    assert job["id"] == job_id and job["kind"] == "post-bash"
    assert job["session_id"] == "s1" and job["agent_id"] == "a1"
    assert job["event"] == payload and job["decision"] == {"decision": "allow"}
    assert job["created"].endswith("Z") and "event_sha256" not in job
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_pending_is_in_creation_order_and_skips_temp_and_marker_files(tmp_path: Path) -> None:
    ids = [spool.enqueue(str(tmp_path), "stop", {"n": n}) for n in range(5)]
    directory = tmp_path / "spool"
    (directory / ".tmp-unfinished").write_text("{")
    (directory / ".worker-spawned").write_text("")
    assert [spool.read_job(p)["id"] for p in spool.pending(str(tmp_path))] == ids


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


def test_the_id_comes_from_the_event(tmp_path: Path) -> None:
    event = {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_use_id": "toolu_1", "tool_input": {"command": "ls"}}
    first = spool.enqueue(str(tmp_path), spool.DECISION, event, {"decision": "allow"})
    again = spool.enqueue(str(tmp_path), spool.DECISION, dict(event), {"decision": "allow"})
    other = spool.enqueue(str(tmp_path), spool.DECISION, dict(event, tool_use_id="toolu_2"), {"decision": "allow"})
    post = spool.enqueue(str(tmp_path), "post-bash", dict(event, hook_event_name="PostToolUse"))
    assert first == again and len({first, other, post}) == 3
    stop = {"session_id": "s1", "hook_event_name": "Stop"}
    assert spool.enqueue(str(tmp_path), "stop", stop) == spool.enqueue(str(tmp_path), "stop", dict(stop))
    assert spool.enqueue(str(tmp_path), "stop", stop) != spool.enqueue(str(tmp_path), "stop", dict(stop, stop_hook_active=True))
    assert len(spool.pending(str(tmp_path))) == 8  # every write is kept; the worker drops the duplicates


def test_secrets_are_redacted_before_the_job_is_written(tmp_path: Path) -> None:
    raw = b'{"session_id": "s", "tool_input": {"command": "mysql -u root -phunter22 app"}}'
    payload = {"session_id": "s", "tool_input": {"command": "mysql -u root -phunter22 app"},
               "tool_response": {"stdout": '{"password": "s3cr3tpw"}'}}
    spool.enqueue(str(tmp_path), "post-bash", payload, {"reason": "PGPASSWORD=hunter22 psql"}, raw=raw)
    [path] = spool.pending(str(tmp_path))
    data = Path(path).read_bytes()
    assert b"hunter22" not in data and b"s3cr3tpw" not in data
    job = spool.read_job(path)
    assert job["event"]["tool_input"]["command"] == "mysql -u root -p[REDACTED:mysql-password] app"
    import hashlib

    assert job["event_altered"] == ["redacted"] and job["event_sha256"] == hashlib.sha256(raw).hexdigest()


def test_the_whole_event_is_bounded_not_only_each_string(tmp_path: Path) -> None:
    """256 lists of 256 strings of 8 KiB each passed every per-string bound (a 100 MB input, a 100 MB record)."""
    payload = {"tool_input": {"content": [["y" * 8000] * 256] * 256}}
    spool.enqueue(str(tmp_path), "post-edit", payload)
    [path] = spool.pending(str(tmp_path))
    assert os.path.getsize(path) < 2 * spool.MAX_JOB_CHARS
    job = spool.read_job(path)
    assert job["event_altered"] == ["truncated"] and len(job["event_sha256"]) == 64


@pytest.mark.parametrize("kind", ["fifo", "symlink", "huge"])
def test_read_job_never_blocks_on_or_follows_a_special_file(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "000-1-a.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        path.symlink_to("/dev/zero")
    else:
        path.write_bytes(b" " * (spool.MAX_JOB_FILE_BYTES + 1))
    started = time.monotonic()
    with pytest.raises(StateError):
        spool.read_job(str(path))
    assert time.monotonic() - started < 5


def test_stranded_temp_files_are_listed_with_their_final_name(tmp_path: Path) -> None:
    spool.enqueue(str(tmp_path), "stop", {"n": 1})
    [path] = spool.pending(str(tmp_path))
    stranded = Path(path).parent / f".{Path(path).name}.123-abcd.tmp"
    os.replace(path, stranded)
    assert spool.stranded(str(tmp_path)) == []  # a writer may still be at work
    old = time.time() - 2 * spool.STRANDED_AGE_S
    os.utime(stranded, (old, old))
    assert spool.stranded(str(tmp_path)) == [str(stranded)]
    assert spool.final_name(str(stranded)) == path


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

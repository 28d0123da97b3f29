"""The warm hook server answers exactly as the in-process hook does, and never stands in the way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.hooks import hookd, protocol
from cf_guidance.installer import install

from .conftest import bash

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = str(REPO / "hooks" / "launcher.py")


def call(root: Path, name: str, payload: object, **env: str) -> subprocess.CompletedProcess[bytes]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_"))}
    environ.update(env, CLAUDE_PROJECT_DIR=str(root))
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return subprocess.run([sys.executable, "-S", LAUNCHER, name], input=data, capture_output=True, env=environ,
                          cwd=str(root), timeout=60, check=False)


def sockets(root: Path) -> list[Path]:
    return sorted((root / ".claude-flow" / "guidance").glob("hookd-*.sock"))


def wait_for(predicate: Any, limit: float = 20.0) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def repo(project: Path) -> Any:
    (project / "CLAUDE.md").write_text("## Safety\n\n- Never run `git push --force`.\n\n## Style\n\n- Avoid `npm install`.\n")
    install(str(project), verify=False)
    yield project
    for sock in sockets(project):  # the server exits when its socket disappears
        sock.unlink()


CASES = [
    ("pre-bash", bash("rm -rf /"), {}),
    ("pre-bash", bash("git push --force"), {}),
    ("pre-bash", bash("npm install x"), {}),
    ("pre-bash", bash("ls"), {}),
    ("pre-bash", b"not json", {}),
    ("pre-bash", b"not json", {"GUIDANCE_EVENT_FAIL_CLOSED": "1"}),
    ("post-bash", {"hook_event_name": "PostToolUse", "tool_name": "Bash"}, {}),
    ("session-restore", {"hook_event_name": "SessionStart"}, {}),
]


def test_the_server_answers_byte_for_byte_like_the_in_process_hook(repo: Path) -> None:
    call(repo, "pre-bash", bash("ls"))  # answered in-process; forks the server
    assert wait_for(lambda: sockets(repo)), "no server started"
    for name, payload, env in CASES:
        direct = call(repo, name, payload, GUIDANCE_HOOKD="0", **env)
        served = call(repo, name, payload, **env)
        assert (served.returncode, served.stdout, served.stderr) == (direct.returncode, direct.stdout, direct.stderr), name
    assert json.loads(call(repo, "pre-bash", bash("rm -rf ~")).stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_the_server_uses_each_callers_environment(repo: Path) -> None:
    call(repo, "pre-bash", bash("ls"))
    assert wait_for(lambda: sockets(repo))
    open_answer = call(repo, "pre-bash", b"{")
    closed_answer = call(repo, "pre-bash", b"{", GUIDANCE_EVENT_FAIL_CLOSED="1")
    assert open_answer.returncode == 0 and b"allowed because" in open_answer.stdout
    assert closed_answer.returncode == 2 and b"[fail-closed]" in closed_answer.stderr


def test_no_server_when_disabled(repo: Path) -> None:
    call(repo, "pre-bash", bash("ls"), GUIDANCE_HOOKD="0")
    time.sleep(0.5)
    assert sockets(repo) == []


def test_no_server_in_a_state_directory_others_can_read(repo: Path) -> None:
    state = repo / ".claude-flow" / "guidance"
    state.chmod(0o755)
    call(repo, "pre-bash", bash("ls"))
    time.sleep(0.5)
    assert sockets(repo) == []


def lock_holder(sock: Path) -> int | None:
    """The pid of the server holding `sock`'s lock, read from /proc/locks (None: no server)."""
    try:
        inode = os.stat(str(sock) + ".lock").st_ino
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    for line in lines:  # "1: FLOCK  ADVISORY  WRITE <pid> <dev>:<inode> 0 EOF"; a waiter's line has "->" second
        fields = line.split()
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5].rsplit(":", 1)[-1] == str(inode):
            return int(fields[4])
    return None


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="needs Linux /proc/locks to tell servers apart")
def test_a_server_whose_code_changed_is_not_used(repo: Path, tmp_path: Path) -> None:
    """No step depends on timing: the upgraded code shows in every answer after the change, and
    servers are told apart by the pid holding the socket's lock (an inode can be reused)."""
    import shutil

    # A copy of the package, so that "upgrading its code" touches nothing shared.
    site = tmp_path / "site"
    shutil.copytree(REPO / "guidance", site / "cf_guidance", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "hooks", site / "cf_guidance" / "hooks", ignore=shutil.ignore_patterns("__pycache__"))
    launcher = str(site / "cf_guidance" / "hooks" / "launcher.py")

    def run(payload: object) -> subprocess.CompletedProcess[bytes]:
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_"))}
        environ["CLAUDE_PROJECT_DIR"] = str(repo)
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        return subprocess.run([sys.executable, "-S", launcher, "pre-bash"], input=data,
                              capture_output=True, env=environ, cwd=str(repo), timeout=60, check=False)

    run(bash("ls"))
    assert wait_for(lambda: sockets(repo) and lock_holder(sockets(repo)[0]) is not None)
    [sock] = sockets(repo)
    old = lock_holder(sock)
    assert b"(upgraded)" not in run(b"{").stderr
    # "An upgrade": the prefix of every warning line changes, so the answer shows which code gave it.
    protocol_py = site / "cf_guidance" / "hooks" / "protocol.py"
    protocol_py.write_text(protocol_py.read_text().replace('PREFIX = "cf-guidance: "', 'PREFIX = "cf-guidance (upgraded): "'))
    later = time.time() + 5  # a different mtime even on a coarse clock
    os.utime(protocol_py, (later, later))
    answer = run(bash("rm -rf /"))
    assert json.loads(answer.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", answer.stderr
    assert b"(upgraded)" in run(b"{").stderr  # not the stale server: it would answer with the old prefix
    assert wait_for(lambda: lock_holder(sock) != old, limit=60), "the stale server did not exit"

    def fresh_server() -> bool:
        holder = lock_holder(sock)
        if holder is None:  # a new server gave up while the old one still held the lock: start another
            run(bash("ls"))
            return False
        return holder != old

    assert wait_for(fresh_server, limit=60), "no fresh server started"
    assert b"(upgraded)" in run(b"{").stderr


def server_alive(sock: Path) -> bool:
    import fcntl

    fd = os.open(str(sock) + ".lock", os.O_WRONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def test_the_server_exits_when_its_socket_is_removed(repo: Path) -> None:
    call(repo, "pre-bash", bash("ls"))
    assert wait_for(lambda: sockets(repo))
    [sock] = sockets(repo)
    assert wait_for(lambda: server_alive(sock))
    sock.unlink()
    assert wait_for(lambda: not server_alive(sock), limit=30)


def test_request_and_answer_round_trip() -> None:
    secrets = {"GUIDANCE_LEDGER_KEY": "k" * 64, "CLAUDE_CODE_OAUTH_TOKEN": "t", "GUIDANCE_API_SECRET": "s"}
    raw = hookd.encode_request("pre-bash", {"GUIDANCE_X": "1", "HOME": "/h", "OTHER": "dropped", **secrets}, "/cwd", b'{"a": 1}')
    assert hookd.decode_request(raw) == ("pre-bash", "/cwd", {"GUIDANCE_X": "1", "HOME": "/h"}, b'{"a": 1}')
    assert b"kkkk" not in raw
    answer = protocol.Answer('{"x": "é"}\n', "warn\n", 2)
    code, out, err, worker = hookd.decode_answer(hookd.encode_answer(answer))
    assert (code, out.decode(), err.decode(), worker) == (2, answer.stdout, answer.stderr, None)
    with_worker = protocol.Answer("", "", 0, ("/p r", "/p r/.claude-flow/guidance"))
    assert hookd.decode_answer(hookd.encode_answer(with_worker))[3] == with_worker.worker
    for bad in (b"", b"CFGH1\0pre-bash", b"nope"):
        with pytest.raises(ValueError):
            hookd.decode_request(bad)
    with pytest.raises(ValueError):
        hookd.decode_answer(b"0 99 0\nshort")


def test_forward_without_a_server_reads_nothing(tmp_path: Path) -> None:
    def never() -> bytes:
        raise AssertionError("stdin must stay unread for the in-process answer")

    assert hookd.forward("pre-bash", {}, never, str(tmp_path)) is None


def test_decisions_answered_by_the_server_are_spooled(repo: Path) -> None:
    from cf_guidance.jobs import spool

    call(repo, "pre-bash", bash("ls"))
    assert wait_for(lambda: sockets(repo))
    state = str(repo / ".claude-flow" / "guidance")
    for command in ("echo served-1", "rm -rf /"):
        assert call(repo, "pre-bash", bash(command)).returncode == 0

    def spooled() -> list[tuple[str, str]]:
        jobs = [spool.read_job(path) for path in spool.pending(state)]
        return [(job["event"]["tool_input"]["command"], job["decision"]["decision"]) for job in jobs if job["kind"] == "decision"]

    assert wait_for(lambda: {("echo served-1", "allow"), ("rm -rf /", "deny")} <= set(spooled()))

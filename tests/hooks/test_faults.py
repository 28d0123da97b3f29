"""Fault injection around the hook: broken state, special files, a full disk, a dying warm server.

Each test reproduces a failure of issue 12 ("Why") and checks the hook now answers, records
and tells, instead of hanging, losing the record or going quiet.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cf_guidance.installer import install
from cf_guidance.jobs import spool
from cf_guidance.ledger.status import collect, unrecorded_line
from cf_guidance.state import StateLayout

from .conftest import POLICY, HookRunner, bash
from .test_hookd import LAUNCHER, REPO, call, wait_for

launch = call  # the wired launcher as a process of its own


def sockets(state: Path) -> list[Path]:
    return sorted(state.glob("hookd-*.sock"))


@pytest.fixture
def repo(project: Path) -> Iterator[Path]:
    (project / "CLAUDE.md").write_text(POLICY)
    install(str(project), verify=False)
    yield project
    for sock in sockets(project / ".claude-flow" / "guidance"):  # the server exits when its socket disappears
        sock.unlink()


# -- special files ---------------------------------------------------------------------------


def test_a_fifo_in_the_spool_does_not_hold_up_a_call(policy_hook: HookRunner) -> None:
    """Before: every pre-tool call waited for its 12 s deadline on the FIFO and failed open."""
    directory = Path(policy_hook.state_dir) / "spool"
    directory.mkdir(parents=True, exist_ok=True)
    os.mkfifo(directory / "00000000000000000001-1-fifo.json")
    started = time.monotonic()
    answer = policy_hook("pre-bash", bash("git push --force"), GUIDANCE_EVENT_SYNC_TIMEOUT_MS="5000")
    assert time.monotonic() - started < 3
    assert json.loads(answer.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "could not check" not in answer.stdout + answer.stderr


# -- exactly once around the warm server -----------------------------------------------------


def test_the_server_spools_a_decision_before_it_answers(repo: Path) -> None:
    """Before: the warm server wrote the record after answering, so a server killed then lost it."""
    launch(repo, "pre-bash", bash("ls"))
    state = repo / ".claude-flow" / "guidance"
    assert wait_for(lambda: sockets(state))
    for i in range(20):
        result = launch(repo, "pre-bash", bash(f"echo {i}", tool_use_id=f"toolu_spooled_{i}"))
        assert result.returncode == 0
        # the answer is out: its record must already be on disk
        ids = {spool.read_job(path)["id"] for path in spool.pending(str(state))}
        assert f"decision/s1/toolu_spooled_{i}" in ids, i


# -- a full disk -------------------------------------------------------------------------------


@contextlib.contextmanager
def full_tmpfs(path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs at `path`, filled up; skips where it cannot be mounted (not root, no mount)."""
    path.mkdir(parents=True)
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", str(path)],
                                 capture_output=True, text=True, check=False)
    except FileNotFoundError:
        pytest.skip("no mount command: a full disk cannot be simulated here")
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs to fill up ({mounted.stderr.strip()[:100]}); needs root")
    try:
        StateLayout(str(path)).ensure()
        with open(path / "filler", "wb") as handle:
            with contextlib.suppress(OSError):
                while True:
                    handle.write(b"\0" * 65536)
                    handle.flush()
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


@pytest.mark.parametrize("hookd", ["0", "1"], ids=["in-process", "through-the-server"])
def test_a_decision_that_cannot_be_recorded_is_said_on_stderr_and_in_status(repo: Path, tmp_path: Path, hookd: str) -> None:
    """Before: with the warm server on, a full disk dropped decisions without a word."""
    with full_tmpfs(tmp_path / "full") as state:
        env = {"GUIDANCE_STATE_DIR": str(state), "GUIDANCE_HOOKD": hookd}
        results = [launch(repo, "pre-bash", bash("ls", tool_use_id=f"toolu_full_{i}"), **env) for i in range(3)]
        if hookd == "1":
            assert wait_for(lambda: sockets(state)), "the server runs on a full disk too"
            results.append(launch(repo, "pre-bash", bash("ls", tool_use_id="toolu_full_served"), **env))
        for result in results:
            assert result.returncode == 0
            assert b"cannot write a job to the spool" in result.stderr and b"No space left" in result.stderr, result
        closed = launch(repo, "pre-bash", bash("ls", tool_use_id="toolu_full_closed"), GUIDANCE_EVENT_FAIL_CLOSED="1", **env)
        assert json.loads(closed.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
        line = unrecorded_line(collect(str(repo), str(state))["spool"])
        assert line.startswith("NOT RECORDED") and str(state) in line
        for sock in sockets(state):
            sock.unlink()


# -- derived state of the wrong shape ----------------------------------------------------------


def test_a_session_summary_of_the_wrong_type_does_not_turn_the_session_off(policy_hook: HookRunner) -> None:
    """Before: `"decisions": 5` made every pre-tool call of that session fail open (internal error TypeError)."""
    path = Path(policy_hook.state_dir) / "sessions" / "s1.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"session_id": "s1", "seq": 3, "history": [], "decisions": 5}')
    denied = policy_hook("pre-bash", bash("git push --force"))
    assert json.loads(denied.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    allowed = policy_hook("pre-bash", bash("ls", tool_use_id="toolu_2"))
    assert (allowed.stdout, allowed.stderr) == ("", "")
    assert not path.exists() and list((Path(policy_hook.state_dir) / "quarantine").glob("*sessions_s1.json"))


def test_the_next_session_start_tells_the_user_the_worker_failed(hook: HookRunner) -> None:
    logs = Path(hook.state_dir) / "logs"
    logs.mkdir(parents=True)
    (logs / "worker.json").write_text(json.dumps({"state": "failed", "error": "the worker failed: internal error TypeError: x"}))
    answer = hook("session-restore", {"hook_event_name": "SessionStart", "session_id": "s2"})
    message = json.loads(answer.stdout)["systemMessage"]
    assert "worker that records decisions failed" in message and "TypeError" in message and "jobs status" in message
    (logs / "worker.json").write_text(json.dumps({"state": "idle"}))
    assert "systemMessage" not in hook("session-restore", {"hook_event_name": "SessionStart", "session_id": "s3"}).stdout


# -- a state directory others can write ----------------------------------------------------------

FAKE_SERVER = r"""
import os, socket, sys
path, log, uid = sys.argv[1], sys.argv[2], int(sys.argv[3])
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
os.chdir(os.path.dirname(path))  # a socket address holds ~100 bytes: bind by the relative name
name = os.path.basename(path)
if os.path.exists(name):
    os.unlink(name)
sock.bind(name)
os.chmod(name, 0o777)
out = open(log, "ab", buffering=0)  # opened before giving up root: the test's tmp dir is private
os.setgid(uid)
os.setuid(uid)   # listen() records these credentials: what SO_PEERCRED reports to clients
sock.listen(16)
while True:
    conn, _ = sock.accept()
    data = b""
    conn.settimeout(2)
    try:
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    out.write(data + b"\n--\n")
    try:
        conn.sendall(b"0 0 0\n")  # "allowed": exit 0, no output
    except OSError:
        pass
    conn.close()
"""

FOREIGN_UID = 65534


@contextlib.contextmanager
def foreign_server(state: Path, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A process of another user listening on the hook server's socket path."""
    if os.getuid() != 0:
        pytest.skip("needs root to run a server as another user")
    from cf_guidance._fnv import fnv1a32

    path = state / ("hookd-" + fnv1a32(sys.executable + "\0" + LAUNCHER) + ".sock")
    log.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-c", FAKE_SERVER, str(path), str(log), str(FOREIGN_UID)])
    try:
        assert wait_for(lambda: log.exists()), "the fake server did not start"
        yield proc
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("fail_closed", ["0", "1"])
def test_a_world_writable_state_dir_with_a_foreign_socket_is_not_trusted(repo: Path, tmp_path: Path, fail_closed: str) -> None:
    """Before: with the state dir at 0777 another user's socket answered every call (rm -rf / allowed,
    fail-closed too) and received GUIDANCE_LEDGER_KEY."""
    state = repo / ".claude-flow" / "guidance"
    state.chmod(0o777)
    log = tmp_path / "foreign" / "requests.log"
    env = {"GUIDANCE_EVENT_FAIL_CLOSED": fail_closed, "GUIDANCE_LEDGER_KEY": "ab" * 32}
    with foreign_server(state, log):
        denied = launch(repo, "pre-bash", bash("rm -rf /"), **env)
        asked = launch(repo, "pre-bash", bash("terraform apply", tool_use_id="toolu_2"), **env)
    assert json.loads(denied.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert json.loads(asked.stdout)["hookSpecificOutput"]["permissionDecision"] == "ask"  # the CLAUDE.md rule
    assert log.read_bytes() == b""  # it was never even sent the event
    lines = [line for line in asked.stderr.decode().splitlines() if "writable by group or others" in line]
    assert len(lines) == 1 and "cf-guidance init" in lines[0]


def test_a_foreign_server_in_a_private_dir_is_refused_by_its_credentials(repo: Path, tmp_path: Path) -> None:
    state = repo / ".claude-flow" / "guidance"
    log = tmp_path / "foreign" / "requests.log"
    with foreign_server(state, log):
        result = launch(repo, "pre-bash", bash("rm -rf /"), GUIDANCE_LEDGER_KEY="ab" * 32)
    assert json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert b"served by uid 65534, not this user" in result.stderr
    assert b"abab" not in log.read_bytes()


def test_a_planted_cache_does_not_remove_the_rules(repo: Path) -> None:
    """Before: planting a cache with "checks": [] silently removed every CLAUDE.md rule."""
    state = repo / ".claude-flow" / "guidance"
    launch(repo, "pre-bash", bash("ls"), GUIDANCE_HOOKD="0")  # a real cache, compiled once
    for name in ("bundle.json", "decide.json"):
        planted = json.loads((state / "cache" / name).read_text())
        planted["checks"] = []
        (state / "cache" / name).write_text(json.dumps(planted))
    os.chown(state / "cache" / "decide.json", FOREIGN_UID, FOREIGN_UID) if os.getuid() == 0 else None
    state.chmod(0o777)
    (state / "cache").chmod(0o777)
    asked = launch(repo, "pre-bash", bash("terraform apply"), GUIDANCE_HOOKD="0")
    assert json.loads(asked.stdout)["hookSpecificOutput"]["permissionDecision"] == "ask"


def test_a_cache_file_of_another_user_is_not_read_in_a_private_dir(repo: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("needs root to give a file to another user")
    state = repo / ".claude-flow" / "guidance"
    launch(repo, "pre-bash", bash("ls"), GUIDANCE_HOOKD="0")
    decide = state / "cache" / "decide.json"
    planted = json.loads(decide.read_text())
    planted["checks"] = []
    decide.write_text(json.dumps(planted))
    os.chown(decide, FOREIGN_UID, FOREIGN_UID)
    asked = launch(repo, "pre-bash", bash("terraform apply"), GUIDANCE_HOOKD="0")
    assert json.loads(asked.stdout)["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert decide.stat().st_uid == os.getuid()  # recompiled and replaced


def test_init_makes_the_state_dir_private_again_and_verify_reports_it(repo: Path) -> None:
    from cf_guidance.installer.verify import verify

    state = repo / ".claude-flow" / "guidance"
    state.chmod(0o777)
    (state / "spool").chmod(0o775)
    report = verify(str(repo))
    [check] = [c for c in report.checks if c.name == "state directory is private"]
    assert not check.ok and "writable by group or others" in check.detail
    install(str(repo), verify=False)
    assert state.stat().st_mode & 0o777 == 0o700 and (state / "spool").stat().st_mode & 0o777 == 0o700


# -- a warm server that does not answer ----------------------------------------------------------


def server_pid(state: Path) -> int:
    import socket

    from cf_guidance.hooks import hookd

    [sock_path] = sockets(state)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        hookd._in_directory(str(state), sock.connect, sock_path.name)
        pid, _ = hookd.peer(sock)  # type: ignore[arg-type]
    assert pid
    return pid


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ", 1)[1][0] not in "ZX"
    except OSError:
        return False


def test_a_stopped_server_costs_one_short_wait_then_is_replaced(repo: Path) -> None:
    """Before: a SIGSTOPped server added 13 s to every call (one call took 26.8 s)."""
    import signal

    launch(repo, "pre-bash", bash("ls"))
    state = repo / ".claude-flow" / "guidance"
    assert wait_for(lambda: sockets(state))
    stopped = server_pid(state)
    os.kill(stopped, signal.SIGSTOP)
    try:
        started = time.monotonic()
        answer = launch(repo, "pre-bash", bash("rm -rf /", tool_use_id="toolu_stopped"))
        first = time.monotonic() - started
        assert json.loads(answer.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
        assert first < 6, first  # the wait (1 s by default) and an in-process answer
        assert wait_for(lambda: not alive(stopped)), "the stopped server was not killed"
        assert wait_for(lambda: sockets(state) and alive(server_pid(state)))
        started = time.monotonic()
        launch(repo, "pre-bash", bash("ls", tool_use_id="toolu_after"))
        assert time.monotonic() - started < first
        assert server_pid(state) != stopped
    finally:
        with contextlib.suppress(OSError):
            os.kill(stopped, signal.SIGKILL)


# -- project rules that cannot be applied ----------------------------------------------------------

UNAPPLIED = ["oversized", "directory", "fifo", "binary", "unreadable"]


def break_claude_md(root: Path, how: str) -> None:
    path = root / "CLAUDE.md"
    if path.exists() or path.is_symlink():
        path.unlink()
    if how == "oversized":
        from cf_guidance.limits import MAX_POLICY_BYTES

        path.write_text("- Never run `npm run release`.\n" + "x" * MAX_POLICY_BYTES)
    elif how == "directory":
        path.mkdir()
    elif how == "fifo":
        os.mkfifo(path)
    elif how == "unreadable":
        if os.getuid() == 0:
            pytest.skip("root reads every file: an unreadable CLAUDE.md cannot be made here")
        path.write_text("- Never run `npm run release`.\n")
        path.chmod(0)
    else:
        path.write_bytes(b"- Never run `npm run release`.\n\0\0\0")


@pytest.mark.parametrize("how", UNAPPLIED)
def test_rules_that_cannot_be_applied_are_said_on_every_call(hook: HookRunner, how: str) -> None:
    """Before: npm run release was allowed with no word to the agent or the user, in both fail modes."""
    break_claude_md(hook.project, how)
    for i in range(2):  # every call, not once
        answer = hook("pre-bash", bash("npm run release", tool_use_id=f"toolu_{i}"))
        message = json.loads(answer.stdout)["systemMessage"]
        assert "NOT being applied" in message and "CLAUDE.md" in message, message
        assert "permissionDecision" not in answer.stdout  # fail-open: the built-in checks passed
    closed = hook("pre-bash", bash("npm run release", tool_use_id="toolu_closed"), GUIDANCE_EVENT_FAIL_CLOSED="1")
    out = json.loads(closed.stdout)
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert out["hookSpecificOutput"]["permissionDecisionReason"].startswith("[policy-unapplied]")
    assert "NOT being applied" in out["systemMessage"]
    start = hook("session-restore", {"hook_event_name": "SessionStart", "session_id": "s9"})
    assert "NOT being applied" in json.loads(start.stdout)["systemMessage"]


def test_an_unapplied_policy_is_a_cache_hit_not_a_compile_per_call(hook: HookRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    from cf_guidance.policy import cache

    break_claude_md(hook.project, "directory")
    old = time.time() - 60  # past the racy window: a hit is a stat
    os.utime(hook.project / "CLAUDE.md", (old, old))
    hook("pre-bash", bash("ls"))
    monkeypatch.setattr(cache, "_compile", lambda root: pytest.fail("compiled again"))
    monkeypatch.setattr(cache, "_compile_detached", lambda *args: pytest.fail("compiled again"))
    assert "NOT being applied" in hook("pre-bash", bash("ls", tool_use_id="toolu_2")).stdout


#: A markdown parser that takes 6 s to import, then is the real one: a compile slower than the deadline.
SLOW_MARKDOWN_IT = """
import importlib, os, sys, time
time.sleep(6)
sys.path.remove(os.path.dirname(os.path.dirname(__file__)))
del sys.modules["markdown_it"]
sys.modules["markdown_it"] = importlib.import_module("markdown_it")
"""


def test_a_compile_slower_than_the_deadline_finishes_in_the_background(project: Path, tmp_path: Path) -> None:
    """Before: a compile slower than the deadline (20,000 rules) was redone and killed by every
    call's own deadline, so nothing was ever cached and every call failed open."""
    (project / "CLAUDE.md").write_text("## Release\n\n- Never run `npm run release`.\n")
    install(str(project), verify=False)
    cache_dir = project / ".claude-flow" / "guidance" / "cache"
    for name in ("bundle.json", "decide.json"):
        (cache_dir / name).unlink(missing_ok=True)
    (tmp_path / "deps" / "markdown_it").mkdir(parents=True)
    (tmp_path / "deps" / "markdown_it" / "__init__.py").write_text(SLOW_MARKDOWN_IT)
    env = {"GUIDANCE_HOOKD": "0", "GUIDANCE_EVENT_SYNC_TIMEOUT_MS": "2000", "PYTHONPATH": str(tmp_path / "deps")}
    started = time.monotonic()
    first = launch(project, "pre-bash", bash("npm run release"), **env)
    assert b"timed out after 2000 ms" in first.stderr and time.monotonic() - started < 5
    # a call during the compile waits for the same compile (it does not start its own)
    during = launch(project, "pre-bash", bash("npm run release", tool_use_id="toolu_2"), **env)
    assert b"timed out" in during.stderr or b'"deny"' in during.stdout
    assert wait_for((cache_dir / "decide.json").exists, limit=60), "the background compile never cached the bundle"
    cached = launch(project, "pre-bash", bash("npm run release", tool_use_id="toolu_3"), **env)
    assert b'"permissionDecision":"deny"' in cached.stdout and b"timed out" not in cached.stderr, cached.stderr


# -- sizes and kills ---------------------------------------------------------------------------------


def test_a_huge_tool_input_is_stored_cut_with_its_hash(hook: HookRunner) -> None:
    """Before: every string was cut at 8 KiB but not the whole: nested lists of 8 KiB strings came
    through whole (a 100 MB tool input became a 100 MB ledger record; the hook reads 16 MiB)."""
    import hashlib

    from cf_guidance.jobs import worker

    payload = {**bash("ls"), "hook_event_name": "PostToolUse", "tool_response": {"rows": [["r" * 8000] * 256] * 7}}
    data = json.dumps(payload).encode()
    assert 14_000_000 < len(data) < 16 << 20
    hook("post-bash", data)
    worker.drain(hook.state_dir)
    from cf_guidance.ledger.store import Ledger

    [record] = list(Ledger(hook.state_dir).records())
    line = next(iter(Ledger(hook.state_dir).lines()))
    assert len(line) < 4 * spool.MAX_JOB_CHARS
    assert record["event_altered"] == ["truncated"] and record["event_sha256"] == hashlib.sha256(data).hexdigest()


def test_kill_9_of_the_warm_server_and_the_worker_under_load_loses_and_doubles_nothing(repo: Path) -> None:
    """Before: killing hookd under load lost 7 and doubled 7 of 1,600 events (benchmarks/bench_load.py, smaller)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_load import run_load

    report = run_load(str(repo), sessions=3, calls=15, seed=5)
    assert report["hookd_kills"] > 0 and report["events"] == 90
    assert (report["lost"], report["doubled"], report["unexpected"]) == (0, 0, 0), report
    assert report["ledger_verifies"]


# -- secrets ---------------------------------------------------------------------------------------

#: The credential forms of issue 12 (each secret value marked SECRETn), as commands and tool output.
CREDENTIAL_COMMANDS = [
    "mysql -u root -pSECRET01x app", "export DB_PASS=SECRET02x", "curl -u bob:SECRET03x https://api.example.com",
    "curl -H 'Authorization: Basic SECRET04xOnB3ZA==' https://x", "echo sk_live_SECRET05xabcdefghij",
    "echo npm_SECRET06xabcdefghijklmnopqrstuvwxyz01", "aws configure set aws_secret_access_key SECRET07xwJalrXUtnFEMIK7MDENGbPx",
    "sshpass -p SECRET08x ssh deploy@host", "htpasswd -b .htpasswd admin SECRET09x", "PGPASSWORD=SECRET10x psql -h db",
    "git clone https://SECRET11xabcdefghijklmnopqrst@github.com/o/r.git", "cat config.json", "cat token.json",
]
CREDENTIAL_OUTPUTS = {"cat config.json": '{"user": "bob", "password": "SECRET12x"}', "cat token.json": '{"token": "SECRET13x"}'}


def test_no_credential_form_reaches_the_disk_in_clear(hook: HookRunner) -> None:
    """Before: 9 of 13 credential forms reached ledger.jsonl or sessions/*.json unredacted, and the
    spool held raw inputs until drained."""
    from cf_guidance.jobs import worker

    for i, command in enumerate(CREDENTIAL_COMMANDS):
        hook("pre-bash", bash(command, tool_use_id=f"toolu_{i}"))
        hook("post-bash", {**bash(command, tool_use_id=f"toolu_{i}"), "hook_event_name": "PostToolUse",
                           "tool_response": {"stdout": CREDENTIAL_OUTPUTS.get(command, "ok"), "stderr": ""}})
    state = Path(hook.state_dir)
    spooled = b"".join(path.read_bytes() for path in (state / "spool").glob("*.json"))
    worker.drain(hook.state_dir)
    stored = (state / "ledger" / "ledger.jsonl").read_bytes() + b"".join(p.read_bytes() for p in (state / "sessions").glob("*.json"))
    for n in range(1, 14):
        secret = b"SECRET%02dx" % n
        assert secret not in spooled and secret not in stored, secret
    assert stored.count(b"[REDACTED:") >= 13 and b"event_sha256" in stored

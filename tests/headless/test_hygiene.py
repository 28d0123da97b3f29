"""Nothing a run started outlives it: processes (cgroup or /proc) and the client's temp files.

The end-to-end tests count, independently of the runner's own tracking, the processes the
agent started (by a token in their command line) and the client's temp entries, before and
after a run that times out and one that finishes with a child left in the background.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.headless import hygiene
from cf_guidance.headless.hygiene import MARKER_ENV, RunProcesses, alive, leftovers, read_cmdline
from cf_guidance.headless.report import build_report
from cf_guidance.headless.runner import RunOptions, Runner
from cf_guidance.headless.suite import load_suite

from .helpers import write_suite

#: A child that outlives the Bash call that started it; the token finds it in /proc.
SLEEPER = "python3 -c 'import time; time.sleep(600)' {token}"


def processes_with(token: str) -> list[int]:
    """Live processes whose command line holds `token` (zombies excluded), this test's own scan."""
    return [pid for pid in hygiene.pids() if token in " ".join(read_cmdline(pid)) and alive(pid)]


def temp_entries(base: Path, client_pids: list[int]) -> list[Path]:
    """The client's temp entries for workspaces under `base`: /tmp/claude-<uid>/<slug>..., and
    its messaging sockets (/tmp/cc-socks*/<pid>.sock), as the client names them."""
    uid = os.getuid()
    slug = "".join(c if c.isalnum() else "-" for c in str(base))
    found = [p for p in Path("/tmp", f"claude-{uid}").glob(f"{slug}*")] if Path("/tmp", f"claude-{uid}").is_dir() else []
    for pid in client_pids:
        found += [p for p in (Path("/tmp/cc-socks", f"{pid}.sock"), Path(f"/tmp/cc-socks-{uid}", f"{pid}.sock"))
                  if p.exists() or p.is_symlink()]
    return found


@pytest.fixture
def token() -> Iterator[str]:
    value = f"cfg-test-{uuid.uuid4().hex[:12]}"
    yield value
    for pid in processes_with(value):  # never leave one behind, even when the test fails
        os.kill(pid, 9)


def _wait_for(predicate: object, limit: float = 20.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if callable(predicate) and predicate():
            return
        time.sleep(0.05)
    raise AssertionError("condition not reached")


@pytest.mark.parametrize("tracking", ["cgroup", "proc"])
def test_processes_of_a_run_are_found_and_ended(tmp_path: Path, token: str, tracking: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    if tracking == "cgroup" and not hygiene.cgroup_available():
        pytest.skip("no writable cgroup v2 here; the /proc case covers this machine")
    if tracking == "proc":
        monkeypatch.setattr(hygiene, "_new_cgroup", lambda: None)
    root = tmp_path / "run"
    (root / "project").mkdir(parents=True)
    processes = RunProcesses(root)
    # a child, and a grandchild in a session of its own whose parent exits (parent PID 1), as
    # the client's Bash tool leaves them
    script = root / "client.sh"
    script.write_text(f"{SLEEPER.format(token=token)} &\n"
                      f"setsid bash -c \"{SLEEPER.format(token=token + '-orphan')} &\"\n"
                      "wait\n")
    client = subprocess.Popen(processes.wrap(["bash", str(script)]), env={**os.environ, **processes.env()},
                              cwd=root / "project", start_new_session=True)
    processes.started(client.pid)
    assert processes.tracked_by == tracking
    _wait_for(lambda: processes_with(token) and processes_with(token + "-orphan"))
    client.kill()
    client.wait()
    report = processes.close()
    assert processes_with(token) == [] and processes_with(token + "-orphan") == []
    named = [line for line in report.ended if token in line]
    assert any(line.endswith(f"{token}-orphan") for line in named) and any(line.endswith(token) for line in named)
    assert report.left == [] and report.tracked_by == tracking
    assert processes.cgroup is None  # removed


def test_the_guard_worker_is_spared_until_cleanup(tmp_path: Path, token: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hygiene, "_new_cgroup", lambda: None)
    root = tmp_path / "run"
    (root / "project").mkdir(parents=True)
    processes = RunProcesses(root)
    code = "import time; time.sleep(600)"
    worker = subprocess.Popen([sys.executable, "-c", code, "-m", hygiene.WORKER_MODULE, token],
                              env={**os.environ, **processes.env()}, start_new_session=True)
    try:
        _wait_for(lambda: hygiene.is_guard_worker(worker.pid))
        assert processes.end(spare_workers=True).ended == [] and alive(worker.pid)
        assert [line.split(" ")[0] for line in processes.end().ended] == [str(worker.pid)]
        worker.wait(timeout=10)
    finally:
        worker.kill()


def test_leftovers_name_the_client_temp_dir_and_its_sockets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    project = Path("/tmp/cfg-x_1/project")
    uid = os.getuid()
    made = [tmp_path / f"claude-{uid}" / "-tmp-cfg-x-1-project", tmp_path / "cc-socks" / "4242.sock",
            tmp_path / f"cc-socks-{uid}" / "4242.sock"]
    for path in made:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.mkdir() if path.suffix != ".sock" else path.write_text("")
    (tmp_path / "cc-socks" / "4243.sock").write_text("")  # another client's
    assert sorted(leftovers(project, 4242)) == sorted(made)
    hygiene.remove(leftovers(project, 4242))
    assert leftovers(project, 4242) == [] and (tmp_path / "cc-socks" / "4243.sock").exists()


def test_the_marker_is_the_run_directory(tmp_path: Path) -> None:
    assert RunProcesses(tmp_path).env() == {MARKER_ENV: str(tmp_path)}


# -- end to end, with the real client ---------------------------------------------------------------

TIMEOUT_SUITE = """\
version: 1
name: hygiene
defaults: {{executor: scripted, timeout: {timeout}}}
tasks:
  - id: {task_id}
    prompt: start a server and wait
    script:
      turns:
        - tool_uses: [{{name: Bash, input: {{command: "{command}"}}}}]
        - text: done
    assertions: [{{type: exit-status}}]
"""


def _run_hygiene_task(tmp_path: Path, command: str, timeout: int, task_id: str) -> dict[str, Any]:
    suite = load_suite(write_suite(tmp_path, TIMEOUT_SUITE.format(timeout=timeout, command=command, task_id=task_id)))
    base = tmp_path / "runs"
    base.mkdir()
    result = Runner(suite, RunOptions(base_dir=base, retries=0)).run()
    attempt: dict[str, Any] = build_report(result)["tasks"][0]["attempts"][0]
    return attempt


@pytest.mark.e2e
def test_a_timed_out_run_leaves_no_process_and_no_temp_entry(claude: Path, tmp_path: Path, token: str) -> None:
    base = tmp_path / "runs"
    before = (processes_with(token), temp_entries(base, []))
    command = f"{SLEEPER.format(token=token + '-a')} & {SLEEPER.format(token=token + '-b')}"
    attempt = _run_hygiene_task(tmp_path, command, 8, "long-child")
    assert attempt["error_kind"] == "timeout", attempt["error"]
    # the Bash tool's shell and both children, in a session of their own, were found and ended
    ended = attempt["hygiene"]["ended_after_exit"]
    assert sum(token in line for line in ended) == 2 and any(line.split(" ", 2)[1].endswith("bash") for line in ended)
    assert attempt["hygiene"]["left"] == []
    after = (processes_with(token), temp_entries(base, [attempt["hygiene"]["client_pid"]]))
    assert before == after == ([], [])
    assert list(base.iterdir()) == []  # the workspace is gone too


@pytest.mark.e2e
def test_a_finished_run_ends_what_the_agent_left_running(claude: Path, tmp_path: Path, token: str) -> None:
    base = tmp_path / "runs"
    assert processes_with(token) == [] and temp_entries(base, []) == []
    attempt = _run_hygiene_task(tmp_path, f"{SLEEPER.format(token=token)} & echo started", 90, "background-child")
    assert attempt["status"] == "pass", attempt["error"] or attempt["expectations"]
    assert [line for line in attempt["hygiene"]["ended_after_exit"] if token in line]
    assert processes_with(token) == [] and list(base.iterdir()) == []
    assert temp_entries(base, [attempt["hygiene"]["client_pid"]]) == []

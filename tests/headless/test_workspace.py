from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cf_guidance.errors import SuiteError
from cf_guidance.headless.suite import Task
from cf_guidance.headless.workspace import prepare


def task(**fields: object) -> Task:
    return Task.model_validate({"id": "t", "prompt": "p", "executor": "fake", **fields})


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def test_files_fixture_policy_and_layout(tmp_path: Path) -> None:
    spec = task(workspace={"files": {"src/a.py": "a = 1\n"}}, policy={"text": "# Policy\n"})
    installed: list[Path] = []
    ws = prepare(spec, tmp_path, install=installed.append, base_dir=tmp_path)
    try:
        assert installed == [ws.project]
        assert (ws.project / "src/a.py").read_text() == "a = 1\n"
        assert (ws.project / "CLAUDE.md").read_text() == "# Policy\n"
        assert ws.config_dir == ws.home / ".claude" and ws.config_dir.is_dir()
        assert git(ws.project, "status", "--porcelain") == ""  # the agent starts from a clean checkout
        assert ws.baseline_head and ws.baseline_tree
        assert list(ws.provenance) == ["CLAUDE.md"] and len(ws.provenance["CLAUDE.md"]) == 64
    finally:
        ws.cleanup()
    assert not ws.root.exists()


def test_changes_see_edits_deletes_ignored_files_and_commits(tmp_path: Path) -> None:
    spec = task(workspace={"files": {"keep.txt": "k", "edit.txt": "1", "gone.txt": "g", ".gitignore": "*.log\n"}})
    ws = prepare(spec, tmp_path, install=None, base_dir=tmp_path)
    try:
        (ws.project / "edit.txt").write_text("2")
        (ws.project / "gone.txt").unlink()
        (ws.project / "new.txt").write_text("n")
        (ws.project / "debug.log").write_text("ignored by git, still a side effect")
        state = ws.project / ".claude-flow" / "guidance"
        state.mkdir(parents=True)
        (state / "ledger.jsonl").write_text("{}")  # the guard's own state is not a side effect
        git(ws.project, "add", "new.txt")
        git(ws.project, "commit", "-q", "-m", "add new")
        changes = ws.changes()
        assert changes.created == ["debug.log", "new.txt"]
        assert changes.modified == ["edit.txt"]
        assert changes.deleted == ["gone.txt"]
        assert [(c.subject, c.files) for c in changes.commits] == [("add new", ["new.txt"])]
        assert "+2" in changes.patch and changes.touched == ["debug.log", "edit.txt", "gone.txt", "new.txt"]
    finally:
        ws.cleanup()


def test_copy_and_git_fixtures(tmp_path: Path) -> None:
    source = tmp_path / "fixture"
    (source / "pkg").mkdir(parents=True)
    (source / "pkg" / "m.py").write_text("m")
    ws = prepare(task(workspace={"copy": "fixture"}), tmp_path, install=None, base_dir=tmp_path)
    try:
        assert (ws.project / "pkg" / "m.py").read_text() == "m"
    finally:
        ws.cleanup()

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "f.txt").write_text("v1")
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    first = git(repo, "rev-parse", "HEAD").strip()
    (repo / "f.txt").write_text("v2")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "two")
    ws = prepare(task(workspace={"git": {"repo": "repo", "ref": first}}), tmp_path, install=None, base_dir=tmp_path)
    try:
        assert (ws.project / "f.txt").read_text() == "v1"
        assert ws.changes().touched == []
    finally:
        ws.cleanup()


@pytest.mark.parametrize(
    ("workspace", "fragment"),
    [
        ({"copy": "nowhere"}, "does not exist"),
        ({"git": {"repo": "nowhere"}}, "does not exist"),
    ],
)
def test_missing_fixture_is_a_suite_error_and_leaves_nothing(tmp_path: Path, workspace: dict[str, object], fragment: str) -> None:
    base = tmp_path / "runs"
    base.mkdir()
    with pytest.raises(SuiteError, match=fragment):
        prepare(task(workspace=workspace), tmp_path, install=None, base_dir=base)
    assert list(base.iterdir()) == []


def test_bad_git_ref(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one")
    with pytest.raises(SuiteError, match="git ref 'v9' not found"):
        prepare(task(workspace={"git": {"repo": "repo", "ref": "v9"}}), tmp_path, install=None, base_dir=tmp_path)


def test_cleanup_waits_for_the_guards_worker(tmp_path: Path) -> None:
    import threading

    from cf_guidance.headless.workspace import sweep
    from cf_guidance.state import StateLayout, state_dir

    ws = prepare(task(), tmp_path, install=None, base_dir=tmp_path)
    marker = Path(StateLayout(state_dir(str(ws.project), environ={})).worker_marker)
    marker.parent.mkdir(parents=True)
    marker.touch()
    log = Path(StateLayout(state_dir(str(ws.project), environ={})).logs) / "worker.log"

    finished: list[bool] = []

    def worker() -> None:  # drains, clears its marker, then writes its log line
        threading.Event().wait(0.3)
        marker.unlink()  # raises if cleanup deleted the state directory under the running worker
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text("drained\n")
        finished.append(True)

    thread = threading.Thread(target=worker)
    thread.start()
    ws.cleanup()
    thread.join()
    sweep([ws.root])
    assert finished == [True] and not ws.root.exists()


def test_cleanup_waits_for_a_live_worker_process(tmp_path: Path) -> None:
    import json as _json

    from cf_guidance.state import StateLayout, state_dir

    ws = prepare(task(), tmp_path, install=None, base_dir=tmp_path)
    logs = Path(StateLayout(state_dir(str(ws.project), environ={})).logs)
    logs.mkdir(parents=True)
    worker = subprocess.Popen(["sleep", "0.5"])
    (logs / "worker.json").write_text(_json.dumps({"pid": worker.pid, "state": "idle"}))
    try:
        assert ws.cleanup() is True
        # cleanup returned only once the worker had exited (a zombie, not yet reaped, counts as exited)
        assert Path(f"/proc/{worker.pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"
        assert not ws.root.exists()
    finally:
        worker.kill()
        worker.wait()


def test_cleanup_waits_for_a_worker_process_without_state_files(tmp_path: Path) -> None:
    # A worker spawned while another drained waits for the drain lock with no marker or
    # status file of its own; only its command line says which project it will write into.
    import sys
    import threading

    from cf_guidance.state import state_dir

    ws = prepare(task(), tmp_path, install=None, base_dir=tmp_path)
    state = Path(state_dir(str(ws.project), environ={}))
    state.mkdir(parents=True)  # cleanup looks for workers only where the guard left state
    late_write = f"import os, time; time.sleep(0.5); os.makedirs({str(state / 'logs')!r}, exist_ok=True)"
    worker = subprocess.Popen([sys.executable, "-c", late_write, "-m", "cf_guidance.jobs.worker", "--project", str(ws.project)])
    cmdline = Path(f"/proc/{worker.pid}/cmdline")
    while not cmdline.read_bytes():  # Popen returns while exec may still be setting up argv
        threading.Event().wait(0.01)
    try:
        assert ws.cleanup() is True
        worker.wait()
        assert not ws.root.exists()  # had cleanup not waited, the worker would have recreated it
    finally:
        worker.kill()
        worker.wait()

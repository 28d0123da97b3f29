"""Ctrl-C and SIGTERM keep what finished (a partial report, exit 130); --resume runs the rest.

Unit tests interrupt the runner's main thread as the terminal would; the end-to-end tests send
SIGINT / SIGTERM to `cf-guidance headless run` driving the real client, then resume it.
"""

from __future__ import annotations

import _thread
import json
import os
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.errors import ConfigError
from cf_guidance.headless.executors import INTERRUPTED, ExecRequest, ExecResult, FakeExecutor, stream
from cf_guidance.headless.hygiene import alive, pids, read_cmdline
from cf_guidance.headless.report import build_report, finished_runs, merge_reports, render_envelope
from cf_guidance.headless.runner import RunOptions, Runner
from cf_guidance.headless.suite import load_suite

from tests.e2e.e2e_harness import cf_guidance as cf_guidance_argv

from .helpers import run_cli, write_suite

SUITE = """\
version: 1
name: interrupt-demo
defaults: {executor: fake}
tasks:
  - id: first
    prompt: quick
    assertions: [{type: output-contains, expected: done}]
  - id: blocker
    prompt: wait for me
    assertions: [{type: output-contains, expected: done}]
  - id: last
    prompt: quick
    assertions: [{type: output-contains, expected: done}]
"""


@pytest.fixture(autouse=True)
def sigint_interrupts() -> Iterator[None]:
    """Python's own SIGINT handler for these tests, and so SIG_DFL in the runs they start: the suite
    may run where SIGINT is ignored (a background job of a shell without job control ignores it,
    and Python keeps that), and then the interrupt these tests send would never arrive."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def blocking_responder(release: threading.Event, started: threading.Event) -> Any:
    def respond(request: ExecRequest) -> ExecResult | str:
        if request.task.id == "blocker" and not release.is_set():
            started.set()
            while request.stopper is not None and not request.stopper.stopped:
                time.sleep(0.01)
            return ExecResult(stdout="", infra_error="interrupted by SIGINT", infra_kind=INTERRUPTED)
        return stream(result_text="done")
    return respond


def interrupted_run(tmp_path: Path) -> tuple[Any, dict[str, Any]]:
    suite = load_suite(write_suite(tmp_path, SUITE))
    release, started = threading.Event(), threading.Event()
    threading.Thread(target=lambda: (started.wait(30), _thread.interrupt_main()), daemon=True).start()
    runner = Runner(suite, RunOptions(base_dir=tmp_path, retries=0),
                    executors={"fake": FakeExecutor(blocking_responder(release, started))}, installer=None)
    result = runner.run()
    return result, build_report(result, argv=["cf-guidance", "headless", "run", "suite.yaml"])


def test_an_interrupted_run_keeps_what_finished(tmp_path: Path) -> None:
    result, report = interrupted_run(tmp_path)
    assert result.interrupted == "SIGINT" and result.unfinished == [("blocker", 0), ("last", 0)]
    assert [t.task.id for t in result.tasks] == ["first"]
    run = report["run"]
    assert run["partial"] and run["interrupted_by"] == "SIGINT" and run["planned_runs"] == 3
    assert run["unfinished"] == [{"task": "blocker", "repeat": 0}, {"task": "last", "repeat": 0}]
    assert report["summary"]["totalTasks"] == 1 and report["summary"]["exitCode"] == 2  # not a pass
    text = render_envelope(report, report_path=str(tmp_path / "r" / "report.json"))
    assert text.startswith("Headless run interrupted by SIGINT (suite: interrupt-demo). Partial: 1 of 3 runs finished.")
    assert "Unfinished runs: blocker#1, last#1" in text
    assert f"Resume: cf-guidance headless run {tmp_path / 'suite.yaml'} --resume {tmp_path / 'r'}" in text
    assert list(tmp_path.glob("cfg-*")) == []  # the stopped run's workspace is removed too


def test_resume_runs_only_what_is_missing_and_merges(tmp_path: Path) -> None:
    _, first_report = interrupted_run(tmp_path)
    assert finished_runs(first_report) == {("first", 0)}
    ran: list[str] = []

    def responder(request: ExecRequest) -> str:
        ran.append(request.task.id)
        return stream(result_text="done")

    suite = load_suite(tmp_path / "suite.yaml")
    result = Runner(suite, RunOptions(base_dir=tmp_path, skip=finished_runs(first_report)),
                    executors={"fake": FakeExecutor(responder)}, installer=None).run()
    assert sorted(ran) == ["blocker", "last"]
    merged = merge_reports([first_report, build_report(result)], ["before", "resume"])
    assert not merged["run"]["partial"] and merged["run"]["unfinished"] == []
    assert merged["summary"]["totalTasks"] == 3 and merged["summary"]["exitCode"] == 0
    first = next(t for t in merged["tasks"] if t["meta"]["test_id"] == "first")
    assert first["attempts"] == next(t for t in first_report["tasks"] if t["meta"]["test_id"] == "first")["attempts"]
    assert [p["source"] for p in merged["run"]["merged_from"]] == ["before", "resume"]


def test_resuming_twice_is_refused(tmp_path: Path) -> None:
    _, report = interrupted_run(tmp_path)
    with pytest.raises(ConfigError, match=r"run first#1 is also in a"):
        merge_reports([report, report], ["a", "b"])


# -- end to end: the CLI, the real client, real signals -------------------------------------------------

E2E_SUITE = """\
version: 1
name: interrupt-e2e
defaults: {{executor: scripted, timeout: 120}}
tasks:
  - id: first
    prompt: quick
    script: {{turns: [{{text: done}}]}}
    assertions: [{{type: output-contains, expected: done}}]
  - id: blocker
    prompt: wait for the flag
    script:
      turns:
        - tool_uses: [{{name: Bash, input: {{command: "python3 -c 'import os, time\\nwhile not os.path.exists(\\"{flag}\\"): time.sleep(0.1)' {token}"}}}}]
        - text: done
    assertions: [{{type: output-contains, expected: done}}]
  - id: last
    prompt: quick
    script: {{turns: [{{text: done}}]}}
    assertions: [{{type: output-contains, expected: done}}]
"""


def token_processes(token: str) -> list[int]:
    return [pid for pid in pids() if token in " ".join(read_cmdline(pid)) and alive(pid)]


@pytest.mark.e2e
@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_a_signal_during_a_run_writes_the_partial_report_and_resume_finishes_it(
        claude: Path, tmp_path: Path, signal_name: str) -> None:
    token = f"cfg-int-{uuid.uuid4().hex[:10]}"
    flag = tmp_path / "flag"
    suite = write_suite(tmp_path, E2E_SUITE.format(flag=flag, token=token))
    reports = tmp_path / "reports"
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # workspaces under tmp_path
    proc = subprocess.Popen(cf_guidance_argv("headless", "run", str(suite), "--report-dir", str(reports), "--retries", "0", "--no-ledger"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not token_processes(token) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)  # until the blocker's command runs (after `first` finished: --jobs 1)
        assert token_processes(token), "the blocking command never started"
        stopped_at = time.monotonic()
        os.kill(proc.pid, getattr(signal, signal_name))
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err[-2000:]
    assert time.monotonic() - stopped_at < 30
    assert token_processes(token) == []  # the agent's command died with the run
    report = json.loads((reports / "report.json").read_text())
    assert report["run"]["partial"] and report["run"]["interrupted_by"] == signal_name
    assert report["run"]["unfinished"] == [{"task": "blocker", "repeat": 0}, {"task": "last", "repeat": 0}]
    assert [t["meta"]["test_id"] for t in report["tasks"]] == ["first"]
    session = report["tasks"][0]["attempts"][0]["execution"]["session_id"]
    assert out.startswith(f"Headless run interrupted by {signal_name}") and f"--resume {reports}" in out
    assert list(tmp_path.glob("cfg-*")) == []

    flag.write_text("go")  # the blocker now finishes at once
    done = subprocess.run(cf_guidance_argv("headless", "run", str(suite), "--resume", str(reports)), capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    progress = [line for line in done.stderr.splitlines() if line.startswith("[")]
    assert sorted(line.split()[2] for line in progress) == ["blocker", "last"] and progress[0].startswith("[1/2]")
    resumed = json.loads((reports / "report.json").read_text())
    assert not resumed["run"]["partial"] and resumed["summary"]["tasksPassed"] == 3
    first = next(t for t in resumed["tasks"] if t["meta"]["test_id"] == "first")
    assert first["attempts"][0]["execution"]["session_id"] == session  # kept, not run again
    assert resumed["run"]["retries"] == 0  # the resumed run kept the interrupted run's options


def test_resume_refuses_an_edited_suite_and_contradicting_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cf_guidance.headless.report import write_reports

    _, report = interrupted_run(tmp_path)
    write_reports(report, tmp_path / "r")
    code, _, err = run_cli(["headless", "run", str(tmp_path / "suite.yaml"), "--resume", str(tmp_path / "r"), "--repeat", "3"],
                           capsys)
    assert code == 2 and "--repeat 3 differs from the run being resumed (1)" in err
    (tmp_path / "suite.yaml").write_text(SUITE + "\n# edited\n")
    code, _, err = run_cli(["headless", "run", str(tmp_path / "suite.yaml"), "--resume", str(tmp_path / "r")], capsys)
    assert code == 2 and "changed since" in err

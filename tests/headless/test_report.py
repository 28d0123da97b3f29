from __future__ import annotations

import json
import shutil
import struct
import subprocess
import zlib
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from cf_guidance.headless.executors import ExecRequest, ExecResult, FakeExecutor, stream
from cf_guidance.headless.report import (
    COMPLETION_SIGNAL,
    SCHEMA_VERSION,
    Report,
    build_report,
    render_envelope,
    render_junit,
    transcript_record,
    write_reports,
)
from cf_guidance.headless.htmlreport import render_html
from cf_guidance.headless.runner import RunOptions, Runner
from cf_guidance.headless.suite import load_suite

from tests.conftest import in_ci
from .helpers import TURNS, write_suite

SUITE = """\
version: 1
name: report-demo
defaults: {executor: fake}
tasks:
  - id: passes
    prompt: finish
    assertions:
      - {type: output-contains, expected: done}
  - id: fails
    prompt: push <b>now</b>
    description: the force push must be blocked
    assertions:
      - {type: hook-blocked, tool: Bash, rule: "SEC*", description: "secret write is blocked"}
      - {type: tool-called, tool: Bash, input: {command: make test}}
  - id: broken
    prompt: anything
    assertions:
      - {type: output-contains, expected: done}
"""


def responder(request: ExecRequest) -> ExecResult | str:
    if request.task.id == "broken":
        return ExecResult(stdout="", timed_out=True, duration_ms=1000)
    if request.task.id == "fails":
        return stream(turns=TURNS, result_text="Pushed <script>alert(1)</script>")
    return stream(result_text="done")


@pytest.fixture
def report(tmp_path: Path) -> dict[str, Any]:
    suite = load_suite(write_suite(tmp_path, SUITE))
    result = Runner(suite, RunOptions(base_dir=tmp_path, retries=0), executors={"fake": FakeExecutor(responder)},
                    installer=None).run()
    return build_report(result, argv=["cf-guidance", "headless", "run", "suite.yaml"])


def test_json_report_schema_and_summary(report: dict[str, Any]) -> None:
    Report.model_validate(report)
    assert report["schema_version"] == SCHEMA_VERSION
    summary = report["summary"]
    assert (summary["totalTasks"], summary["tasksPassed"], summary["tasksFailed"], summary["tasksErrored"]) == (3, 1, 1, 1)
    assert (summary["totalAssertions"], summary["assertionsPassed"], summary["totalViolations"]) == (3, 2, 1)
    assert summary["passRate"] == pytest.approx(1 / 3, abs=1e-3)
    assert summary["exitCode"] == 1  # a real failure outranks a task that could not run
    assert [t["meta"]["test_id"] for t in report["tasks"]] == ["broken", "fails", "passes"]  # what needs attention first
    json.dumps(report)  # serialisable as is


def test_task_sections(report: dict[str, Any]) -> None:
    fails = report["tasks"][1]
    attempt = fails["attempts"][0]
    assert set(attempt) >= {"reproduce", "execution", "expectations", "timeline", "side_effects", "claude_response", "debug"}
    failed = [e for e in attempt["expectations"] if e["status"] == "fail"]
    assert failed[0]["description"] == "secret write is blocked"
    assert failed[0]["expected"]["rule"] == "SEC*" and "DST012" in failed[0]["reason"]
    assert attempt["reproduce"]["rerun_command"].endswith("--ids fails --keep-workspaces --mode non-interactive --retries 0")
    assert attempt["execution"]["token_usage"]["total"] > 0
    assert fails["stats"]["pass_at_k"] == {"1": 0.0}
    assert report["tasks"][0]["attempts"][0]["error_kind"] == "timeout"


def test_junit(report: dict[str, Any]) -> None:
    root = ET.fromstring(render_junit(report))
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("3", "1", "1", "0")
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert cases["fails"].find("failure") is not None
    assert "secret write is blocked" in cases["fails"].find("failure").get("message", "")  # type: ignore[union-attr]
    assert cases["broken"].find("error").get("type") == "timeout"  # type: ignore[union-attr]
    assert cases["passes"].find("failure") is None


def test_envelope_ends_with_the_completion_signal(report: dict[str, Any]) -> None:
    text = render_envelope(report, report_path="reports/report.json")
    lines = text.rstrip("\n").splitlines()
    assert lines[0] == "Headless run complete (suite: report-demo)."
    assert lines[-1] == COMPLETION_SIGNAL
    assert "Verdict: Failing (1 more task could not run)" in text and "Report: reports/report.json" in text
    assert "[FAIL] fails" in text and "Why: denied by rule DST012, not SEC*" in text
    assert "[ERROR] broken -- timeout: timed out after 1.0s (1 run)" in text and "0/0" not in text
    assert "Inconclusive tasks" not in text  # empty sections are omitted


def test_degraded_envelope_when_nothing_ran(report: dict[str, Any]) -> None:
    report = json.loads(json.dumps(report))
    report["summary"]["tasksErrored"] = report["summary"]["totalTasks"]
    text = render_envelope(report)
    assert text.startswith("Headless run degraded (suite: report-demo). Reason: 0 of 3 tasks produced a verdict.")
    assert text.rstrip().endswith(COMPLETION_SIGNAL)


def test_html_is_self_contained_escaped_and_failures_first(report: dict[str, Any]) -> None:
    page = render_html(report)
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "push &lt;b&gt;now&lt;/b&gt;" in page
    assert "http://" not in page and "https://" not in page  # nothing loaded from the network
    assert page.index('id="task-broken"') < page.index('id="task-fails"') < page.index('id="task-passes"')
    for tab in ("Summary", "Expectations", "Timeline", "Debug"):
        assert f'data-tab="{tab}"' in page
    assert 'class="copy"' in page and "secret write is blocked" in page
    assert 'id="summary"' in page and "report-demo" in page


def test_write_reports(tmp_path: Path, report: dict[str, Any]) -> None:
    paths = write_reports(report, tmp_path / "out")
    assert json.loads(paths["json"].read_text())["summary"]["totalTasks"] == 3
    assert paths["envelope"].read_text().rstrip().endswith(COMPLETION_SIGNAL)
    ET.parse(paths["junit"])
    assert paths["html"].read_text().startswith("<!DOCTYPE html>")


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _png_pixels(data: bytes) -> tuple[int, int, set[bytes]]:
    """Width, height and the distinct pixel values of an 8-bit RGB(A) PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    width, height, depth, color = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and color in (2, 6)
    channels = 4 if color == 6 else 3
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels + 1
    values: set[bytes] = set()
    for row in range(0, height, 7):  # the filter byte makes rows differ; sampling rows is enough to see content
        line = raw[row * stride + 1:(row + 1) * stride]
        values.update(line[i:i + channels] for i in range(0, len(line), channels * 13))
    return width, height, values


def test_html_renders_in_headless_chromium(tmp_path: Path, report: dict[str, Any]) -> None:
    browser = _chromium()
    if browser is None:
        if in_ci():
            pytest.fail("chromium is required in CI for the HTML report test (apt-get install -y chromium)")
        pytest.skip("chromium not installed")
    page = tmp_path / "report.html"
    page.write_text(render_html(report), encoding="utf-8")
    shot = tmp_path / "shot.png"
    dump = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert dump.returncode == 0, dump.stderr[-500:]
    assert "report-demo" in dump.stdout and "secret write is blocked" in dump.stdout
    done = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--screenshot={shot}",
         "--window-size=1200,1600", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0 and shot.exists(), done.stderr[-500:]
    width, height, values = _png_pixels(shot.read_bytes())
    assert (width, height) == (1200, 1600)
    assert len(values) > 20, "the screenshot is blank"


def test_hook_errors_are_surfaced(tmp_path: Path) -> None:
    def crashing_hook(request: ExecRequest) -> str:
        lines = [json.loads(line) for line in stream(turns=TURNS[1:2], result_text="done").splitlines()]
        for message in lines:
            if message.get("subtype") == "hook_response":
                message.update(exit_code=1, outcome="error", stderr="Traceback ...\nAttributeError: no launch\n")
        return "".join(json.dumps(m) + "\n" for m in lines)

    suite = load_suite(write_suite(tmp_path, SUITE.split("  - id: fails")[0]))
    result = Runner(suite, RunOptions(base_dir=tmp_path), executors={"fake": FakeExecutor(crashing_hook)}, installer=None).run()
    report = build_report(result)
    failures = report["tasks"][0]["attempts"][0]["hook_failures"]
    assert failures == [{"hook": "PreToolUse:Bash", "tool_use_id": "toolu_0_0", "exit_code": 1, "outcome": "error",
                         "stderr_tail": "AttributeError: no launch"}]
    assert "hook error(s): the guard fails open" in render_html(report)
    assert "Hook errors: in 1 task(s) (passes); the guard fails open on these" in render_envelope(report)


def test_junit_numbers_are_rounded_and_errors_say_why(report: dict[str, Any]) -> None:
    fails = next(t for t in report["tasks"] if t["meta"]["test_id"] == "fails")
    assert fails["stats"]["wilson_95"][0] == 0.0  # 0 of 1: the bound is 0, not 5.55e-17
    root = ET.fromstring(render_junit(report))
    values = [prop.get("value", "") for prop in root.iter("property")]
    assert values and not any("e-" in value for value in values)
    error = next(c for c in root.iter("testcase") if c.get("name") == "broken").find("error")
    assert error is not None and error.text == "run 1: timeout: timed out after 1.0s"


def test_the_badge_says_fail_over_a_real_failure(report: dict[str, Any]) -> None:
    page = render_html(report)
    assert '<h1>Suite report-demo <span class="badge s-fail">' in page  # one task failed, one errored
    assert "<title>report-demo: fail" in page


def test_html_has_a_task_table_linking_to_each_task(report: dict[str, Any]) -> None:
    page = render_html(report)
    table = page[page.index('<table class="tasks">'):]
    table = table[:table.index("</table>")]
    for task_id in ("broken", "fails", "passes"):
        assert f'<a href="#task-{task_id}" class="tid">{task_id}</a>' in table and f'id="task-{task_id}"' in page
    assert "timeout: timed out after 1.0s" in table and "secret write is blocked: denied by rule DST012" in table


def test_identical_repeats_are_shown_once(tmp_path: Path) -> None:
    suite = load_suite(write_suite(tmp_path, SUITE))

    def page(repeat: int) -> str:
        result = Runner(suite, RunOptions(base_dir=tmp_path, retries=0, repeat=repeat, ids=["fails"]),
                        executors={"fake": FakeExecutor(responder)}, installer=None).run()
        return render_html(build_report(result))

    once, many = page(1), page(6)
    assert "Runs 2, 3, 4, 5, 6: identical to run 1" in many and many.count('<div class="run">') == 1
    assert len(many) < len(once) * 1.1  # six runs cost about what one does


def test_git_state_of_the_suite_and_of_each_workspace(tmp_path: Path) -> None:
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q", "-b", "trunk"], cwd=tmp_path, check=True)
    write_suite(tmp_path, SUITE.split("  - id: fails")[0])
    subprocess.run([*git, "add", "suite.yaml"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "suite"], cwd=tmp_path, check=True)
    (tmp_path / "suite.yaml").write_text((tmp_path / "suite.yaml").read_text() + "# local edit\n")
    result = Runner(load_suite(tmp_path / "suite.yaml"), RunOptions(base_dir=tmp_path),
                    executors={"fake": FakeExecutor(responder)}, installer=None).run()
    report = build_report(result)
    state = report["run"]["git_state"]
    assert state["branch"] == "trunk" and len(state["commit"]) == 40 and state["modified_files"] == ["suite.yaml"]
    workspace = report["tasks"][0]["attempts"][0]["reproduce"]["git_state"]
    assert workspace["branch"] == "main" and workspace["fixture_commit"] == workspace["head"]
    assert workspace["modified_files"] == []
    page = render_html(report)
    assert "suite repository: trunk at" in page and "1 modified file(s): suite.yaml" in page
    assert "Git state of the workspace" in page


def test_the_transcript_keeps_the_run_and_drops_the_clients_prompt_machinery() -> None:
    turn = {"type": "user", "message": {"role": "user", "content": "hi"}}
    snapshot = {"type": "attachment", "attachment": {"type": "prompt_snapshot", "systemPrompt": ["x" * 5000]}}
    context = {"type": "attachment", "attachment": {"type": "hook_additional_context", "content": ["## Safety"]}}
    shape = {"type": "api-request-shape", "shape": {"tools": ["y" * 100]}}
    huge = {"type": "user", "message": {"role": "user", "content": "z" * 30_000}}
    assert transcript_record(turn) == turn and transcript_record(context) == context
    kept = transcript_record(snapshot)
    assert kept["attachment_type"] == "prompt_snapshot" and "prompt machinery" in kept["omitted"] and len(kept["sha256"]) == 64
    assert transcript_record(shape)["type"] == "api-request-shape" and "omitted" in transcript_record(shape)
    assert "too large" in transcript_record(huge)["omitted"]

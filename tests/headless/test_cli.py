from __future__ import annotations

import json
from pathlib import Path

import pytest

from cf_guidance.errors import ConfigError
from cf_guidance.cli.headless import resolve_mode
from cf_guidance.headless.report import COMPLETION_SIGNAL

from .helpers import run_cli, write_suite

PASSING = """\
version: 1
name: cli-demo
defaults: {executor: fake}
tasks:
  - id: ok
    prompt: hi
    script: {turns: [{text: all good}]}
    assertions: [{type: output-contains, expected: all good}]
"""
FAILING = PASSING.replace("expected: all good}", "expected: never}")


@pytest.mark.parametrize(("text", "code"), [(PASSING, 0), (FAILING, 1)])
def test_run_exit_codes_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, code: int) -> None:
    suite = write_suite(tmp_path, text)
    reports = tmp_path / "reports"
    status, out, err = run_cli(["headless", "run", str(suite), "--report-dir", str(reports), "--non-interactive"], capsys)
    assert status == code
    assert out.rstrip().endswith(COMPLETION_SIGNAL)
    assert "[1/1] " in err  # progress on stderr
    report = json.loads((reports / "report.json").read_text())
    assert report["run"]["mode"] == "non-interactive" and report["summary"]["exitCode"] == code
    assert {p.name for p in reports.iterdir()} == {"report.json", "report.html", "junit.xml", "envelope.txt"}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("name: x\ntasks: [\n", "invalid YAML"),
        ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    assertions: [{type: magic}]\n",
         "unknown assertion type 'magic'"),
        ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    assertions: [{type: custom, function: 'gone_x9:f'}]\n",
         "module 'gone_x9' not found"),
        ("name: x\ntasks:\n  - id: a\n    prompt: p\n    executor: fake\n    assertions:\n"
         "      - {type: output-contains, expected: '(', regex: true}\n", "invalid regex '('"),
        ("name: x\ntasks:\n  - {id: a, prompt: p, executor: fake}\n  - {id: b, prompt: p, prompt: q, executor: fake}\n",
         "duplicate key 'prompt'"),
    ],
)
def test_bad_suite_is_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, fragment: str) -> None:
    status, out, err = run_cli(["headless", "run", str(write_suite(tmp_path, text)), "--report-dir", str(tmp_path / "r")], capsys)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cf-guidance: ") and fragment in lines[0]
    assert str(tmp_path / "suite.yaml") in lines[0]
    assert not (tmp_path / "r").exists()  # refused before anything ran


def test_missing_suite_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(["headless", "run", str(tmp_path / "nope.yaml")], capsys)
    assert status == 2 and "suite file not found" in err


def test_conflicting_mode_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = write_suite(tmp_path, PASSING)
    status, _, err = run_cli(["headless", "run", str(suite), "--mode", "auto-answer", "--non-interactive"], capsys)
    assert status == 2 and "conflicting mode flags: --mode auto-answer and --non-interactive" in err


def test_missing_claude_binary_reports_every_task(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CF_GUIDANCE_CLAUDE_BIN", str(tmp_path / "missing"))
    suite = write_suite(tmp_path, PASSING + "  - id: two\n    prompt: hi\n    script: {turns: [{text: x}]}\n")
    status, out, _ = run_cli(["headless", "run", str(suite), "--executor", "scripted", "--report-dir", str(tmp_path / "r")], capsys)
    assert status == 2
    assert "Headless run degraded" in out and out.count("[ERROR]") == 2
    assert "[ERROR] ok -- setup: CF_GUIDANCE_CLAUDE_BIN=" in out and "pass rate 0/0" not in out
    assert out.rstrip().endswith(COMPLETION_SIGNAL)


@pytest.mark.parametrize(
    ("mode", "shortcuts", "tty", "ci", "expected"),
    [
        (None, [], True, False, "interactive"),
        (None, [], True, True, "non-interactive"),
        (None, [], False, False, "non-interactive"),
        ("auto-answer", [], False, False, "auto-answer"),
        ("auto-answer", ["auto-answer"], False, False, "auto-answer"),
        (None, ["non-interactive"], True, False, "non-interactive"),
    ],
)
def test_resolve_mode(mode: str | None, shortcuts: list[str], tty: bool, ci: bool, expected: str) -> None:
    assert resolve_mode(mode, shortcuts, tty=tty, ci=ci) == expected


@pytest.mark.parametrize(
    ("mode", "shortcuts", "tty", "fragment"),
    [
        ("interactive", ["auto-answer"], True, "conflicting mode flags"),
        (None, ["interactive", "non-interactive"], True, "conflicting mode flags"),
        ("interactive", [], False, "needs a terminal"),
    ],
)
def test_resolve_mode_errors(mode: str | None, shortcuts: list[str], tty: bool, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        resolve_mode(mode, shortcuts, tty=tty, ci=False)


def test_init_suite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "suite"
    status, out, _ = run_cli(["headless", "init-suite", str(target)], capsys)
    assert status == 0 and (target / "compliance.yaml").exists() and (target / "CLAUDE.md").exists()
    assert "cf-guidance headless run" in out
    status, _, err = run_cli(["headless", "init-suite", str(target)], capsys)
    assert status == 2 and "already exists; pass --force" in err
    status, _, _ = run_cli(["headless", "init-suite", str(target), "--force"], capsys)
    assert status == 0

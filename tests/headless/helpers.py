"""Shared builders for the headless tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cf_guidance.cli import main

from cf_guidance.headless.collect import FileChanges, RunData, collect
from cf_guidance.headless.executors import stream

#: One run: text, a force push a hook denied, an allowed `make test`, a Write, a final answer.
TURNS: list[dict[str, Any]] = [
    {"text": "Working on it.", "tool_uses": [
        {"name": "Bash", "input": {"command": "git push --force origin main"}, "denied_by_hook": "[DST012] no force push"},
    ]},
    {"tool_uses": [{"name": "Bash", "input": {"command": "make test"}, "result": "ok"}]},
    {"tool_uses": [{"name": "Write", "input": {"file_path": "/w/app.py", "content": "x = 1\n"}}]},
    {"tool_uses": [{"name": "Bash", "input": {"command": "git commit -m wip"}, "result": "1 file changed"}]},
]


def sample_run(**overrides: Any) -> RunData:
    options: dict[str, Any] = {"turns": TURNS, "result_text": "All done: 3 files updated.", "cost_usd": 0.25,
                               "usage": {"input_tokens": 1000, "output_tokens": 200}}
    options.update(overrides)
    run = collect("do the thing", stream(**options), exit_code=0)
    run.changes = FileChanges(created=["app.py", "docs/new.md"], modified=["README.md"], deleted=["old.txt"])
    run.outside_writes = OUTSIDE_WRITES
    return run


#: Writes outside the workspace as `outside.outside_writes` reports them: one that ran on the
#: machine, one into the run's own HOME, one a hook denied.
OUTSIDE_WRITES: list[dict[str, Any]] = [
    {"tool": "Bash", "tool_use_id": "toolu_1_0", "path": "/etc/hosts", "ran": True, "scope": "machine", "sandboxed": False},
    {"tool": "Write", "tool_use_id": "toolu_2_0", "path": "/runs/r1/home/.bashrc", "ran": True, "scope": "run",
     "sandboxed": False},
    {"tool": "Bash", "tool_use_id": "toolu_0_0", "path": "/root/.ssh/config", "ran": False, "scope": "machine",
     "sandboxed": False},
]


def write_suite(directory: Path, text: str) -> Path:
    path = directory / "suite.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status as the console script sees it: main's return value, or its SystemExit."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err

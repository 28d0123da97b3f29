"""cf_guidance.state: the project root of a hook call and the one layout of the state directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cf_guidance import state


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"CLAUDE_PROJECT_DIR": "/a", "GUIDANCE_PROJECT_DIR": "/b"}, "/a"),
        ({"GUIDANCE_PROJECT_DIR": "/b"}, "/b"),
        ({}, "CWD"),
    ],
)
def test_project_dir_precedence(env: dict[str, str], expected: str, tmp_path: Path) -> None:
    got = state.project_dir(env, str(tmp_path))
    assert got == (str(tmp_path) if expected == "CWD" else expected)


def test_project_dir_walks_up_to_the_initialised_root(tmp_path: Path) -> None:
    (tmp_path / ".claude-flow").mkdir()
    sub = tmp_path / "src" / "pkg"
    sub.mkdir(parents=True)
    assert state.project_dir({}, str(sub)) == str(tmp_path)


def test_state_dir_default_and_override(tmp_path: Path) -> None:
    project = str(tmp_path)
    assert state.state_dir(project, {}) == os.path.join(project, ".claude-flow", "guidance")
    assert state.state_dir(project, {"GUIDANCE_STATE_DIR": "/elsewhere"}) == "/elsewhere"
    assert state.state_dir(project, {"GUIDANCE_STATE_DIR": "rel/st"}) == os.path.join(project, "rel", "st")


def test_layout_names_every_path_and_ensure_makes_them_private(tmp_path: Path) -> None:
    layout = state.StateLayout(str(tmp_path / "st"))
    layout.ensure()
    for name in state.SUBDIRS:
        path = getattr(layout, name)
        assert os.path.isdir(path) and os.stat(path).st_mode & 0o777 == 0o700
    assert layout.ledger_key == str(tmp_path / "st" / "keys" / "ledger.key")
    assert layout.worker_marker == str(tmp_path / "st" / "spool" / ".worker-spawned")
    assert layout.install_manifest == str(tmp_path / "st" / "install.json")

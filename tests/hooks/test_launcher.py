"""The launcher finds the package by itself under `python -S`: source tree, installed layout, any cwd."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import bash

REPO = Path(__file__).resolve().parents[2]


def _run(argv: list[str], event: dict[str, object], project: Path, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_"))}
    env["CLAUDE_PROJECT_DIR"] = str(project)
    return subprocess.run(argv, input=json.dumps(event).encode(), capture_output=True, env=env, cwd=str(cwd), timeout=60, check=False)


def _assert_guards(argv: list[str], project: Path, cwd: Path) -> None:
    denied = _run(argv, bash("rm -rf /"), project, cwd)
    assert denied.returncode == 0, denied.stderr
    assert json.loads(denied.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    allowed = _run(argv, bash("ls"), project, cwd)
    assert (allowed.returncode, allowed.stdout, allowed.stderr) == (0, b"", b"")


def test_source_tree_from_another_cwd_through_a_path_with_spaces(tmp_path: Path, project: Path) -> None:
    spaced = tmp_path / "dir with spaces"
    spaced.mkdir()
    (spaced / "repo").symlink_to(REPO)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _assert_guards([sys.executable, "-S", str(spaced / "repo" / "hooks" / "launcher.py"), "pre-bash"], project, elsewhere)


def test_installed_layout(tmp_path: Path, project: Path) -> None:
    site = tmp_path / "site-packages"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "guidance", site / "guidance", ignore=ignore)
    shutil.copytree(REPO / "hooks", site / "guidance" / "hooks", ignore=ignore)
    argv = [sys.executable, "-S", str(site / "guidance" / "hooks" / "launcher.py"), "pre-bash"]
    _assert_guards(argv, project, tmp_path)
    (project / "CLAUDE.md").write_text("## Safety\n\n- Never run `git push --force`.\n")
    # a cache miss compiles the policy, which needs site-packages (pydantic, markdown-it)
    denied = _run(argv, bash("git push --force"), project, tmp_path)
    assert json.loads(denied.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", denied.stderr


@pytest.mark.parametrize("argv", [["-m", "guidance.hooks", "pre-bash"], ["-m", "guidance.cli", "hook", "pre-bash"]])
def test_module_entrypoints(argv: list[str], project: Path) -> None:
    if argv[1] == "guidance.cli":
        argv = ["-c", "import sys; from guidance.cli import main; sys.argv[0] = 'cf-guidance'; main(sys.argv[1:])", *argv[2:]]
    _assert_guards([sys.executable, *argv], project, project)

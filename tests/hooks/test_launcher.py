"""The launcher finds the package by itself under `python -S`: source tree, installed layout, any cwd."""

from __future__ import annotations

import json
import os
import signal
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import bash

REPO = Path(__file__).resolve().parents[2]


def _run(argv: list[str], event: dict[str, object], project: Path, cwd: Path, **extra: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_"))}
    env["CLAUDE_PROJECT_DIR"] = str(project)
    env.update(extra)
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
    shutil.copytree(REPO / "guidance", site / "cf_guidance", ignore=ignore)
    shutil.copytree(REPO / "hooks", site / "cf_guidance" / "hooks", ignore=ignore)
    argv = [sys.executable, "-S", str(site / "cf_guidance" / "hooks" / "launcher.py"), "pre-bash"]
    _assert_guards(argv, project, tmp_path)
    (project / "CLAUDE.md").write_text("## Safety\n\n- Never run `git push --force`.\n")
    # a cache miss compiles the policy, which needs site-packages (pydantic, markdown-it)
    denied = _run(argv, bash("git push --force"), project, tmp_path)
    assert json.loads(denied.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", denied.stderr


@pytest.mark.parametrize("argv", [["-m", "cf_guidance.hooks", "pre-bash"], ["-m", "cf_guidance.cli", "hook", "pre-bash"]])
def test_module_entrypoints(argv: list[str], project: Path) -> None:
    if argv[1] == "cf_guidance.cli":
        argv = ["-c", "import sys; from cf_guidance.cli import main; sys.argv[0] = 'cf-guidance'; main(sys.argv[1:])", *argv[2:]]
    _assert_guards([sys.executable, *argv], project, project)


#: The event's cwd: outside the temp directories, so `rm -rf ../other` deletes outside the project.
ELSEWHERE = "/srv/checkout/app"


#: A stand-in for the compiler's markdown parser, found first through PYTHONPATH: the cold
#: compile on a cache miss hangs past our deadline (a loaded machine) or fails (a broken install).
BROKEN_MARKDOWN_IT = {
    "timeout": "import time\ntime.sleep(60)\n",
    "error": "raise ImportError('markdown_it is broken in this test')\n",
}


@pytest.mark.parametrize("closed", ["0", "1"], ids=["fail-open", "fail-closed"])
@pytest.mark.parametrize("failure", ["timeout", "error"])
def test_built_in_denies_stand_when_the_real_bundle_load_fails(tmp_path: Path, project: Path, failure: str, closed: str) -> None:
    """Through the launcher, in a process of its own: the built-in guard has answered before
    the compile starts, so its denies stand; what it allows goes by the fail mode."""
    (project / "CLAUDE.md").write_text("## Rules\n\n- Never run `make deploy`.\n")
    (tmp_path / "deps" / "markdown_it").mkdir(parents=True)
    (tmp_path / "deps" / "markdown_it" / "__init__.py").write_text(BROKEN_MARKDOWN_IT[failure])
    env = {"GUIDANCE_HOOKD": "0", "GUIDANCE_EVENT_FAIL_CLOSED": closed, "GUIDANCE_EVENT_SYNC_TIMEOUT_MS": "2000",
           "PYTHONPATH": str(tmp_path / "deps")}
    argv = [sys.executable, "-S", str(REPO / "hooks" / "launcher.py"), "pre-bash"]
    said = b"timed out after 2000 ms" if failure == "timeout" else b"markdown_it is broken"
    cases = [("rm -rf ../other", ELSEWHERE, "deny", "[DST001]"), ("cat .env", str(project), "deny", "[SEC002]"),
             ("make deploy", str(project), "deny" if closed == "1" else None, "[fail-closed]")]
    for command, cwd, verdict, reason in cases:
        result = _run(argv, bash(command, cwd=cwd), project, project, **env)
        assert result.returncode == 0 and said in result.stderr, result.stderr
        if verdict is None:
            assert b"the built-in checks passed" in result.stdout and b"permissionDecision" not in result.stdout
        else:
            answer = json.loads(result.stdout)["hookSpecificOutput"]
            assert answer["permissionDecision"] == verdict and answer["permissionDecisionReason"].startswith(reason)
    # the hung compile goes on in the background (it would cache the bundle once done): stop it
    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_load import holders

    for pid in holders(".compile.lock", str(project / ".claude-flow" / "guidance" / "cache")):
        os.kill(pid, signal.SIGKILL)
    # the control: with the compiler intact, CLAUDE.md's own ban applies (under the default
    # deadline: a loaded machine may take longer than 2 s to compile cold)
    env.pop("PYTHONPATH")
    env.pop("GUIDANCE_EVENT_SYNC_TIMEOUT_MS")
    intact = json.loads(_run(argv, bash("make deploy", cwd=str(project)), project, project, **env).stdout)
    assert intact["hookSpecificOutput"]["permissionDecision"] == "deny"


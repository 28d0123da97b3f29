"""Every command finds the project root as git does, and answers mistakes in one line with the same
exit codes (0 ok, 1 a check failed, 2 a usage error)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cf_guidance.state import find_root

POLICY = "# Repo\n\n## Rules\n\n- Never run `pip install`.\n"


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_"))}
    environ.update(env or {})
    return subprocess.run([sys.executable, "-c", "from cf_guidance.cli import main; main()", *args], cwd=cwd,
                          env=environ, capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture
def repo(project: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / "CLAUDE.md").write_text(POLICY)
    (project / "src" / "deep").mkdir(parents=True)
    return project


def test_commands_run_in_a_subdirectory_act_on_the_root(repo: Path) -> None:
    deep = repo / "src" / "deep"
    assert "1 rules" in cli("compile", cwd=deep).stdout
    explained = cli("explain", "pip install x", cwd=deep)
    assert "decision: deny" in explained.stdout
    init = cli("init", "--no-verify", cwd=deep)
    assert init.returncode == 0, init.stderr
    assert init.stdout.splitlines()[0] == f"project root: {repo} (it holds CLAUDE.md; {deep} is inside it)"
    assert (repo / ".claude" / "settings.json").is_file() and not (deep / ".claude").exists()
    verified = cli("verify", cwd=deep)
    assert verified.returncode == 0, verified.stdout
    assert f"project:    {repo}\n" in cli("status", cwd=deep).stdout
    # --target inside the project means the project, too
    assert "1 rules" in cli("compile", "--target", str(deep), cwd=Path("/")).stdout


def test_the_evidence_order_and_the_users_own_config_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    repo = home / "code" / "repo"
    (repo / "pkg" / "sub").mkdir(parents=True)
    (home / ".claude").mkdir()  # the user's settings, not a project
    env = {"HOME": str(home)}
    assert find_root(str(repo / "pkg" / "sub"), env) == (str(repo / "pkg" / "sub"), "")
    (repo / ".git").mkdir()
    assert find_root(str(repo / "pkg" / "sub"), env) == (str(repo), ".git")
    (repo / "pkg" / "CLAUDE.md").write_text("- scoped rules\n")  # a CLAUDE.md beats .git
    assert find_root(str(repo / "pkg" / "sub"), env) == (str(repo / "pkg"), "CLAUDE.md")
    (repo / ".claude").mkdir()  # project settings beat a subdirectory's CLAUDE.md
    assert find_root(str(repo / "pkg" / "sub"), env) == (str(repo), ".claude")
    (repo / "pkg" / ".claude-flow").mkdir()  # an initialised project beats everything
    assert find_root(str(repo / "pkg" / "sub"), env) == (str(repo / "pkg"), ".claude-flow")


@pytest.mark.parametrize("command", [["init"], ["verify"], ["uninstall"], ["compile"], ["explain", "ls"], ["check"],
                                     ["status"], ["trust"], ["jobs"], ["ledger", "verify"], ["analyze"], ["replay"]])
def test_a_missing_target_is_a_usage_error_in_one_line(command: list[str], tmp_path: Path) -> None:
    done = cli(*command, "--target", str(tmp_path / "nope"), cwd=tmp_path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr == f"cf-guidance: {tmp_path / 'nope'} does not exist; pass --target with a directory inside the project\n"
    assert not (tmp_path / "nope").exists()


def test_a_bad_option_is_a_usage_error_in_one_line(tmp_path: Path) -> None:
    done = cli("init", "--scope", "galaxy", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("cf-guidance init: Invalid value for '--scope'") and "--help" in done.stderr


def test_explain_exit_code_for_scripts(repo: Path) -> None:
    assert cli("explain", "--exit-code", "pip install x", cwd=repo).returncode == 1
    assert cli("explain", "--exit-code", "git status", cwd=repo).returncode == 0
    assert cli("explain", "pip install x", cwd=repo).returncode == 0  # without the flag: a report, exit 0


def test_shell_completion_is_clicks(tmp_path: Path) -> None:
    done = cli(cwd=tmp_path, env={"_CF_GUIDANCE_COMPLETE": "bash_source"})
    assert done.returncode == 0 and "_cf_guidance_completion()" in done.stdout
    words = cli(cwd=tmp_path, env={"_CF_GUIDANCE_COMPLETE": "bash_complete", "COMP_WORDS": "cf-guidance init --sc",
                                   "COMP_CWORD": "2"})
    assert "--scope" in words.stdout

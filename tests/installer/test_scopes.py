"""Scopes, the guard around every wired command, and what init leaves behind when it fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cf_guidance.errors import InstallError
from cf_guidance.installer import install, uninstall, verify
from cf_guidance.installer.wiring import parse

POLICY = "# Repo\n\n## Rules\n\n- Never run `make deploy`.\n"
EVENT = {"session_id": "s", "cwd": "", "hook_event_name": "PreToolUse", "tool_name": "Bash",
         "tool_input": {"command": "echo hi"}, "tool_use_id": "t"}


@pytest.fixture
def repo(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (project / "CLAUDE.md").write_text(POLICY)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return project


def commands(path: Path) -> dict[str, str]:
    settings = json.loads(path.read_text())
    found = {}
    for groups in settings["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                parsed = parse(handler["command"])
                if parsed is not None:
                    found[parsed.name] = handler["command"]
    return found


def run(command: str, root: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The command as Claude Code runs it: /bin/sh, the event on stdin, from the project."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_"))}
    environ.update(env, CLAUDE_PROJECT_DIR=str(root))
    event = dict(EVENT, cwd=str(root))
    return subprocess.run(["/bin/sh", "-c", command], input=json.dumps(event), capture_output=True, text=True,
                          env=environ, cwd=root, timeout=60, check=False)


def test_the_project_scope_names_no_path_of_this_machine(repo: Path) -> None:
    report = install(str(repo))
    assert report.ok, report.text()
    text = (repo / ".claude/settings.json").read_text()
    for machine_path in (sys.prefix, str(Path(sys.executable).parent), str(repo), os.environ["HOME"]):
        assert machine_path not in text
    assert {parse(c).form for c in commands(repo / ".claude/settings.json").values()} == {"portable"}  # type: ignore[union-attr]
    assert "scope project: commit .claude/settings.json" in report.text()


@pytest.mark.parametrize("if_missing", ["deny", "warn"])
def test_a_missing_installation_speaks_up_by_the_projects_choice(repo: Path, tmp_path: Path, if_missing: str) -> None:
    install(str(repo), verify=False, if_missing=if_missing)
    wired = commands(repo / ".claude/settings.json")
    empty = tmp_path / "empty"
    empty.mkdir()
    (repo / ".claude-flow" / "guidance" / "bin" / "cf-guidance-hook").unlink()  # init's link to the tool
    gone = {"PATH": str(empty), "HOME": str(empty)}  # no cf-guidance-hook anywhere
    pre = run(wired["pre-bash"], repo, gone)
    post = run(wired["post-bash"], repo, gone)
    if if_missing == "deny":
        assert pre.returncode == 2 and pre.stdout == ""
        assert pre.stderr.count("\n") == 1 and "cf-guidance is not installed: install it (pipx install cf-guidance" in pre.stderr
    else:
        assert pre.returncode == 0 and pre.stderr == ""
        assert "is not installed" in json.loads(pre.stdout)["systemMessage"]
    assert post.returncode == 0 and "is not installed" in json.loads(post.stdout)["systemMessage"]  # never blocks a post event
    # a broken installation (found, but it crashes) is answered the same way, naming its exit code
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "cf-guidance-hook").write_text("#!/bin/sh\necho 'Traceback: ModuleNotFoundError' >&2\nexit 1\n")
    (broken / "cf-guidance-hook").chmod(0o755)
    crashed = run(wired["pre-bash"], repo, {"PATH": str(broken), "HOME": str(empty)})
    assert crashed.returncode == (2 if if_missing == "deny" else 0) and "cf-guidance failed (exit 1)" in crashed.stdout + crashed.stderr
    # verify runs the same experiment and reports the choice
    checks = {c.name: c for c in verify(str(repo)).checks}
    assert checks[f"claude: without the installation, pre-tool hooks answer {if_missing}"].ok
    # a second init keeps the project's choice
    install(str(repo), verify=False)
    assert parse(commands(repo / ".claude/settings.json")["pre-bash"]).if_missing == if_missing  # type: ignore[union-attr]


def test_the_local_scope_writes_absolute_paths_outside_git(repo: Path) -> None:
    report = install(str(repo), scope="local")
    assert report.ok, report.text()
    assert not (repo / ".claude/settings.json").exists()
    wired = commands(repo / ".claude/settings.local.json")
    parsed = parse(wired["pre-bash"])
    assert parsed is not None and parsed.form == "absolute" and parsed.python == os.path.abspath(sys.executable)
    # the venv removed: the guard answers, it does not exit 127
    moved = wired["pre-bash"].replace(parsed.python, "/nonexistent/venv/bin/python")
    gone = run(moved, repo, {})
    assert gone.returncode == 2 and "cf-guidance is not installed: reinstall it" in gone.stderr
    names = [c.name for c in report.verify.checks]  # type: ignore[union-attr]
    assert "claude (local): hook denies `rm -rf /`" in names
    assert "claude (local): without the installation, pre-tool hooks answer deny" in names


def test_a_codex_local_scope_is_refused_in_one_line(repo: Path) -> None:
    with pytest.raises(InstallError, match="codex has no per-user project settings file"):
        install(str(repo), agent="codex", scope="local")
    assert sorted(p.name for p in repo.iterdir()) == ["CLAUDE.md"]


def test_the_user_scope_wires_the_users_settings(repo: Path) -> None:
    home = Path(os.environ["HOME"])
    (home / ".claude").mkdir()
    (home / ".claude/settings.json").write_text('{"model": "opus"}\n')
    report = install(str(repo), scope="user")
    assert report.ok, report.text()
    assert not (repo / ".claude").exists()
    settings = json.loads((home / ".claude/settings.json").read_text())
    assert settings["model"] == "opus" and parse(commands(home / ".claude/settings.json")["pre-bash"]).form == "absolute"  # type: ignore[union-attr]
    assert verify(str(repo)).ok
    uninstall(str(repo))  # the project's scopes only
    assert "hooks" in json.loads((home / ".claude/settings.json").read_text())
    uninstall(str(repo), scopes=("user",))
    assert json.loads((home / ".claude/settings.json").read_text()) == {"model": "opus"}


def test_verify_names_a_project_wired_in_two_scopes(repo: Path) -> None:
    install(str(repo), verify=False)
    install(str(repo), verify=False, scope="local")
    checks = {c.name: c for c in verify(str(repo)).checks}
    assert not checks["claude: wired once"].ok and checks["claude: wired once"].level == "warning"
    assert "claude: hook denies `rm -rf /`" in checks and "claude (local): hook denies `rm -rf /`" in checks


def test_verify_fails_an_unguarded_wiring_of_an_older_init(repo: Path) -> None:
    install(str(repo), verify=False, scope="local")
    path = repo / ".claude/settings.local.json"
    settings = json.loads(path.read_text())
    for groups in settings["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                parsed = parse(handler["command"])
                handler["command"] = f"'{parsed.python}' -S '{parsed.launcher}' {parsed.name}"  # type: ignore[union-attr]
    path.write_text(json.dumps(settings))
    report = verify(str(repo))
    check = next(c for c in report.checks if "never a silent allow" in c.name)
    assert not report.ok and not check.ok and "exit 127" in check.detail
    install(str(repo), verify=False, scope="local")  # init rewrites it guarded, in place
    assert verify(str(repo)).ok


def test_verify_attributes_a_denial_to_the_rule_that_made_it(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("# Repo\n\n- Never run `git push --force`.\n")
    names = [c.name for c in install(str(repo)).verify.checks]  # type: ignore[union-attr]
    [smoke] = [name for name in names if "git push --force" in name]
    assert "built-in DST012 decides first" in smoke and "enforces" not in smoke


@pytest.mark.parametrize("kind", ["binary", "over the limit", "a FIFO", "a directory"])
def test_init_and_verify_fail_when_the_policy_cannot_be_compiled(repo: Path, kind: str) -> None:
    policy = repo / "CLAUDE.md"
    policy.unlink()
    if kind == "binary":
        policy.write_bytes(b"\x00\x01binary" * 100)
    elif kind == "over the limit":
        policy.write_text("- Never run `x`.\n" * 300_000)
    elif kind == "a FIFO":
        os.mkfifo(policy)
    else:
        policy.mkdir()
    report = install(str(repo))
    assert not report.ok
    [check] = [c for c in report.verify.checks if c.name == "policy compiles"]  # type: ignore[union-attr]
    assert not check.ok and "CLAUDE.md" in check.detail and "\n" not in check.detail


def test_a_failed_init_leaves_nothing_behind(repo: Path) -> None:
    if os.geteuid() == 0:  # root writes into a read-only directory; make one init cannot write into
        (repo / ".claude").write_text("not a directory\n")
    else:
        (repo / ".claude").mkdir(mode=0o555)
    before = sorted(p.name for p in repo.iterdir())
    with pytest.raises(InstallError) as info:
        install(str(repo))
    assert "nothing was changed" in str(info.value) and "\n" not in str(info.value)
    assert sorted(p.name for p in repo.iterdir()) == before  # no .claude-flow/, CLAUDE.local.md, .gitignore


def test_uninstall_where_init_never_ran_says_so(repo: Path) -> None:
    report = uninstall(str(repo))
    assert report.changes == [] and report.notes == [f"nothing to remove: cf-guidance was never set up in {repo}"]
    assert not (repo / ".claude-flow").exists()

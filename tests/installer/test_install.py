"""init / verify / uninstall on real temporary repositories, through the exact wired commands."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cf_guidance.cli import cli
from cf_guidance.errors import InstallError
from cf_guidance.installer import install, uninstall, verify
from cf_guidance.installer.install import LOCAL_STUB

POLICY = "# Repo\n\n## Safety\n\n- Never run `git push --force`.\n- Never run `make deploy`.\n"
USER_SETTINGS = '{"model": "opus", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}]}}'
TRACKED = (".claude/settings.json", ".codex/hooks.json", "CLAUDE.local.md", ".gitignore",
           ".claude-flow/guidance/keys/ledger.key", ".claude-flow/guidance/install.json")


def snapshot(root: Path) -> dict[str, bytes]:
    """The files init owns or touches, and the backups it made."""
    files = {rel: (root / rel).read_bytes() for rel in TRACKED if (root / rel).exists()}
    backups = root / ".claude-flow/guidance/backups"
    if backups.is_dir():
        files.update({f"backup:{p.name}": p.read_bytes() for p in backups.iterdir()})
    return files


@pytest.fixture
def repo(project: Path) -> Path:
    (project / "CLAUDE.md").write_text(POLICY)
    return project


def test_init_wires_creates_and_verifies(repo: Path) -> None:
    report = install(str(repo))
    assert report.ok, report.text()
    names = [check.name for check in report.verify.checks]  # type: ignore[union-attr]
    assert "claude: hook denies `rm -rf /`" in names
    assert any("enforces CLAUDE.md rule" in name and "make deploy" in name for name in names), names
    settings = json.loads((repo / ".claude/settings.json").read_text())
    assert set(settings["hooks"]) == {"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit",
                                      "SessionStart", "SessionEnd", "Stop", "PreCompact"}
    key = repo / ".claude-flow/guidance/keys/ledger.key"
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == 32
    assert (repo / "CLAUDE.local.md").read_text() == LOCAL_STUB
    assert (repo / ".gitignore").read_text().splitlines()[-2:] == ["CLAUDE.local.md", ".claude-flow/"]
    for sub in ("cache", "keys", "ledger", "spool", "proposals", "backups", "logs"):
        assert (repo / ".claude-flow/guidance" / sub).is_dir()


def test_a_second_init_changes_nothing(repo: Path) -> None:
    (repo / ".claude").mkdir()
    (repo / ".claude/settings.json").write_text(USER_SETTINGS)
    install(str(repo), verify=False)
    first = snapshot(repo)
    report = install(str(repo))
    assert snapshot(repo) == first
    assert {change.action for change in report.changes} == {"unchanged"}


def test_the_users_settings_are_kept_and_backed_up(repo: Path) -> None:
    (repo / ".claude").mkdir()
    (repo / ".claude/settings.json").write_text(USER_SETTINGS)
    report = install(str(repo), verify=False)
    settings = json.loads((repo / ".claude/settings.json").read_text())
    assert settings["model"] == "opus"
    assert settings["hooks"]["PreToolUse"][0] == {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}
    [change] = [c for c in report.changes if c.path == ".claude/settings.json"]
    assert change.action == "updated" and (repo / change.backup).read_text() == USER_SETTINGS  # type: ignore[operator]


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_malformed_settings_file_is_refused_and_left_untouched(repo: Path, agent: str) -> None:
    rel = ".claude/settings.json" if agent == "claude" else ".codex/hooks.json"
    (repo / rel).parent.mkdir()
    (repo / rel).write_text('{"hooks": [}')
    with pytest.raises(InstallError, match="is not valid JSON"):
        install(str(repo), agent=agent)
    assert (repo / rel).read_text() == '{"hooks": [}'
    assert sorted(p.name for p in repo.iterdir()) == sorted(["CLAUDE.md", rel.split("/")[0]])


def test_dry_run_prints_the_diff_and_writes_nothing(repo: Path) -> None:
    report = install(str(repo), agent="both", dry_run=True)
    assert sorted(p.name for p in repo.iterdir()) == ["CLAUDE.md"]
    assert "+++ b/.claude/settings.json" in report.diff and "+++ b/.codex/hooks.json" in report.diff
    assert "+++ b/CLAUDE.local.md" in report.diff and "+.claude-flow/" in report.diff
    assert "would create" in report.text()


def test_uninstall_removes_exactly_what_init_added(repo: Path) -> None:
    (repo / ".claude").mkdir()
    (repo / ".claude/settings.json").write_text(USER_SETTINGS)
    (repo / ".gitignore").write_text("node_modules/\n")
    install(str(repo), agent="both")  # verify runs the hook, which starts a warm server
    key = (repo / ".claude-flow/guidance/keys/ledger.key").read_bytes()
    uninstall(str(repo))
    assert (repo / ".claude/settings.json").read_text() == USER_SETTINGS  # byte for byte
    assert not (repo / ".codex").exists() and not (repo / "CLAUDE.local.md").exists()
    assert (repo / ".gitignore").read_text().splitlines() == [
        "node_modules/", "", "# cf-guidance: local rules, and state (ledger, key) that must not be committed", ".claude-flow/"]
    assert (repo / ".claude-flow/guidance/keys/ledger.key").read_bytes() == key  # the ledger's key stays
    assert not list((repo / ".claude-flow/guidance").glob("hookd-*.sock"))  # warm servers told to stop
    assert not verify(str(repo)).ok


def test_uninstall_keeps_an_edited_local_policy_and_the_users_later_hooks(repo: Path) -> None:
    install(str(repo), verify=False)
    (repo / "CLAUDE.local.md").write_text("- Avoid `make clean`.\n")
    settings = json.loads((repo / ".claude/settings.json").read_text())
    settings["hooks"]["Stop"][0]["hooks"].append({"type": "command", "command": "echo added-later"})
    (repo / ".claude/settings.json").write_text(json.dumps(settings))
    report = uninstall(str(repo))
    assert (repo / "CLAUDE.local.md").read_text() == "- Avoid `make clean`."+ "\n"
    assert json.loads((repo / ".claude/settings.json").read_text()) == {
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo added-later"}]}]}}
    assert any(c.path == "CLAUDE.local.md" and c.action == "kept" for c in report.changes)


def test_codex_hooks_and_their_trust(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "codex-home"
    home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(home))
    report = install(str(repo), agent="codex")
    assert report.ok, report.text()
    checks = {c.name: c for c in report.verify.checks}  # type: ignore[union-attr]
    assert checks["codex: hook denies `rm -rf /`"].ok
    assert not checks["codex: project trusted"].ok and "trust_level" in checks["codex: project trusted"].detail
    assert not checks["codex: hooks trusted"].ok and "/hooks" in checks["codex: hooks trusted"].detail
    hooks = json.loads((repo / ".codex/hooks.json").read_text())["hooks"]
    state = "".join(
        f'[hooks.state."{repo}/.codex/hooks.json:{key}:{g}:0"]\ntrusted_hash = "sha256:00"\n'
        for event, key in (("PreToolUse", "pre_tool_use"), ("PostToolUse", "post_tool_use"), ("UserPromptSubmit", "user_prompt_submit"),
                           ("SessionStart", "session_start"), ("Stop", "stop"), ("PreCompact", "pre_compact"))
        for g in range(len(hooks[event]))
    )
    (home / "config.toml").write_text(f'[projects."{repo}"]\ntrust_level = "trusted"\n\n{state}')
    checks = {c.name: c for c in verify(str(repo)).checks}  # no agent: the ones wired there
    assert checks["codex: project trusted"].ok and checks["codex: hooks trusted"].ok


def test_cli_init_verify_uninstall(repo: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["init", "--target", str(repo), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["verify"]["checks"]
    result = runner.invoke(cli, ["verify", "--target", str(repo)])
    assert result.exit_code == 0 and "verify: all checks passed" in result.output
    result = runner.invoke(cli, ["uninstall", "--target", str(repo)])
    assert result.exit_code == 0 and "removed   CLAUDE.local.md" in result.output
    result = runner.invoke(cli, ["verify", "--target", str(repo)])
    assert result.exit_code == 1 and "FAIL" in result.output


def test_cli_refuses_a_malformed_file_in_one_line(repo: Path) -> None:
    (repo / ".claude").mkdir()
    (repo / ".claude/settings.json").write_text("{")
    from cf_guidance.cli import main

    with pytest.raises(SystemExit) as info:
        main(["init", "--target", str(repo)])
    assert info.value.code == 1
    assert (repo / ".claude/settings.json").read_text() == "{"


def test_init_rejects_a_missing_target(tmp_path: Path) -> None:
    with pytest.raises(InstallError, match="is not a directory"):
        install(str(tmp_path / "nope"))
    assert not os.path.exists(tmp_path / "nope")


def test_verify_proves_a_project_wide_rule_not_a_subdirectory_one(project: Path) -> None:
    # the smoke command runs at the root: a rule of src/gen/CLAUDE.md does not apply there
    (project / "src" / "gen").mkdir(parents=True)
    (project / "src" / "gen" / "CLAUDE.md").write_text("- Never run `make regen`.\n")
    (project / "CLAUDE.md").write_text("# Rules\n\nSee @docs/rules.md.\n")
    report = install(str(project))
    assert report.ok, report.text()
    names = [check.name for check in report.verify.checks]  # type: ignore[union-attr]
    assert not any("enforces CLAUDE.md rule" in name for name in names)
    (project / "docs").mkdir()
    (project / "docs" / "rules.md").write_text("- Never run `make deploy`.\n")
    (project / "CLAUDE.md").write_text("# Rules\n\nSee @docs/rules.md for more.\n")
    report = install(str(project))
    names = [check.name for check in report.verify.checks]  # type: ignore[union-attr]
    assert any("enforces CLAUDE.md rule" in name and "make deploy" in name for name in names)  # an imported rule

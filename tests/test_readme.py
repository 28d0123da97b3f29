"""The README documents every command and every environment variable the tool reads."""

from __future__ import annotations

from pathlib import Path

from cf_guidance.cli import COMMANDS
from cf_guidance.ledger.status import ENV_VARS

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_every_cli_command_is_documented() -> None:
    missing = [name for name in COMMANDS if f"cf-guidance {name}" not in README]
    assert missing == []


def test_every_environment_variable_is_documented() -> None:
    missing = [name for name, _ in ENV_VARS if f"`{name}`" not in README]
    assert missing == []


def test_quick_start_has_exactly_two_commands() -> None:
    section = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line for line in section.strip().splitlines() if line.strip()]
    assert [c.split()[0] for c in commands] == ["scripts/quickstart.sh", "scripts/test.sh"]
    assert "scripts/test.sh" in (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text()

from __future__ import annotations

import pytest

from cf_guidance.gates import shell_parse
from tests.gates.support import bash, codes


@pytest.mark.parametrize(("level", "verdict"), [("standard", "warn"), ("strict", "ask"), ("paranoid", "deny")])
def test_incomplete_analysis_by_level(level: str, verdict: str) -> None:
    assert codes(shell_parse, bash("echo 'unterminated"), level=level) == [f"SHL001:{verdict}"]


@pytest.mark.parametrize(("level", "verdict"), [("standard", "warn"), ("strict", "ask"), ("paranoid", "deny")])
def test_dynamic_program_by_level(level: str, verdict: str) -> None:
    assert f"SHL002:{verdict}" in codes(shell_parse, bash("$CMD -rf x"), level=level)


def test_plain_commands_are_complete() -> None:
    assert codes(shell_parse, bash("ls -la && git status"), level="paranoid") == []


def test_over_long_command_is_reported() -> None:
    from cf_guidance.limits import MAX_COMMAND_CHARS

    assert codes(shell_parse, bash("echo " + "a" * MAX_COMMAND_CHARS), level="paranoid") == ["SHL001:deny"]

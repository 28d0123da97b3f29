"""CI must run the end-to-end tests for real: the pinned claude binary has to be there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_harness import in_ci, require_claude

from cf_guidance.headless.claude import CLAUDE_BIN_ENV, PINNED_VERSION, claude_version, find_claude

REPO = Path(__file__).resolve().parents[2]


def test_claude_binary_present_under_ci() -> None:
    if not in_ci():
        pytest.skip("enforced only under CI=true")
    binary = find_claude()  # RunnerError here fails the test
    assert claude_version(binary) == PINNED_VERSION


def test_test_script_installs_the_pinned_version() -> None:
    script = (REPO / "scripts" / "test.sh").read_text()
    match = re.search(r"CLAUDE_CODE_VERSION:-([0-9.]+)", script)
    assert match is not None and match.group(1) == PINNED_VERSION


@pytest.mark.parametrize(
    ("ci", "outcome", "message"),
    [
        ("true", pytest.fail.Exception, "CI=true but the claude binary is missing"),
        ("", pytest.skip.Exception, "end-to-end tests need the claude binary"),
    ],
)
def test_missing_binary_skips_locally_and_fails_in_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ci: str, outcome: type[BaseException],
    message: str,
) -> None:
    monkeypatch.setenv("CI", ci)
    monkeypatch.setenv(CLAUDE_BIN_ENV, str(tmp_path / "no-claude"))
    with pytest.raises(outcome, match=message):
        require_claude()

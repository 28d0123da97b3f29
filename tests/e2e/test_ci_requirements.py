"""CI must run the end-to-end tests for real: the pinned claude binary has to be there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_harness import in_ci

from guidance.headless.claude import CLAUDE_BIN_ENV, PINNED_VERSION, claude_version, find_claude

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
    ("ci", "outcome", "exit_code"),
    [("true", "CI=true but the claude binary is missing", 1), ("", "1 skipped", 0)],
)
def test_missing_binary_skips_locally_and_fails_in_ci(
    tmp_path: Path, ci: str, outcome: str, exit_code: int
) -> None:
    env = dict(os.environ, CI=ci, **{CLAUDE_BIN_ENV: str(tmp_path / "no-claude")})
    target = "tests/e2e/test_claude_protocol.py::test_no_hook_means_no_protection"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "-q", target],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == exit_code, done.stdout[-2000:]
    assert outcome in done.stdout

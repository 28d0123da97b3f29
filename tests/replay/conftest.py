"""A history of real sessions (made once per test run by the real `claude` and, when installed,
`codex` against the scripted model server), shared by the replay tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.e2e_harness import find_codex, require_claude
from tests.replay.real_sessions import History, standard_history


@pytest.fixture(scope="session")
def history(tmp_path_factory: pytest.TempPathFactory) -> History:
    return standard_history(tmp_path_factory.mktemp("history"), claude=require_claude(), codex=find_codex())


@pytest.fixture
def codex_history(history: History) -> History:
    if not history.codex_sessions:
        pytest.skip("codex binary not found (npm install --prefix .tools/codex @openai/codex@0.169.0)")
    return history


@pytest.fixture
def claude_bin() -> Path:
    return require_claude()

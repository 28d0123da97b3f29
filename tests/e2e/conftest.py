"""Fixtures for end-to-end runs of the real `claude` binary against the scripted model server.

The binary comes from `guidance.headless.claude.find_claude` (CF_GUIDANCE_CLAUDE_BIN, the
repo's pinned install, then PATH). Without it these tests skip, except under CI=true where
a missing binary fails them: CI must prove the hooks against the real client.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_harness import Sandbox, find_codex, require_claude, victim_parent


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    return require_claude()


@pytest.fixture
def sandbox(tmp_path: Path, claude_bin: Path) -> Iterator[Sandbox]:
    parent = victim_parent()
    try:
        yield Sandbox(tmp_path, claude_bin, parent)
    finally:
        shutil.rmtree(parent, ignore_errors=True)


@pytest.fixture
def codex_bin() -> Path:
    codex = find_codex()
    if codex is None:
        pytest.skip("codex binary not found (npm install --prefix .tools/codex @openai/codex@0.169.0)")
    return codex

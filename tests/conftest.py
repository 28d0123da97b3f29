"""Shared fixtures. Tests mirror the package layout (tests/gates/test_destructive.py, ...)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus" / "claude-md"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project directory (a git repo is not needed by most tests)."""
    root = tmp_path / "project"
    root.mkdir()
    return root


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")

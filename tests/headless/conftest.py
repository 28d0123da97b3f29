"""Fixtures of the headless tests that run the real client (and bubblewrap for --sandbox).

Outside CI a missing binary skips those tests; under CI=true it fails them: CI must prove the
runner against the real client (scripts/test.sh installs both).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import in_ci
from tests.e2e.e2e_harness import require_claude

from cf_guidance.errors import RunnerError
from cf_guidance.headless.sandbox import check_bwrap


@pytest.fixture(scope="session")
def claude() -> Path:
    return require_claude()


@pytest.fixture(scope="session")
def bwrap() -> None:
    try:
        check_bwrap()
    except RunnerError as exc:
        if in_ci():
            pytest.fail(f"the --sandbox tests need bubblewrap in CI (scripts/test.sh installs it): {exc}")
        pytest.skip(str(exc))

"""Shared fixtures. Tests mirror the package layout (tests/gates/test_destructive.py, ...)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# The portable hook commands that `cf-guidance init` writes find `cf-guidance-hook` on PATH, as
# they do for a user whose venv is active or who installed with pipx: put this venv's first.
os.environ["PATH"] = os.path.dirname(os.path.abspath(sys.executable)) + os.pathsep + os.environ.get("PATH", "")
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus" / "claude-md"


@pytest.fixture(autouse=True, scope="session")
def private_witness_dir() -> Iterator[None]:
    """Ledger witnesses (cf_guidance.ledger.witness) of test ledgers go to a data dir of this run,
    never to the user's ~/.local/share; subprocesses (hooks, workers, the real clients) inherit
    it. It is not under a temp dir: the guard protects the witness directory and every
    directory above it, and the corpus expects `rm -rf /tmp` to be judged as a temp dir."""
    import shutil
    import tempfile

    data = tempfile.mkdtemp(prefix=".pytest-xdg-", dir=REPO)
    os.environ["XDG_DATA_HOME"] = data
    yield
    shutil.rmtree(data, ignore_errors=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project directory (a git repo is not needed by most tests)."""
    root = tmp_path / "project"
    root.mkdir()
    return root


def package_path() -> str:
    """A directory holding `cf_guidance` laid out as installed (guidance/ with hooks/ and installer/
    inside), for subprocesses run with `python -S` (no site, so no editable-install finder)."""
    global _PACKAGE_PATH
    if _PACKAGE_PATH is None:
        import atexit
        import shutil
        import tempfile

        root = tempfile.mkdtemp(prefix="cf-guidance-path-")
        atexit.register(shutil.rmtree, root, True)
        tree = Path(root) / "cf_guidance"
        tree.mkdir()
        for entry in (REPO / "guidance").iterdir():
            if entry.name != "__pycache__":
                (tree / entry.name).symlink_to(entry)
        (tree / "hooks").symlink_to(REPO / "hooks")
        (tree / "installer").symlink_to(REPO / "installer")
        _PACKAGE_PATH = root
    return _PACKAGE_PATH


_PACKAGE_PATH: str | None = None


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require_shared(path: Path) -> Path:
    """`path` under ../shared (the corpus, the gold labels), or skip: a user's clone has no
    ../shared. Under CI=true, where it is always beside the checkout, a missing one fails."""
    if not path.exists():
        if in_ci():
            pytest.fail(f"CI=true but {path} is missing: CI runs with ../shared beside the checkout")
        pytest.skip(f"needs {path} (../shared, beside the checkout); absent in this clone")
    return path

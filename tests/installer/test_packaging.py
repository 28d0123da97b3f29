"""A regular `pip install .` ships every package the hook imports (pyproject lists them by hand)."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_every_package_directory_is_listed_in_pyproject() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    package_dirs = config["package-dir"]
    found = set()
    for name, directory in package_dirs.items():
        for init in (REPO / directory).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / directory)
            found.add(".".join([name, *rel.parts]) if rel.parts else name)
    # a subpackage of hooks/ or installer/ would also appear under guidance/ only if mapped: ignore none
    found = {name for name in found if not any(part.startswith(("_", ".")) or part == "__pycache__" for part in name.split("."))}
    assert found - listed == set(), f"add to [tool.setuptools] packages: {sorted(found - listed)}"

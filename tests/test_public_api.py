from __future__ import annotations

import re
import subprocess
import sys

import cf_guidance
from tests.conftest import REPO, package_path


def test_all_is_sorted_and_resolves() -> None:
    names = [n for n in cf_guidance.__all__ if n != "__version__"]
    assert names == sorted(names)
    for name in names:
        assert getattr(cf_guidance, name) is not None


def test_importing_the_package_imports_nothing_heavy() -> None:
    code = "import sys, cf_guidance; print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in {'typing','re','json','pydantic','click'})))"
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": package_path()})
    assert out.stdout.strip() == ""


def test_no_module_imports_the_folder_name() -> None:
    # The import package is cf_guidance; `guidance` is another distribution's name (DESIGN.md).
    stale = re.compile(r"^\s*(?:from|import)\s+guidance\b|['\"]guidance\.[a-z_]+['\"]", re.MULTILINE)
    offenders = [str(path.relative_to(REPO)) for folder in ("guidance", "hooks", "installer", "tests", "benchmarks")
                 for path in (REPO / folder).rglob("*.py") if stale.search(path.read_text(encoding="utf-8"))]
    assert offenders == []

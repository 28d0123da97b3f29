from __future__ import annotations

import subprocess
import sys

import guidance


def test_all_is_sorted_and_resolves() -> None:
    names = [n for n in guidance.__all__ if n != "__version__"]
    assert names == sorted(names)
    for name in names:
        assert getattr(guidance, name) is not None


def test_importing_guidance_imports_nothing_heavy() -> None:
    code = "import sys, guidance; print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in {'typing','re','json','pydantic','click'})))"
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(__import__("pathlib").Path(guidance.__file__).parent.parent)})
    assert out.stdout.strip() == ""

"""A regular (non-editable) install of this checkout, without the package index: the wheel built
offline from a copy of the checkout, installed with --no-deps into a fresh venv whose dependencies
come from the running interpreter's site-packages (one .pth line).

What a user gets from `pip install .` or `pipx install .`, for the benchmarks (bench_hook) and the
packaging tests (tests/installer/test_packaging.py); an editable install would measure its import
finder instead of the hook.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: What a build needs of the checkout (pyproject's package-dir and script-files, the readme, the
#: in-tree build backend and the MANIFEST.in that ships it in an sdist).
BUILD_INPUTS = ("pyproject.toml", "README.md", "MANIFEST.in", "guidance", "hooks", "installer", "scripts")


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {done.stdout[-1500:]} {done.stderr[-1500:]}")
    return done


def copy_source(dest: Path) -> Path:
    """The files a build reads, copied to `dest` (so a build leaves the checkout clean)."""
    dest.mkdir(parents=True)
    for name in BUILD_INPUTS:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(REPO / name, dest / name)
    return dest


def build_wheel(workdir: Path) -> tuple[Path, str]:
    """(the wheel, the build's stderr); needs setuptools in the running interpreter (the test extra)."""
    source = copy_source(workdir / "source")
    out = workdir / "wheel"
    build = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(out), str(source)])
    [wheel] = out.glob("cf_guidance-*.whl")
    return wheel, build.stderr


def deps_venv(where: Path) -> Path:
    """A venv at `where` without pip, whose site-packages see the running interpreter's (a .pth line)."""
    _run([sys.executable, "-m", "venv", "--without-pip", str(where)])
    python = where / "bin" / "python"
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    Path(purelib, "_cf_guidance_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return where


def make_venv(where: Path, wheel: Path) -> Path:
    """A venv at `where` with `wheel` installed as pip installs it; returns `where`."""
    deps_venv(where)
    _run([sys.executable, "-m", "pip", "--python", str(where / "bin" / "python"), "install", "--quiet", "--no-deps",
          "--no-index", str(wheel)])
    return where

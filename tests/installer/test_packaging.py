"""What a user installs: the wheel ships one import package of our own, a regular install and a
pipx install run the portable hook, PyPI's `guidance` beside it changes nothing, and a committed
wiring works in another clone (with the tool) and speaks up in one line (without it).

A regular install here is the wheel built from this checkout, installed with --no-deps into a
venv whose dependencies come from this test venv (a .pth line), so it needs no index. The tests
that need the package index (PyPI's `guidance`, pipx) skip with the reason when it is unreachable.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from benchmarks.regular_install import REPO, build_wheel, copy_source, make_venv
from cf_guidance.installer.wiring import parse

POLICY = "# Repo\n\n## Rules\n\n- Never run `make deploy`.\n"


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


def _run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False, **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{argv}: {done.stdout[-1500:]} {done.stderr[-1500:]}"
    return done  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout, built offline from a copy (the checkout stays clean)."""
    built, stderr = build_wheel(tmp_path_factory.mktemp("build"))
    assert "warning" not in stderr.lower(), stderr  # e.g. setuptools' package-data warning
    return built


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    return make_venv(tmp_path_factory.mktemp("regular") / "venv", wheel)


def index_reachable() -> str:
    """"" when pip can reach the package index, else why not."""
    import tempfile

    with tempfile.TemporaryDirectory() as dest:
        try:
            done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", dest, "guidance"],
                                  capture_output=True, text=True, timeout=120, check=False)
        except subprocess.TimeoutExpired:
            return "the package index did not answer within 120 s"
    return "" if done.returncode == 0 else f"pip cannot reach the package index: {done.stderr.strip()[-300:]}"


def env_without_tool(home: Path, path: str = "/usr/bin:/bin") -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_", "VIRTUAL_ENV"))}
    environ.update(HOME=str(home), PATH=path)
    return environ


def test_the_wheel_ships_one_import_package_of_our_own(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert top == {"cf_guidance", "cf_guidance-0.1.0.dist-info", "cf_guidance-0.1.0.data"}, top
    for needed in ("cf_guidance/hooks/launcher.py", "cf_guidance/installer/install.py", "cf_guidance/py.typed",
                   "cf_guidance/headless/starter/compliance.yaml", "cf_guidance-0.1.0.data/scripts/cf-guidance-hook"):
        assert needed in names, needed
    entry_points = zipfile.ZipFile(wheel).read("cf_guidance-0.1.0.dist-info/entry_points.txt").decode()
    assert "cf-guidance = cf_guidance.cli:main" in entry_points


#: Runs one backend's build_editable in a copy of the checkout and prints the warnings it issued.
EDITABLE_WARNINGS = """
import sys, warnings
name, out, report = sys.argv[1:4]  # setuptools rewrites sys.argv while it builds
sys.path.insert(0, "scripts")
backend = __import__(name, fromlist=["build_editable"])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    backend.build_editable(out)
open(report, "w").write("\\n".join(str(w.message) for w in caught))
"""


def test_an_editable_install_prints_no_warning(tmp_path: Path) -> None:
    """setuptools warns on every mapped editable install ("Please be careful with folders in your
    working directory ..."); scripts/build_backend.py mutes that one, and nothing else."""
    source = copy_source(tmp_path / "source")
    said = {}
    for backend in ("build_backend", "setuptools.build_meta"):
        out = tmp_path / backend
        out.mkdir()
        _run([sys.executable, "-c", EDITABLE_WARNINGS, backend, str(out), str(out / "warnings.txt")], cwd=source)
        said[backend] = (out / "warnings.txt").read_text()
    assert "same name as your package" in " ".join(said["setuptools.build_meta"].split())  # the control: it is there
    assert said["build_backend"].strip() == "", said["build_backend"]


def test_a_regular_install_runs_the_cli_and_the_portable_hook(installed: Path, tmp_path: Path) -> None:
    bin_dir = installed / "bin"
    hook = bin_dir / "cf-guidance-hook"
    assert hook.read_text().splitlines()[0] == f"#!{bin_dir / 'python'}"  # the installer points it at its venv
    assert _run([str(bin_dir / "cf-guidance"), "--help"]).stdout.startswith("Usage: cf-guidance")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "CLAUDE.md").write_text(POLICY)
    env = env_without_tool(tmp_path, f"{bin_dir}:/usr/bin:/bin")
    done = _run([str(bin_dir / "cf-guidance"), "init", "--target", str(repo)], env=env)
    assert "verify: all checks passed" in done.stdout, done.stdout
    # on a cache hit the portable command's process imports nothing heavy: site, but no re, typing, json, ...
    command = next(group["hooks"][0]["command"] for group in json.loads((repo / ".claude/settings.json").read_text())
                   ["hooks"]["PreToolUse"] if group.get("matcher") == "Bash")
    event = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "git status"},
                        "cwd": str(repo), "session_id": "s"})
    for hookd in ("0", "1"):
        timed = subprocess.run(["/bin/sh", "-c", command], input=event, capture_output=True, text=True, timeout=60,
                               env=dict(env, CLAUDE_PROJECT_DIR=str(repo), GUIDANCE_HOOKD=hookd, PYTHONPROFILEIMPORTTIME="1"))
        assert timed.returncode == 0 and timed.stdout == "", timed.stderr[-2000:]
        modules = {line.rsplit("|", 1)[1].strip() for line in timed.stderr.splitlines() if line.startswith("import time:")}
        heavy = {"re", "typing", "json", "pathlib", "enum", "dataclasses", "subprocess", "pydantic", "click", "markdown_it"}
        assert not modules & heavy, sorted(modules & heavy)


def test_pypis_guidance_beside_it_changes_nothing(tmp_path: Path, wheel: Path) -> None:
    reason = index_reachable()
    if reason:
        pytest.skip(reason)
    venv = make_venv(tmp_path / "venv", wheel)
    _run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet", "guidance"])
    theirs = _run([str(venv / "bin" / "python"), "-c", "import guidance, importlib.metadata as m; "
                   "print(guidance.__file__, m.version('guidance'))"], cwd=tmp_path).stdout  # not the checkout's guidance/
    assert "/site-packages/guidance/__init__.py" in theirs  # Microsoft's, installed where ours used to collide
    assert _run([str(venv / "bin" / "cf-guidance"), "--help"], cwd=tmp_path).returncode == 0
    event = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}})
    denied = _run([str(venv / "bin" / "cf-guidance-hook"), "pre-bash"], input=event,
                  env=dict(env_without_tool(tmp_path), CLAUDE_PROJECT_DIR=str(tmp_path), GUIDANCE_HOOKD="0"))
    assert json.loads(denied.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def committed_repo(tmp_path: Path) -> Path:
    """A repository wired by `init` (project scope) and committed as a team would."""
    origin = tmp_path / "origin"
    origin.mkdir()
    _run(["git", "init", "-q", str(origin)])
    (origin / "CLAUDE.md").write_text(POLICY)
    _run([sys.executable, "-c", "import sys; from cf_guidance.cli import main; sys.exit(main())", "init", "--no-verify",
          "--target", str(origin)])
    _run(["git", "-C", str(origin), "add", "-A"])
    _run(["git", "-C", str(origin), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "wire cf-guidance"])
    tracked = set(_run(["git", "-C", str(origin), "ls-files"]).stdout.split())
    assert tracked == {".claude/settings.json", ".gitignore", "CLAUDE.md"}, tracked
    return origin


def run_wired(clone: Path, command_text: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    settings = json.loads((clone / ".claude/settings.json").read_text())
    command = next(g["hooks"][0]["command"] for g in settings["hooks"]["PreToolUse"] if g.get("matcher") == "Bash")
    assert parse(command) is not None and str(REPO) not in command
    event = json.dumps({"session_id": "s", "cwd": str(clone), "hook_event_name": "PreToolUse", "tool_name": "Bash",
                        "tool_input": {"command": command_text}, "tool_use_id": "t"})
    return subprocess.run(["/bin/sh", "-c", command], input=event, capture_output=True, text=True, cwd=clone,
                          env=dict(env, CLAUDE_PROJECT_DIR=str(clone)), timeout=60, check=False)


def verdict(done: subprocess.CompletedProcess[str]) -> str:
    if done.returncode == 2:
        return "deny"
    if done.returncode == 0 and not done.stdout:
        return "allow"
    return str(json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"])


def test_a_clone_elsewhere_with_another_home_works_with_the_tool_and_speaks_up_without(tmp_path: Path, installed: Path) -> None:
    clone = tmp_path / "second path" / "clone"
    _run(["git", "clone", "-q", str(committed_repo(tmp_path)), str(clone)])
    home = tmp_path / "teammate"
    home.mkdir()
    with_tool = env_without_tool(home, f"{installed / 'bin'}:/usr/bin:/bin")
    assert verdict(run_wired(clone, "rm -rf /", with_tool)) == "deny"
    assert verdict(run_wired(clone, "make deploy", with_tool)) == "deny"  # the committed CLAUDE.md's own ban
    assert verdict(run_wired(clone, "git status", with_tool)) == "allow"
    without = run_wired(clone, "git status", env_without_tool(home))
    assert without.returncode == 2 and without.stdout == "" and without.stderr.count("\n") == 1
    assert without.stderr.startswith("cf-guidance is not installed: install it (pipx install cf-guidance")
    # the teammate's own `init` makes the local state (key, CLAUDE.local.md) and changes no committed file
    done = _run([str(installed / "bin" / "cf-guidance"), "init", "--target", str(clone)], env=with_tool)
    assert "verify: all checks passed" in done.stdout, done.stdout
    assert _run(["git", "-C", str(clone), "status", "--porcelain"]).stdout == ""
    # ... and links the tool that wired it into that state: this machine works with the tool off PATH
    assert verdict(run_wired(clone, "make deploy", env_without_tool(home))) == "deny"
    assert verdict(run_wired(clone, "git status", env_without_tool(home))) == "allow"
    # an installation removed under the link is missing again, and says so
    link = clone / ".claude-flow" / "guidance" / "bin" / "cf-guidance-hook"
    link.unlink()
    link.symlink_to(tmp_path / "removed" / "cf-guidance-hook")
    gone = run_wired(clone, "git status", env_without_tool(home))
    assert gone.returncode == 2 and gone.stdout == "" and gone.stderr.count("\n") == 1
    assert gone.stderr.startswith("cf-guidance is not installed: install it (pipx install cf-guidance")


def test_a_pipx_install_is_found_in_the_users_bin_dir(tmp_path: Path) -> None:
    """pipx puts cf-guidance-hook in ~/.local/bin, which the portable command also searches."""
    reason = index_reachable()
    if reason:
        pytest.skip(reason)
    home = tmp_path / "teammate"
    env = env_without_tool(home, f"{Path(sys.executable).parent}:/usr/bin:/bin")
    env.update(PIPX_HOME=str(home / ".local/pipx"), PIPX_BIN_DIR=str(home / ".local/bin"), PIPX_MAN_DIR=str(home / ".local/man"))
    source = copy_source(tmp_path / "cf-guidance")
    _run([sys.executable, "-m", "pipx", "install", "--python", sys.executable, str(source)], env=env)
    assert (home / ".local/bin/cf-guidance-hook").exists() and (home / ".local/bin/cf-guidance").exists()
    clone = tmp_path / "clone"
    _run(["git", "clone", "-q", str(committed_repo(tmp_path)), str(clone)])
    not_on_path = env_without_tool(home)  # PATH without ~/.local/bin: found through the fallback
    assert verdict(run_wired(clone, "make deploy", not_on_path)) == "deny"
    assert verdict(run_wired(clone, "git status", not_on_path)) == "allow"

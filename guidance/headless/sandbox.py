"""`--sandbox`: the client (and so the agent's tools and the hooks) under bubblewrap.

The whole file system is mounted read-only; only the run's directory (the project, its HOME
with the client's config dir, its TMPDIR: everything the client, its tools and the guard's
hooks and worker write) is writable. /tmp is private (what the run executes from /tmp, such as
a checkout there, is bound back read-only), /dev and /proc are the sandbox's own,
and the caller's Claude Code configuration (~/.claude, ~/.claude.json, $CLAUDE_CONFIG_DIR) is
hidden, so an agent cannot read the user's own CLAUDE.md by its absolute path. The network is
shared: the scripted executor's model server listens on 127.0.0.1. Processes live in a PID
namespace of their own and die with the sandbox.

Without `--sandbox` nothing stops a write outside the workspace; the runner reports those it
finds in the tool calls (`outside.outside_writes`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cf_guidance.errors import RunnerError

if TYPE_CHECKING:
    from cf_guidance.headless.workspace import Workspace

INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install -y bubblewrap) or run without --sandbox"
#: The mounts every sandbox starts with, before the run's own directory is bound writable.
BASE_MOUNTS = ("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp")


def find_bwrap() -> str:
    found = shutil.which("bwrap")
    if found is None:
        raise RunnerError(f"--sandbox needs bubblewrap (bwrap) on PATH; {INSTALL_HINT}")
    return found


def check_bwrap() -> None:
    """RunnerError (one line) when bubblewrap is missing or cannot create a sandbox here."""
    binary = find_bwrap()
    try:
        done = subprocess.run([binary, "--die-with-parent", "--unshare-pid", *BASE_MOUNTS, "true"],
                              capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RunnerError(f"bubblewrap cannot start ({exc}); {INSTALL_HINT}") from None
    if done.returncode != 0:
        detail = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        raise RunnerError(f"bubblewrap cannot create a sandbox here ({detail}); run without --sandbox")


def bwrap_argv(workspace: Workspace, argv: list[str]) -> list[str]:
    """`argv` wrapped so that it runs in the sandbox of `workspace`'s run."""
    root = str(workspace.root)
    out = [find_bwrap(), "--die-with-parent", "--unshare-pid", *BASE_MOUNTS]
    for top in installs_under_tmp(argv[0]):
        out += ["--ro-bind", top, top]
    out += ["--bind", root, root]
    for path in hidden_paths():
        if root == str(path) or root.startswith(f"{path}{os.sep}"):
            continue  # the run itself lives there (an unusual base dir): nothing to hide
        if path.is_dir():
            out += ["--tmpfs", str(path)]
        elif path.exists():
            out += ["--ro-bind", "/dev/null", str(path)]
    return [*out, "--chdir", str(workspace.project), "--", *argv]


def installs_under_tmp(program: str) -> list[str]:
    """The directories right under /tmp that hold what the run executes (the client, this Python
    and cf-guidance, whose hooks run inside): the private /tmp would hide them, so they are bound
    back read-only."""
    import cf_guidance

    found: list[str] = []
    for path in (shutil.which(program) or program, sys.prefix, sys.executable, os.path.dirname(cf_guidance.__file__)):
        for form in (os.path.abspath(path), os.path.realpath(path)):
            parts = Path(form).parts
            if len(parts) > 2 and parts[1] == "tmp":
                top = os.path.join(os.sep, "tmp", parts[2])
                if top not in found:
                    found.append(top)
    return found


def hidden_paths() -> list[Path]:
    """The caller's own Claude Code configuration, which a run must not see."""
    home = Path(os.path.expanduser("~"))
    paths = [home / ".claude", home / ".claude.json"]
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        paths.append(Path(configured))
    return paths

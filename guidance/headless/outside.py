"""What a run did outside its workspace, found in its tool calls.

Without `--sandbox` nothing stops the agent from writing outside the project, and the
workspace diff cannot see it. The tool calls can: a file tool's `file_path`, and for Bash the
paths the guard's shell analysis finds written or deleted (redirections, `rm`, `cp`, `mv`,
`tee`, `sed -i`, inline interpreter code, ...), resolved against the working directory the
command line's `cd`s lead to (`~` and `$HOME` are the run's own HOME). Paths hidden in
variables other than HOME are not resolved: this is what the calls show, not a file-system
audit (`--sandbox` is the guarantee).

The same calls show an agent reading the caller's own Claude Code configuration by absolute
path (the run's HOME is private, the user's is not): an isolation leak.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from cf_guidance.headless.collect import ToolCall

#: File tools and the input field naming the file they write.
FILE_WRITERS = {"Write": "file_path", "Edit": "file_path", "MultiEdit": "file_path", "NotebookEdit": "notebook_path"}
#: Targets that are not files a run leaves behind.
NOT_FILES = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/", "/proc/self/fd/")
_HOME_VARIABLE = re.compile(r"^(?:\$HOME|\$\{HOME\})(?=/|$)")


def outside_writes(calls: list[ToolCall], *, project: Path, home: Path, sandboxed: bool = False) -> list[dict[str, Any]]:
    """Writes outside `project`, one entry per (call, path): `tool`, `tool_use_id`, `path`
    (absolute), `ran` (False when the call was denied), `scope` ("run" for the run's own
    directory: its HOME and temp dir, removed with it; "machine" for everything else), and
    `sandboxed` (the write could not land: the run was in a sandbox where only its own
    directory is writable)."""
    inside = os.path.realpath(project)
    run_dir = os.path.dirname(inside)
    home = Path(os.path.realpath(home))
    cwd = inside
    found: list[dict[str, Any]] = []
    for call in calls:
        if call.name in FILE_WRITERS:
            value = call.input.get(FILE_WRITERS[call.name])
            targets = [_resolve(value, inside, home)] if isinstance(value, str) and value else []
        elif call.name == "Bash" and call.command:
            targets, after = _shell_writes(call.command, cwd, home)
            if call.ran:
                cwd = after
        else:
            continue
        for path in dict.fromkeys(t for t in targets if t):
            if _within(path, inside) or path.startswith(NOT_FILES):
                continue
            scope = "run" if _within(path, run_dir) else "machine"
            found.append({"tool": call.name, "tool_use_id": call.id, "path": path, "ran": call.ran, "scope": scope,
                          "sandboxed": sandboxed and scope == "machine"})
    return found


def user_config_reads(calls: list[ToolCall], user_paths: list[Path]) -> list[str]:
    """Leaks: calls that ran and name the caller's own Claude Code configuration by absolute path."""
    patterns = [(str(path), re.compile(re.escape(str(path)) + r"(?=$|[/\"'\s.\\])")) for path in user_paths
                if str(path) not in ("", "/")]
    leaks = []
    for call in calls:
        if not call.ran:
            continue
        text = json.dumps(call.input, ensure_ascii=False)
        named = next((path for path, pattern in patterns if pattern.search(text)), None)
        if named is not None:
            leaks.append(f"{call.name} call {call.id} reaches the user's own config at {named}")
    return leaks


def _shell_writes(command: str, cwd: str, home: Path) -> tuple[list[str], str]:
    """(absolute write targets, working directory after the line) of one Bash command line."""
    from cf_guidance.gates.commands.files import file_effects
    from cf_guidance.shell import analyze

    targets: list[str] = []
    for cmd in analyze(command).commands:
        if cmd.program == "cd" and not cmd.origin:
            words = [w for w in cmd.args if not w.startswith("-")]
            cwd = _resolve(words[0], cwd, home) if words else str(home)
            continue
        targets += [_resolve(path, cwd, home) for path in file_effects(cmd)[1]]
    return targets, cwd


def _resolve(path: str, cwd: str, home: Path) -> str:
    """`path` made absolute; "" when it hides behind a variable other than HOME."""
    if path == "~" or path.startswith("~/"):
        path = str(home) + path[1:]
    path = _HOME_VARIABLE.sub(lambda _: str(home), path)
    if "$" in path or "`" in path:
        return ""
    return os.path.normpath(os.path.join(cwd, path))


def _within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)

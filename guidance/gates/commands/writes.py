"""The files an event writes, by any tool, with the text it writes when the event shows it.

The supply-chain, repo-security and host gates judge a write by its target (a lockfile, a CI
workflow, a shell startup file) and by what it adds. A file tool (Write, Edit, MultiEdit,
NotebookEdit, apply_patch, an MCP write tool) shows the text; a shell command shows it when it
is a heredoc or here-string into `cat >`/`tee`, `echo`/`printf` words redirected or piped into
`tee`, or a `sed -i`/`perl -i` script. Anything else (`cp`, `mv`, a program's output) writes
text the line does not show (`added` None). Deletes (`rm`, `unlink`, ...) are not writes here:
they are the destructive gate's. Worked out once per event and shared.
"""

from __future__ import annotations

from cf_guidance.event import WRITE
from cf_guidance.gates.commands import resolver, resolver_at
from cf_guidance.gates.commands.files import file_effects, may_touch_files
from cf_guidance.gates.commands.summary import summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.gates._base import GateContext
    from cf_guidance.paths import Resolver
    from cf_guidance.shell.model import Command, ShellAnalysis


class Write:
    """One file an event writes: as given, the text added and removed (None: not shown), the
    command that writes it (None for file tools), and where it is (`place`, resolved on demand)."""

    __slots__ = ("path", "added", "removed", "cmd", "segment", "_paths", "_place")

    def __init__(self, path: str, added: str | None, removed: str, cmd: Command | None, segment: str, paths: Resolver) -> None:
        self.path = path
        self.added = added
        self.removed = removed
        self.cmd = cmd
        self.segment = segment
        self._paths = paths
        self._place: tuple[str | None, str] | None = None

    def place(self) -> tuple[str | None, str]:
        """(resolved path or None, kind of place: cf_guidance.paths), the literal path, not its links."""
        found = self._place
        if found is None:
            found = self._place = self._paths.where(self.path, real=False)
        return found

    def may_leave_project(self) -> bool:
        """False when the path is surely inside the project: relative, without `..`, `~` or `$`,
        written from a working directory inside it (no resolution needed)."""
        path = self.path
        if path[:1] in ("/", "~", "$") or ".." in path:
            return True
        return self._paths.relative_to_project(self._paths.cwd) is None

    def name(self) -> str:
        return self.path.rstrip("/").rsplit("/", 1)[-1]

    def new_lines(self) -> list[str]:
        """The lines added that were not there before (an Edit's unchanged context is not new)."""
        if not self.added:
            return []
        before = {line.strip() for line in self.removed.splitlines()}
        return [line for line in self.added.splitlines() if line.strip() and line.strip() not in before]

    def dropped_lines(self) -> list[str]:
        """The lines removed that the new text no longer has."""
        if not self.removed:
            return []
        after = {line.strip() for line in (self.added or "").splitlines()}
        return [line for line in self.removed.splitlines() if line.strip() and line.strip() not in after]


def writes_of(ctx: GateContext) -> list[Write]:
    """Every file the event writes, in order (computed once per event)."""
    found = ctx._writes
    if found is None:
        found = ctx._writes = _writes(ctx)
    return found


def _writes(ctx: GateContext) -> list[Write]:
    event = ctx.event
    out: list[Write] = []
    if event.command is None:
        for path, access in event.paths:
            if access == WRITE and path:
                out.append(Write(path, event.content, event.removed, None, f"{event.tool} {path}", resolver(ctx)))
        return out
    found = summary(ctx)
    if found is None or not found.writes:
        return out
    analysis = found.analysis
    for cmd in analysis.commands:
        if cmd.program in _DELETERS or not may_touch_files(cmd):
            continue
        targets = file_effects(cmd)[1]
        if not targets:
            continue
        paths = resolver_at(ctx, cmd)
        for target in targets:
            out.append(Write(target, written_text(cmd, target, analysis), "", cmd, cmd.text or " ".join(cmd.argv), paths))
    return out


_DELETERS = frozenset(("rm", "rmdir", "unlink", "shred", "srm", "wipe", "trash", "trash-put"))
#: Programs that change a file's metadata or size, adding no text.
_REMOVERS = frozenset(("truncate", "touch", "mkdir", "chmod", "chown", "chgrp", "chattr", "setfacl"))


def written_text(cmd: Command, target: str, analysis: ShellAnalysis | None) -> str | None:
    """The text `cmd` writes to `target` when the line shows it, else None ("" for removers,
    which add nothing)."""
    program = cmd.program
    if program in _REMOVERS:
        return ""
    redirected = any(t == target and ">" in op for op, t in cmd.redirects)
    if program in ("echo", "printf") and redirected:
        return " ".join(cmd.args)
    if program in ("cat", "tee") and (redirected or program == "tee"):
        if cmd.stdin:
            return cmd.stdin
        if analysis is not None and cmd.pipe_prev in ("echo", "printf"):
            for other in analysis.commands:
                if other.program == cmd.pipe_prev and other.pipe_next == program:
                    return " ".join(other.args)
        return None
    if program in ("sed", "perl"):
        return " ".join(a for a in cmd.args if a != target and not a.startswith("-i"))
    return None

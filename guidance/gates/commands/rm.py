"""Deletions: rm/rmdir/unlink/shred, `find -delete` / `find -exec rm`, and what they target."""

from __future__ import annotations

from cf_guidance.gates.commands import Args
from cf_guidance.shell.unwrap import FIND_ACTIONS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.gates._base import GateContext
    from cf_guidance.shell.model import Command, ShellAnalysis

DELETERS = frozenset(("rm", "rmdir", "unlink", "shred", "srm", "wipe", "trash", "trash-put", "gio"))
#: find actions that delete what find matched.
_FIND_DELETE_PROGRAMS = frozenset(("rm", "rmdir", "unlink", "shred", "srm"))
#: find options that take one value (so the value is not a start path).
_FIND_VALUE_TESTS = frozenset(("-maxdepth", "-mindepth", "-name", "-iname", "-path", "-ipath", "-type", "-newer", "-mtime", "-mmin", "-size", "-user", "-group", "-perm", "-regex", "-iregex", "-wholename", "-iwholename", "-atime", "-ctime", "-amin", "-cmin", "-links", "-inum", "-samefile", "-fstype", "-printf", "-fprint", "-uid", "-gid"))
#: Placeholder find/xargs substitute for each matched path.
PLACEHOLDERS = frozenset(("{}", "{} +", "{};"))


class Deletion:
    """One delete: the target as written, whether recursive, and the command that does it."""

    __slots__ = ("target", "recursive", "command", "via", "selective")

    def __init__(self, target: str | None, recursive: bool, command: Command, via: str, *, selective: bool = False) -> None:
        #: None when the targets are not known (rm fed by xargs from an unknown producer)
        self.target = target
        self.recursive = recursive
        self.command = command
        self.via = via
        #: True when only some entries below the target go (find with -name, -type, ...)
        self.selective = selective


def find_roots(args: list[str]) -> list[str]:
    """The start paths of `find ARGS` (default `.`)."""
    roots: list[str] = []
    i = 0
    # options before the paths: -H -L -P -D debugopts -Olevel
    while i < len(args) and (args[i] in ("-H", "-L", "-P", "-D") or args[i].startswith("-O")):
        i += 2 if args[i] == "-D" else 1
    while i < len(args):
        arg = args[i]
        if arg.startswith("-") or arg in ("(", "!", ")", "\\(", "\\!"):
            break
        roots.append(arg)
        i += 1
    return roots or ["."]


def find_deletes(args: list[str]) -> bool:
    """True when `find ARGS` deletes what it matches (-delete, -exec rm ..., -ok rm ...)."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-delete":
            return True
        if arg in FIND_ACTIONS and i + 1 < len(args):
            program = args[i + 1].rsplit("/", 1)[-1]
            if program in _FIND_DELETE_PROGRAMS:
                return True
            if program in ("sh", "bash") and any("rm " in a for a in args[i + 2 : i + 5]):
                return True
        if arg in _FIND_VALUE_TESTS:
            i += 1
        i += 1
    return False


def _rm_flags(cmd: Command) -> tuple[Args, bool]:
    parsed = Args(cmd.args)
    if cmd.program in ("rm", "srm", "gio"):
        recursive = parsed.has("-r", "-R", "--recursive")
    elif cmd.program in ("trash", "trash-put"):
        recursive = True  # trash moves directories whole
    else:
        recursive = False
    return parsed, recursive


def producer_paths(cmd: Command, analysis: ShellAnalysis | None) -> list[str] | None:
    """Paths that reach `xargs CMD` on stdin, when the producer is a find/ls/echo we can read."""
    if analysis is None:
        return None
    for other in analysis.commands:
        if other is cmd or other.pipe_next != "xargs":
            continue
        if other.program == "find":
            return find_roots(other.args)
        if other.program in ("fd", "fdfind"):
            return Args(other.args).positionals[1:] or ["."]
        if other.program in ("ls", "echo", "printf"):
            return Args(other.args).positionals or ["."]
        return None
    return None


def deletions(cmd: Command, analysis: ShellAnalysis | None) -> list[Deletion]:
    """Everything this command deletes (empty when it deletes nothing)."""
    program = cmd.program
    if program == "find":
        if find_deletes(cmd.args):
            selective = any(arg in _FIND_VALUE_TESTS or arg in ("-empty",) for arg in cmd.args)
            return [Deletion(root, True, cmd, "find", selective=selective) for root in find_roots(cmd.args)]
        return []
    if program not in DELETERS:
        return []
    if program == "gio" and cmd.args[:1] not in (["remove"], ["trash"]):
        return []
    parsed, recursive = _rm_flags(cmd)
    targets = [t for t in parsed.positionals if t and t not in PLACEHOLDERS]  # `rm -rf ""` deletes nothing
    if program == "gio":
        targets = targets[1:]
    if "find -exec" in cmd.origin and not targets:
        return []  # find's own roots are checked on the find command
    if not targets and cmd.origin.endswith("xargs"):
        if analysis is not None and any(
            other is not cmd and other.origin == cmd.origin and other.program == program and len(other.argv) > len(cmd.argv)
            for other in analysis.commands
        ):
            return []  # the analysis already appended the piped words to a copy of this command
        produced = producer_paths(cmd, analysis)
        if produced is None:
            return [Deletion(None, recursive, cmd, "xargs")]
        return [Deletion(path, True, cmd, "xargs", selective=True) for path in produced]
    return [Deletion(target, recursive, cmd, program) for target in targets]


def deletions_of(ctx: GateContext, cmd: Command) -> list[Deletion]:
    """`deletions(cmd, ctx.shell)`, worked out once per event: the catastrophe guard and the
    destructive gate both ask for every deleting command (kept on the context, never longer)."""
    if cmd.program != "find" and cmd.program not in DELETERS:
        return []
    memo = ctx._deletions
    if memo is None:
        memo = ctx._deletions = {}
    entry = memo.get(id(cmd))
    if entry is None or entry[0] is not cmd:
        entry = memo[id(cmd)] = (cmd, deletions(cmd, ctx.shell))
    return entry[1]

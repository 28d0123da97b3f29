"""Command families with their own logic (rm, git, find, databases, cloud, file effects).

Each module reads analysed `Command`s and says what they would do; the gates turn that
into findings. Hot path: standard library only.
"""

from __future__ import annotations

from cf_guidance.paths import Resolver, resolver_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.gates._base import GateContext
    from cf_guidance.shell.model import Command


class Args:
    """A command's arguments split into flags and positionals.

    `short` holds single-letter flags from clusters (`-rf` -> r, f), `long` the long options
    without values (`--force`, `--output=x` -> `--output`), `values` option values by option
    (`-C dir` -> values["-C"] = ["dir"] when `-C` takes a value), `positionals` the rest in
    order. `--` ends the options.
    """

    __slots__ = ("short", "long", "values", "positionals")

    def __init__(self, args: list[str], takes_value: frozenset[str] = frozenset()) -> None:
        short: set[str] = set()
        long: set[str] = set()
        values: dict[str, list[str]] = {}
        positionals: list[str] = []
        self.short = short
        self.long = long
        self.values = values
        self.positionals = positionals
        i = 0
        n = len(args)
        while i < n:
            arg = args[i]
            i += 1
            if arg[:1] != "-" or arg == "-":
                positionals.append(arg)
                continue
            if arg[1] == "-":
                if arg == "--":
                    positionals.extend(args[i:])
                    break
                name, eq, value = arg.partition("=")
                long.add(name)
                if eq:
                    values.setdefault(name, []).append(value)
                elif name in takes_value and i < n:
                    values.setdefault(name, []).append(args[i])
                    i += 1
                continue
            if arg[1].isdigit():
                positionals.append(arg)  # `-1`: a number, not a flag
                continue
            if not takes_value:
                short.update(arg[1:])  # the usual cluster (`-rf`): no letter can take a value
                continue
            for pos in range(1, len(arg)):
                letter = arg[pos]
                short.add(letter)
                if "-" + letter in takes_value:
                    value = arg[pos + 1 :]
                    if not value and i < n:
                        value = args[i]
                        i += 1
                    values.setdefault("-" + letter, []).append(value)
                    break

    def has(self, *names: str) -> bool:
        """True when any of `-x` (short letter) or `--long` is present."""
        for name in names:
            if name.startswith("--"):
                if name in self.long:
                    return True
            elif name[1:] in self.short:
                return True
        return False

    def value(self, *names: str) -> list[str]:
        out: list[str] = []
        for name in names:
            out.extend(self.values.get(name, ()))
        return out


#: Programs that run code given to them on stdin or as an argument.
SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "busybox", "csh", "tcsh"))
INTERPRETERS = frozenset(
    ("python", "python2", "python3", "node", "nodejs", "deno", "bun", "perl", "ruby", "php", "lua", "pwsh", "powershell",
     "tsx", "ts-node")
)
#: Builtins that run a file's code in the current shell (`source x.sh`, `. ./x.sh`).
SOURCERS = frozenset(("source", "."))
#: Programs that fetch from or send to the network.
FETCHERS = frozenset(("curl", "wget", "fetch", "http", "https", "xh", "aria2c"))
SENDERS = frozenset(("curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ssh", "scp", "sftp", "rsync", "ftp", "http", "https", "xh"))


def runs_script(program: str) -> bool:
    """An interpreter, a shell, or `source`: a program that may run a script its arguments name."""
    return program in SOURCERS or is_interpreter(program)


def is_interpreter(program: str) -> bool:
    if program in SHELLS or program in INTERPRETERS:
        return True
    # python3.11, node18, perl5.36 ...
    stripped = program.rstrip("0123456789.")
    return stripped in INTERPRETERS and stripped != program


def describe(cmd: object) -> str:
    """The text shown as the finding's segment: the command as written, or its words."""
    text = getattr(cmd, "text", "")
    if text:
        return str(text)
    argv = getattr(cmd, "argv", [])
    return " ".join(argv)


def resolver(ctx: GateContext) -> Resolver:
    """The path resolver of this event: its cwd, and the bundle's project root (one per event,
    kept on the context; ask only when there is a path to resolve)."""
    found = ctx._paths
    if found is None:
        event = ctx.event
        root = str(ctx.bundle.get("root") or event.project_dir or event.cwd or "")
        found = ctx._paths = resolver_for(event.cwd or root, root)
    return found


def resolver_at(ctx: GateContext, cmd: Command) -> Resolver:
    """The resolver for `cmd`, after the top-level `cd`s that run before it (`cd .. && rm -rf x`)."""
    at = ctx._paths_at
    if at is None or at[0] is not ctx._shell:
        analysis = ctx.shell
        if analysis is None:
            return resolver(ctx)
        # every gate asks for every command: the answers for this event's analysis are kept
        at = ctx._paths_at = (analysis, _cwd_by_command(analysis.commands, ctx))
    by_command = at[1]
    if by_command is None:
        return resolver(ctx)
    return by_command.get(id(cmd)) or resolver(ctx)


def _cwd_by_command(commands: list[Command], ctx: GateContext) -> dict[int, Resolver] | None:
    """Resolver per command when a `cd`/`pushd` changes directory on the way; None when none does."""
    for cmd in commands:
        if cmd.program == "cd" or cmd.program == "pushd":
            break
    else:
        return None
    base = resolver(ctx)
    by_command: dict[int, Resolver] = {}
    current = base
    for other in commands:
        by_command[id(other)] = current
        if other.program in ("cd", "pushd") and not other.origin:
            words = [a for a in other.args if not a.startswith("-") or a == "-"]
            target = words[0] if words else "~"
            where = current.resolve(target) if target != "-" else base.cwd
            if where is not None:
                current = Resolver(where, base.root, home=base.home, temps=base.temps)
    return by_command

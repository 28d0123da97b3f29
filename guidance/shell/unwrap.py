"""Wrappers and launchers: what a simple command really runs.

Hot path module: standard library only, no `typing` at run time.

A *wrapper* (`sudo`, `env`, `nice`, `timeout`, ...) only changes how its command runs: it
is stripped and recorded. A *launcher* runs further code that must be analysed on its own:
a shell string (`bash -c`, `eval`, `su -c`, `ssh host CMD`, `watch`, `parallel`), a command
vector (`xargs`, `find -exec`, `chroot`) or a shell reading its stdin (`bash <<EOF`). The
launcher itself stays a command, so gates still see `find ... -delete` or `curl | sh`.
"""

from __future__ import annotations

from cf_guidance.shell.model import program_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable


class Arg:
    """A word after expansion: `assign` if it may be an assignment (`NAME=` unquoted);
    `written` the shell word it came from, as written."""

    __slots__ = ("value", "dynamic", "assign", "written")

    def __init__(self, value: str, dynamic: bool = False, assign: bool = False, written: str = "") -> None:
        self.value = value
        self.dynamic = dynamic
        self.assign = assign
        self.written = written

    def __repr__(self) -> str:
        return f"Arg({self.value!r})"


class Nested:
    """Code a launcher runs. kind: "shell" (text is shell code), "argv" (args is a command),
    "stdin" (the shell reads the command's heredoc / here-string)."""

    __slots__ = ("kind", "label", "text", "args", "dynamic")

    def __init__(self, kind: str, label: str, text: str = "", args: list[Arg] | None = None, dynamic: bool = False) -> None:
        self.kind = kind
        self.label = label
        self.text = text
        self.args = args if args is not None else []
        self.dynamic = dynamic


_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")


def assignment(text: str) -> tuple[str, str] | None:
    """`NAME=value` / `NAME+=value` -> (NAME, value), else None."""
    eq = text.find("=")
    if eq <= 0:
        return None
    name = text[: eq - 1] if text[eq - 1] == "+" else text[:eq]
    if not name or name[0] not in _NAME_START or not all(c in _NAME_CHARS for c in name):
        return None
    return name, text[eq + 1 :]


def skip_options(args: list[Arg], i: int, short_arg: str = "", long_arg: frozenset[str] = frozenset()) -> int:
    """Index of the first operand at or after `i`: skips `-x`, `-xVALUE`, `-x VALUE` (for
    letters in `short_arg`), `--long=v`, `--long v` (for names in `long_arg`) and `--`."""
    n = len(args)
    while i < n:
        word = args[i].value
        if word == "--":
            return i + 1
        if len(word) < 2 or word[0] != "-":
            return i
        i = _skip_option(args, i, short_arg, long_arg)
    return i


def _skip_option(args: list[Arg], i: int, short_arg: str, long_arg: frozenset[str]) -> int:
    """Index after the one option at `i` (and its value)."""
    word = args[i].value
    if word.startswith("--"):
        return i + 2 if "=" not in word and word[2:] in long_arg else i + 1
    for k in range(1, len(word)):
        if word[k] in short_arg:
            return i + 2 if k == len(word) - 1 else i + 1
    return i + 1


def _simple(short_arg: str = "", long_arg: tuple[str, ...] = (), operands: int = 0) -> Callable[[list[Arg], int], int]:
    longs = frozenset(long_arg)

    def strip(args: list[Arg], i: int) -> int:
        return skip_options(args, i + 1, short_arg, longs) + operands

    return strip


def _command_builtin(args: list[Arg], i: int) -> int:
    j = i + 1
    while j < len(args) and args[j].value.startswith("-") and args[j].value != "--":
        if "v" in args[j].value or "V" in args[j].value:
            return -1  # `command -v rm` looks the name up, it does not run it
        j += 1
    if j < len(args) and args[j].value == "--":
        j += 1
    return j


def _flock(args: list[Arg], i: int) -> int:
    j = skip_options(args, i + 1, "wE", frozenset(("timeout", "wait", "conflict-exit-code")))
    j += 1  # lock file or descriptor
    if j < len(args) and args[j].value in ("-c", "--command"):
        return -1  # handled as a launcher
    return j


def _runuser(args: list[Arg], i: int) -> int:
    """`runuser -u USER [--] cmd` runs cmd; `runuser USER -c STR` is a launcher."""
    words = [a.value for a in args[i + 1 :]]
    if "-c" in words or "--command" in words or not any(w in ("-u", "--user") or w.startswith("--user=") for w in words):
        return -1
    return skip_options(args, i + 1, "ugGw", frozenset(("user", "group", "supp-group", "whitelist-environment")))


def _runner(subcommands: tuple[str, ...], short_arg: str = "", long_arg: tuple[str, ...] = ()) -> Callable[[list[Arg], int], int]:
    """`uv run`, `poetry run`, `npx`, ...: tools that run the command after their options."""
    longs = frozenset(long_arg)

    def strip(args: list[Arg], i: int) -> int:
        j = _after_subcommand(args, i, subcommands)
        return j if j < 0 else skip_options(args, j, short_arg, longs)

    return strip


def _after_subcommand(args: list[Arg], i: int, subcommands: tuple[str, ...]) -> int:
    """Where a runner's own options start: after its subcommand when it needs one, -1 when it is absent."""
    j = i + 1
    if not subcommands:
        return j
    return j + 1 if j < len(args) and args[j].value in subcommands else -1


def _tool_runner(subcommands: tuple[str, ...], short_arg: str = "", long_arg: tuple[str, ...] = (),
                 operands: int = 0) -> Callable[[list[Arg], int], int]:
    """Version managers and environment loaders (`mise exec node@20 -- npm test`, `asdf exec npm
    test`, `direnv exec . npm test`, `dotenv -e .env -- npm test`): after the subcommand (if
    any), the command follows a `--` when there is one, else the options and `operands` words."""
    longs = frozenset(long_arg)

    def strip(args: list[Arg], i: int) -> int:
        j = _after_subcommand(args, i, subcommands)
        if j < 0:
            return -1
        for k in range(j, len(args)):
            if args[k].value == "--":
                return k + 1
        return skip_options(args, j, short_arg, longs) + operands

    return strip


def _nix(args: list[Arg], i: int) -> int:
    """`nix develop [FLAKE] -c cmd` / `nix shell PKG... --command cmd`: the command after -c."""
    if i + 1 >= len(args) or args[i + 1].value not in ("develop", "shell"):
        return -1
    for k in range(i + 2, len(args)):
        if args[k].value in ("-c", "--command"):
            return k + 1
    return -1


def _assigning(args: list[Arg], i: int) -> int:
    """`cross-env NODE_ENV=test jest`: NAME=value words, then the command."""
    j = i + 1
    while j < len(args) and assignment(args[j].value) is not None:
        j += 1
    return j


#: The subcommand through which a runner runs a command (`uv run pytest`): how a rule names it.
RUNNER_SUBCOMMANDS: dict[str, tuple[str, ...]] = {
    "uv": ("run",), "poetry": ("run",), "pipenv": ("run",), "pdm": ("run",), "hatch": ("run",), "conda": ("run",),
    "mamba": ("run",), "pnpm": ("exec", "dlx"), "pipx": ("run",), "bundle": ("exec",),
}

#: Wrapper name -> function returning the index of the wrapped command (or -1: not a wrapper).
WRAPPERS: dict[str, Callable[[list[Arg], int], int]] = {
    "sudo": _simple("ugpCrtUDRT", ("user", "group", "prompt", "close-from", "role", "type", "other-user", "chdir", "chroot", "command-timeout", "host")),
    "doas": _simple("uC"),
    "command": _command_builtin,
    "builtin": _simple(),
    "exec": _simple("a"),
    "nohup": _simple(),
    "nice": _simple("n", ("adjustment",)),
    "ionice": _simple("cnpPu", ("class", "classdata", "pid", "pgid", "uid")),
    "timeout": _simple("sk", ("signal", "kill-after"), operands=1),
    "time": _simple("fo", ("format", "output")),
    "stdbuf": _simple("ioe", ("input", "output", "error")),
    "setsid": _simple(),
    "flock": _flock,
    "caffeinate": _simple("tw"),
    "unbuffer": _simple(),
    "torsocks": _simple("uapP"),
    "proxychains": _simple("f"),
    "proxychains4": _simple("f"),
    "chrt": _simple(operands=1),
    "taskset": _simple(operands=1),
    "nocorrect": _simple(),
    "noglob": _simple(),
    "busybox": _simple(),
    "xvfb-run": _simple("nselpaf", ("server-num", "server-args", "error-file", "auth-file", "xauth-protocol")),
    "coproc": _simple(),
    "runuser": _runuser,
    "uv": _runner(RUNNER_SUBCOMMANDS["uv"], "p", ("with", "python", "project", "directory", "env-file", "extra", "group", "package", "with-requirements", "index", "index-url")),
    "poetry": _runner(RUNNER_SUBCOMMANDS["poetry"], "C", ("directory", "project")),
    "pipenv": _runner(RUNNER_SUBCOMMANDS["pipenv"]),
    "pdm": _runner(RUNNER_SUBCOMMANDS["pdm"], "p", ("project",)),
    "hatch": _runner(RUNNER_SUBCOMMANDS["hatch"], "e", ("env",)),
    "conda": _runner(RUNNER_SUBCOMMANDS["conda"], "np", ("name", "prefix", "cwd")),
    "mamba": _runner(RUNNER_SUBCOMMANDS["mamba"], "np", ("name", "prefix", "cwd")),
    "npx": _runner((), "pc", ("package", "call")),
    "bunx": _runner(()),
    "pnpm": _runner(RUNNER_SUBCOMMANDS["pnpm"], "C", ("dir",)),
    "uvx": _runner((), "p", ("from", "with", "python")),
    "pipx": _runner(RUNNER_SUBCOMMANDS["pipx"], "", ("spec", "python")),
    "bundle": _runner(RUNNER_SUBCOMMANDS["bundle"], "", ("gemfile",)),
    "mise": _tool_runner(("exec", "x"), "C", ("cd", "jobs")),
    "rtx": _tool_runner(("exec", "x"), "C", ("cd",)),
    "asdf": _tool_runner(("exec",)),
    "direnv": _tool_runner(("exec",), operands=1),
    "devbox": _tool_runner(("run",), "c", ("config",)),
    "dotenv": _tool_runner((), "ecv", ()),
    "env-cmd": _tool_runner((), "fer", ("file", "environments", "rc-file")),
    "cross-env": _assigning,
    "nix": _nix,
}
#: `env` is a wrapper with its own rules (assignments, -S), handled apart from WRAPPERS.
_ENV = "env"
_ENV_SHORT_ARG = "uCP"
_ENV_LONG_ARG = frozenset(("unset", "chdir", "split-string", "default-signal", "ignore-signal", "block-signal"))


def strip_wrappers(args: list[Arg]) -> tuple[list[Arg], list[tuple[str, str]], list[str]]:
    """Remove leading assignments and wrappers; returns (command args, assignments, wrappers).

    A wrapper with nothing left to run (`sudo -l`, `env`, `command -v rm`) is the command.
    """
    assignments: list[tuple[str, str]] = []
    wrappers: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg.assign:
            pair = assignment(arg.value)
            if pair is not None:
                assignments.append(pair)
                i += 1
                continue
        if arg.dynamic:
            break
        name = program_name(arg.value)
        if name == _ENV:
            j, args = _env(args, i, assignments)
        else:
            strip = WRAPPERS.get(name)
            if strip is None:
                break
            j = strip(args, i)
        if j < 0 or j >= len(args):
            break
        wrappers.append(name)
        i = j
    return args[i:], assignments, wrappers


def _env(args: list[Arg], i: int, assignments: list[tuple[str, str]]) -> tuple[int, list[Arg]]:
    """`env [-i] [-u NAME] [-S STRING] [NAME=V]... cmd`: -S splits its string into words."""
    j = i + 1
    n = len(args)
    found: list[tuple[str, str]] = []
    while j < n:
        word = args[j].value
        split = ""
        if word in ("-S", "--split-string") and j + 1 < n:
            split = args[j + 1].value
            j += 2
        elif word.startswith("--split-string="):
            split = word[len("--split-string=") :]
            j += 1
        elif word.startswith("-") and not word.startswith("--") and "S" in word:
            # -S, -S'cmd', bundled -iS 'cmd'
            rest = word[word.index("S") + 1 :]
            if rest:
                split = rest
                j += 1
            elif j + 1 < n:
                split = args[j + 1].value
                j += 2
            else:
                j += 1
        elif word == "-" or word == "--":
            j += 1
            if word == "--":
                break
            continue
        elif word.startswith("-"):
            j = _skip_option(args, j, _ENV_SHORT_ARG, _ENV_LONG_ARG)
            continue
        else:
            pair = assignment(word)
            if pair is None:
                break
            found.append(pair)
            j += 1
            continue
        if split:
            from cf_guidance.shell.lexer import split_words

            dynamic = "$" in split
            args = args[:j] + [Arg(w, dynamic) for w in split_words(split)] + args[j:]
    if j < n:
        assignments.extend(found)
    return j, args


#: Builtins that set the variables named in their arguments in ways the analysis does not read.
SETTERS = frozenset(("read", "mapfile", "readarray", "unset", "getopts", "printf", "let", "local", "declare", "typeset", "export", "readonly"))


# -- launchers ------------------------------------------------------------------------

SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "mksh", "yash", "ash", "rbash", "fish", "csh", "tcsh", "pdksh", "oksh", "posh"))
_SHELL_LONG_ARG = frozenset(("rcfile", "init-file"))


def nested(args: list[Arg], has_stdin: bool) -> list[Nested]:
    """What a command (already stripped of wrappers) launches in turn."""
    name = program_name(args[0].value)
    if name in SHELLS:
        return _shell(name, args, has_stdin)
    launcher = _LAUNCHERS.get(name)
    if launcher is None and ("\\" in name or name[-4:].lower() == ".exe"):
        launcher = _LAUNCHERS.get(name.rsplit("\\", 1)[-1].lower())  # C:\Windows\System32\cmd.exe
    found = launcher(args) if launcher is not None else []
    if not found and has_stdin and _shell_on_stdin(name, [a.value for a in args[1:]]):
        return [Nested("stdin", f"{name} <<")]
    return found


_STDIN_PATHS = frozenset(("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"))


def _shell_on_stdin(name: str, words: list[str]) -> bool:
    """Commands that run a shell reading its stdin: `sudo -s`, `su`, `source /dev/stdin`."""
    if name in ("sudo", "doas"):
        return any(w in ("-s", "-i", "--shell", "--login") or (w.startswith("-") and not w.startswith("--") and ("s" in w or "i" in w)) for w in words)
    if name in ("su", "runuser"):
        return True  # without -c (a launcher above) they start a shell
    if name in ("at", "batch"):
        return not any(w.startswith("-f") or w in ("-l", "-r", "-d", "-c") for w in words)  # `at -f FILE`: a script file
    if name in ("source", "."):
        return bool(words) and words[0] in _STDIN_PATHS
    return False


def _shell(name: str, args: list[Arg], has_stdin: bool) -> list[Nested]:
    i = 1
    n = len(args)
    command_mode = False
    while i < n:
        word = args[i].value
        if word == "--" or word == "-":
            i += 1
            break
        if word.startswith("--"):
            i += 2 if word[2:] in _SHELL_LONG_ARG else 1
            continue
        if len(word) < 2 or word[0] not in "-+":
            break
        i += 1
        letters = word[1:]
        if "c" in letters:
            command_mode = True
        if "o" in letters or "O" in letters:
            i += 1  # -o option-name
    if command_mode:
        if i >= n:
            return []
        code = args[i]
        return [Nested("shell", f"{name} -c", text=code.value, dynamic=code.dynamic)]
    if has_stdin and (i >= n or args[i].value in _STDIN_PATHS):
        return [Nested("stdin", f"{name} <<")]
    return []


def _eval(args: list[Arg]) -> list[Nested]:
    if len(args) < 2:
        return []
    return [Nested("shell", "eval", text=" ".join(a.value for a in args[1:]), dynamic=any(a.dynamic for a in args[1:]))]


def _su(args: list[Arg]) -> list[Nested]:
    label = f"{program_name(args[0].value)} -c"
    for k in range(1, len(args)):
        word = args[k].value
        if word in ("-c", "--command") and k + 1 < len(args):
            return [Nested("shell", label, text=args[k + 1].value, dynamic=args[k + 1].dynamic)]
        if word.startswith("--command="):
            return [Nested("shell", label, text=word[10:], dynamic=args[k].dynamic)]
    return []


_SSH_SHORT_ARG = "bcDEeFIiJLlmOopQRSWwB"


def _ssh(args: list[Arg]) -> list[Nested]:
    i = skip_options(args, 1, _SSH_SHORT_ARG)
    if i + 1 >= len(args):
        return [Nested("stdin", "ssh")] if i < len(args) else []
    rest = args[i + 1 :]
    return [Nested("shell", "ssh", text=" ".join(a.value for a in rest), dynamic=any(a.dynamic for a in rest))]


_XARGS_SHORT_ARG = "adEILnPsR"
_XARGS_LONG_ARG = frozenset(("arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"))


def _xargs(args: list[Arg]) -> list[Nested]:
    i = 1
    n = len(args)
    while i < n:
        word = args[i].value
        if word == "--":
            i += 1
            break
        if not word.startswith("-") or word == "-":
            break
        if word.startswith("--"):
            i += 2 if "=" not in word and word[2:] in _XARGS_LONG_ARG else 1
            continue
        # -i, -e and -l take an optional attached value only
        if word[1] in _XARGS_SHORT_ARG and len(word) == 2:
            i += 2
        else:
            i += 1
    if i >= n:
        return [Nested("argv", "xargs", args=[Arg("echo")], dynamic=True)]
    return [Nested("argv", "xargs", args=args[i:], dynamic=True)]


#: find actions that run a command on what find matched (`{}`), up to `;` or `+`
FIND_ACTIONS = frozenset(("-exec", "-execdir", "-ok", "-okdir"))


def _find(args: list[Arg]) -> list[Nested]:
    found: list[Nested] = []
    i = 1
    n = len(args)
    while i < n:
        if args[i].value in FIND_ACTIONS:
            j = i + 1
            while j < n and args[j].value not in (";", "+"):
                j += 1
            inner = args[i + 1 : j]
            if inner:
                dynamic = any("{}" in a.value for a in inner)
                found.append(Nested("argv", "find -exec", args=inner, dynamic=dynamic))
            i = j + 1
        else:
            i += 1
    return found


_PARALLEL_SHORT_ARG = "aCdEIjJnNSX"
_PARALLEL_LONG_ARG = frozenset(("arg-file", "colsep", "delimiter", "jobs", "sshlogin", "max-args", "timeout", "joblog", "results", "workdir", "env", "replace", "tmpdir", "halt", "retries", "delay"))
_PARALLEL_SEPARATORS = frozenset((":::", "::::", ":::+", "::::+"))


def _parallel(args: list[Arg]) -> list[Nested]:
    i, j = _parallel_template(args)
    template = args[i:j]
    if template:
        text = " ".join(a.value for a in template)
        inputs = args[j + 1 :] if j < len(args) and args[j].value == ":::" else []
        if inputs and len(inputs) <= _PARALLEL_MAX_INPUTS and _only_plain_placeholder(text) and not any(a.dynamic or a.value in _PARALLEL_SEPARATORS for a in inputs):
            # one command per input: `{}` replaced by it, or the input appended
            return [Nested("shell", "parallel", text=text.replace("{}", a.value) if "{}" in text else f"{text} {a.value}") for a in inputs]
        return [Nested("shell", "parallel", text=text, dynamic=True)]
    if any(a.value.startswith("::::") for a in args[j:]):
        return []  # no template, commands read from a file: not known (the destructive gate asks)
    # no template: every `:::` input is itself a command
    return [Nested("shell", "parallel", text=a.value, dynamic=a.dynamic) for a in args[j:] if a.value not in _PARALLEL_SEPARATORS]


def _parallel_template(args: list[Arg]) -> tuple[int, int]:
    """Where parallel's command template starts and ends (at the first input separator)."""
    i = skip_options(args, 1, _PARALLEL_SHORT_ARG, _PARALLEL_LONG_ARG)
    j = i
    while j < len(args) and args[j].value not in _PARALLEL_SEPARATORS:
        j += 1
    return i, j


def parallel_reads_commands(argv: list[str]) -> bool:
    """`parallel` without a command template runs its input lines as commands: from stdin or a
    `::::` file (literal `:::` inputs are analysed as commands instead)."""
    args = [Arg(v) for v in argv]
    i, j = _parallel_template(args)
    return i == j and (j == len(args) or any(a.value.startswith("::::") for a in args[j:]))


#: Literal `:::` inputs read one by one (more: the template alone, dynamic).
_PARALLEL_MAX_INPUTS = 16


def _only_plain_placeholder(text: str) -> bool:
    """The template's only replacement string is `{}` (`{.}`, `{/}`, `{#}` are not read)."""
    return "{" not in text.replace("{}", "")


def _watch(args: list[Arg]) -> list[Nested]:
    i = 1
    n = len(args)
    exec_mode = False
    while i < n and args[i].value.startswith("-"):
        word = args[i].value
        if word == "--":
            i += 1
            break
        if word in ("-x", "--exec"):
            exec_mode = True
        i += 2 if word in ("-n", "--interval", "-q", "--equexit") else 1
    rest = args[i:]
    if not rest:
        return []
    if exec_mode:
        return [Nested("argv", "watch", args=rest)]
    return [Nested("shell", "watch", text=" ".join(a.value for a in rest), dynamic=any(a.dynamic for a in rest))]


def _flock_launcher(args: list[Arg]) -> list[Nested]:
    j = skip_options(args, 1, "wE", frozenset(("timeout", "wait", "conflict-exit-code"))) + 1
    if j + 1 < len(args) and args[j].value in ("-c", "--command"):
        return [Nested("shell", "flock -c", text=args[j + 1].value, dynamic=args[j + 1].dynamic)]
    return []


def _chroot(args: list[Arg]) -> list[Nested]:
    i = skip_options(args, 1, "", frozenset(("userspec", "groups"))) + 1
    return [Nested("argv", "chroot", args=args[i:])] if i < len(args) else []


def _script(args: list[Arg]) -> list[Nested]:
    """`script -c CMD`, `script -qc CMD`, `script --command=CMD`: CMD runs in a new terminal."""
    for k in range(1, len(args)):
        word = args[k].value
        if word.startswith("--command="):
            return [Nested("shell", "script -c", text=word[10:], dynamic=args[k].dynamic)]
        if (word == "--command" or (word[:1] == "-" and word[1:2] != "-" and word.endswith("c"))) and k + 1 < len(args):
            return [Nested("shell", "script -c", text=args[k + 1].value, dynamic=args[k + 1].dynamic)]
    return []


#: tmux commands that run a shell command (given after their options), and the options of
#: each that take a value.
_TMUX_RUNNERS = {
    "new-session": "cefnstxyF", "new": "cefnstxyF", "new-window": "cefnstF", "neww": "cefnstF",
    "split-window": "celptF", "splitw": "celptF", "respawn-pane": "cet", "respawnp": "cet",
    "respawn-window": "cet", "respawnw": "cet", "run-shell": "dtc", "run": "dtc",
    "display-popup": "bcdehsStTwxy", "popup": "bcdehsStTwxy", "pipe-pane": "t", "pipep": "t", "if-shell": "t", "if": "t",
}
#: tmux key names that end a line typed with send-keys (others, such as C-c, type no text).
_TMUX_ENTER = frozenset(("Enter", "C-m", "C-j", "KPEnter", "^M", "^J"))
_TMUX_KEYS = {"Space": " ", "Tab": "\t", "BSpace": ""}


def _tmux(args: list[Arg]) -> list[Nested]:
    """tmux runs shell commands in new sessions, windows and panes (`tmux new -d 'cmd'`,
    `run-shell`, `popup`, `if-shell`), and types text into a pane's shell (`send-keys ...
    'rm -rf ~' Enter`): both are analysed as shell code. Commands chained with `;` too."""
    i = skip_options(args, 1, "LSfT")
    found: list[Nested] = []
    if any(a.value == "-c" for a in args[1:i]):  # `tmux -c CMD`: like `sh -c`
        k = next(k for k in range(1, i) if args[k].value == "-c")
        if k + 1 < len(args):
            found.append(Nested("shell", "tmux", text=args[k + 1].value, dynamic=args[k + 1].dynamic))
    while i < len(args):
        end = i
        while end < len(args) and args[end].value not in (";", "\\;"):
            end += 1
        found.extend(_tmux_command(args[i:end]))
        i = end + 1
    return found


def _tmux_command(words: list[Arg]) -> list[Nested]:
    if not words:
        return []
    name = words[0].value
    if name in ("send-keys", "send"):
        flags = {letter for w in words[1:] if w.value[:1] == "-" for letter in w.value[1:]}
        if "X" in flags or "H" in flags:
            return []  # copy-mode commands or hex keys: no shell text
        k = skip_options(words, 1, "tN")
        text: list[str] = []
        for word in words[k:]:
            value = word.value
            if "l" in flags:
                text.append(value)
            elif value in _TMUX_ENTER:
                text.append("\n")
            elif value in _TMUX_KEYS:
                text.append(_TMUX_KEYS[value])
            elif not _tmux_key_name(value):
                text.append(value)
        typed = "".join(text)
        return [Nested("shell", "tmux send-keys", text=typed, dynamic=any(w.dynamic for w in words[k:]))] if typed.strip() else []
    takes_value = _TMUX_RUNNERS.get(name)
    if takes_value is None:
        return []
    k = skip_options(words, 1, takes_value)
    rest = words[k : k + 1] if name in ("if-shell", "if") else words[k:]
    if not rest:
        return []
    return [Nested("shell", f"tmux {name}", text=" ".join(w.value for w in rest), dynamic=any(w.dynamic for w in rest))]


def _tmux_key_name(word: str) -> bool:
    """`C-c`, `M-x`, `Escape`, `F5`, `Up`: a key, not text (send-keys types other words as they are)."""
    if len(word) > 2 and word[1] == "-" and word[0] in "CMS":
        return True
    return word in ("Escape", "Up", "Down", "Left", "Right", "Home", "End", "PageUp", "PageDown", "PgUp", "PgDn", "DC", "IC", "BTab") or (
        word[:1] == "F" and word[1:].isdigit())


_SCREEN_ARG = frozenset(("-Logfile",))
#: screen options whose value follows (also at the end of a cluster: `-dmS name`).
_SCREEN_VALUE_LETTERS = frozenset("SpcehTts")


def _screen(args: list[Arg]) -> list[Nested]:
    """`screen -dmS name CMD...` runs CMD in a new window; `screen -X stuff 'text\\n'` types
    text into a window's shell; `screen -X exec CMD` / `screen -X screen CMD` run CMD."""
    i = 1
    command_mode = False
    while i < len(args):
        word = args[i].value
        if word[:1] != "-" or word == "-":
            break
        i += 1
        if word in _SCREEN_ARG:
            i += 1
        elif word[1:2] != "-" and word not in ("-ls", "-list", "-wipe", "-ln"):
            command_mode = command_mode or "X" in word
            if word[-1] in _SCREEN_VALUE_LETTERS:
                i += 1  # `-dmS name`: the last letter takes the next word
    rest = args[i:]
    if not rest:
        return []
    if not command_mode:
        return [Nested("argv", "screen", args=rest)]
    verb = rest[0].value
    if verb == "stuff" and len(rest) > 1:
        text = " ".join(a.value for a in rest[1:])
        for escape in ("\\n", "\\r", "^M", "^J", "\\015", "\\012"):
            text = text.replace(escape, "\n")
        return [Nested("shell", "screen stuff", text=text, dynamic=any(a.dynamic for a in rest[1:]))]
    if verb in ("exec", "screen") and len(rest) > 1:
        operands = rest[1:]
        while operands and operands[0].value[:1] in ("-", ".", "!", ":") and verb == "exec" and len(operands) > 1:
            operands = operands[1:]  # exec's fd pattern (`!..|`)
        return [Nested("argv", f"screen {verb}", args=operands)]
    return []


_SYSTEMD_RUN_ARG = frozenset((
    "property", "setenv", "unit", "description", "slot", "working-directory", "uid", "gid", "nice", "on-calendar", "on-active",
    "on-boot", "on-startup", "on-unit-active", "on-unit-inactive", "timer-property", "path-property", "socket-property",
    "service-type", "machine", "host",
))


def _systemd_run(args: list[Arg]) -> list[Nested]:
    """`systemd-run [--user] [--on-calendar=...] CMD...`: CMD runs as a transient service (it
    stays a command itself: a timer is persistence)."""
    i = skip_options(args, 1, "pEMuHGCsS", _SYSTEMD_RUN_ARG)
    return [Nested("argv", "systemd-run", args=args[i:])] if i < len(args) else []


#: PowerShell options that take a value (any unambiguous prefix is accepted; these are the usual forms).
_PS_OPTION_VALUES = frozenset((
    "-executionpolicy", "-ep", "-ex", "-exec", "-windowstyle", "-w", "-win", "-version", "-v", "-psconsolefile",
    "-configurationname", "-inputformat", "-if", "-outputformat", "-of", "-o", "-workingdirectory", "-wd",
))


def _powershell(args: list[Arg]) -> list[Nested]:
    """`powershell -Command CODE` (or the words after the options), `-EncodedCommand B64`;
    `-File script.ps1` is a file, not read. See guidance.shell.windows."""
    from cf_guidance.shell.windows import decode_encoded_command, powershell

    label = f"{program_name(args[0].value).lower().removesuffix('.exe')} -c"
    i = 1
    while i < len(args):
        word = args[i].value
        lowered = word.lower()
        if lowered in ("-command", "-c", "-com", "-comm", "-cmd", "/c", "-command:"):
            rest = args[i + 1 :]
            break
        if lowered in ("-encodedcommand", "-enc", "-e", "-ec", "-en", "-encoded"):
            decoded = decode_encoded_command(args[i + 1].value) if i + 1 < len(args) else None
            if decoded is None:
                return []
            return [Nested("argv", label, args=[Arg(v) for v in argv]) for argv in powershell(decoded)]
        if lowered in ("-file", "-f"):
            return []
        if word[:1] not in ("-", "/"):
            rest = args[i:]
            break
        i += 2 if lowered in _PS_OPTION_VALUES else 1
    else:
        return []
    dynamic = any(a.dynamic for a in rest)
    code = " ".join(a.value for a in rest)
    return [Nested("argv", label, args=[Arg(v, dynamic) for v in argv], dynamic=dynamic) for argv in powershell(code)]


def _cmd(args: list[Arg]) -> list[Nested]:
    """`cmd /c LINE` / `cmd /k LINE`: LINE in cmd.exe syntax (guidance.shell.windows)."""
    from cf_guidance.shell.windows import cmd

    for k in range(1, len(args)):
        if args[k].value.lower() in ("/c", "/k", "/r"):
            rest = args[k + 1 :]
            dynamic = any(a.dynamic for a in rest)
            return [Nested("argv", "cmd /c", args=[Arg(v, dynamic) for v in argv], dynamic=dynamic) for argv in cmd(" ".join(a.value for a in rest))]
    return []


def _wsl(args: list[Arg]) -> list[Nested]:
    """`wsl [-d distro] [-u user] CMD...` runs CMD through the distribution's shell;
    `wsl -e CMD...` runs it directly."""
    i = skip_options(args, 1, "du", frozenset(("distribution", "user", "cd", "shell-type")))
    if i < len(args) and args[i - 1].value in ("-e", "--exec") and i >= 2:
        return [Nested("argv", "wsl", args=args[i:])]
    rest = args[i:]
    if not rest or any(a.value in ("-e", "--exec") for a in args[1:i]):
        return [Nested("argv", "wsl", args=rest)] if rest else []
    return [Nested("shell", "wsl", text=" ".join(a.value for a in rest), dynamic=any(a.dynamic for a in rest))]


def _make(args: list[Arg]) -> list[Nested]:
    """`make -f - <<EOF`: the makefile comes on stdin and its recipes run in a shell."""
    words = [a.value for a in args[1:]]
    for k, word in enumerate(words):
        if word in ("-", "/dev/stdin") and k and words[k - 1] in ("-f", "--file", "--makefile"):
            return [Nested("stdin", "make -f -")]
        if word in ("-f-", "--file=-", "--makefile=-", "-f/dev/stdin", "--file=/dev/stdin"):
            return [Nested("stdin", "make -f -")]
    return []


def _crontab(args: list[Arg]) -> list[Nested]:
    """`crontab -` (or no file) installs the crontab it reads on stdin: its commands will run."""
    operands = [a.value for a in args[1:] if a.value[:1] != "-" or a.value == "-"]
    flags = [a.value for a in args[1:] if a.value[:1] == "-" and a.value != "-"]
    if any(f in ("-l", "-r", "-e", "-i") for f in flags):
        return []
    if operands in ([], ["-"]):
        return [Nested("stdin", "crontab")]
    return []


def stdin_code(label: str, text: str) -> str:
    """The shell code in what a launcher reads on stdin: a makefile's recipe lines, a crontab's
    commands; for shells, `at` and the rest the text itself."""
    if label == "make -f -":
        lines = []
        for line in text.split("\n"):
            if line.startswith("\t"):
                lines.append(line.lstrip("\t").lstrip("@-+").replace("$$", "$"))
        return "\n".join(lines)
    if label == "crontab":
        lines = []
        for line in text.split("\n"):
            stripped = line.strip()
            if not stripped or stripped[0] == "#" or (stripped.split("=", 1)[0].isidentifier() and "=" in stripped.split(None, 1)[0]):
                continue
            fields = stripped.split(None, 1 if stripped[0] == "@" else 5)
            if len(fields) == (2 if stripped[0] == "@" else 6):
                lines.append(fields[-1].replace("\\%", "%"))
        return "\n".join(lines)
    return text


def _alias(args: list[Arg]) -> list[Nested]:
    """`alias ll='rm -rf /'`: the value runs wherever the alias is used."""
    found: list[Nested] = []
    for arg in args[1:]:
        name, eq, value = arg.value.partition("=")
        if eq and value:
            found.append(Nested("shell", "alias", text=value, dynamic=arg.dynamic))
    return found


def _trap(args: list[Arg]) -> list[Nested]:
    """`trap 'rm -rf /' EXIT`: the handler runs later, in this shell."""
    i = skip_options(args, 1)
    if i + 1 < len(args) and args[i].value not in ("", "-"):
        return [Nested("shell", "trap", text=args[i].value, dynamic=args[i].dynamic)]
    return []


_DOCKER_EXEC_ARG = frozenset(("env", "env-file", "user", "workdir", "detach-keys"))
#: `docker run` options that take a value (the word after them is not the image)
_DOCKER_RUN_ARG = frozenset((
    "add-host", "annotation", "attach", "blkio-weight", "cap-add", "cap-drop", "cgroup-parent", "cgroupns", "cidfile",
    "cpu-period", "cpu-quota", "cpu-shares", "cpus", "cpuset-cpus", "cpuset-mems", "device", "dns", "dns-option",
    "dns-search", "domainname", "entrypoint", "env", "env-file", "expose", "gpus", "group-add", "health-cmd",
    "health-interval", "health-retries", "health-timeout", "hostname", "ip", "ip6", "ipc", "isolation", "label",
    "label-file", "link", "log-driver", "log-opt", "mac-address", "memory", "memory-reservation", "memory-swap", "mount",
    "name", "network", "network-alias", "pid", "platform", "publish", "pull", "restart", "runtime", "security-opt",
    "shm-size", "stop-signal", "stop-timeout", "storage-opt", "sysctl", "tmpfs", "ulimit", "user", "userns", "uts",
    "volume", "volumes-from", "workdir"))
#: `docker compose` options before its subcommand that take a value
_COMPOSE_ARG = frozenset(("file", "project-name", "profile", "env-file", "project-directory", "ansi", "parallel", "progress"))
#: `docker compose exec|run` options that take a value (the word after them is not the service)
_COMPOSE_RUN_ARG = frozenset(("env", "index", "user", "workdir", "cap-add", "cap-drop", "entrypoint", "env-from-file",
                              "label", "name", "publish", "pull", "volume"))


def _docker(args: list[Arg]) -> list[Nested]:
    """`docker exec [opts] CONTAINER cmd...`, `docker run [opts] IMAGE cmd...` (also podman) and
    `docker compose exec|run [opts] SERVICE cmd...`: the command runs in the container."""
    if len(args) < 3:
        return []
    name = program_name(args[0].value)
    sub = args[1].value
    if sub == "exec":
        i = skip_options(args, 2, "euw", _DOCKER_EXEC_ARG) + 1
    elif sub == "run":
        i = skip_options(args, 2, "epluvwhm", _DOCKER_RUN_ARG) + 1
    elif sub == "compose":
        return _compose(args, 2, f"{name} compose")
    else:
        return []
    return [Nested("argv", f"{name} {sub}", args=args[i:])] if i < len(args) else []


def _compose(args: list[Arg], i: int = 1, label: str = "") -> list[Nested]:
    """`docker compose [opts] exec|run [opts] SERVICE cmd...` (`docker-compose`, `podman-compose`):
    the command runs in the service's container; without one, the service's own command runs."""
    label = label or program_name(args[0].value)
    i = skip_options(args, i, "fp", _COMPOSE_ARG)
    if i >= len(args) or args[i].value not in ("exec", "run"):
        return []
    sub = args[i].value
    i = skip_options(args, i + 1, "euwlpv", _COMPOSE_RUN_ARG) + 1
    return [Nested("argv", f"{label} {sub}", args=args[i:])] if i < len(args) else []


#: programs a package manager runs from the project's dependencies by name alone (`pnpm vitest`,
#: `yarn eslint .`, `bun run tsc`): the tool runs as if called itself. Names only: `pnpm <word>`
#: with any other word runs the package's script of that name, whose command the line does not show.
PACKAGE_BINARIES = frozenset(
    """jest vitest mocha eslint prettier tsc vue-tsc svelte-check biome oxlint stylelint playwright prisma drizzle-kit
    next vite nuxt astro turbo nx tsx ts-node wrangler vercel netlify changeset lerna knip webpack rollup esbuild""".split())
#: package managers that run a dependency's program by its name, with or without `run`
_PACKAGE_MANAGERS = frozenset(("pnpm", "yarn", "bun"))


def _package_binary(args: list[Arg]) -> list[Nested]:
    """`pnpm vitest run`, `yarn run eslint .`: the dependency's program runs with the rest."""
    i = 2 if len(args) > 2 and args[1].value == "run" else 1
    if i < len(args) and args[i].value in PACKAGE_BINARIES:
        return [Nested("argv", program_name(args[0].value), args=args[i:])]
    return []


def _package_binary_may_launch(words: list[str]) -> bool:
    """`_package_binary` launches only when the word after the program (or after `run`) is one of them."""
    return len(words) > 1 and (words[1] in PACKAGE_BINARIES or (words[1] == "run" and len(words) > 2 and words[2] in PACKAGE_BINARIES))


def _kubectl(args: list[Arg]) -> list[Nested]:
    """`kubectl exec POD [-c C] -- cmd...`: the command after `--` runs in the pod."""
    words = [a.value for a in args]
    if "exec" not in words[1:3] or "--" not in words:
        return []
    i = words.index("--") + 1
    return [Nested("argv", "kubectl exec", args=args[i:])] if i < len(args) else []


def _git(args: list[Arg]) -> list[Nested]:
    """git subcommands that run shell code: `rebase -x CMD`, `bisect run CMD...`,
    `submodule foreach CMD`, `filter-branch --*-filter CMD`."""
    words = [a.value for a in args]
    found: list[Nested] = []
    if not _git_may_launch(words):
        return found
    for k in range(1, len(words)):
        word = words[k]
        if word in ("-x", "--exec") and "rebase" in words[1:k] and k + 1 < len(words):
            found.append(Nested("shell", "git rebase --exec", text=words[k + 1], dynamic=args[k + 1].dynamic))
        elif word.startswith("--exec="):
            found.append(Nested("shell", "git rebase --exec", text=word[7:], dynamic=args[k].dynamic))
        elif word.endswith("-filter") and word.startswith("--") and k + 1 < len(words):
            found.append(Nested("shell", "git filter-branch", text=words[k + 1], dynamic=args[k + 1].dynamic))
        elif word == "run" and k > 1 and words[k - 1] == "bisect" and k + 1 < len(words):
            found.append(Nested("argv", "git bisect run", args=args[k + 1 :]))
            break
        elif word == "foreach" and k > 1 and words[k - 1] == "submodule":
            rest = [w for w in args[k + 1 :] if not w.value.startswith("--")]
            if rest:
                found.append(Nested("shell", "git submodule foreach", text=" ".join(a.value for a in rest), dynamic=any(a.dynamic for a in rest)))
            break
    return found


def _git_may_launch(words: list[str]) -> bool:
    """Each case `_git` follows needs one of these words: most git commands (`status
    --short`) need no loop."""
    if not _GIT_LAUNCH_WORDS.isdisjoint(words):
        return True
    for word in words:  # a loop of slices, not any() of methods: this runs for nearly every git command
        if word[:7] == "--exec=" or (word[-7:] == "-filter" and word[:2] == "--"):
            return True
    return False


_GIT_LAUNCH_WORDS = frozenset(("rebase", "bisect", "submodule"))


_LAUNCHERS: dict[str, Callable[[list[Arg]], list[Nested]]] = {
    "git": _git,
    "alias": _alias,
    "trap": _trap,
    "docker": _docker,
    "podman": _docker,
    "docker-compose": _compose,
    "podman-compose": _compose,
    "pnpm": _package_binary,
    "yarn": _package_binary,
    "bun": _package_binary,
    "kubectl": _kubectl,
    "eval": _eval,
    "su": _su,
    "runuser": _su,
    "ssh": _ssh,
    "xargs": _xargs,
    "find": _find,
    "parallel": _parallel,
    "watch": _watch,
    "flock": _flock_launcher,
    "chroot": _chroot,
    "script": _script,
    "tmux": _tmux,
    "screen": _screen,
    "make": _make,
    "gmake": _make,
    "crontab": _crontab,
    "systemd-run": _systemd_run,
    "powershell": _powershell,
    "pwsh": _powershell,
    "powershell.exe": _powershell,
    "pwsh.exe": _powershell,
    "cmd": _cmd,
    "cmd.exe": _cmd,
    "wsl": _wsl,
    "wsl.exe": _wsl,
}

def _find_may_launch(words: list[str]) -> bool:
    """`_find` launches only from an -exec, -execdir, -ok or -okdir word."""
    return not FIND_ACTIONS.isdisjoint(words)


def _make_may_launch(words: list[str]) -> bool:
    """`_make` launches only when a word names stdin as the makefile."""
    for word in words:
        if word == "-" or word.endswith(("=-", "/dev/stdin")) or word == "-f-":
            return True
    return False


def _tmux_may_launch(words: list[str]) -> bool:
    """`_tmux` launches only through a runner subcommand, send-keys or `-c`."""
    return not _TMUX_LAUNCH_WORDS.isdisjoint(words)


_TMUX_LAUNCH_WORDS = frozenset(_TMUX_RUNNERS) | {"send-keys", "send", "-c"}


def _stdin_only(words: list[str]) -> bool:
    """crontab launches only what it reads on stdin, never from its words alone."""
    return False


#: Launchers with a cheap test on their words that is False whenever they launch nothing
#: without stdin (what a fast-path line never has).
_LAUNCH_PRECHECKS: dict[str, Callable[[list[str]], bool]] = {
    "git": _git_may_launch, "find": _find_may_launch, "make": _make_may_launch, "gmake": _make_may_launch,
    "tmux": _tmux_may_launch, "crontab": _stdin_only, "yarn": _package_binary_may_launch, "bun": _package_binary_may_launch,
}
#: Every program name `strip_wrappers` or `nested` (without stdin) may act on, derived from
#: their tables; names with a precheck count only if they are nothing but a launcher.
_ACTED_ON = frozenset(WRAPPERS) | {_ENV} | SHELLS | (frozenset(_LAUNCHERS) - frozenset(_LAUNCH_PRECHECKS))


def passive(name: str, words: list[str]) -> bool:
    """True when `strip_wrappers` and `nested(args, has_stdin=False)` would leave the command
    `words` (literal words, the first not an assignment, `name` its program) as it is and
    find nothing it launches: its program is in none of their tables, or is a launcher whose
    precheck rules out every case. A fast path may then skip both."""
    if name in _ACTED_ON:
        return False
    precheck = _LAUNCH_PRECHECKS.get(name)
    return precheck is None or not precheck(words)

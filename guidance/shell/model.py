"""What shell analysis produces: the simple commands that will actually run.

Hot path module: standard library only, no `typing` at run time.
"""

from __future__ import annotations


class Command:
    """One simple command that would execute, after unwrapping.

    `argv` holds the words after quote removal (`"a b"` -> `a b`); expansions the analyser
    cannot resolve stay as written (`$HOME`, `$(...)`) and set `dynamic`. `program` is the
    basename of argv[0] (`/usr/bin/rm` -> `rm`), after wrappers such as `sudo`, `env`,
    `timeout`, `nice`, `command`, `nohup`, `time` and assignments (`FOO=1`) were stripped;
    those are kept in `wrappers` and `assignments`. `origin` says how it was reached:
    "" at top level, else a `>`-joined chain such as "bash -c", "$(...)", "xargs",
    "find -exec", "python -c". For interpreter one-liners, `language` and `code` carry the
    inline program, and calls the analyser understands (os.system, subprocess.run,
    shutil.rmtree, child_process.execSync, ...) appear as further Commands whose origin
    ends in that interpreter.
    """

    __slots__ = (
        "argv",
        "program",
        "text",
        "origin",
        "depth",
        "redirects",
        "assignments",
        "wrappers",
        "pipe_prev",
        "pipe_next",
        "background",
        "dynamic",
        "language",
        "code",
        "stdin",
        "effects",
    )

    def __init__(
        self,
        argv: list[str],
        *,
        text: str = "",
        origin: str = "",
        depth: int = 0,
        redirects: list[tuple[str, str]] | None = None,
        assignments: list[tuple[str, str]] | None = None,
        wrappers: list[str] | None = None,
        pipe_prev: str = "",
        pipe_next: str = "",
        background: bool = False,
        dynamic: bool = False,
        language: str = "",
        code: str = "",
        stdin: str = "",
    ) -> None:
        self.argv = argv
        self.program = program_name(argv[0]) if argv else ""
        self.text = text
        self.origin = origin
        self.depth = depth
        #: (operator, target) pairs: (">", "out.txt"), (">>", "log"), ("<", ".env"), ("2>", "/dev/null")
        self.redirects = redirects if redirects is not None else []
        self.assignments = assignments if assignments is not None else []
        self.wrappers = wrappers if wrappers is not None else []
        #: program of the command piping into this one / this one pipes into ("" if none)
        self.pipe_prev = pipe_prev
        self.pipe_next = pipe_next
        self.background = background
        self.dynamic = dynamic
        self.language = language
        self.code = code
        #: text a heredoc (`<<EOF`) or here-string (`<<<`) feeds on stdin, "" if none
        self.stdin = stdin
        #: (paths read, paths written) as `guidance.gates.commands.files.file_effects` found them;
        #: None until a gate first asks (several gates ask for every command of an event)
        self.effects: tuple[list[str], list[str]] | None = None

    @property
    def args(self) -> list[str]:
        return self.argv[1:]

    def __repr__(self) -> str:
        where = f" via {self.origin}" if self.origin else ""
        return f"Command({self.argv!r}{where})"


def plain_command(argv: list[str], program: str, text: str, origin: str, depth: int, background: bool, redirects: list[tuple[str, str]]) -> Command:
    """Exactly `Command(argv, text=text, origin=origin, depth=depth, redirects=redirects,
    background=background)` when `program` is `program_name(argv[0])`, in half the time (no
    keyword binding): the shell analysis builds most commands of everyday lines with it.
    Every slot is set as `Command.__init__` sets it (tests/shell/test_shell_fast_path.py
    compares the two)."""
    cmd = _new(Command)
    cmd.argv = argv
    cmd.program = program
    cmd.text = text
    cmd.origin = origin
    cmd.depth = depth
    cmd.redirects = redirects
    cmd.assignments = []
    cmd.wrappers = []
    cmd.pipe_prev = cmd.pipe_next = ""
    cmd.background = background
    cmd.dynamic = False
    cmd.language = cmd.code = cmd.stdin = ""
    cmd.effects = None
    return cmd


_new = object.__new__


class ShellAnalysis:
    """All commands found in one command line, plus what could not be analysed.

    `problems` holds one-line descriptions of what could not be parsed or followed
    (unterminated quote, nesting deeper than the limit, a dynamic program name).
    `complete` is False when anything that might run was not seen; the policy level then
    decides (standard: go on with what was seen; strict: ask; paranoid: deny).
    """

    __slots__ = ("source", "commands", "problems", "complete")

    def __init__(self, source: str, commands: list[Command], problems: list[str], complete: bool) -> None:
        self.source = source
        self.commands = commands
        self.problems = problems
        self.complete = complete


def program_name(word: str) -> str:
    """`/usr/bin/rm` -> `rm`; `\\rm` -> `rm`; `./script.sh` stays `script.sh`."""
    word = word.lstrip("\\")
    slash = word.rfind("/")
    return word[slash + 1 :] if slash != -1 else word

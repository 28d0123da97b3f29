"""What one event's analysed commands contain, found in one pass and shared by the gates.

Most Bash events run commands no gate has a branch for (`npm test`, `ls`). Each gate's
per-command pre-filter (`_may_matter`) is an OR of conditions on one command: its program,
redirections, inline code, file effects, wrappers, pipes, words. The summary holds the same
conditions OR-ed over all commands, so a gate whose conditions occur in no command returns
at once instead of looping over every command (tests/gates/test_prefilters.py proves each
such skip exact). Computed once per event (kept on the GateContext), never across events.
"""

from __future__ import annotations

from cf_guidance.gates.commands import is_interpreter
from cf_guidance.gates.commands.files import file_effects, may_touch_files
from cf_guidance.gates.commands.processes import PUBLISHERS, unpublishes
from cf_guidance.shell.decoding import DECODERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.gates._base import GateContext
    from cf_guidance.shell.model import Command, ShellAnalysis


class Summary:
    """OR over all commands of one analysis of the conditions the gates' pre-filters test."""

    __slots__ = (
        "analysis", "programs", "wrappers", "redirects", "sockets", "code", "language", "reads", "writes", "files", "sudo", "pipes_into", "dot_c",
        "nopasswd", "dynamic", "mkfs", "interpreter", "decoders", "unpublish",
    )

    def __init__(self, analysis: ShellAnalysis) -> None:
        self.analysis = analysis
        programs: set[str] = set()
        wrappers: set[str] = set()
        pipes_into: set[str] = set()
        words: list[str] = []
        codes: list[str] = []
        redirects = sockets = language = reads = writes = sudo = dynamic = mkfs = interpreter = decoders = unpublish = False
        for cmd in analysis.commands:
            program = cmd.program
            programs.add(program)
            argv = cmd.argv
            words.extend(argv)
            if cmd.redirects:
                redirects = True
                if not sockets:
                    sockets = socket_redirect(cmd)
            if cmd.code:
                codes.append(cmd.code)
            if cmd.language:
                language = True
            if cmd.pipe_next:
                pipes_into.add(cmd.pipe_next)
                if program in DECODERS:
                    decoders = True
            if cmd.wrappers:
                wrappers.update(cmd.wrappers)
                if "sudo" in cmd.wrappers:
                    sudo = True
            if argv and ("$" in argv[0] or "`" in argv[0]):
                dynamic = True
            if program.startswith("mkfs"):
                mkfs = True
            if program in PUBLISHERS and "unpublish" in argv and not unpublish:
                unpublish = unpublishes(cmd)
            if not interpreter and is_interpreter(program):
                interpreter = True
            if may_touch_files(cmd):
                effects = file_effects(cmd)
                if effects[0]:
                    reads = True
                if effects[1]:
                    writes = True
        #: every command's program (basename after wrappers)
        self.programs = frozenset(programs)
        #: every wrapper some command runs under (`sudo`, `npx`, `uv` of `uv run`)
        self.wrappers = frozenset(wrappers)
        #: some command has a redirection / inline code / an inline language
        self.redirects = redirects
        #: some command redirects to a network socket (`/dev/tcp/...`, `/dev/udp/...`)
        self.sockets = sockets
        self.code = bool(codes)
        self.language = language
        #: some command reads / writes / reads or writes a file (cf_guidance.gates.commands.files.file_effects)
        self.reads = reads
        self.writes = writes
        self.files = reads or writes
        #: some command runs under sudo
        self.sudo = sudo
        #: the programs some command pipes into
        self.pipes_into = frozenset(pipes_into)
        # Joined by NUL, which no marker holds: a marker is found only inside one word or code text.
        argv_text = "\0".join(words)
        code_text = "\0".join(codes)
        #: some word or inline code holds ".c" or ".C" (every guard-file marker does)
        self.dot_c = ".c" in argv_text or ".C" in argv_text or ".c" in code_text or ".C" in code_text
        #: some command's words hold "nopasswd" in any case
        self.nopasswd = "nopasswd" in argv_text.lower()
        #: some command's program name is computed when it runs (`$X`, `` `x` ``)
        self.dynamic = dynamic
        #: some program is mkfs* / a shell or interpreter (cf_guidance.gates.commands.is_interpreter)
        self.mkfs = mkfs
        self.interpreter = interpreter
        #: some decoder (base64, xxd, ...) pipes into another command (its output may be code)
        self.decoders = decoders
        #: some command unpublishes a package (npm unpublish)
        self.unpublish = unpublish


def socket_redirect(cmd: Command) -> bool:
    """True when a redirection of `cmd` opens a network socket as bash does (`>& /dev/tcp/host/port`)."""
    for _, target in cmd.redirects:
        if target.startswith(_SOCKETS):
            return True
    return False


_SOCKETS = ("/dev/tcp/", "/dev/udp/")


def summary(ctx: GateContext) -> Summary | None:
    """The summary of this event's analysed command (None when there is none), computed once."""
    found = ctx._summary
    if found is not None and found.analysis is ctx._shell:
        return found  # every gate after the first
    analysis = ctx.shell
    if analysis is None:
        return None
    found = ctx._summary = Summary(analysis)
    return found

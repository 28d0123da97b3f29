"""Shell analysis that was incomplete: the level decides what the unseen part means."""

from __future__ import annotations

from cf_guidance.decision import ASK, DENY, WARN
from cf_guidance.gates._base import PARANOID, STRICT, Rule
from cf_guidance.gates.commands import describe
from cf_guidance.gates.commands.summary import summary
from cf_guidance.gates.reasons import doc, finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext
    from cf_guidance.shell.model import Command

GATE = "shell-parse"

#: level -> verdict for something the guard could not see
_BY_LEVEL = {STRICT: ASK, PARANOID: DENY}

RULES = (
    Rule("SHL001", "incomplete-shell-analysis", WARN, "Part of the command could not be analysed",
         doc("Reports that the shell analysis could not see everything that would run (unterminated quotes, nesting deeper "
             "than MAX_SHELL_DEPTH, more than MAX_SHELL_COMMANDS commands, a command longer than MAX_COMMAND_CHARS, "
             "syntax it does not know). Standard level: warn and judge what was seen; strict: ask; paranoid: deny.",
             "What the guard cannot see, it cannot check; a bypass often hides in exactly that part.",
             "eval \"$(printf 'r%s -rf /' m)\"", "rm -rf ./build")),
    Rule("SHL002", "dynamic-program", WARN, "The program name is only known when the command runs",
         doc("Reports commands whose program is a variable or substitution (`$CMD args`, `$(echo rm) -rf x`). "
             "Standard level: warn; strict: ask; paranoid: deny.",
             "A computed program name hides what runs from every rule.", "X=rm; $X -rf ~", "rm -rf ./build")),
)


#: Tests switch this off to prove the summary's `dynamic` skips only lines without SHL002.
PREFILTER = True


def check(ctx: GateContext) -> list[Finding]:
    if ctx.event.command is None:
        return []
    found = summary(ctx)
    if found is None:
        return []
    analysis = found.analysis
    if found.dynamic or not PREFILTER:
        dynamic = _dynamic_program(analysis.commands, ctx.level)
        # A dynamic program name is also listed as a problem; SHL002 already says it.
        problems = [p for p in analysis.problems if not (dynamic and p.startswith("dynamic program"))]
    elif analysis.complete and not analysis.problems:
        return []  # the common case
    else:
        dynamic = None
        problems = analysis.problems
    out: list[Finding] = []
    if problems or (not analysis.complete and dynamic is None):
        verdict = _BY_LEVEL.get(ctx.level, WARN)
        shown = "; ".join(problems[:3]) or "the analysis is incomplete"
        out.append(finding(GATE, "SHL001", verdict, f"the command could not be fully analysed: {shown}", segment=ctx.event.command[:200]))
    if dynamic is not None:
        out.append(dynamic)
    return out


def _dynamic_program(commands: list[Command], level: str) -> Finding | None:
    """SHL002 for the first command whose program name is computed when it runs."""
    for cmd in commands:
        first = cmd.argv[0] if cmd.argv else ""
        if "$" in first or "`" in first:
            verdict = _BY_LEVEL.get(level, WARN)
            return finding(GATE, "SHL002", verdict, f"the program name {first[:60]} is computed when the command runs", segment=describe(cmd))
    return None

"""Shell analysis that was incomplete: the level decides what the unseen part means."""

from __future__ import annotations

from guidance.decision import ASK, DENY, WARN
from guidance.gates._base import PARANOID, STRICT, Rule
from guidance.gates.commands import describe
from guidance.gates.reasons import doc, finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from guidance.decision import Finding
    from guidance.gates._base import GateContext

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


def check(ctx: GateContext) -> list[Finding]:
    if ctx.event.command is None:
        return []
    analysis = ctx.shell
    if analysis is None:
        return []
    verdict = _BY_LEVEL.get(ctx.level, WARN)
    out: list[Finding] = []
    dynamic = None
    for cmd in analysis.commands:
        first = cmd.argv[0] if cmd.argv else ""
        if "$" in first or "`" in first:
            dynamic = finding(GATE, "SHL002", verdict, f"the program name {first[:60]} is computed when the command runs", segment=describe(cmd))
            break
    # A dynamic program name is also listed as a problem; SHL002 already says it.
    problems = [p for p in analysis.problems if not (dynamic and p.startswith("dynamic program"))]
    if problems or (not analysis.complete and dynamic is None):
        shown = "; ".join(problems[:3]) or "the analysis is incomplete"
        out.append(finding(GATE, "SHL001", verdict, f"the command could not be fully analysed: {shown}", segment=ctx.event.command[:200]))
    if dynamic is not None:
        out.append(dynamic)
    return out

"""What a gate is: a module with `GATE`, `RULES` and one entry function `check(ctx)`.

Hot path module: standard library only, no `typing` at run time.

Each rule has a stable code (never reused), a kebab-case name, a default verdict and a
doc with the headings "What it does", "Why is this bad?", "Example", "Use instead".
The registry (`guidance.gates.registry`) lists every gate in evaluation order; the rule
reference (docs/rules.md) is generated from it.
"""

from __future__ import annotations

from cf_guidance import shell as _shell_analysis

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from cf_guidance.decision import Trace
    from cf_guidance.event import Event
    from cf_guidance.gates.commands.effects import Hit
    from cf_guidance.gates.commands.rm import Deletion
    from cf_guidance.gates.commands.writes import Write
    from cf_guidance.gates.commands.summary import Summary
    from cf_guidance.paths import Resolver
    from cf_guidance.shell.model import Command, ShellAnalysis

#: Policy levels, least to most strict. The level changes how gates treat uncertainty
#: (unparsable shell, dynamic program names, writes outside the project), never whether a
#: clearly dangerous command is denied.
STANDARD = "standard"
STRICT = "strict"
PARANOID = "paranoid"
LEVELS = (STANDARD, STRICT, PARANOID)

#: Extra set (True) by accuracy tools that evaluate recorded calls rather than live ones
#: (`cf-guidance replay`, `check`): gates that count live calls (rate limits, runaway-loop
#: detection) say nothing, since replaying a month of calls in a second is not a runaway agent.
BATCH = "batch"


class Rule:
    """A rule's identity and documentation; findings refer to it by `code`."""

    __slots__ = ("code", "name", "verdict", "summary", "doc")

    def __init__(self, code: str, name: str, verdict: str, summary: str, doc: str) -> None:
        self.code = code
        self.name = name
        self.verdict = verdict
        self.summary = summary
        self.doc = doc


class GateContext:
    """Everything a gate may look at for one event. Gates do no I/O beyond path resolution."""

    __slots__ = (
        "event", "bundle", "level", "trace", "_shell", "_extras", "_paths", "_paths_at", "_summary", "_deletions", "_history", "_scopes",
        "_worked", "_effects", "_writes",
    )

    def __init__(
        self,
        event: Event,
        bundle: dict[str, Any],
        *,
        level: str = STANDARD,
        trace: Trace | None = None,
        extras: dict[str, Any] | None = None,
    ) -> None:
        self.event = event
        self.bundle = bundle
        self.level = level
        self.trace = trace
        self._shell: ShellAnalysis | None = None
        #: Optional inputs later layers provide (session history, trust tier, ...).
        self._extras = extras if extras is not None else {}
        # What the gates of this event work out once and share (cf_guidance.gates.commands): the
        # path resolver, the resolver per command after `cd`s, the summary of the analysed
        # commands, the deletions per command. Kept on the context, so never across events.
        self._paths: Resolver | None = None
        self._paths_at: tuple[ShellAnalysis, dict[int, Resolver] | None] | None = None
        self._summary: Summary | None = None
        self._deletions: dict[int, tuple[Command, list[Deletion]]] | None = None
        #: the analysis of each session history entry a gate looked at, by its text (past_command)
        self._history: dict[str, ShellAnalysis] | None = None
        #: whether the event works in each project directory asked about (cf_guidance.gates.scope)
        self._scopes: dict[str, bool] | None = None
        #: the paths the event works in (cf_guidance.gates.scope.worked_paths)
        self._worked: list[str] | None = None
        #: what the effect model says the commands do (cf_guidance.gates.commands.effects.event_hits)
        self._effects: tuple[ShellAnalysis, list[tuple[Command, Hit]]] | None = None
        #: the files the event writes (cf_guidance.gates.commands.writes.writes_of)
        self._writes: list[Write] | None = None

    @property
    def shell(self) -> ShellAnalysis | None:
        """The analysed command of a Bash event (computed once, shared by all gates)."""
        if self._shell is None and self.event.command is not None:
            self._shell = _shell_analysis.analyze(self.event.command)  # looked up per call: tests replace it
        return self._shell

    def past_command(self, command: str) -> ShellAnalysis:
        """The analysis of a command of the session's history (once per text per event, shared by
        the gates that read the history)."""
        if self._history is None:
            self._history = {}
        analysis = self._history.get(command)
        if analysis is None:
            analysis = self._history[command] = _shell_analysis.analyze(command)  # looked up per call: tests replace it
        return analysis

    def extra(self, name: str) -> Any:
        return self._extras.get(name)

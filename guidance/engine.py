"""Evaluate one event against a compiled bundle: run every gate, keep every finding, decide.

Hot path module: standard library only. No parsing of policy and no I/O beyond path
resolution happens here; the bundle was compiled (and cached) before.

An exception inside a gate never propagates: it becomes a `GATE-ERROR` finding naming the
gate (deny when `fail_closed`, else warn) and the other gates still run.
"""

from __future__ import annotations

from cf_guidance.decision import ALLOW, ASK, DENY, WARN, Finding, decide
from cf_guidance.gates._base import LEVELS, STANDARD, STRICT, GateContext
from cf_guidance.gates.commands import describe
from cf_guidance.gates.patterns import matches
from cf_guidance.gates.reasons import hint
from cf_guidance.gates import effects
from cf_guidance.gates.registry import ALLOWLISTABLE, ENGINE, GATES
from cf_guidance.shell.model import ShellAnalysis

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

    from cf_guidance.decision import Decision, Trace
    from cf_guidance.event import Event


def resolve_level(bundle: dict[str, Any], level: str | None) -> str:
    """The explicit level, else the bundle's; an unknown name counts as strict (fail toward caution)."""
    chosen = level or (bundle.get("settings") or {}).get("level") or STANDARD
    return chosen if chosen in LEVELS else STRICT


def evaluate(
    bundle: dict[str, Any],
    event: Event,
    *,
    level: str | None = None,
    tracer: Trace | None = None,
    extras: dict[str, Any] | None = None,
    fail_closed: bool = False,
    gates: tuple[ModuleType, ...] | None = None,
    shell: ShellAnalysis | None = None,
) -> Decision:
    """The decision for `event`: the most severe finding of all gates (deny > ask > warn > allow).

    `gates` runs a subset instead, in the order given (the hook's built-in stage:
    registry.BUILTIN with an empty bundle, before the bundle is loaded). `shell` is the
    analysis of `event.command` when the caller already has it (the hook's two stages
    analyse the command once).
    """
    chosen = resolve_level(bundle, level)
    ctx = GateContext(event, bundle, level=chosen, trace=tracer, extras=extras)
    if shell is not None:
        ctx._shell = shell
    findings: list[Finding] = []
    error_verdict = DENY if fail_closed else WARN
    if tracer is not None:
        tracer.add("note", message=f"level {chosen}; tool {event.tool or '-'}")
    if event.command is not None:
        _analyse(ctx, findings, error_verdict, tracer)
    allow_commands = (bundle.get("settings") or {}).get("allow_commands") or []
    endorsed_commands = (bundle.get("settings") or {}).get("endorsed_commands") or []
    for gate in GATES if gates is None else gates:
        try:
            found = gate.check(ctx)
        except Exception as exc:  # a bug in one gate must not decide the event by crashing
            found = [_gate_error(gate.GATE, exc, error_verdict)]
        if found:  # most gates find nothing
            if allow_commands and gate.GATE in ALLOWLISTABLE:
                found = _apply_allowlist(ctx, found, allow_commands)
            if endorsed_commands and gate.GATE == effects.GATE:
                found = _apply_endorsements(ctx, found, endorsed_commands)
            findings.extend(found)
        if tracer is not None:
            tracer.add("gate", gate=gate.GATE, findings=str(len(found)))
            for item in found:
                tracer.add("rule", gate=item.gate, rule=item.rule, verdict=item.verdict, message=item.message, segment=item.segment)
    return decide(findings, tracer)


def _analyse(ctx: GateContext, findings: list[Finding], error_verdict: str, tracer: Trace | None) -> None:
    try:
        analysis = ctx.shell
    except Exception as exc:
        findings.append(_gate_error("shell-analysis", exc, error_verdict))
        # Gates then see an empty, incomplete analysis (shell-parse reports it by level).
        ctx._shell = ShellAnalysis(ctx.event.command or "", [], [f"shell analysis failed: {type(exc).__name__}"], False)
        return
    if tracer is not None and analysis is not None:
        for cmd in analysis.commands:
            tracer.add("segment", text=describe(cmd), program=cmd.program, origin=cmd.origin or "top level")
        for problem in analysis.problems:
            tracer.add("note", message=f"shell: {problem}")


def _gate_error(gate: str, exc: Exception, verdict: str) -> Finding:
    detail = str(exc).splitlines()[0][:160] if str(exc) else ""
    return Finding(
        ENGINE,
        "GATE-ERROR",
        verdict,
        f"gate {gate} failed: {type(exc).__name__}{': ' + detail if detail else ''}",
        hint=hint("GATE-ERROR"),
    )


#: the effects gate's asks a command the policy prescribes lowers to a warning (policy/endorse.py);
#: credentials, data sent out and everything it denies stay as they are
ENDORSABLE = frozenset(("EFF001",))


def _matched_segments(ctx: GateContext, patterns: list[Any], *, exact: bool) -> dict[str, int]:
    """The segments of the command line (as findings name them) that one of `patterns` matches,
    each with the index of the first pattern that does. A command whose words are only guessed
    (`x=./build; ...; rm -rf "$x"` also gives `rm -rf ./build`, which the value at run time may
    not be) matches nothing: a guess never allows or lowers the command as written."""
    analysis = ctx.shell
    if analysis is None:
        return {}
    out: dict[str, int] = {}
    for cmd in analysis.commands:
        if cmd.dynamic:
            continue
        for index, pattern in enumerate(patterns):
            if isinstance(pattern, list) and pattern and matches(pattern, cmd, exact=exact):
                out.setdefault(describe(cmd)[:200], index)
                break
    return out


def _apply_endorsements(ctx: GateContext, found: list[Finding], endorsed: list[Any]) -> list[Finding]:
    """An ask of `ENDORSABLE` on a command an instruction of the policy prescribes becomes a warning
    that names the instruction."""
    entries = [e for e in endorsed if isinstance(e, dict)]
    segments = _matched_segments(ctx, [e.get("words") for e in entries], exact=False)
    if not segments:
        return found
    out: list[Finding] = []
    for item in found:
        if item.rule in ENDORSABLE and item.verdict == ASK and item.segment in segments:
            entry = entries[segments[item.segment]]
            said = f"{entry.get('source', '')} says to run `{' '.join(entry['words'])}`"
            item = Finding(item.gate, item.rule, WARN, f"{item.message} (warned, not asked: {said})",
                           evidence=item.evidence, segment=item.segment)
        out.append(item)
    return out


def _apply_allowlist(ctx: GateContext, found: list[Finding], allow_commands: list[Any]) -> list[Finding]:
    """Turn findings on a command the project allowlisted (exact pattern) into allow."""
    allowed_segments = _matched_segments(ctx, allow_commands, exact=True)
    if not allowed_segments:
        return found
    out: list[Finding] = []
    for item in found:
        if item.segment and item.segment in allowed_segments:
            item = Finding(item.gate, item.rule, ALLOW, item.message + " (allowed by the project allowlist)", evidence=item.evidence, segment=item.segment)
        out.append(item)
    return out

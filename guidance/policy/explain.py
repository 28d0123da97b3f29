"""What one line of a policy produced, and why (`cf-guidance compile --explain LINE`).

The trace is built from what the extractor kept: the block the line is in, what it inherited
(heading, intro, label), each clause's frame (force, verbs, objects, condition, notes) and each
check with its confidence and the steps that decided it. A line that yields nothing says why:
no cue, a description, an unresolved object, a condition that cannot be checked.
"""

from __future__ import annotations

from typing import Any

from cf_guidance.policy.checkform import reason, short, to_check
from cf_guidance.policy.extract import Unit, describe
from cf_guidance.policy.frames import Frame


def _frame_lines(frame: Frame) -> list[str]:
    if frame.ordering is not None:
        first = ", ".join(o.text for o in frame.ordering.first)
        head = f"ordering: {first} before {frame.ordering.then}" + (f" to {frame.ordering.target}" if frame.ordering.target else "")
    else:
        objects = ", ".join(f"{o.kind}:{o.text}" + (f" ({o.role})" if o.role else "") for o in frame.objects) or "none"
        head = (f"force: {frame.modality or 'none'}" + (f" ('{frame.cue}'" + (", inherited)" if frame.inherited else ")") if frame.cue else "")
                + f"; verbs: {', '.join(frame.actions) or 'none'}; objects: {objects}")
    parts = [head]
    if frame.condition:
        parts.append(f"condition: {frame.condition} ('{frame.condition_text}')")
    if frame.qualifier:
        parts.append(f"qualifier: '{frame.qualifier}'")
    if frame.targets:
        parts.append(f"target: {', '.join(frame.targets)}")
    if frame.purpose:
        parts.append(f"purpose: {frame.purpose}")
    if frame.alternatives:
        parts.append(f"instead: {', '.join(o.text for o in frame.alternatives)}")
    return parts + [f"note: {note}" for note in frame.notes]


def explain_units(units: list[tuple[str, Unit]], line: int) -> list[str]:
    """The trace lines for `line` (a block covering it), or a line saying nothing is there."""
    hits = [(name, unit) for name, unit in units if unit.block.line <= line <= unit.block.end_line]
    if not hits:
        return [f"line {line}: no rule-bearing text starts or continues here (a heading, a code block, a blank line, "
                "or outside the file)"]
    out: list[str] = []
    for name, unit in hits:
        block = unit.block
        out.append(f"{name}:{block.line}-{block.end_line} {block.kind}: {describe(unit)[:300]}")
        if block.section:
            out.append(f"  section: {' > '.join(block.section)}")
        for item in unit.context:
            out.append(f"  inherits {item}")
        frames = [(at, f) for at, f in unit.frames if at == line or block.line == block.end_line or len(unit.frames) == 1]
        if not frames:
            frames = unit.frames
        if not frames:
            out.append("  no clause carries a rule: no cue (never, avoid, ask before, always, only, 禁止, ...) and no "
                       "heading or intro gives one")
        for at, frame in frames:
            out.append(f"  clause (line {at}): {frame.text[:200]}")
            out += [f"    {part}" for part in _frame_lines(frame)]
        specs = [s for s in unit.specs if s.line == line] or unit.specs
        if not specs:
            out.append("  → no check: the rule stays advisory (it is still shown to the agent)")
        for spec in specs:
            check: dict[str, Any] = to_check(spec)
            out.append(f"  → {short(check)}  (confidence {spec.confidence:.2f}, line {spec.line})")
            out.append(f"    reason: {reason(spec)}")
            out += [f"    because: {why}" for why in spec.why]
    return out


def advisory_reason(unit: Unit) -> str:
    """Why a rule yields no check, in one line (`cf-guidance compile` shows it)."""
    frames = [frame for _, frame in unit.frames]
    if unit.error:
        return "could not be read (a bug: please report it)"
    forceful = [f for f in frames if f.modality and not any("a description" in n for n in f.notes)]
    if not forceful:
        if any(any("a description" in n for n in f.notes) for f in frames):
            return "it describes rather than instructs (a subject before 'never', 'must', ...)"
        return "no rule word (never, avoid, ask before, only, ...) an action can be checked against"
    for frame in forceful:
        for note in frame.notes:
            if any(key in note for key in ("is not a command", "names a task", "not a path", "describes '", "belongs to",
                                            "not a message check", "cannot check", "is not a path", "leaves the call",
                                            "introduces the list below")):
                return note
    for frame in forceful:
        if frame.condition == "judgment":
            return f"its condition ('{frame.condition_text}') is the agent's judgment, not something a tool call shows"
        if frame.ordering is None and not frame.objects and not frame.requirement:
            return "it names no command, path or text a tool call carries (style or design advice)"
        if frame.modality in ("require", "only") and frame.ordering is None:
            return "a requirement without an order or a form a tool call can be checked against"
    return "what it names could not be resolved to a command, path or text"

"""Checks as the bundle holds them (plain dicts), their reasons, and a short form for tests and docs.

`to_check(spec)` turns a resolved `Spec` into the bundle's check contract (docs/policy-grammar.md,
"The bundle"); `short(check)` writes one check on one line ("deny command git push --force",
"deny sequence make test -> git commit", "ask write package.json"): the lexicon's examples and
`cf-guidance compile` use it.
"""

from __future__ import annotations

from typing import Any

from cf_guidance.policy.resolve import Spec

_LEAD = {"deny": "Not allowed", "ask": "Only with the user's approval", "warn": "Discouraged"}


def reason(spec: Spec) -> str:
    """One or two sentences the agent can act on: what is banned and what to do instead."""
    if spec.kind == "sequence" and spec.step:
        files = " or ".join(f"`{p}`" for p in spec.paths[:3]) + (" (or another of them)" if len(spec.paths) > 3 else "")
        then = " ".join(spec.then or [])
        action = f"`{then}`" if then else ("editing files" if spec.then_paths == ["**"] else "editing " + ", ".join(
            f"`{g}`" for g in spec.then_paths[:4]))
        if spec.step == "read":
            return f"Read {files} before {action}."
        if spec.edits:
            return f"After changing {', '.join(f'`{g}`' for g in spec.edits[:4])}, update {files} before {action}."
        return f"Update {files} before {action}" + (" (again after each one)." if then else ".")
    if spec.kind == "sequence":
        before = " ".join(spec.before or [])
        then = " ".join(spec.then or [])
        first = f"`{before}`" if not spec.category else f"the {spec.category} step (e.g. `{before}`)"
        if spec.edits:
            changed = "any change" if spec.edits == ["**"] else "changing " + ", ".join(f"`{g}`" for g in spec.edits[:4])
            return f"After {changed}, run {first} and let it pass before `{then}`" + (f" to {spec.target}" if spec.target else "") + "."
        text = f"Run {first} and let it pass before `{then}`" + (f" to {spec.target}" if spec.target else "") + "."
        return text
    if spec.kind == "branch":
        if isinstance(spec.pattern, (list, tuple)):
            return "New branch names must match one of " + ", ".join(f"`{g}`" for g in spec.pattern) + "."
        return f"New branch names must match `{spec.pattern}`."
    if spec.kind == "message" and spec.absent:
        shown = " or ".join(repr(p) for p in spec.phrases[:4]) + (", ..." if len(spec.phrases) > 4 else "")
        return f"The text must say {shown} ({spec.what})."
    if spec.kind == "shape":
        return f"{spec.what} must {_shape_rule(spec)}."
    if spec.kind == "arguments":
        # the command the options are for: commits, or another command's every call (`git pull --rebase`)
        subject = "Commits" if list(spec.pattern)[:2] == ["git", "commit"] else f"`{' '.join(spec.pattern)}` calls"
        return f"{subject} must be made in the prescribed form: {spec.instead or ' '.join(r[0] for r in spec.requires)}."
    text = f"{_LEAD.get(spec.verdict, 'Not allowed')}: {spec.what}"
    if spec.verdict == "ask" and spec.condition:
        text += f" ({spec.condition})"
    text += "."
    if spec.instead:
        text += f" Use {spec.instead} instead."
    return text


def _shape_rule(spec: Spec) -> str:
    """What a shape check says of the text its `what` names ("Commit messages", "PR titles")."""
    if spec.form == "starts":
        shown = " or ".join(f"`{s.replace('*', '<word>')}`" for s in spec.starts[:4])
        return "begin with " + shown + (f" (or another of its {len(spec.starts)} forms)" if len(spec.starts) > 4 else "")
    if spec.form == "length":
        return f"keep their first line to at most {spec.max_length} characters"
    if spec.form == "period":
        return "not end their first line with a period"
    if spec.form == "mood":
        return "begin with a verb in the imperative (`Add`, not `Added`)"
    if spec.form == "dash":
        return "hold no " + " or ".join(f"`{c}`" for c in spec.starts)
    if spec.form == "unstarts":
        return "not begin with " + " or ".join(f"`{s}`" for s in spec.starts[:4])
    if spec.form == "reference":
        return "reference their issue (`Fixes #123`, a link to it, its key)"
    return "hold no emoji"


def to_check(spec: Spec) -> dict[str, Any]:
    check: dict[str, Any] = {"kind": spec.kind, "verdict": spec.verdict}
    if spec.kind == "sequence":
        check["before"] = list(spec.before or [])
        check["then"] = list(spec.then or [])
        if spec.before_any:
            check["before_any"] = [list(p) for p in spec.before_any]
        if spec.target:
            check["target"] = spec.target
        if spec.edits:
            check["edits"] = list(spec.edits)
        if spec.step:
            check["step"] = spec.step
            check["paths"] = list(spec.paths)
            if spec.then_paths:
                check["then_paths"] = list(spec.then_paths)
    else:
        check["pattern"] = list(spec.pattern) if isinstance(spec.pattern, (list, tuple)) else spec.pattern
    if spec.kind in ("command", "message", "arguments", "shape"):
        check["anchor"] = spec.anchor
        if spec.also:
            check["also"] = [list(p) for p in spec.also]
        if spec.values:
            check["values"] = list(spec.values)
        if spec.exempt:
            check["except"] = [list(p) for p in spec.exempt]
        if spec.wrapped:
            check["wrapped"] = spec.wrapped
        if spec.away:
            check["away"] = True
        if spec.changes:
            check["changes"] = True
        if spec.via:
            check["via"] = list(spec.via)
        if spec.published:
            check["published"] = True
        if spec.assigned:
            check["assigned"] = list(spec.assigned)
    if spec.only:
        check["only"] = list(spec.only)
    if spec.kind == "message":
        check["phrases"] = list(spec.phrases)
        if spec.absent:
            check["absent"] = True
    if spec.kind == "shape":
        check["form"] = spec.form
        if spec.form in ("starts", "dash", "unstarts"):
            check["starts"] = list(spec.starts)
        if spec.form == "length":
            check["max"] = spec.max_length
        if spec.part:
            check["part"] = spec.part
    if spec.kind == "arguments":
        check["requires"] = [list(r) for r in spec.requires]
    if spec.kind == "target":
        check["action"] = spec.target
        if spec.merged:
            check["merged"] = list(spec.merged)
    if spec.category:
        check["category"] = spec.category
    check["confidence"] = round(spec.confidence, 2)
    check["message"] = reason(spec)
    return check


def short(check: dict[str, Any]) -> str:
    kind = check.get("kind", "")
    verdict = check.get("verdict", "")
    if kind == "sequence":
        before = " ".join(check.get("before") or [])
        if check.get("category"):
            before = f"<{check['category']}>"
        if check.get("step"):
            before = f"{check['step']} {' '.join(check.get('paths') or [])}"
        then = " ".join(check.get("then") or []) or "edit " + " ".join(check.get("then_paths") or [])
        target = f" to {check['target']}" if check.get("target") else ""
        edits = check.get("edits") or []
        changed = "" if not edits else " after any change" if edits == ["**"] else " after " + " ".join(edits)
        return f"{verdict} sequence {before} -> {then}{target}{changed}"
    if kind == "message":
        missing = "without " if check.get("absent") else ""
        return f"{verdict} message {missing}{' | '.join(check.get('phrases') or [])}"
    if kind == "arguments":
        return f"{verdict} arguments {' '.join(check.get('pattern') or [])} needs {' '.join(r[0] for r in check.get('requires') or [])}"
    if kind == "shape":
        carriers = ", ".join(" ".join(p) for p in [check.get("pattern") or [], *(check.get("also") or [])])
        detail = {"starts": " | ".join(check.get("starts") or []), "length": f"<= {check.get('max')}", "emoji": "no emoji",
                  "period": "no period", "mood": "imperative", "reference": "an issue",
                  "dash": "no " + " ".join(check.get("starts") or []), "unstarts": " | ".join(check.get("starts") or [])}
        return f"{verdict} shape {carriers}: {check.get('form')} {detail.get(str(check.get('form')), '')}"
    if kind == "target":
        merged = f" from {' '.join(check['merged'])}" if check.get("merged") else ""
        if check.get("only"):
            return f"{verdict} target {check.get('action', '')} outside {' '.join(check['only'])}"
        return f"{verdict} target {check.get('action', '')} {check.get('pattern', '')}{merged}"
    if kind == "variable":
        return f"{verdict} variable {' '.join(check.get('pattern') or [])}"
    pattern = check.get("pattern")
    if kind == "command" and check.get("category"):
        shown = f"<{check['category']}>"
    elif kind == "command" and check.get("wrapped"):
        shown = f"{check['wrapped']} {' '.join(pattern or [])}"
    elif check.get("only"):
        shown = ("" if pattern == "**" else f"{pattern} ") + "outside " + " ".join(check["only"])
    elif kind == "command" and check.get("away"):
        shown = f"{' '.join(pattern or [])} below the root"
    else:
        shown = " ".join(pattern) if isinstance(pattern, list) else str(pattern)
    if check.get("changes"):
        shown += " when it changes something"
    if check.get("via"):
        shown += " via " + " ".join(check["via"])
    if check.get("published"):
        shown += " once pushed"
    if check.get("assigned"):
        shown = " | ".join(check["assigned"]) + " " + shown
    return f"{verdict} {kind} {shown}"

"""`cf-guidance compile | explain | check | rules`: the policy engine from the command line.

Thin: options in, library calls, text or JSON out. `check` never prints a traceback for bad
input: every input line gets exactly one output line.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from cf_guidance.errors import EventError, PolicyError
from cf_guidance.gates._base import LEVELS
from cf_guidance.limits import MAX_EVENT_BYTES

from . import target as project_target

#: Tools whose single argument is a path (explain builds the event from TEXT).
_PATH_FIELDS = {
    "Read": "file_path",
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
    "Grep": "path",
    "Glob": "pattern",
}

_target_option = project_target.option()
_level_option = click.option(
    "--level", type=click.Choice(LEVELS), default=None, help="Override the policy level (default: the bundle's)."
)


def _bundle(root: str) -> dict[str, Any]:
    from cf_guidance.policy.compiler import compile_project

    return compile_project(root)


@click.command("compile")
@_target_option
@click.option("--json", "as_json", is_flag=True, help="Print the bundle as JSON.")
@click.option("--explain", "explain_at", metavar="[FILE:]LINE", default=None,
              help="Show what one line of the policy produced and why (or why not), instead of the listing.")
def compile_cmd(target: str, as_json: bool, explain_at: str | None) -> None:
    """Compile CLAUDE.md (+ CLAUDE.local.md) and print every rule with its enforcement.

    Checks read with less than full confidence are listed for review with their line; advisory
    rules say why no check was derived. Exits 1 when the policy has compile errors (they are
    listed with file:line).
    """
    from cf_guidance.policy.report import render_bundle_text

    if explain_at is not None:
        click.echo("\n".join(explain_line(target, explain_at)))
        return
    bundle = _bundle(target)
    if as_json:
        click.echo(json.dumps(bundle, indent=2, ensure_ascii=False))
    else:
        click.echo(render_bundle_text(bundle), nl=False)
    if any(d.get("level") == "error" for d in bundle.get("diagnostics") or []):
        raise click.exceptions.Exit(1)


def explain_line(target: str, where: str) -> list[str]:
    """The trace of `compile --explain`: `where` is LINE (the first policy file that has it,
    CLAUDE.md first) or FILE:LINE."""
    from cf_guidance.policy.compiler import compilation_of
    from cf_guidance.policy.explain import explain_units

    name, _, number = where.rpartition(":")
    if not number.isdigit() or int(number) < 1:
        raise PolicyError(f"--explain {where}: expected LINE or FILE:LINE with a line number from 1, e.g. CLAUDE.md:12")
    c = compilation_of(target)
    line = int(number)
    if name:
        if name not in c.units and not any(s.name == name and s.text is not None for s in c.sources):
            read = ", ".join(s.name for s in c.sources if s.text is not None) or "none"
            raise PolicyError(f"--explain {where}: {name} is not a policy file that was read (read: {read})")
        units = [(name, u) for u in c.units.get(name, [])]
    else:
        candidates = [s.name for s in c.sources if s.text is not None]
        name = next((n for n in candidates if any(u.block.line <= line <= u.block.end_line for u in c.units.get(n, []))),
                    candidates[0] if candidates else "CLAUDE.md")
        units = [(name, u) for u in c.units.get(name, [])]
    return explain_units(units, line)


def event_for(tool: str, text: str, cwd: str) -> dict[str, Any]:
    """The PreToolUse payload a hook would receive for `tool` applied to `text`."""
    tool_input: dict[str, Any]
    if tool == "Bash":
        tool_input = {"command": text}
    elif tool in _PATH_FIELDS:
        tool_input = {_PATH_FIELDS[tool]: text}
        if tool == "Write":
            tool_input["content"] = ""
        elif tool == "Edit":
            tool_input.update(old_string="", new_string="")
        elif tool == "Grep":
            tool_input["pattern"] = "."
    elif tool == "WebFetch":
        tool_input = {"url": text, "prompt": ""}
    elif tool == "WebSearch":
        tool_input = {"query": text}
    elif tool in ("Agent", "Task"):
        tool_input = {"prompt": text, "description": ""}
    else:
        tool_input = {}
    return {"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input, "cwd": cwd}


@click.command("explain")
@_target_option
@_level_option
@click.option("--tool", default="Bash", show_default=True, help="Tool the TEXT is given to (Bash: a command; Read/Write/Edit/...: a path).")
@click.option("--json", "as_json", is_flag=True, help="Print the decision and its trace as JSON.")
@click.option("--exit-code", is_flag=True, help="Exit 1 when the decision is deny or ask (for scripts).")
@click.argument("text")
def explain_cmd(target: str, level: str | None, tool: str, as_json: bool, exit_code: bool, text: str) -> None:
    """Show the decision for TEXT and why: each analysed segment, gate and rule."""
    from cf_guidance.decision import Trace
    from cf_guidance.engine import evaluate
    from cf_guidance.event import normalise

    root = target
    bundle = _bundle(root)
    event = normalise(event_for(tool, text, root), project_dir=root)
    trace = Trace()
    decision = evaluate(bundle, event, level=level, tracer=trace)
    if as_json:
        click.echo(json.dumps(decision.to_dict(), indent=2, ensure_ascii=False))
    else:
        click.echo(render_explain(decision.to_dict(), tool, text))
    if exit_code and decision.verdict in ("deny", "ask"):
        raise click.exceptions.Exit(1)


def render_explain(result: dict[str, Any], tool: str, text: str) -> str:
    lines = [f"{tool}: {text}", f"decision: {result['decision']}"]
    if result["rule"]:
        lines.append(f"rule: {result['rule']}")
        lines.append(f"reason: {result['reason']}")
    steps = result.get("trace") or []
    for step in steps:
        if step["type"] == "note":
            lines.append(f"note: {step['message']}")
    segments = [s for s in steps if s["type"] == "segment"]
    if segments:
        lines.append("segments:")
        for step in segments:
            lines.append(f"  {step['text']}    [{step['program']}, {step['origin']}]")
    lines.append("gates:")
    for step in steps:
        if step["type"] == "gate":
            lines.append(f"  {step['gate']}: {step['findings']} finding(s)")
        elif step["type"] == "rule":
            where = f" on `{step['segment']}`" if step.get("segment") else ""
            lines.append(f"    {step['rule']} {step['verdict']}{where}: {step['message']}")
    if result.get("trace_dropped"):
        lines.append(f"({result['trace_dropped']} trace steps dropped)")
    return "\n".join(lines)


def check_line(raw: bytes, number: int, bundle: dict[str, Any], root: str, level: str | None) -> tuple[dict[str, Any], bool]:
    """The output object for one input line, and whether the line was well formed."""
    from cf_guidance import _fastjson
    from cf_guidance.engine import evaluate
    from cf_guidance.event import normalise

    def error(message: str) -> tuple[dict[str, Any], bool]:
        return {"decision": "error", "line": number, "reason": f"line {number}: {message}"}, False

    if len(raw) > MAX_EVENT_BYTES:
        return error(f"event is {len(raw)} bytes, over the limit of {MAX_EVENT_BYTES} (MAX_EVENT_BYTES)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return error(f"not UTF-8 (byte {exc.start}); hook events are UTF-8 JSON")
    try:
        payload = _fastjson.loads(text)
    except (ValueError, RecursionError) as exc:
        return error(f"not JSON: {str(exc).splitlines()[0][:120]}")
    try:
        if isinstance(payload, dict) and not payload.get("cwd"):
            payload = dict(payload, cwd=root)
        event = normalise(payload, project_dir=root)
    except EventError as exc:
        return error(str(exc))
    decision = evaluate(bundle, event, level=level)
    return decision.to_dict(), True


@click.command("check")
@_target_option
@_level_option
@click.argument("source", default="-", type=click.Path(allow_dash=True, dir_okay=False, path_type=str))
def check_cmd(target: str, level: str | None, source: str) -> None:
    """Replay PreToolUse hook events (one JSON object per line) against the policy.

    Writes one JSON line per event: {"decision", "rule", "reason", "findings"}. A malformed
    line gets {"decision": "error", "line": N, "reason": "line N: ..."}; the exit status is 1
    when any line was malformed. Blank lines are skipped.
    """
    root = target
    bundle = _bundle(root)
    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            with open(source, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            raise EventError(f"{source}: cannot read ({exc.strerror}); pass a file of hook events or - for stdin") from None
    malformed = 0
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        result, ok = check_line(raw.rstrip(b"\r"), number, bundle, root, level)
        if not ok:
            malformed += 1
        click.echo(json.dumps(result, ensure_ascii=False))
    if malformed:
        raise click.exceptions.Exit(1)


@click.command("rules")
@click.option("--json", "as_json", is_flag=True, help="Print the rule registry as JSON.")
@click.option("--markdown", is_flag=True, help="Print the rule reference (docs/rules.md).")
@click.option("--lexicon", is_flag=True, help="Print the tables of the rule language (the generated part of docs/policy-grammar.md).")
def rules_cmd(as_json: bool, markdown: bool, lexicon: bool) -> None:
    """List every rule code the gates can report."""
    from cf_guidance.gates.registry import all_rules, rules_markdown

    if lexicon:
        from cf_guidance.policy.lexicon.docs import markdown as lexicon_markdown

        click.echo(lexicon_markdown(), nl=False)
        return
    if markdown:
        click.echo(rules_markdown(), nl=False)
        return
    rules = all_rules()
    if as_json:
        click.echo(json.dumps(
            [{"code": r.code, "name": r.name, "gate": gate, "verdict": r.verdict, "summary": r.summary, "doc": r.doc} for gate, r in rules],
            indent=2,
        ))
        return
    for gate, rule in rules:
        click.echo(f"{rule.code:<11} {rule.verdict:<5} {gate:<16} {rule.summary}")



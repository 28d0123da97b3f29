"""Compiled CLAUDE.md rules of kind command, write, read and tool.

Findings carry the shard id as `rule` and the rule's text as message, so the agent is told
which line of CLAUDE.md it ran into. Sequence checks belong to the sequence gate.
"""

from __future__ import annotations

from guidance._glob import glob_match
from guidance.decision import DENY, SEVERITY, Finding
from guidance.event import READ, WRITE
from guidance.gates._base import Rule
from guidance.gates.commands import describe, resolver, resolver_at
from guidance.gates.commands.files import file_effects
from guidance.gates.patterns import matches, tool_matches
from guidance.gates.reasons import doc

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from guidance.gates._base import GateContext
    from guidance.paths import Resolver

GATE = "policy"

RULES = (
    Rule("POL", "compiled-claude-md-rule", DENY, "A rule compiled from CLAUDE.md (the finding's code is the rule id)",
         doc("Enforces the checks compiled from CLAUDE.md and CLAUDE.local.md: `command` patterns against every command the "
             "shell analysis found (nested ones included, never raw text), `write`/`read` globs against file-tool paths and "
             "the files shell commands write or read, and `tool` names. The verdict (deny, ask, warn) is the rule's; the "
             "finding's code is the rule id (`R010`, `S-…`) and its message the rule text.",
             "The project wrote the rule down; the agent should not need to remember it.",
             "# CLAUDE.md: - Never run `git push --force`\ngit push --force origin main",
             "git push --force-with-lease origin main")),
)


def check(ctx: GateContext) -> list[Finding]:
    checks = ctx.bundle.get("checks") or []
    if not checks:
        return []
    event = ctx.event
    out: list[Finding] = []
    commands = []
    shell_reads: list[tuple[str, str, Resolver]] = []
    shell_writes: list[tuple[str, str, Resolver]] = []
    if event.command is not None:
        analysis = ctx.shell
        if analysis is not None:
            commands = analysis.commands
    paths: Resolver | None = None
    for item in checks:
        kind = item.get("kind")
        if kind == "command":
            pattern = item.get("pattern")
            if not isinstance(pattern, list):
                continue
            for cmd in commands:
                if matches(pattern, cmd):
                    out.append(_finding(item, describe(cmd)))
                    break
        elif kind == "tool":
            pattern = item.get("pattern")
            if isinstance(pattern, str) and event.tool and tool_matches(pattern, event.tool, event.tool_class):
                out.append(_finding(item, event.tool))
        elif kind in ("write", "read"):
            pattern = item.get("pattern")
            if not isinstance(pattern, str):
                continue
            if paths is None:
                paths = resolver(ctx)
                if commands:
                    for cmd in commands:
                        reads, writes = file_effects(cmd)
                        at = resolver_at(ctx, cmd)
                        shell_reads.extend((r, describe(cmd), at) for r in reads)
                        shell_writes.extend((w, describe(cmd), at) for w in writes)
            access = WRITE if kind == "write" else READ
            candidates = [(p, f"{event.tool} {p}", paths) for p, a in event.paths if a == access and p]
            candidates.extend(shell_writes if kind == "write" else shell_reads)
            for path, segment, where in candidates:
                if path_matches(where, pattern, path):
                    out.append(_finding(item, segment, evidence=path))
                    break
    return out


def path_matches(paths: Resolver, pattern: str, path: str) -> bool:
    """A policy glob against a path as written: project-relative, `~/`-relative or absolute."""
    where = paths.resolve(path)
    if where is None:
        return False
    if pattern.startswith("/"):
        return glob_match(pattern, where)
    if pattern.startswith("~/"):
        rel = paths.relative_to_home(where)
        return rel is not None and glob_match(pattern[2:], rel)
    rel = paths.relative_to_project(where)
    return rel is not None and rel != "." and glob_match(pattern, rel)


def _finding(item: dict[str, Any], segment: str, *, evidence: str = "") -> Finding:
    rule = str(item.get("rule") or item.get("id") or "POL")
    message = str(item.get("message") or "")
    source = item.get("source")
    if source:
        message = f"{message} ({source})"
    verdict = str(item.get("verdict") or DENY)
    if verdict not in SEVERITY:
        verdict = DENY  # a bundle is trusted, but an unknown verdict must not weaken a rule
    return Finding(GATE, rule, verdict, message, segment=segment[:200], evidence=evidence[:200])

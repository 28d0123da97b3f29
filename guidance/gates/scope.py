"""Where a scoped check applies: the rules of `src/gen/CLAUDE.md` are about work in `src/gen/`.

Hot path module: standard library only.

A check compiled from a file in a subdirectory carries that directory as `scope` (project-
relative; docs/policy-grammar.md, "Scope"). It applies to an event that works in the directory:

- a file tool (Read, Write, Edit, Grep, Glob, NotebookEdit, apply_patch): one of its paths is
  in the directory (the directory itself or below it);
- a shell command line: one of its commands runs there (the event's cwd, or after a `cd`), or
  names a path there (an argument or a file it reads or writes, resolved from where it runs);
- any other tool (WebFetch, Task, MCP): the event's cwd is there.

Path checks need nothing more: the compiler anchored their globs below the directory
(`*.pb.go` in src/gen/CLAUDE.md is `src/gen/**/*.pb.go`). Gates ask `applies(ctx, check)` or,
for a whole index of one scope, `touches(ctx, scope)`; the answer per scope is kept on the
event's context.
"""

from __future__ import annotations

from cf_guidance.gates.commands import resolver, resolver_at
from cf_guidance.gates.commands.files import file_effects

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from cf_guidance.gates._base import GateContext
    from cf_guidance.paths import Resolver


def applies(ctx: GateContext, check: dict[str, Any]) -> bool:
    """Whether `check` applies to this event: it has no scope, or the event works in it."""
    scope = check.get("scope")
    return not scope or touches(ctx, scope)


def touches(ctx: GateContext, scope: str) -> bool:
    """Whether the event works in the project directory `scope` (see the module docstring)."""
    known = ctx._scopes
    if known is None:
        known = ctx._scopes = {}
    found = known.get(scope)
    if found is None:
        found = known[scope] = _touches(ctx, scope)
    return found


def _within(paths: Resolver, path: str, scope: str) -> bool:
    where = paths.resolve(path)
    if where is None:
        return False
    rel = paths.relatives(where)[0]
    return rel is not None and (rel == scope or rel.startswith(scope + "/"))


def _touches(ctx: GateContext, scope: str) -> bool:
    event = ctx.event
    paths = resolver(ctx)
    if event.paths:
        return any(path and _within(paths, path, scope) for path, _ in event.paths)
    analysis = ctx.shell if event.command is not None else None
    if analysis is None:
        return _within(paths, paths.cwd, scope)
    for cmd in analysis.commands:
        at = resolver_at(ctx, cmd)
        if _within(at, at.cwd, scope):
            return True
        reads, writes = file_effects(cmd)
        for word in (*cmd.args, *reads, *writes):
            if word and word[0] != "-" and _within(at, word, scope):
                return True
    return False

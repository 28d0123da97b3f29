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
event's context. `worked_paths(ctx)` lists the places above (resolved): the pre-tool hook
passes them to the bundle cache, which then checks only the directories on their way for new
policy files (a file elsewhere cannot have a rule that applies to this call).
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
        paths = resolver(ctx)
        found = known[scope] = any(_within(paths, where, scope) for where in worked_paths(ctx))
    return found


def _within(paths: Resolver, where: str, scope: str) -> bool:
    rel = paths.relatives(where)[0]
    return rel is not None and (rel == scope or rel.startswith(scope + "/"))


def worked_paths(ctx: GateContext) -> list[str]:
    """The absolute paths the event works in (module docstring), each once; what the shell
    would only know when it runs (`$DIR`) is left out."""
    found = ctx._worked
    if found is not None:
        return found
    event = ctx.event
    paths = resolver(ctx)
    out: list[str] = []
    if event.paths:
        out = [where for path, _ in event.paths if path and (where := paths.resolve(path)) is not None]
    elif event.command is None or ctx.shell is None:
        out = [paths.cwd]
    else:
        for cmd in ctx.shell.commands:
            at = resolver_at(ctx, cmd)
            out.append(at.cwd)
            reads, writes = file_effects(cmd)
            for word in (*cmd.args, *reads, *writes):
                if word and word[0] != "-" and (where := at.resolve(word)) is not None:
                    out.append(where)
    found = ctx._worked = list(dict.fromkeys(out))
    return found

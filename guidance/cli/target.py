"""`--target` of every command: a directory inside the project, resolved to the project's root.

Like git, a command run anywhere inside a project (or given any path inside it) acts on the
project root: `$CLAUDE_PROJECT_DIR` / `$GUIDANCE_PROJECT_DIR` when no --target is given, else
the nearest directory that holds the strongest evidence (cf_guidance.state.find_root):
`.claude-flow/`, then `.claude/` or `.codex/` (not the user's own config folders), then
`CLAUDE.md`, then `.git`; with none of them, the directory itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from cf_guidance.errors import ConfigError

F = TypeVar("F", bound=Callable[..., Any])

#: ctx.meta key holding (given directory, root, evidence) for commands that report it (init).
META_KEY = "cf_guidance.root"
HELP = ("A directory inside the project (default: the current one); the project root above it is used: "
        "the nearest with .claude-flow/, .claude/ or .codex/, else CLAUDE.md, else .git.")


class Root:
    """Where a command was pointed and the project root found from there."""

    __slots__ = ("given", "root", "evidence")

    def __init__(self, given: str, root: str, evidence: str) -> None:
        self.given = given
        self.root = root
        self.evidence = evidence

    def note(self) -> str:
        """One line saying which root was found, when it is not the directory given."""
        if self.root == self.given:
            return ""
        return f"project root: {self.root} (it holds {self.evidence}; {self.given} is inside it)"


def find(target: str | os.PathLike[str] | None) -> Root:
    """The project root for `target` (None: the environment's project, else the working directory)."""
    from cf_guidance.state import PROJECT_DIR_ENVS, find_root

    if target is None:
        for name in PROJECT_DIR_ENVS:
            value = os.environ.get(name, "")
            if value:
                target = value
                break
        else:
            target = os.getcwd()
    given = os.path.abspath(os.path.expanduser(os.fspath(target)))
    if not os.path.isdir(given):
        what = "does not exist" if not os.path.lexists(given) else "is not a directory"
        raise ConfigError(f"{given} {what}; pass --target with a directory inside the project")
    root, evidence = find_root(given)
    return Root(given, root, evidence)


def option(*, path_type: type = str) -> Callable[[F], F]:
    """The --target option; the command receives the project root as `path_type` (str or Path)."""

    def resolve(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
        found = find(value)
        ctx.meta[META_KEY] = found
        return Path(found.root) if path_type is Path else found.root

    return click.option("--target", default=None, metavar="DIR", callback=resolve, expose_value=True, help=HELP)


def found(ctx: click.Context) -> Root | None:
    """The Root the --target option of this command resolved, if any."""
    value = ctx.meta.get(META_KEY)
    return value if isinstance(value, Root) else None

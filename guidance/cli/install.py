"""`cf-guidance init`, `verify` and `uninstall`: wire the hooks into a repository, check, remove.

Exit codes (as every command): 0 done and verified, 1 a check failed (verify, or init's own
verification), 2 a usage error (a bad option, a --target that is not a directory).
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from . import target as project_target

_AGENT = click.Choice(["claude", "codex", "both"])
_SCOPE = click.Choice(["project", "local", "user"])


def _installer() -> Any:
    # Imported by name: the package maps installer/ to cf_guidance.installer, which mypy cannot see.
    return importlib.import_module("cf_guidance.installer")


def _emit(report: Any, as_json: bool, ctx: click.Context) -> None:
    if as_json:
        click.echo(report.model_dump_json(indent=2))
        return
    found = project_target.found(ctx)
    note = found.note() if found is not None else ""
    click.echo((note + "\n" if note else "") + report.text())


@click.command("init")
@project_target.option()
@click.option("--agent", default="claude", show_default=True, type=_AGENT, help="Which agent's hook settings to write.")
@click.option("--scope", default="project", show_default=True, type=_SCOPE,
              help="project: the committed .claude/settings.json (and .codex/hooks.json), portable, for every clone; "
                   "local: .claude/settings.local.json, this machine's paths; user: ~/.claude/settings.json, every project.")
@click.option("--if-missing", type=click.Choice(["deny", "warn"]), default=None,
              help="What pre-tool hooks answer on a machine where cf-guidance is missing or broken: deny every tool call "
                   "(default) or allow it with a visible warning. Kept from the existing wiring when not given.")
@click.option("--no-verify", is_flag=True, help="Skip the smoke test after writing.")
@click.option("--dry-run", is_flag=True, help="Print the changes as a diff and write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def init_cmd(ctx: click.Context, target: str, agent: str, scope: str, if_missing: str | None, no_verify: bool,
             dry_run: bool, as_json: bool) -> None:
    """Wire cf-guidance's hooks into a repository, create its state and key, then verify."""
    report = _installer().install(target, agent=agent, verify=not no_verify, dry_run=dry_run, scope=scope,
                                  if_missing=if_missing)
    _emit(report, as_json, ctx)
    if not report.ok:
        ctx.exit(1)


@click.command("verify")
@project_target.option()
@click.option("--agent", default=None, type=_AGENT, help="Which agent's hook settings to check (default: those wired).")
@click.option("--scope", default=None, type=_SCOPE, help="Which scope to check (default: every scope that wires the project).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def verify_cmd(ctx: click.Context, target: str, agent: str | None, scope: str | None, as_json: bool) -> None:
    """Check the wired hooks: files, key, policy, and a smoke test through the exact wired command."""
    report = _installer().verify(target, agent=agent, scope=scope)
    _emit(report, as_json, ctx)
    if not report.ok:
        ctx.exit(1)


@click.command("uninstall")
@project_target.option()
@click.option("--scope", "scopes", multiple=True, type=_SCOPE,
              help="Which scope's wiring to remove (repeatable; default: project and local; user only when named).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def uninstall_cmd(ctx: click.Context, target: str, scopes: tuple[str, ...], as_json: bool) -> None:
    """Remove exactly what init added; your own hooks, the ledger and its key stay."""
    report = _installer().uninstall(target, scopes=scopes or ("project", "local"))
    _emit(report, as_json, ctx)

"""`cf-guidance init`, `verify` and `uninstall`: wire the hooks into a repository, check, remove."""

from __future__ import annotations

import importlib
from typing import Any

import click

_AGENT = click.Choice(["claude", "codex", "both"])


def _installer() -> Any:
    # Imported by name: the package maps installer/ to cf_guidance.installer, which mypy cannot see.
    return importlib.import_module("cf_guidance.installer")


def _emit(report: Any, as_json: bool) -> None:
    click.echo(report.model_dump_json(indent=2) if as_json else report.text())


@click.command("init")
@click.option("--target", default=".", show_default=True, type=click.Path(file_okay=False), help="Repository root.")
@click.option("--agent", default="claude", show_default=True, type=_AGENT, help="Which agent's hook settings to write.")
@click.option("--no-verify", is_flag=True, help="Skip the smoke test after writing.")
@click.option("--dry-run", is_flag=True, help="Print the changes as a diff and write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def init_cmd(ctx: click.Context, target: str, agent: str, no_verify: bool, dry_run: bool, as_json: bool) -> None:
    """Wire cf-guidance's hooks into a repository, create its state and key, then verify."""
    report = _installer().install(target, agent=agent, verify=not no_verify, dry_run=dry_run)
    _emit(report, as_json)
    if not report.ok:
        ctx.exit(1)


@click.command("verify")
@click.option("--target", default=".", show_default=True, type=click.Path(file_okay=False), help="Repository root.")
@click.option("--agent", default=None, type=_AGENT, help="Which agent's hook settings to check (default: those present).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def verify_cmd(ctx: click.Context, target: str, agent: str | None, as_json: bool) -> None:
    """Check the wired hooks: files, key, and a smoke test through the exact wired command."""
    report = _installer().verify(target, agent=agent)
    _emit(report, as_json)
    if not report.ok:
        ctx.exit(1)


@click.command("uninstall")
@click.option("--target", default=".", show_default=True, type=click.Path(file_okay=False), help="Repository root.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def uninstall_cmd(target: str, as_json: bool) -> None:
    """Remove exactly what init added; your own hooks, the ledger and its key stay."""
    report = _installer().uninstall(target)
    _emit(report, as_json)

"""`cf-guidance hook NAME`: run a hook command by hand (the event JSON on stdin).

Agents run the faster commands that `cf-guidance init` wires (`cf-guidance-hook NAME` in the
project scope, `python -S .../launcher.py NAME` in the local and user scope); this command runs
the same code through the CLI, for trying an event out.
"""

from __future__ import annotations

import importlib

import click


@click.command("hook", context_settings={"ignore_unknown_options": True})
@click.argument("name", required=False)
@click.pass_context
def hook_cmd(ctx: click.Context, name: str | None) -> None:
    """Run hook command NAME on the event JSON read from stdin (no NAME: list the commands).

    \b
    Example:
      echo '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}' \\
        | cf-guidance hook pre-bash
    """
    # Imported by name: the package maps hooks/ to cf_guidance.hooks, which mypy cannot see.
    dispatch = importlib.import_module("cf_guidance.hooks.dispatch")
    if name is None:
        click.echo(dispatch.usage(), nl=False)
        return
    ctx.exit(int(dispatch.main([name])))

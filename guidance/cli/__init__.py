"""The `cf-guidance` command line (click). Thin: parse options, call the library, print.

Subcommands load lazily (the table below maps a name to "module:attribute") so that
`cf-guidance --help` and each command import only what they use. Library errors
(`GuidanceError`) and usage errors become one line on stderr.

Exit codes, the same for every command: 0 ok; 1 a check failed (verify, init's verification,
compile errors, `explain --exit-code` on deny/ask, `check` with malformed lines, a tampered
ledger); 2 a usage error (a bad option, a --target that is not a directory, input that cannot
be read, an invalid setting); 3 `ledger verify` found a torn last record; 130 interrupted.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Any

import click

from cf_guidance.errors import GuidanceError

#: name -> "module:attribute" of a click command or group.
COMMANDS: dict[str, str] = {
    "compile": "cf_guidance.cli.policy:compile_cmd",
    "explain": "cf_guidance.cli.policy:explain_cmd",
    "check": "cf_guidance.cli.policy:check_cmd",
    "replay": "cf_guidance.cli.replay:replay_cmd",
    "rules": "cf_guidance.cli.policy:rules_cmd",
    "hook": "cf_guidance.cli.hooks:hook_cmd",
    "init": "cf_guidance.cli.install:init_cmd",
    "verify": "cf_guidance.cli.install:verify_cmd",
    "uninstall": "cf_guidance.cli.install:uninstall_cmd",
    "model-server": "cf_guidance.cli.modelserver:model_server_cmd",
    "ledger": "cf_guidance.cli.ledger:ledger_group",
    "jobs": "cf_guidance.cli.ledger:jobs_cmd",
    "trust": "cf_guidance.cli.ledger:trust_cmd",
    "status": "cf_guidance.cli.ledger:status_cmd",
    "headless": "cf_guidance.cli.headless:headless_group",
    "analyze": "cf_guidance.cli.autopilot:analyze_cmd",
    "ab": "cf_guidance.cli.autopilot:ab_cmd",
    "autopilot": "cf_guidance.cli.autopilot:autopilot_group",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in COMMANDS if self._available(name))

    def _available(self, name: str) -> bool:
        module = COMMANDS[name].split(":")[0]
        return importlib.util.find_spec(module) is not None

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                return None
            raise
        command = getattr(module, attr, None)
        return command if isinstance(command, click.Command) else None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cf-guidance", prog_name="cf-guidance")
def cli() -> None:
    """Enforce CLAUDE.md on every tool use of an AI coding agent."""


def main(argv: list[str] | None = None) -> Any:
    try:
        result = cli.main(args=argv, prog_name="cf-guidance", standalone_mode=False)
        if isinstance(result, int) and result:  # a command's ctx.exit(N): the same code from any caller
            sys.exit(result)
        return result
    except GuidanceError as exc:
        click.echo(f"cf-guidance: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("cf-guidance: aborted", err=True)
        sys.exit(130)
    except click.UsageError as exc:  # one line, as every user mistake: what is wrong and where to look
        command = exc.ctx.command_path if exc.ctx is not None else "cf-guidance"
        click.echo(f"{command}: {exc.format_message()} (see `{command} --help`)", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)

"""`cf-guidance headless run|init-suite`: test that a policy works by running tasks through Claude Code.

Exit codes of `run`: 0 every task passed, 1 some failed (or were inconclusive), 2 the suite or
setup is broken or some task could not run (timeouts, API errors, a missing claude binary).
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

import click

from cf_guidance.errors import ConfigError

MODE_FLAGS = {"interactive": "--interactive", "non-interactive": "--non-interactive", "auto-answer": "--auto-answer"}


@click.group("headless")
def headless_group() -> None:
    """Run suites of tasks through Claude Code and check what the agent did."""


def _split(values: tuple[str, ...]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def resolve_mode(mode: str | None, shortcuts: list[str], *, tty: bool, ci: bool) -> str:
    """The session mode from --mode and the shortcut flags; two different ones are an error."""
    given = ([("--mode " + mode, mode)] if mode else []) + [(MODE_FLAGS[s], s) for s in shortcuts]
    chosen = {value for _, value in given}
    if len(chosen) > 1:
        raise ConfigError(f"conflicting mode flags: {' and '.join(flag for flag, _ in given)}; give one mode")
    if chosen:
        value = chosen.pop()
        if value == "interactive" and not tty:
            raise ConfigError("--mode interactive needs a terminal on stdin; use non-interactive or auto-answer")
        return value
    return "interactive" if tty and not ci else "non-interactive"


class _TerminalPrompter:
    """Interactive mode: ask the person at the terminal, one question at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def __call__(self, kind: str, payload: dict[str, Any]) -> str:
        with self._lock:
            if kind == "question":
                options = [o for o in payload.get("options") or [] if isinstance(o, dict)]
                click.echo(f"\n[{payload.get('header', 'question')}] {payload.get('question', '')}", err=True)
                for index, option in enumerate(options, 1):
                    click.echo(f"  {index}. {option.get('label')} - {option.get('description', '')}", err=True)
                answer = str(click.prompt("answer (number or text)", err=True, default="1" if options else ""))
                if answer.isdigit() and 1 <= int(answer) <= len(options):
                    return str(options[int(answer) - 1].get("label", ""))
                return answer
            tool = payload.get("tool_name", "?")
            shown = payload.get("input", {})
            return "y" if click.confirm(f"\nAllow {tool} {shown}?", default=False, err=True) else "n"


@headless_group.command("run")
@click.argument("suite", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--executor", type=click.Choice(["claude", "scripted", "fake"]), help="Override every task's executor.")
@click.option("--tags", multiple=True, help="Only tasks with one of these tags (globs; comma-separated or repeated).")
@click.option("--ids", multiple=True, help="Only these task ids (comma-separated or repeated).")
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True, help="Runs per task.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Runs in parallel.")
@click.option("--retries", type=click.IntRange(min=0), default=2, show_default=True,
              help="Retries of a run that hit an infrastructure error (never of a failure).")
@click.option("--report-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("reports/headless"),
              show_default=True, help="Where report.json, report.html, junit.xml and envelope.txt go.")
@click.option("--mode", type=click.Choice(list(MODE_FLAGS)), default=None,
              help="AskUserQuestion and permission prompts: ask the terminal, deny (CI), or answer from the task's `answers`.")
@click.option("--interactive", "as_interactive", is_flag=True, help="Same as --mode interactive.")
@click.option("--non-interactive", "as_non_interactive", is_flag=True, help="Same as --mode non-interactive.")
@click.option("--auto-answer", "as_auto_answer", is_flag=True, help="Same as --mode auto-answer.")
@click.option("--keep-workspaces", is_flag=True, help="Keep each run's workspace for debugging (paths in the report).")
@click.option("--ledger-target", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project whose ledger records failed assertions (default: the initialised project holding the suite).")
@click.option("--no-ledger", is_flag=True, help="Do not record failed assertions in any ledger.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@click.pass_context
def run_cmd(ctx: click.Context, suite: Path, executor: str | None, tags: tuple[str, ...], ids: tuple[str, ...],
            repeat: int, jobs: int, retries: int, report_dir: Path, mode: str | None, as_interactive: bool,
            as_non_interactive: bool, as_auto_answer: bool, keep_workspaces: bool, ledger_target: Path | None, no_ledger: bool, quiet: bool) -> None:
    """Run SUITE and write reports; print the result envelope (ending in "Run complete")."""
    from cf_guidance.headless.report import build_report, render_envelope, write_reports
    from cf_guidance.headless.runner import RunOptions, Runner
    from cf_guidance.headless.suite import load_suite

    ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    shortcuts = [name for name, on in (("interactive", as_interactive), ("non-interactive", as_non_interactive),
                                       ("auto-answer", as_auto_answer)) if on]
    chosen_mode = resolve_mode(mode, shortcuts, tty=sys.stdin.isatty(), ci=ci)
    loaded = load_suite(suite)
    options = RunOptions(
        executor=executor, tags=_split(tags), ids=_split(ids), repeat=repeat, jobs=jobs, mode=chosen_mode,
        retries=retries, keep_workspaces=keep_workspaces,
        violations_state_dir=None if no_ledger else _ledger_state_dir(ledger_target, loaded.directory),
    )
    progress = None if quiet else (lambda line: click.echo(line, err=True))
    prompter = _TerminalPrompter() if chosen_mode == "interactive" else None
    result = Runner(loaded, options, progress=progress, prompter=prompter).run()
    report = build_report(result, argv=["cf-guidance", "headless", "run", *sys.argv[3:]])
    paths = write_reports(report, report_dir)
    click.echo(render_envelope(report, report_path=str(paths["json"])), nl=False)
    if not quiet:
        click.echo(f"HTML report: {paths['html']}  JUnit: {paths['junit']}", err=True)
    ctx.exit(result.exit_code)


def _ledger_state_dir(target: Path | None, suite_dir: Path) -> Path | None:
    """The state dir whose spool gets ASSERT-* violations: --ledger-target's, else the suite's project's if initialised."""
    from cf_guidance.state import STATE_TOP, project_dir, state_dir

    if target is not None:
        from . import target as project_target

        path = Path(state_dir(project_target.find(target).root))
        if not path.is_dir():
            raise ConfigError(f"{target} has no cf-guidance state ({path}); run `cf-guidance init --target {target}` first")
        return path
    root = project_dir(environ={}, event_cwd=str(suite_dir))
    if not (Path(root) / STATE_TOP).is_dir():
        return None
    path = Path(state_dir(root, environ={}))
    return path if path.is_dir() else None


@headless_group.command("init-suite")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path), default=Path("headless"))
@click.option("--force", is_flag=True, help="Overwrite starter files that already exist.")
def init_suite_cmd(directory: Path, force: bool) -> None:
    """Write the starter compliance suite (compliance.yaml + CLAUDE.md) into DIRECTORY."""
    from cf_guidance.headless.compliance import write_starter

    for path in write_starter(directory, force=force):
        click.echo(f"wrote {path}")
    click.echo(f"run it: cf-guidance headless run {directory / 'compliance.yaml'}")

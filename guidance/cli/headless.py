"""`cf-guidance headless run|merge|init-suite`: test that a policy works by running tasks through Claude Code.

Exit codes of `run` and `merge`: 0 every task passed, 1 some failed (or were inconclusive), 2
the suite or setup is broken or some task could not run (timeouts, API errors, a missing
claude binary, runs missing from a merged report); `run` exits 130 when Ctrl-C or SIGTERM
stopped it (after writing the partial report).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import sys
import threading
from collections.abc import Iterator
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
@click.option("--repeat", type=click.IntRange(min=1), default=None, help="Runs per task.  [default: 1]")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Runs in parallel.")
@click.option("--retries", type=click.IntRange(min=0), default=None,
              help="Retries of a run that hit an infrastructure error (never of a failure).  [default: 2]")
@click.option("--report-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where report.json, report.html, junit.xml and envelope.txt go.  [default: reports/headless, "
                   "or the --resume directory]")
@click.option("--mode", type=click.Choice(list(MODE_FLAGS)), default=None,
              help="AskUserQuestion and permission prompts: ask the terminal, deny (CI), or answer from the task's `answers`.")
@click.option("--interactive", "as_interactive", is_flag=True, help="Same as --mode interactive.")
@click.option("--non-interactive", "as_non_interactive", is_flag=True, help="Same as --mode non-interactive.")
@click.option("--auto-answer", "as_auto_answer", is_flag=True, help="Same as --mode auto-answer.")
@click.option("--shard", default=None, metavar="K/N",
              help="Run only shard K of N (stable by task id and repeat); merge the N reports with `headless merge`.")
@click.option("--resume", type=click.Path(file_okay=False, path_type=Path), default=None, metavar="REPORT_DIR",
              help="Run only what the report in REPORT_DIR did not finish (an interrupted run) and merge.")
@click.option("--sandbox", is_flag=True, default=None,
              help="Run the client under bubblewrap: only the workspace, its HOME and its temp dir are writable.")
@click.option("--keep-workspaces", is_flag=True, help="Keep each run's workspace for debugging (paths in the report).")
@click.option("--ledger-target", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project whose ledger records failed assertions (default: the initialised project holding the suite).")
@click.option("--no-ledger", is_flag=True, help="Do not record failed assertions in any ledger.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@click.pass_context
def run_cmd(ctx: click.Context, suite: Path, executor: str | None, tags: tuple[str, ...], ids: tuple[str, ...],
            repeat: int | None, jobs: int, retries: int | None, report_dir: Path | None, mode: str | None,
            as_interactive: bool, as_non_interactive: bool, as_auto_answer: bool, shard: str | None,
            resume: Path | None, sandbox: bool | None, keep_workspaces: bool, ledger_target: Path | None,
            no_ledger: bool, quiet: bool) -> None:
    """Run SUITE and write reports; print the result envelope (ending in "Run complete").

    Ctrl-C or SIGTERM stops the run, writes the report of what finished (partial, listing the
    rest) and exits 130; `--resume REPORT_DIR` then runs what is missing.
    """
    from cf_guidance.headless.report import build_report, finished_runs, load_report, merge_reports, render_envelope, write_reports
    from cf_guidance.headless.runner import RunOptions, Runner, parse_shard
    from cf_guidance.headless.suite import load_suite

    ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    shortcuts = [name for name, on in (("interactive", as_interactive), ("non-interactive", as_non_interactive),
                                       ("auto-answer", as_auto_answer)) if on]
    loaded = load_suite(suite)
    previous = load_report(resume) if resume is not None else None
    given: dict[str, Any] = {"executor": executor, "repeat": repeat, "retries": retries, "sandbox": sandbox,
                             "shard": shard, "tags": _split(tags) or None, "ids": _split(ids) or None,
                             "mode": _given_mode(mode, shortcuts)}
    if previous is not None:
        given = _resumed(given, previous, loaded.path, resume or Path("."))
    chosen_mode = resolve_mode(given["mode"], [], tty=sys.stdin.isatty(), ci=ci)
    options = RunOptions(
        executor=given["executor"], tags=given["tags"] or [], ids=given["ids"] or [], repeat=given["repeat"] or 1,
        jobs=jobs, mode=chosen_mode, retries=2 if given["retries"] is None else given["retries"],
        keep_workspaces=keep_workspaces, shard=parse_shard(given["shard"]) if given["shard"] else None,
        sandbox=bool(given["sandbox"]), skip=finished_runs(previous) if previous is not None else frozenset(),
        violations_state_dir=None if no_ledger else _ledger_state_dir(ledger_target, loaded.directory),
    )
    progress = None if quiet else (lambda line: click.echo(line, err=True))
    prompter = _TerminalPrompter() if chosen_mode == "interactive" else None
    runner = Runner(loaded, options, progress=progress, prompter=prompter)
    with _sigterm_stops_the_run():
        result = runner.run()
    with _signals_held(bool(result.interrupted)):  # a second Ctrl-C must not lose the report
        report = build_report(result, argv=["cf-guidance", "headless", "run", *sys.argv[3:]])
        if previous is not None:
            report = merge_reports([previous, report], [str((resume or Path(".")) / "report.json"), "this run"])
            report["run"]["command"] = shlex.join(["cf-guidance", "headless", "run", *sys.argv[3:]])
        paths = write_reports(report, report_dir or resume or Path("reports/headless"))
    click.echo(render_envelope(report, report_path=str(paths["json"])), nl=False)
    if not quiet:
        click.echo(f"HTML report: {paths['html']}  JUnit: {paths['junit']}", err=True)
    ctx.exit(INTERRUPTED_EXIT if result.interrupted else report["summary"]["exitCode"])


#: Exit status of a run stopped by Ctrl-C or SIGTERM (its partial report is written).
INTERRUPTED_EXIT = 130
#: Options a resumed run takes from the report it resumes (and must not contradict).
RESUMED_OPTIONS = ("executor", "repeat", "retries", "sandbox", "shard", "tags", "ids", "mode")


def _given_mode(mode: str | None, shortcuts: list[str]) -> str | None:
    """The mode the flags name (None when none does); two different ones are an error."""
    if not mode and not shortcuts:
        return None
    return resolve_mode(mode, shortcuts, tty=True, ci=False)


def _resumed(given: dict[str, Any], previous: dict[str, Any], suite_path: Path, resume: Path) -> dict[str, Any]:
    """The options of a resumed run: the report's, which the command line may repeat but not change."""
    from cf_guidance.headless.report import suite_sha256

    if previous["suite"].get("sha256") != suite_sha256(suite_path):
        raise ConfigError(f"{suite_path} changed since {resume / 'report.json'} was written; run the suite again "
                          "instead of resuming")
    run = previous["run"]
    recorded = {"executor": None if run["executor"] == "per task" else run["executor"], "repeat": run["repeat"],
                "retries": run["retries"], "sandbox": run["sandbox"], "shard": run["shard"], "tags": run["tags"] or None,
                "ids": run["ids"] or None, "mode": run["mode"]}
    out = dict(given)
    for key in RESUMED_OPTIONS:
        if given[key] is not None and given[key] != recorded[key] and not (key == "sandbox" and not given[key]):
            raise ConfigError(f"--{key} {given[key]!r} differs from the run being resumed ({recorded[key]!r}); "
                              "give the same options or none")
        out[key] = recorded[key]
    return out


@contextlib.contextmanager
def _sigterm_stops_the_run() -> Iterator[None]:
    """SIGTERM stops the run as Ctrl-C does (a partial report), instead of killing this process."""
    from cf_guidance.headless.runner import RunInterrupted

    def stop(signum: int, frame: Any) -> None:
        raise RunInterrupted("SIGTERM")

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def _signals_held(hold: bool) -> Iterator[None]:
    """Ignore SIGINT and SIGTERM while the report of an interrupted run is written."""
    if not hold:
        yield
        return
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@headless_group.command("merge")
@click.argument("directories", nargs=-1, required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option("--report-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("reports/headless"),
              show_default=True, help="Where the merged report.json, report.html, junit.xml and envelope.txt go.")
@click.pass_context
def merge_cmd(ctx: click.Context, directories: tuple[Path, ...], report_dir: Path) -> None:
    """Merge the reports in DIRECTORIES (the shards of one run) into one report; print its envelope."""
    from cf_guidance.headless.report import load_report, merge_reports, render_envelope, write_reports

    merged = merge_reports([load_report(d) for d in directories], [str(d) for d in directories])
    merged["run"]["command"] = shlex.join(["cf-guidance", "headless", "merge", *sys.argv[3:]])
    paths = write_reports(merged, report_dir)
    click.echo(render_envelope(merged, report_path=str(paths["json"])), nl=False)
    ctx.exit(merged["summary"]["exitCode"])


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

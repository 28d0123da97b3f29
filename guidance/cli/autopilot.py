"""`cf-guidance analyze`, `ab` and `autopilot`: score a policy, A/B two policies, promote local rules."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import click

from cf_guidance.errors import ConfigError

from . import target as project_target

_TARGET = project_target.option(path_type=Path)


def _suite(value: str | None) -> Path | Literal["derived"] | None:
    """`--suite`: a suite file, or "derived" for the probes alone (default: the compliance suite)."""
    if value is None or value == "derived":
        return value  # type: ignore[return-value]
    path = Path(value)
    if not path.is_file():
        raise ConfigError(f"suite {value} not found; give a suite file or 'derived'")
    return path.resolve()


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None


@click.command("analyze")
@_TARGET
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
def analyze_cmd(target: Path, as_json: bool, file: Path | None) -> None:
    """Score a policy on six dimensions, from what the compiler actually produced.

    FILE is scored alone; without it, the target's CLAUDE.md with its CLAUDE.local.md.
    """
    from cf_guidance.autopilot.analyzer import analyze

    if file is not None:
        title, result = str(file), analyze(_read(file))
    else:
        shared, local = target / "CLAUDE.md", target / "CLAUDE.local.md"
        if not shared.exists() and not local.exists():
            raise ConfigError(f"no CLAUDE.md in {target}; give a FILE or --target")
        title = str(shared)
        result = analyze(
            _read(shared) if shared.exists() else "",
            _read(local) if local.exists() else None,
            root=str(target.resolve()),
        )
    click.echo(result.model_dump_json(indent=2) if as_json else result.render(title))


@click.command("ab")
@click.option("--baseline", required=True, type=click.Path(dir_okay=False, exists=True, path_type=Path), help="Policy A (CLAUDE.md).")
@click.option("--candidate", required=True, type=click.Path(dir_okay=False, exists=True, path_type=Path), help="Policy B.")
@click.option("--suite", default=None,
              help="Suite run under both policies, or 'derived' for the probes alone [the starter compliance "
                   "suite]; probes for B's new rules are always added.")
@click.option("--executor", type=click.Choice(["scripted", "claude"]), default="scripted", show_default=True,
              help="scripted: the real client and hooks, a scripted model (deterministic, free); claude: the real "
                   "model (needs --live and --budget-usd).")
@click.option("--live", is_flag=True, help="Allow --executor claude to call the real model (it costs money).")
@click.option("--budget-usd", type=float, default=None, help="Stop a live run once it has cost this much.")
@click.option("--repeat", type=click.IntRange(min=1), default=None,
              help="Independent runs per task and policy, live only [6]; a scripted run is deterministic and runs once.")
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True, help="Pairs run at once.")
@click.option("--report-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("ab-report"), show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def ab_cmd(
    baseline: Path, candidate: Path, suite: str | None, executor: str, live: bool, budget_usd: float | None,
    repeat: int | None, jobs: int, report_dir: Path, as_json: bool,
) -> None:
    """A/B benchmark: the same tasks under both policies.

    Scripted: a deterministic check of enforcement (which probes the candidate stops that the
    baseline allows). Live (--executor claude --live --budget-usd N, after a preflight):
    independent paired runs with an exact McNemar test and an interval.
    """
    from cf_guidance.autopilot.ab import RunOutcome, run_policy_ab, write_reports

    def progress(o: RunOutcome) -> None:
        state = "ERROR" if o.error else "PASS" if o.passed else "FAIL"
        click.echo(f"  {o.arm:<9} {state:<5} {o.task} #{o.repeat + 1}{'  ' + o.error if o.error else ''}", err=True)

    report = run_policy_ab(
        _read(baseline),
        _read(candidate),
        suite_path=_suite(suite),
        executor=executor,
        repeat=repeat,
        jobs=jobs,
        work_dir=(report_dir / "work").resolve(),
        names=(str(baseline), str(candidate)),
        progress=progress,
        live=live,
        budget_usd=budget_usd,
        announce=lambda line: click.echo(line, err=True),
    )
    json_path, html_path = write_reports(report, report_dir)
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        click.echo(report.summary_line())
        for flip in report.flipped[:10]:
            click.echo(f"  flipped: {flip.task} #{flip.repeat + 1} {flip.direction}")
        for note in report.unprobed:
            click.echo(f"  no probe: {note}")
        for error in report.errors:
            click.echo(f"  left out: {error}")
        click.echo(f"reports: {json_path} {html_path}")


@click.group("autopilot", invoke_without_command=True)
@_TARGET
@click.option("--once", "mode", flag_value="once", default=True, help="Run one cycle (the default).")
@click.option("--daemon", "mode", flag_value="daemon", help="Run a cycle every --interval until stopped.")
@click.option("--interval", default="30m", show_default=True, help="Daemon interval: 90s, 30m, 2h.")
@click.option("--apply/--no-apply", default=None,
              help="Rewrite CLAUDE.md when the gates pass (default: propose; env GUIDANCE_AUTOPILOT_APPLY).")
@click.option("--ab/--no-ab", default=None, help="A/B gate through the headless runner (env GUIDANCE_AUTOPILOT_AB).")
@click.option("--min-delta", type=float, default=None, help="Least analyzer gain to promote [0.5].")
@click.option("--min-ab-gain", type=float, default=None, help="Least A/B deltaGain to promote [0.05].")
@click.option("--max-promotions", type=click.IntRange(min=1), default=None, help="Rules promoted per cycle [12].")
@click.option("--ab-suite", default=None,
              help="Suite for the A/B gate besides the derived probes, or 'derived' [compliance suite].")
@click.option("--ab-executor", type=click.Choice(["scripted", "claude"]), default=None)
@click.option("--ab-live", is_flag=True, default=None, help="Allow --ab-executor claude to call the real model.")
@click.option("--ab-budget-usd", type=float, default=None, help="Stop a live A/B once it has cost this much.")
@click.option("--ab-repeat", type=click.IntRange(min=1), default=None,
              help="Independent runs per task and policy of a live A/B [6]; a scripted one runs once.")
@click.option("--replay/--no-replay", default=None,
              help="Replay the project's past sessions per rule before promoting it (env GUIDANCE_AUTOPILOT_REPLAY) [on].")
@click.option("--replay-path", "replay_paths", multiple=True, type=click.Path(exists=True, path_type=str),
              help="Session logs to replay instead of the project's own (repeatable).")
@click.option("--max-false-positive-rate", type=click.FloatRange(0, 1), default=None,
              help="Most likely false positives in a rule's replay, as a share of what it would stop [0.2].")
@click.option("--source", default="manual", show_default=True, help="Who started the cycle (session-end, daemon, manual).")
@click.option("--json", "as_json", is_flag=True, help="Print each cycle's report as JSON.")
@click.pass_context
def autopilot_group(
    ctx: click.Context,
    target: Path,
    mode: str,
    interval: str,
    apply: bool | None,
    ab: bool | None,
    min_delta: float | None,
    min_ab_gain: float | None,
    max_promotions: int | None,
    ab_suite: str | None,
    ab_executor: str | None,
    ab_live: bool | None,
    ab_budget_usd: float | None,
    ab_repeat: int | None,
    replay: bool | None,
    replay_paths: tuple[str, ...],
    max_false_positive_rate: float | None,
    source: str,
    as_json: bool,
) -> None:
    """Promote the CLAUDE.local.md rules that help into CLAUDE.md, or propose it.

    Without --apply the result is a proposal under .claude-flow/guidance/proposals/; CLAUDE.md
    is only rewritten with --apply (or GUIDANCE_AUTOPILOT_APPLY=1) when the gates pass.
    """
    ctx.ensure_object(dict)
    ctx.obj["target"] = target
    if ctx.invoked_subcommand is not None:
        return
    from cf_guidance.autopilot.autopilot import Autopilot, CycleReport, Settings, parse_interval, run_daemon

    settings = Settings.resolve(
        target,
        apply=apply,
        ab=ab,
        min_delta=min_delta,
        min_ab_gain=min_ab_gain,
        max_promotions=max_promotions,
        ab_suite=_suite(ab_suite),
        ab_executor=ab_executor,
        ab_live=ab_live,
        ab_budget_usd=ab_budget_usd,
        ab_repeat=ab_repeat,
        replay=replay,
        replay_paths=list(replay_paths) or None,
        max_false_positive_rate=max_false_positive_rate,
        source="daemon" if mode == "daemon" and source == "manual" else source,
    )
    pilot = Autopilot(settings)

    def show(report: CycleReport) -> None:
        if as_json:
            click.echo(report.model_dump_json(indent=2))
            return
        click.echo(report.line())
        if report.replay is not None:
            click.echo(f"  {report.replay.line()}")
        decisions = {d.id: d for d in report.rules}
        for promotion in report.promotions:
            decision = decisions.get(promotion.id)
            state = "applied" if promotion.id in report.applied else "apply" if decision and decision.apply else "held"
            kind = decision.enforcement if decision else ""
            click.echo(f"  {state} {promotion.id} ({kind}, {promotion.status}, {promotion.source}): {promotion.text}")
            if decision is not None and decision.replay is not None:
                click.echo(f"      {decision.replay.line()}")
                for example in decision.replay.examples[:3]:
                    click.echo(f"        {example.link}  {example.call}  ({example.outcome})")
            for reason in decision.reasons if decision else []:
                click.echo(f"      not applied: {reason}")
        for conflict in report.conflicts:
            click.echo(f"  not promoted {conflict.id} ({conflict.source}): {conflict.reason}")
        if report.ab is not None:
            click.echo(f"  {report.ab.summary_line()}")
        for label, path in (("proposal", report.proposal), ("backup", report.backup), ("adr", report.adr)):
            if path:
                click.echo(f"  {label}: {path}")

    if mode == "daemon":
        seconds = parse_interval(interval)
        try:
            run_daemon(pilot, seconds, on_cycle=show,
                       on_error=lambda exc: click.echo(f"cf-guidance: autopilot cycle failed: {exc}", err=True))
        except KeyboardInterrupt:
            click.echo("autopilot daemon stopped", err=True)
        return
    report = pilot.run_cycle()
    show(report)
    if report.decision == "error":
        ctx.exit(1)


@autopilot_group.command("rollback")
@click.option("--target", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Repository root (default: the group's --target).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def rollback_cmd(ctx: click.Context, target: Path | None, as_json: bool) -> None:
    """Restore CLAUDE.md from the last autopilot backup (recorded in the ledger)."""
    from cf_guidance.autopilot.autopilot import Autopilot, Settings

    root = Path(project_target.find(target).root) if target is not None else ctx.obj["target"]
    report = Autopilot(Settings.resolve(root)).rollback()
    click.echo(report.model_dump_json(indent=2) if as_json else report.line())
    if report.decision != "rolled-back":
        ctx.exit(1)

"""`cf-guidance ledger|jobs|trust|status`: the audit trail, the worker, trust and the state dir.

Exit codes of `ledger verify` and `ledger verify-export`: 0 intact, 1 tampered, 3 torn
(a crash left an incomplete last record; `ledger repair` fixes it).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click

from cf_guidance.errors import ConfigError

from . import target as project_target

EXIT_TAMPERED = 1
EXIT_TORN = 3

_TARGET = project_target.option(path_type=Path)
_JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def _dirs(target: Path) -> tuple[str, str]:
    """(project, state dir) for the project root --target resolved to."""
    from cf_guidance.state import state_dir

    project = str(target)
    return project, state_dir(project)


def _ledger(target: Path, *, must_exist: bool = True) -> Any:
    """The project's ledger. A missing one is an error, unless its witness remembers it (then
    `verify` reports the state directory as wiped)."""
    import os

    from cf_guidance.ledger.store import Ledger
    from cf_guidance.ledger.witness import witness_path

    project, state = _dirs(target)
    ledger = Ledger(state)
    if must_exist and not ledger.path.exists() and not os.path.exists(witness_path(state)):
        raise ConfigError(f"no ledger at {ledger.path}; run `cf-guidance init --target {project}` and use the agent, or check --target")
    return ledger


def _echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True))


def _report_exit(report: Any) -> int:
    return {"ok": 0, "torn": EXIT_TORN}.get(report.status, EXIT_TAMPERED)


def _report_lines(report: Any) -> list[str]:
    if report.status == "ok":
        anchored = f"{report.records - report.unanchored} covered by {report.checkpoints} signed checkpoints"
        lines = [f"ok: {report.records} records, head {report.head[:16]}, {anchored}"]
        if report.unanchored:
            lines.append(f"  {report.unanchored} records after the last checkpoint are protected by their HMACs only")
        for path, size in report.witnessed:
            lines.append(f"  extends the witness {path} ({size} records)")
        if not report.witnessed:
            lines.append("  no witness yet (the worker writes one after its next drain): a rolled-back state directory would not be noticed")
        if report.lost_records:
            lines.append(f"  {report.lost_records} records are signed by keys declared lost (keys/lost.json): checked by hash chain and checkpoints only")
        return lines
    where = f" (record seq {report.bad_seq}, line {report.bad_line})" if report.bad_seq is not None else ""
    lines = [f"{report.status.upper()}{where}: {report.problem}"]
    lines.extend(f"{report.status.upper()}: {problem}" for problem in report.problems[1:])
    lines.append(f"  {report.records} records before it verify" if report.bad_seq is not None else f"  {report.records} records verify")
    return lines


@click.group("ledger")
def ledger_group() -> None:
    """The tamper-evident ledger of every decision and event."""


@ledger_group.command("verify")
@_TARGET
@click.option("--witness", "witnesses", multiple=True, type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Also check against this exported witness (`cf-guidance ledger witness --out FILE`); repeatable.")
@_JSON
@click.pass_context
def verify_cmd(ctx: click.Context, target: Path, witnesses: tuple[Path, ...], as_json: bool) -> None:
    """Check every record's hash, chain and HMAC, every signed checkpoint, and the ledger against its witness."""
    report = _ledger(target).verify([str(w) for w in witnesses])
    if as_json:
        _echo_json(report.to_dict())
    else:
        for line in _report_lines(report):
            click.echo(line, err=report.status != "ok")
    ctx.exit(_report_exit(report))


@ledger_group.command("show")
@_TARGET
@click.option("--tail", type=click.IntRange(min=1), default=None, help="Only the last N records.")
@click.option("--session", default=None, help="Only records of this session id.")
@_JSON
def show_cmd(target: Path, tail: int | None, session: str | None, as_json: bool) -> None:
    """Print records (oldest first): seq, time, kind, session, agent, decision, what."""
    from collections import deque

    records: Any = (r for r in _ledger(target).records() if session is None or r.get("session_id") == session)
    if tail is not None:
        records = deque(records, maxlen=tail)
    for record in records:
        if as_json:
            click.echo(json.dumps(record, ensure_ascii=False, sort_keys=True))
        else:
            click.echo(_show_line(record))


def _show_line(record: dict[str, Any]) -> str:
    decision = record.get("decision")
    decision = decision if isinstance(decision, dict) else {}
    verdict, rule = decision.get("decision", ""), decision.get("rule", "")
    event = record.get("event")
    event = event if isinstance(event, dict) else {}
    tool_input = event.get("tool_input")
    tool_input = tool_input if isinstance(tool_input, dict) else {}
    what = str(event.get("tool_name", "")) + " " + str(tool_input.get("command") or tool_input.get("file_path") or tool_input.get("prompt") or "")
    what = " ".join(what.split())[:100]
    fields = [str(record["seq"]).rjust(6), record.get("ts", ""), record.get("kind", "").ljust(12),
              (record.get("session_id") or "-")[:12].ljust(12), (record.get("agent_id") or "main")[:10].ljust(10),
              f"{verdict} {rule}".strip().ljust(14), what]
    return "  ".join(fields).rstrip()


@ledger_group.command("export")
@_TARGET
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path), help="File to write.")
def export_cmd(target: Path, out: Path) -> None:
    """Write records, signed checkpoints and public keys for an auditor (signs a final checkpoint)."""
    ledger = _ledger(target)
    result = ledger.export(out)
    click.echo(f"exported {result['records']} records and {result['checkpoints']} checkpoints to {result['path']}")
    _advance_witness(ledger)


@ledger_group.command("verify-export")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--public-key", "keys", multiple=True,
              help="Trusted verifier key (<name>+<id>+<base64>); default: the keys inside the export.")
@_JSON
@click.pass_context
def verify_export_cmd(ctx: click.Context, file: Path, keys: tuple[str, ...], as_json: bool) -> None:
    """Verify an export without the secret key: hashes, chain and signed checkpoints."""
    from cf_guidance.ledger.store import verify_export

    report = verify_export(file, list(keys) if keys else None)
    if as_json:
        _echo_json(report.to_dict())
    else:
        for line in _report_lines(report):
            click.echo(line, err=report.status != "ok")
        if report.status == "ok" and not keys:
            click.echo("  checked against the keys inside the export; pin them with --public-key for a real audit")
    ctx.exit(_report_exit(report))


@ledger_group.command("repair")
@_TARGET
def repair_cmd(target: Path) -> None:
    """Fix a torn last record left by a crash (quarantined, never deleted); refuses on tampering."""
    done, _ = _ledger(target).repair()
    click.echo(done)


@ledger_group.command("checkpoint")
@_TARGET
def checkpoint_cmd(target: Path) -> None:
    """Sign a checkpoint at the current head now."""
    ledger = _ledger(target)
    checkpoint = ledger.checkpoint()
    click.echo(f"signed checkpoint at {checkpoint.size} records" if checkpoint else "the head is already covered by a checkpoint")
    _advance_witness(ledger)


def _advance_witness(ledger: Any, **options: bool) -> None:
    for problem in ledger.witness(**options):
        click.echo(f"witness not advanced: {problem}", err=True)


@ledger_group.command("rotate-key")
@_TARGET
@click.option("--replace-lost", is_flag=True,
              help="The key file is gone for good: declare the keys its records name lost (keys/lost.json) and go on under a new key.")
def rotate_key_cmd(target: Path, replace_lost: bool) -> None:
    """Retire the ledger key and checkpoint key (kept under keys/retired/ for verification) and create new ones."""
    from cf_guidance.ledger import keys
    from cf_guidance.ledger.store import Ledger

    ledger = _ledger(target, must_exist=False)
    if replace_lost:
        lost = _lost_key_ids(ledger)
        old, new = keys.rotate(ledger.state_dir, replace_lost=True)
        keys.declare_lost(ledger.state_dir, lost)
        if lost:
            click.echo(f"declared lost: {', '.join(lost)} (their records are checked by hash chain and checkpoints only)")
    else:
        ledger.checkpoint()  # the old keys sign everything written with them
        old, new = keys.rotate(ledger.state_dir)
    click.echo(f"rotated ledger key {old or '(missing)'} -> {new}")
    _advance_witness(Ledger(ledger.state_dir), accept_keys=True)


def _lost_key_ids(ledger: Any) -> list[str]:
    """Key ids the records name that no key file (current, retired or from the environment) holds."""
    from cf_guidance.ledger import keys
    from cf_guidance.ledger.record import chain_fields, split

    try:
        known = set(keys.load(ledger.state_dir, create=False).by_id)
    except keys.MissingKeyError:
        known = set()
    named: set[str] = set()
    for line in ledger.lines():
        named.add(chain_fields(split(line)[0])[2])
    return sorted(named - known)


@ledger_group.command("witness")
@_TARGET
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the witness to FILE (commit it, or ship it elsewhere; check with `ledger verify --witness FILE`).")
@click.option("--reset", is_flag=True, help="Accept the ledger as it is now (after you reviewed what `ledger verify` reported).")
def witness_cmd(target: Path, out: Path | None, reset: bool) -> None:
    """Advance the ledger's witness (kept outside the state directory) and print what it saw."""
    import shutil

    from cf_guidance.ledger import witness

    ledger = _ledger(target)
    problems = ledger.witness(reset=reset)
    for problem in problems:
        click.echo(f"witness not advanced: {problem}", err=True)
    path = witness.witness_path(ledger.state_dir)
    found = witness.load(path)
    if found is None:
        click.echo(f"no witness at {path} yet: the ledger is empty")
    else:
        click.echo(f"witness {path}: {found.size} records of {found.origin}, {found.checkpoints} checkpoints, {found.time}")
        if out is not None:
            shutil.copyfile(path, out)
            click.echo(f"copied to {out}")
    if problems:
        raise click.exceptions.Exit(EXIT_TAMPERED)


@ledger_group.command("public-key")
@_TARGET
def public_key_cmd(target: Path) -> None:
    """Print the checkpoint verifier keys (give them to auditors out of band)."""
    for key in _ledger(target, must_exist=False).verifier_keys():
        click.echo(key)


@click.command("jobs")
@click.argument("action", type=click.Choice(["status", "drain"]), default="status")
@_TARGET
@_JSON
def jobs_cmd(action: str, target: Path, as_json: bool) -> None:
    """Show the spool and the worker (status), or drain the spool now in the foreground (drain)."""
    from cf_guidance.ledger.status import quarantined, spool_state, worker_state

    project, state = _dirs(target)
    if action == "drain":
        from cf_guidance.jobs.worker import drain

        result = drain(state, project_dir=project)
        if as_json:
            _echo_json(result.to_dict())
        elif result.busy:
            click.echo("another worker is draining the spool; try again later")
        else:
            click.echo(f"applied {result.applied} jobs, skipped {result.skipped} already applied, rejected {result.rejected}, "
                       f"{result.checkpoints} checkpoints, {result.autopilot} autopilot runs started")
        return
    info = {"spool": spool_state(state), "worker": worker_state(state), "quarantine": quarantined(state)}
    if as_json:
        _echo_json(info)
        return
    spooled = info["spool"]
    age = f", oldest {spooled['oldest_age_s']} s old" if spooled["oldest_age_s"] is not None else ""
    click.echo(f"spool: {spooled['pending']} pending{age}, {spooled['rejected']} rejected ({spooled['path']})")
    for line in _spool_problems(spooled):
        click.echo(line)
    click.echo("worker: " + _worker_line(info["worker"]))
    quarantine = _quarantine_line(info["quarantine"])
    if quarantine:
        click.echo(quarantine)


def _quarantine_line(info: dict[str, Any]) -> str:
    from cf_guidance.ledger.status import quarantine_line

    return quarantine_line(info)


def _spool_problems(spooled: dict[str, Any]) -> list[str]:
    from cf_guidance.ledger.status import unrecorded_line

    lines = [unrecorded_line(spooled)]
    if spooled.get("stranded"):
        lines.append(f"{spooled['stranded']} unfinished job file(s) in the spool: the next drain recovers or sets them aside")
    return [line for line in lines if line]


def _worker_line(worker: dict[str, Any]) -> str:
    state = "running now" if worker.get("running") else str(worker.get("state", "unknown"))
    parts = [state]
    if worker.get("finished"):
        parts.append(f"last finished {worker['finished']}")
    if worker.get("last"):
        last = worker["last"]
        parts.append(f"applied {last.get('applied', 0)}, skipped {last.get('skipped', 0)}")
    if worker.get("error"):
        parts.append(f"error: {worker['error']}")
    return "; ".join(parts)


@click.command("trust")
@_TARGET
@_JSON
def trust_cmd(target: Path, as_json: bool) -> None:
    """Trust per agent of the recent sessions: score (recovered to now), tier, calls per minute, decisions."""
    from cf_guidance.ledger.status import trust_summary

    _, state = _dirs(target)
    rows = trust_summary(state, time.time())
    if as_json:
        _echo_json(rows)
        return
    if not rows:
        click.echo("no decisions recorded yet")
        return
    click.echo(f"{'session':<20} {'agent':<16} {'score':>6}  {'tier':<10} {'limit/min':>9}  {'allow':>6} {'warn':>5} {'deny':>5}")
    for row in rows:
        limit = row["limit_per_min"] if row["limit_per_min"] is not None else "off"
        click.echo(f"{row['session'][:20]:<20} {row['agent'][:16]:<16} {row['score']:>6.3f}  {row['tier']:<10} {limit:>9}  "
                   f"{row['allow']:>6} {row['warn']:>5} {row['deny']:>5}")


@click.command("status")
@_TARGET
@_JSON
def status_cmd(target: Path, as_json: bool) -> None:
    """State paths, ledger size and head, last checkpoint, spool, worker, trust, env vars and files."""
    from cf_guidance.ledger.status import collect

    project, state = _dirs(target)
    info = collect(project, state)
    if as_json:
        _echo_json(info)
        return
    out = sys.stdout
    out.write(f"project:    {project}\nstate dir:  {state}{'' if info['state_exists'] else '  (missing: run cf-guidance init)'}\n")
    ledger = info["ledger"]
    head = (ledger.get("head") or "")[:16]
    out.write(f"ledger:     {ledger.get('records')} records, {ledger.get('bytes', 0)} bytes, head {head or '-'}  ({ledger['path']})\n")
    last = ledger.get("last_checkpoint")
    out.write(f"checkpoint: {'none yet' if not last else str(last['size']) + ' records, head ' + last['head'][:16]}"
              f"{'' if not ledger.get('checkpoints') else ' (' + str(ledger['checkpoints']) + ' in all)'}\n")
    for key in ("error", "checkpoint_error", "key_error"):
        if ledger.get(key):
            out.write(f"  {key.replace('_', ' ')}: {ledger[key]}\n")
    for key in ledger.get("verifier_keys", []):
        out.write(f"public key: {key}\n")
    seen = ledger.get("witness") or {}
    if seen.get("error"):
        out.write(f"witness:    {seen['error']}\n")
    elif seen.get("records") is None:
        out.write(f"witness:    none yet ({seen.get('path')})\n")
    else:
        out.write(f"witness:    {seen['records']} records on {seen['time']}  ({seen['path']})\n")
    spooled = info["spool"]
    out.write(f"spool:      {spooled['pending']} pending, {spooled['rejected']} rejected\n")
    for line in _spool_problems(spooled):
        out.write(f"  {line}\n")
    out.write(f"worker:     {_worker_line(info['worker'])}\n")
    quarantine = _quarantine_line(info["quarantine"])
    if quarantine:
        out.write(f"            {quarantine}\n")
    if info["trust"]:
        summary = ", ".join(f"{r['session'][:12]}/{r['agent']} {r['score']:.2f} {r['tier']}" for r in info["trust"][:5])
        out.write(f"trust:      {summary}\n")
    else:
        out.write("trust:      no decisions recorded yet\n")
    out.write("\nenvironment variables read:\n")
    for item in info["env"]:
        out.write(f"  {item['name']:<32} {'set  ' if item['set'] else 'unset'}  {item['what']}\n")
    out.write("\nfiles (relative to the state dir unless marked <project>):\n")
    for item in info["files"]:
        out.write(f"  {item['path']:<34} {item['writer']:<30} {item['what']}\n")

"""`cf-guidance replay`: the tool calls of real session logs, decided again under the policy."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cf_guidance.errors import ConfigError

from . import target as project_target

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.replay.evaluate import Replayed


@click.command("replay")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@project_target.option()
@click.option("--candidate", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A candidate CLAUDE.md, decided beside the current policy (the project's other policy files as they are).")
@click.option("--since", default=None, help="Only calls from this date on (2026-11-01, 2026-11-01T12:00).")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per tool call, then one summary object (JSON Lines).")
@click.option("--examples", type=click.IntRange(min=0), default=3, show_default=True,
              help="Example calls shown per rule and per change.")
def replay_cmd(paths: tuple[str, ...], target: str, candidate: Path | None, since: str | None, as_json: bool,
               examples: int) -> None:
    """Decide every tool call of past sessions again under the current policy (and a candidate).

    PATH: Claude Code transcripts or Codex rollouts (*.jsonl), or directories of them. Without
    PATH, the project's own: <CLAUDE_CONFIG_DIR or ~/.claude>/projects/<project slug>/*.jsonl
    and the rollouts under <CODEX_HOME or ~/.codex>/sessions started in the project. Nothing is
    written: no ledger record, no rate limit, no trust update.
    """
    from cf_guidance.policy.compiler import compile_project
    from cf_guidance.replay.calls import LogStats
    from cf_guidance.replay.evaluate import Policy, replay_sessions
    from cf_guidance.replay.locate import find_logs, parse_since
    from cf_guidance.replay.summary import Summariser

    root = target  # the project whose policy decides (and whose logs are read when no PATH is given)
    policies = [Policy("current", compile_project(root))]
    if candidate is not None:
        try:
            text = candidate.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read the candidate {candidate}: {exc}; give a CLAUDE.md file") from None
        policies.append(Policy("candidate", compile_project(root, shared_text=text)))
    since_at = parse_since(since) if since else None
    found = find_logs(paths, root, since=since_at)
    if not found.logs and not found.older:
        raise ConfigError("no session logs found (looked in " + "; ".join(found.searched)
                          + "); give the logs as PATH, or --target the project they belong to")
    stats = LogStats()
    summariser = Summariser([p.name for p in policies], examples=examples)
    out = sys.stdout
    for _, replayed in replay_sessions(found.logs, policies, project_dir=root, stats=stats, since=since_at):
        for item in replayed:
            summariser.add(item)
            if as_json:
                out.write(json.dumps(call_object(item, [p.name for p in policies]), ensure_ascii=False) + "\n")
    summary = summariser.finish(stats, older_files=found.older)
    if as_json:
        out.write(json.dumps({"type": "summary", **summary.model_dump()}, ensure_ascii=False) + "\n")
    else:
        click.echo(summary.render(), nl=False)


def call_object(item: Replayed, names: list[str]) -> dict[str, object]:
    """The JSON object of one replayed call (`--json`)."""
    call = item.call
    out: dict[str, object] = {
        "type": "call", "agent": call.agent, "session": call.session, "file": call.file, "line": call.line,
        "order": call.order, "timestamp": call.timestamp, "tool": call.tool, "input": call.input, "cwd": call.cwd,
        "outcome": call.outcome, "denied_by": call.denied_by, "denial": call.denial,
    }
    for name, verdict in zip(names, item.verdicts):
        prefix = "" if name == "current" else f"{name}_"
        out[f"{prefix}decision"] = verdict.decision
        out[f"{prefix}rule"] = verdict.rule
        out[f"{prefix}reason"] = verdict.reason
    return out

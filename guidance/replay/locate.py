"""Which session logs a replay reads: the paths given, or the project's own under the clients'
default directories; `--since` drops files last written before the date.

A directory given as a PATH is searched for `*.jsonl` files. A file is a Codex rollout when its
name starts with `rollout-` or its first line is Codex's `session_meta`; otherwise a Claude Code
transcript. Files are read oldest modified first, one at a time.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import NamedTuple

from cf_guidance.errors import ConfigError
from cf_guidance.replay import claude_log, codex_log


class LogFile(NamedTuple):
    path: Path
    agent: str


class Found(NamedTuple):
    logs: list[LogFile]
    #: where the search looked, for the message when it found nothing
    searched: list[str]
    #: files skipped because they were last written before --since
    older: int


def parse_since(text: str) -> datetime:
    """`2026-11-01` or `2026-11-01T12:00` (UTC unless an offset is given) -> an aware datetime."""
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ConfigError(f"--since {text!r} is not a date; use e.g. 2026-11-01 or 2026-11-01T12:00") from None
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)


def timestamp(text: str) -> datetime | None:
    """A log line's ISO timestamp as an aware datetime, or None when it has none."""
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)


def agent_of(path: Path) -> str:
    if path.name.startswith("rollout-"):
        return codex_log.AGENT
    try:
        with open(path, "rb") as handle:
            first = handle.readline()
        line = json.loads(first)
    except (OSError, ValueError):
        return claude_log.AGENT
    return codex_log.AGENT if isinstance(line, dict) and line.get("type") == "session_meta" else claude_log.AGENT


def find_logs(
    paths: Sequence[str], project: str, environ: Mapping[str, str] | None = None, *, since: datetime | None = None
) -> Found:
    """The log files to replay. Raises ConfigError for a PATH that does not exist."""
    env = os.environ if environ is None else environ
    candidates: list[LogFile] = []
    searched: list[str] = []
    if paths:
        for given in paths:
            path = Path(given).expanduser()
            if path.is_dir():
                searched.append(str(path))
                candidates += [LogFile(p, agent_of(p)) for p in sorted(path.rglob("*.jsonl"))]
            elif path.is_file():
                candidates.append(LogFile(path, agent_of(path)))
            else:
                raise ConfigError(f"{given}: no such file or directory; give session logs (*.jsonl) or a directory of them")
    else:
        claude_dir = claude_log.project_dir(project, env)
        searched.append(str(claude_dir or claude_log.config_dir(env) / claude_log.PROJECTS_DIR
                            / claude_log.project_slug(os.path.abspath(project))))
        if claude_dir is not None:
            candidates += [LogFile(p, claude_log.AGENT) for p in claude_log.transcripts(claude_dir)]
        home = codex_log.codex_home(env)
        searched.append(f"{home}/sessions (rollouts started in {os.path.abspath(project)})")
        candidates += [LogFile(p, codex_log.AGENT) for p in codex_log.rollouts(env)
                       if codex_log.belongs_to(codex_log.session_cwd(p), project)]
    dated: list[tuple[float, LogFile]] = []
    older = 0
    cutoff = since.timestamp() if since is not None else None
    for log in candidates:
        try:
            modified = log.path.stat().st_mtime
        except OSError:
            continue
        if cutoff is not None and modified < cutoff:
            older += 1
            continue
        dated.append((modified, log))
    dated.sort(key=lambda pair: (pair[0], str(pair[1].path)))
    return Found([log for _, log in dated], searched, older)

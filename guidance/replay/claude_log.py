"""Claude Code transcripts: where the client keeps a project's, and the tool calls in one.

Claude Code writes one JSON Lines file per session to
`<config dir>/projects/<project slug>/<session id>.jsonl` (config dir: `$CLAUDE_CONFIG_DIR`,
else `~/.claude`); a resumed session appends to its file, and sub-agents write
`<session id>/subagents/agent-*.jsonl` beside it. The lines this reader uses (verified with
Claude Code 2.1.328, whose real transcripts the tests make and read):

- `{"type": "assistant", "message": {"id", "content": [{"type": "tool_use", "id", "name",
  "input"}]}, "sessionId", "cwd", "timestamp", "version"}`: one line per tool call; the calls
  of one model message share `message.id`.
- `{"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id",
  "is_error", "content"}]}, "toolUseResult", "permissionDecision": {"decision": "accept" |
  "reject", "source": "hook" | "user" | "config"}, "toolDenialKind"}`: the result. A
  rejected decision is a denial (by a hook, the user, or a permission rule); `is_error`
  otherwise is a failure (a non-zero exit is "Exit code N"); an interrupted Bash call failed.
  Older clients have no `permissionDecision`: their denials are told by the text ("PreToolUse:Bash
  hook error: ...", "The user doesn't want to proceed ...").

Every other kind of line (attachments, system prompts, API request snapshots, costs, ...) holds
no tool call. Lines over `calls.SHORT_LINE` bytes that carry no mark of a tool call are skipped without
parsing them (the prompt snapshots are tens of kilobytes each); every other line is parsed, and
one of a kind this reader does not know is counted (`LogStats.unknown`), never a crash.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from cf_guidance.replay.calls import (
    BY_HOOK, BY_RULE, BY_USER, DENIED, FAILED, SUCCEEDED, LogStats, ToolCall, json_lines,
)

AGENT = "claude"
CONFIG_DIR_ENV = "CLAUDE_CONFIG_DIR"
PROJECTS_DIR = "projects"
#: Longest project slug kept whole; a longer one is cut here and a hash of the path appended.
SLUG_MAX = 200
_MARKS = (b'"tool_use"', b'"tool_result"')
#: Line kinds of Claude Code 2.1.x that never hold a tool call or its result.
KNOWN_KINDS = frozenset({
    "attachment", "system", "summary", "queue-operation", "last-prompt", "atis-latch", "api-request",
    "api-request-shape", "api-request-blob", "tools-used", "cost-state", "file-history-snapshot",
    "custom-title", "tag", "progress", "agent-name", "mode", "permission-mode", "pr-link", "worktree-state",
})
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def project_slug(path: str) -> str:
    """The directory Claude Code files a project's transcripts under, for the project's path.

    Every UTF-16 code unit that is not an ASCII letter or digit becomes `-` (so `é` is one
    `-` and an emoji two); a slug longer than 200 keeps its first 200 characters and gets `-`
    plus a base-36 hash of the path (Java's String.hashCode, absolute value). Verified with the
    real client (tests/replay/test_claude_log.py).
    """
    units = [int.from_bytes(pair, "little") for pair in _pairs(path.encode("utf-16-le", "surrogatepass"))]
    slug = "".join(chr(u) if u < 128 and chr(u).isalnum() else "-" for u in units)
    if len(slug) <= SLUG_MAX:
        return slug
    value = 0
    for unit in units:
        value = (value * 31 + unit) & 0xFFFFFFFF
    value = abs(value - (1 << 32) if value >= 1 << 31 else value)
    digits = ""
    while value:
        value, rest = divmod(value, 36)
        digits = _BASE36[rest] + digits
    return f"{slug[:SLUG_MAX]}-{digits or '0'}"


def _pairs(data: bytes) -> Iterator[bytes]:
    for index in range(0, len(data), 2):
        yield data[index : index + 2]


def config_dir(environ: Mapping[str, str]) -> Path:
    configured = environ.get(CONFIG_DIR_ENV)
    return Path(configured).expanduser() if configured else Path(environ.get("HOME") or Path.home()) / ".claude"


def project_dir(project: str, environ: Mapping[str, str]) -> Path | None:
    """The transcripts directory of `project` (its absolute path, or the path with symlinks
    resolved, as the client saw its working directory), or None when there is none."""
    root = config_dir(environ) / PROJECTS_DIR
    for candidate in dict.fromkeys((os.path.abspath(project), os.path.realpath(project))):
        directory = root / project_slug(candidate)
        if directory.is_dir():
            return directory
    return None


def transcripts(directory: Path) -> list[Path]:
    """The session files of a transcripts directory, sub-agents' included."""
    return sorted([*directory.glob("*.jsonl"), *directory.glob("*/subagents/*.jsonl")])


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def read_session(path: Path, stats: LogStats) -> list[ToolCall]:
    """The tool calls of one transcript in the order the model made them, each settled with its
    result when the transcript has one. Reads the file once, line by line."""
    calls: dict[str, ToolCall] = {}
    session = path.stem
    cwd = ""
    versioned = False
    for number, line in json_lines(path, stats, _MARKS):
        kind = line.get("type")
        if kind not in ("assistant", "user"):
            if kind in KNOWN_KINDS:
                stats.read += 1
            else:
                stats.note_unknown(f"claude:{kind}")
            continue
        session = str(line.get("sessionId") or session)
        cwd = str(line.get("cwd") or cwd)
        if not versioned and isinstance(line.get("version"), str):
            stats.note_version(AGENT, line["version"])
            versioned = True
        message = line.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, (list, str)):
            stats.note_unknown(f"claude:{kind} without message content")
            continue
        stats.read += 1
        if not isinstance(content, list):
            continue  # a typed prompt
        assert isinstance(message, dict)
        if kind == "assistant":
            turn = str(message.get("id") or line.get("uuid") or number)
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    _add_call(calls, block, stats, path=path, number=number, session=session, cwd=cwd,
                              timestamp=str(line.get("timestamp") or ""), turn=turn)
        else:
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    call = calls.get(str(block.get("tool_use_id")))
                    if call is not None and not call.result_line:
                        _settle(call, block, line, number)
    stats.sessions += 1
    stats.calls += len(calls)
    return list(calls.values())


def _add_call(calls: dict[str, ToolCall], block: dict[str, Any], stats: LogStats, *, path: Path, number: int,
              session: str, cwd: str, timestamp: str, turn: str) -> None:
    use_id, name, tool_input = block.get("id"), block.get("name"), block.get("input")
    if not isinstance(use_id, str) or not isinstance(name, str) or not isinstance(tool_input, dict):
        stats.note_unknown("claude:tool_use of another shape")
        return
    if use_id in calls:
        return  # the same call written twice (a compaction or fork copied it)
    calls[use_id] = ToolCall(agent=AGENT, session=session, file=str(path), line=number, order=len(calls),
                             timestamp=timestamp, tool=name, input=tool_input, cwd=cwd, tool_use_id=use_id, turn=turn)


def _settle(call: ToolCall, block: dict[str, Any], line: dict[str, Any], number: int) -> None:
    text = _text(block.get("content"))
    decision = line.get("permissionDecision")
    if isinstance(decision, dict) and decision.get("decision") == "reject" or line.get("toolDenialKind"):
        source = decision.get("source") if isinstance(decision, dict) else ""
        by = {"hook": BY_HOOK, "user": BY_USER}.get(str(source), BY_RULE)
        call.settle(DENIED, number, denied_by=by, denial=text)
        return
    if block.get("is_error") is True:
        # Clients before permissionDecision: the denial is told by the text alone.
        if text.startswith("PreToolUse:") and "hook error" in text.split("\n", 1)[0]:
            call.settle(DENIED, number, denied_by=BY_HOOK, denial=text)
        elif "doesn't want to proceed with this tool use" in text:
            call.settle(DENIED, number, denied_by=BY_USER, denial=text)
        elif text.startswith("Permission to use ") and " has been denied" in text:
            call.settle(DENIED, number, denied_by=BY_RULE, denial=text)
        else:
            call.settle(FAILED, number)
        return
    result = line.get("toolUseResult")
    interrupted = isinstance(result, dict) and result.get("interrupted") is True
    call.settle(FAILED if interrupted else SUCCEEDED, number)

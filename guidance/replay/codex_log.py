"""Codex rollouts: where the client keeps them, which belong to a project, the tool calls in one.

Codex writes one JSON Lines file per session to
`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl` (`$CODEX_HOME` defaults to
`~/.codex`; archived ones move to `archived_sessions/`). Each line is `{"timestamp", "type",
"payload"}`; what this reader uses (verified with Codex CLI 0.169.0, whose real rollouts the
tests make and read):

- `session_meta`: the session's `id`, `cwd` and `cli_version` (first line); `turn_context`
  carries a later `cwd`.
- `response_item` with payload `function_call` (`name`, `arguments` as a JSON string,
  `call_id`): the shell is `exec_command` with `{"cmd"}` (older clients: `shell` with an argv
  `command`, or a `local_shell_call` item); `custom_tool_call` (`name`, `input` text): the
  patch tool `apply_patch`. The hook sees the shell as `Bash` with `{"command"}` and the patch
  tool as `apply_patch` with `{"command": PATCH}`, and so does the replay.
- `function_call_output` / `custom_tool_call_output` (`call_id`, `output`): "Process exited
  with code N" or "Exit code: N" (ran: 0 succeeded, else failed), "Command blocked by
  PreToolUse hook: <reason>" (denied by a hook), "... rejected ..." (denied by the client or
  the user), "Process running with session ID" (still running: no result).
Clients before the `payload` wrapper wrote the items themselves one per line (and the output
as JSON `{"output", "metadata": {"exit_code"}}`); those are read the same way. Lines of other kinds are counted as known or unknown and skipped.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from cf_guidance.replay.calls import (
    BY_CLIENT, BY_HOOK, BY_USER, DENIED, FAILED, SUCCEEDED, UNKNOWN, LogStats, ToolCall, json_lines,
)

AGENT = "codex"
HOME_ENV = "CODEX_HOME"
SESSION_DIRS = ("sessions", "archived_sessions")
ROLLOUT_GLOB = "rollout-*.jsonl"
_MARKS = (b"function_call", b"custom_tool_call", b"local_shell_call", b"session_meta", b"turn_context")
#: Top-level line kinds of Codex 0.169 that hold no call.
KNOWN_KINDS = frozenset({"event_msg", "world_state", "token_usage_record", "compacted"})
#: response_item payloads that hold no call.
KNOWN_ITEMS = frozenset({"message", "reasoning", "web_search_call", "compaction", "ghost_snapshot", "image_generation_call"})
CALL_ITEMS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})
SHELL_TOOLS = frozenset({"exec_command", "shell", "container.exec"})
PATCH_TOOL = "apply_patch"
BLOCKED = "Command blocked by PreToolUse hook:"
_EXIT = re.compile(r"^(?:Process exited with code|Exit code:)\s*(-?\d+)\s*$", re.MULTILINE)
_SHELLS = frozenset({"bash", "sh", "zsh", "dash"})


def codex_home(environ: Mapping[str, str]) -> Path:
    configured = environ.get(HOME_ENV)
    return Path(configured).expanduser() if configured else Path(environ.get("HOME") or Path.home()) / ".codex"


def rollouts(environ: Mapping[str, str]) -> Iterator[Path]:
    """Every rollout file under `$CODEX_HOME`, oldest day first."""
    home = codex_home(environ)
    for name in SESSION_DIRS:
        yield from sorted((home / name).rglob(ROLLOUT_GLOB))


def session_cwd(path: Path) -> str:
    """The working directory a rollout's session started in ("" when its first line does not say)."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline()
        line = json.loads(first)
    except (OSError, ValueError):
        return ""
    if not isinstance(line, dict):
        return ""
    meta = line.get("payload") if line.get("type") == "session_meta" else line
    return str(meta.get("cwd") or "") if isinstance(meta, dict) else ""


def belongs_to(cwd: str, project: str) -> bool:
    """A session started in the project or below it."""
    if not cwd:
        return False
    for root in {os.path.abspath(project), os.path.realpath(project)}:
        if cwd == root or cwd.startswith(root.rstrip("/") + "/"):
            return True
    return False


def read_session(path: Path, stats: LogStats) -> list[ToolCall]:
    """The tool calls of one rollout in order, each settled with its result when there is one."""
    calls: dict[str, ToolCall] = {}
    session = "-".join(path.stem.split("-")[-5:])  # rollout-<time>-<uuid>: the uuid, until session_meta says
    cwd = ""
    turn = 0
    last_was_call = False
    for number, line in json_lines(path, stats, _MARKS):
        kind = line.get("type")
        payload = line.get("payload")
        if not isinstance(payload, dict):
            # Before the wrapper: the item is the line (the first line holds the session's meta).
            kind, payload = ("session_meta", line) if number == 1 and "type" not in line else ("response_item", line)
        timestamp = str(line.get("timestamp") or "")
        if kind == "session_meta":
            session = str(payload.get("id") or payload.get("session_id") or session)
            cwd = str(payload.get("cwd") or cwd)
            if isinstance(payload.get("cli_version"), str):
                stats.note_version(AGENT, payload["cli_version"])
            stats.read += 1
        elif kind == "turn_context":
            cwd = str(payload.get("cwd") or cwd)
            stats.read += 1
        elif kind == "response_item":
            item = str(payload.get("type"))
            if item in CALL_ITEMS:
                call = _call(payload, item, stats)
                if call is None:
                    continue  # counted as unknown by _call
                if not last_was_call:
                    turn += 1
                tool, tool_input, call_id, workdir = call
                if call_id not in calls:
                    calls[call_id] = ToolCall(agent=AGENT, session=session, file=str(path), line=number,
                                              order=len(calls), timestamp=timestamp, tool=tool, input=tool_input,
                                              cwd=workdir or cwd, tool_use_id=call_id, turn=str(turn))
                last_was_call = True
                stats.read += 1
                continue
            last_was_call = False
            if item in ("function_call_output", "custom_tool_call_output"):
                found = calls.get(str(payload.get("call_id")))
                if found is not None and not found.result_line:
                    _settle(found, payload.get("output"), number)
                stats.read += 1
            elif item in KNOWN_ITEMS:
                stats.read += 1
            else:
                stats.note_unknown(f"codex:response_item {item}")
        elif kind in KNOWN_KINDS:
            stats.read += 1
        else:
            stats.note_unknown(f"codex:{kind}")
    for found in calls.values():
        found.session = session
    stats.sessions += 1
    stats.calls += len(calls)
    return list(calls.values())


def _call(payload: dict[str, Any], item: str, stats: LogStats) -> tuple[str, dict[str, Any], str, str] | None:
    """(tool, input as the hook sees it, call id, working directory) of a call item, or None
    (counted as unknown) when the item has another shape."""
    call_id = payload.get("call_id") or payload.get("id")
    if item == "function_call":
        name, raw = payload.get("name"), payload.get("arguments")
        try:
            arguments = json.loads(raw) if isinstance(raw, str) else raw
        except ValueError:
            arguments = {"arguments": raw}
        if not isinstance(name, str) or not isinstance(call_id, str):
            stats.note_unknown("codex:function_call of another shape")
            return None
        if not isinstance(arguments, dict):
            arguments = {"arguments": arguments}
        workdir = str(arguments.get("workdir") or "")
        if name in SHELL_TOOLS:
            command = _command(arguments.get("cmd", arguments.get("command")))
            if command is None:
                stats.note_unknown(f"codex:{name} without a command")
                return None
            return "Bash", {"command": command}, call_id, workdir
        if name == PATCH_TOOL and isinstance(arguments.get("input"), str):
            return PATCH_TOOL, {"command": arguments["input"]}, call_id, workdir
        return name, arguments, call_id, workdir
    if item == "custom_tool_call":
        name, text = payload.get("name"), payload.get("input")
        if not isinstance(name, str) or not isinstance(call_id, str) or not isinstance(text, str):
            stats.note_unknown("codex:custom_tool_call of another shape")
            return None
        return name, {"command": text}, call_id, ""
    if item == "local_shell_call":
        action = payload.get("action")
        command = _command(action.get("command")) if isinstance(action, dict) else None
        if command is None or not isinstance(call_id, str):
            stats.note_unknown("codex:local_shell_call of another shape")
            return None
        assert isinstance(action, dict)
        return "Bash", {"command": command}, call_id, str(action.get("working_directory") or "")
    stats.note_unknown(f"codex:{item}")
    return None


def _command(value: Any) -> str | None:
    """A shell command from a string, or from an argv (`["bash", "-lc", SCRIPT]` gives SCRIPT)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if len(value) == 3 and os.path.basename(value[0]) in _SHELLS and value[1] in ("-c", "-lc"):
            return str(value[2])
        return shlex.join(value)
    return None


def _settle(call: ToolCall, output: Any, number: int) -> None:
    success: bool | None = None
    if isinstance(output, dict):  # structured output: {"content": TEXT, "success": BOOL}
        success = output.get("success") if isinstance(output.get("success"), bool) else None
        output = output.get("content")
    text = output if isinstance(output, str) else ""
    if text.startswith(BLOCKED):
        call.settle(DENIED, number, denied_by=BY_HOOK, denial=text)
        return
    first = text.split("\n", 1)[0]
    if "rejected" in first:
        call.settle(DENIED, number, denied_by=BY_USER if "by user" in first else BY_CLIENT, denial=first)
        return
    code = _exit_code(text)
    if code is not None:
        call.settle(SUCCEEDED if code == 0 else FAILED, number)
    elif success is not None:
        call.settle(SUCCEEDED if success else FAILED, number)
    elif "Process running with session ID" in text:
        call.settle(UNKNOWN, number)
    elif call.tool == "Bash":
        call.settle(UNKNOWN, number)
    elif first.lower().startswith(("error", "failed", "fatal")) or "failed" in first.lower():
        call.settle(FAILED, number)
    else:
        call.settle(SUCCEEDED, number)


def _exit_code(text: str) -> int | None:
    match = _EXIT.search(text)
    if match:
        return int(match.group(1))
    if text.startswith("{"):  # older clients: {"output": ..., "metadata": {"exit_code": N}}
        try:
            value = json.loads(text)
        except ValueError:
            return None
        meta = value.get("metadata") if isinstance(value, dict) else None
        if isinstance(meta, dict) and isinstance(meta.get("exit_code"), int):
            return int(meta["exit_code"])
    return None

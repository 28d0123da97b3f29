"""A tool call rebuilt from a session log, what happened to it at the time, and read statistics.

Plain classes with slots, not pydantic: a long history streams hundreds of thousands of calls
through the replay, and each one is built once and dropped after its session.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: What happened to a call at the time, as its log tells it.
SUCCEEDED = "succeeded"
FAILED = "failed"
DENIED = "denied"
#: No result in the log: the session ended (or was killed) before the call returned, or the
#: call was still running (Codex's long-lived processes).
UNKNOWN = "no result"
OUTCOMES = (SUCCEEDED, FAILED, DENIED, UNKNOWN)

#: Who denied a call at the time.
BY_HOOK = "hook"
BY_USER = "user"
BY_RULE = "permission rule"
BY_CLIENT = "client"

#: A rule code in a denial text: `[CAT001]`, `[S-40a242479a]`, `[R010]`.
_RULE_CODE = re.compile(r"\[([A-Za-z][A-Za-z0-9_.-]*)\]")


def rule_in(text: str) -> str:
    """The first rule code (`[CODE]`) in a denial text, or ""."""
    match = _RULE_CODE.search(text)
    return match.group(1) if match else ""


class ToolCall:
    """One tool call of a session, as the PreToolUse hook saw it (or would have).

    `tool` and `input` are what the hook receives: Codex's shell call is `Bash` with
    `{"command": ...}` and its patch tool `apply_patch` with `{"command": PATCH}`, as the
    Codex hook payload has them. `line` is the 1-based line of `file` that holds the call;
    `turn` groups the calls of one model message (they run together, so none of them is in
    another's history).
    """

    __slots__ = (
        "agent", "session", "file", "line", "order", "timestamp", "tool", "input", "cwd",
        "tool_use_id", "turn", "outcome", "result_line", "denied_by", "denial",
    )

    def __init__(
        self,
        *,
        agent: str,
        session: str,
        file: str,
        line: int,
        order: int,
        timestamp: str,
        tool: str,
        input: dict[str, Any],
        cwd: str,
        tool_use_id: str,
        turn: str,
    ) -> None:
        self.agent = agent
        self.session = session
        self.file = file
        self.line = line
        self.order = order
        self.timestamp = timestamp
        self.tool = tool
        self.input = input
        self.cwd = cwd
        self.tool_use_id = tool_use_id
        self.turn = turn
        self.outcome = UNKNOWN
        self.result_line = 0
        self.denied_by = ""
        self.denial = ""

    @property
    def link(self) -> str:
        """`file:line` of the call in its log."""
        return f"{self.file}:{self.line}"

    @property
    def ran(self) -> bool:
        """The call ran (it succeeded or failed), so it is part of the session's history."""
        return self.outcome in (SUCCEEDED, FAILED)

    def settle(self, outcome: str, line: int, *, denied_by: str = "", denial: str = "") -> None:
        self.outcome = outcome
        self.result_line = line
        self.denied_by = denied_by
        self.denial = denial

    def payload(self, *, codex_turn: bool = False) -> dict[str, Any]:
        """The PreToolUse hook payload this call produced (Codex payloads carry a `turn_id`)."""
        payload: dict[str, Any] = {
            "hook_event_name": "PreToolUse",
            "tool_name": self.tool,
            "tool_input": self.input,
            "session_id": self.session,
            "tool_use_id": self.tool_use_id,
            "cwd": self.cwd,
        }
        if codex_turn:
            payload["turn_id"] = self.turn
        return payload

    def brief(self, limit: int = 120) -> str:
        """One line naming what the call did: the command, else the path, else the tool."""
        value = self.input.get("command")
        if not isinstance(value, str):
            value = next((self.input[k] for k in ("file_path", "notebook_path", "path", "pattern", "url", "prompt")
                          if isinstance(self.input.get(k), str)), "")
        text = " ".join(str(value).split())
        text = f"{self.tool} {text}".strip() if self.tool != "Bash" else text
        return text if len(text) <= limit else text[: limit - 1] + "…"

    def __repr__(self) -> str:
        return f"ToolCall({self.link} {self.tool} {self.outcome})"


class LogStats:
    """What reading the logs met: files, sessions, lines of each kind, client versions."""

    __slots__ = ("files", "sessions", "calls", "lines", "read", "other", "unknown", "unreadable",
                 "unknown_kinds", "versions", "before_since", "unusable_calls")

    #: Distinct unknown line kinds and client versions kept (the counts stay exact).
    MAX_KINDS = 32

    def __init__(self) -> None:
        self.files = 0
        self.sessions = 0
        self.calls = 0
        #: every line of every file read
        self.lines = 0
        #: lines parsed and understood (whether or not they held a tool call)
        self.read = 0
        #: large lines without any mark of a tool call, skipped unparsed (system prompts, snapshots)
        self.other = 0
        #: JSON objects of a kind this reader does not know (a newer client): skipped
        self.unknown = 0
        #: lines that are not a JSON object (a torn last line, a foreign file)
        self.unreadable = 0
        self.unknown_kinds: Counter[str] = Counter()
        self.versions: Counter[str] = Counter()
        #: calls before --since (they still feed the session's history)
        self.before_since = 0
        #: calls whose input the engine cannot read as a hook event (a wrong shape)
        self.unusable_calls = 0

    def note_unknown(self, kind: str) -> None:
        self.unknown += 1
        if kind in self.unknown_kinds or len(self.unknown_kinds) < self.MAX_KINDS:
            self.unknown_kinds[kind] += 1

    def note_version(self, agent: str, version: str) -> None:
        key = f"{agent} {version}"
        if key in self.versions or len(self.versions) < self.MAX_KINDS:
            self.versions[key] += 1


#: Lines longer than this that carry none of a reader's marks are not parsed: they cannot hold
#: a tool call (Claude Code's prompt snapshots are tens of kilobytes each).
SHORT_LINE = 16_384


def json_lines(path: Path, stats: LogStats, marks: tuple[bytes, ...]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(1-based line number, object) for each line of a log that is a JSON object, counting the
    rest in `stats`: long lines without any of `marks` (other), blank lines (not counted),
    anything that is not a JSON object (unreadable, and so is a file that cannot be opened)."""
    stats.files += 1
    try:
        handle = open(path, "rb")
    except OSError:
        stats.unreadable += 1
        return
    with handle:
        for number, raw in enumerate(handle, start=1):
            stats.lines += 1
            if len(raw) > SHORT_LINE and not any(mark in raw for mark in marks):
                stats.other += 1
                continue
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
            except ValueError:
                line = None
            if not isinstance(line, dict):
                stats.unreadable += 1
                continue
            yield number, line

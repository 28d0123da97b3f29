"""Which hook command answers which agent event, and the command string settings files get.

Claude Code (`.claude/settings.json`): every PreToolUse reaches exactly one pre-* command.
The named tools get their own command; `pre-tool` takes every other tool (MCP tools,
WebFetch, WebSearch, and tools that do not exist yet) through a negative-lookahead
matcher, so an allow-list rule (`allow tool Read Bash`) can deny a tool nobody thought of.
Claude Code tests a matcher made of anything but `[A-Za-z0-9_|]` as an unanchored
JavaScript RegExp, which supports lookahead.

Codex (`.codex/hooks.json`): its shell tool reaches hooks as `Bash`, file changes as
`apply_patch`, MCP tools as `mcp__*`; other tools do not reach hooks. Codex matchers are
Rust regexes (no lookahead), so each is listed. Only the events Codex 0.169 is known to
fire are wired (reference/claude-code-protocol.md §7).

Commands are absolute: `<venv python> -S <.../hooks/launcher.py> <name>`, quoted for the
shell, so they work from any cwd and from paths with spaces, and skip `site` (see launcher).
"""

from __future__ import annotations

import os
import shlex
import sys

CLAUDE = "claude"
CODEX = "codex"
AGENTS = (CLAUDE, CODEX)

#: Settings `timeout` is in seconds. A client-side timeout kills the hook and lets the tool run,
#: so our own deadline (GUIDANCE_EVENT_SYNC_TIMEOUT_MS, 12 s by default) must answer first, even
#: on the longest path: a warm server that does not answer (at most hookd.WAIT_BOUNDS_S[1]), then
#: the in-process fallback within what is left of the deadline, plus the interpreter's start
#: under load; the rest is margin.
TIMEOUT_S = 30

#: The tools with their own pre-* command on Claude Code.
_NAMED_TOOLS = ("Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", "Read", "Grep", "Glob", "Agent", "Task")
#: Every tool not named above (a JavaScript RegExp).
CLAUDE_OTHER_TOOLS = "^(?!(?:" + "|".join(_NAMED_TOOLS) + ")$)"


class Wire:
    """One hook entry: on `event` for tools matching `matcher` (None: all), run command `name`."""

    __slots__ = ("event", "matcher", "name")

    def __init__(self, event: str, matcher: str | None, name: str) -> None:
        self.event = event
        self.matcher = matcher
        self.name = name

    def __repr__(self) -> str:
        return f"Wire({self.event}, {self.matcher!r}, {self.name})"


WIRING: dict[str, tuple[Wire, ...]] = {
    CLAUDE: (
        Wire("PreToolUse", "Bash", "pre-bash"),
        Wire("PreToolUse", "Write|Edit|MultiEdit|NotebookEdit", "pre-edit"),
        Wire("PreToolUse", "Read|Grep|Glob", "pre-read"),
        Wire("PreToolUse", "Agent|Task", "pre-task"),
        Wire("PreToolUse", CLAUDE_OTHER_TOOLS, "pre-tool"),
        Wire("PostToolUse", "Bash", "post-bash"),
        Wire("PostToolUse", "Write|Edit|MultiEdit|NotebookEdit", "post-edit"),
        Wire("PostToolUse", "Agent|Task", "post-task"),
        Wire("PostToolUseFailure", None, "post-failure"),
        Wire("UserPromptSubmit", None, "user-prompt"),
        Wire("SessionStart", None, "session-restore"),
        Wire("SessionEnd", None, "session-end"),
        Wire("Stop", None, "stop"),
        Wire("PreCompact", None, "compact"),
    ),
    CODEX: (
        Wire("PreToolUse", "^Bash$", "pre-bash"),
        Wire("PreToolUse", "^apply_patch$", "pre-edit"),
        Wire("PreToolUse", "^mcp__", "pre-tool"),
        Wire("PostToolUse", "^Bash$", "post-bash"),
        Wire("PostToolUse", "^apply_patch$", "post-edit"),
        Wire("UserPromptSubmit", None, "user-prompt"),
        Wire("SessionStart", None, "session-restore"),
        Wire("Stop", None, "stop"),
        Wire("PreCompact", None, "compact"),
    ),
}

#: Every command name init may wire; a handler running one of these through our launcher is ours.
WIRED_NAMES = frozenset(wire.name for wires in WIRING.values() for wire in wires)

#: Settings file of each agent, relative to the project root.
SETTINGS_FILES = {CLAUDE: os.path.join(".claude", "settings.json"), CODEX: os.path.join(".codex", "hooks.json")}


def launcher_path() -> str:
    """`hooks/launcher.py` of this installation: beside `installer/` in a source tree,
    `guidance/hooks/` beside `guidance/installer/` when installed."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hooks", "launcher.py")


def interpreter() -> str:
    """This interpreter, as invoked: a venv's `bin/python` must stay unresolved, or `site` would
    find the base installation's packages instead of the venv's."""
    return os.path.abspath(sys.executable)


def command_for(name: str, *, python: str | None = None, launcher: str | None = None) -> str:
    return " ".join(
        (shlex.quote(python or interpreter()), "-S", shlex.quote(launcher or launcher_path()), name)
    )


def handler_for(name: str) -> dict[str, object]:
    return {"type": "command", "command": command_for(name), "timeout": TIMEOUT_S}


def our_command_name(handler: object) -> str | None:
    """The hook command name when `handler` runs our launcher, else None (the user's own hook)."""
    if not isinstance(handler, dict) or handler.get("type", "command") != "command":
        return None
    command = handler.get("command")
    if not isinstance(command, str):
        return None
    try:
        argv = shlex.split(command)
    except ValueError:
        return None
    if len(argv) >= 2 and argv[-1] in WIRED_NAMES and argv[-2].endswith(os.path.join("hooks", "launcher.py")):
        return argv[-1]
    return None

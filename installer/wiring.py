"""Which hook command answers which agent event, where it is written, and the command strings.

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

Scopes, like Claude Code's own settings files:
- project (default): the committed `.claude/settings.json` / `.codex/hooks.json`. The command
  names no path of this machine: it runs `cf-guidance-hook NAME` found on PATH, in
  ~/.local/bin (where pipx and uv put it) or, on the machine that wired it, through a link in the
  project's state; every clone works once the tool is installed;
- local: `.claude/settings.local.json` (per user, git-ignored by the client), absolute paths;
- user: `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR`) / `~/.codex/hooks.json`
  (`$CODEX_HOME`), absolute paths, every project.
Absolute commands run `<venv python> -S <.../hooks/launcher.py> NAME` (quoted, any cwd, no `site`).

Every command is guarded (`guarded`): the client reads any exit but 0 and 2 as "allow" (a
missing tool is 127, a crash 1), so the shell around the call turns a missing or failing
installation into one line saying what to do, and, for a pre-tool command when the project
chose `deny` (the default), a block (exit 2 with the line on stderr, which both clients honour);
with `warn` (and for every other event) a visible `systemMessage` and exit 0. Both clients run
the command through a POSIX shell (Claude Code /bin/sh, Codex bash), and the guard uses only
shell builtins.
"""

from __future__ import annotations

import os
import re
import shlex
import sys

from cf_guidance.errors import InstallError
from cf_guidance.hooks.commands import COMMANDS, PRE

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

PROJECT = "project"
LOCAL = "local"
USER = "user"
SCOPES = (PROJECT, LOCAL, USER)
#: What a pre-tool hook answers when the installation is missing or broken (the project's choice).
DENY = "deny"
WARN = "warn"
IF_MISSING = (DENY, WARN)

#: The script a portable command runs (hooks/cf-guidance-hook), and where pipx and uv put it
#: when it is not on PATH.
TOOL = "cf-guidance-hook"
TOOL_FALLBACK_DIR = "$HOME/.local/bin"
#: Last, the link `init` leaves in the project's state (git-ignored, guarded like the rest of it)
#: to the tool that wired it: a project wired from a venv that is not on PATH works on this
#: machine; a clone elsewhere still needs the tool installed.
TOOL_LOCAL_DIR = "${CLAUDE_PROJECT_DIR:-.}/.claude-flow/guidance/bin"
TOOL_SEARCH_PATH = f'PATH="$PATH:{TOOL_FALLBACK_DIR}:{TOOL_LOCAL_DIR}"'

#: Settings file of each agent in the project scope, relative to the project root.
SETTINGS_FILES = {CLAUDE: os.path.join(".claude", "settings.json"), CODEX: os.path.join(".codex", "hooks.json")}
LOCAL_SETTINGS_FILE = os.path.join(".claude", "settings.local.json")


def claude_config_dir() -> str:
    return os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")


def codex_home() -> str:
    return os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")


def settings_path(scope: str, agent: str, root: str) -> str:
    """The settings file that wires `agent` in `scope` for the project at `root`."""
    if scope == PROJECT:
        return os.path.join(root, SETTINGS_FILES[agent])
    if scope == LOCAL:
        if agent == CODEX:
            raise InstallError("codex has no per-user project settings file; use --scope project (committed, "
                               "portable) or --scope user ($CODEX_HOME/hooks.json) for codex")
        return os.path.join(root, LOCAL_SETTINGS_FILE)
    if scope == USER:
        return os.path.join(claude_config_dir(), "settings.json") if agent == CLAUDE else os.path.join(codex_home(), "hooks.json")
    raise InstallError(f"unknown scope {scope!r}; use project, local or user")


def launcher_path() -> str:
    """`hooks/launcher.py` of this installation: beside `installer/` in a source tree,
    `cf_guidance/hooks/` beside `cf_guidance/installer/` when installed."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hooks", "launcher.py")


def interpreter() -> str:
    """This interpreter, as invoked: a venv's `bin/python` must stay unresolved, or `site` would
    find the base installation's packages instead of the venv's."""
    return os.path.abspath(sys.executable)


def _fail(name: str, if_missing: str, fix: str) -> str:
    """The guard's last words; `$p` says what went wrong. No quote, `%`, `$` or backslash in `fix`."""
    if COMMANDS[name].kind == PRE and if_missing == DENY:
        return f'echo "cf-guidance $p: {fix}; tool calls are denied until then" >&2; exit 2'
    return f"printf '{{\"systemMessage\":\"cf-guidance %s: {fix}; tool calls are not checked until then\"}}\\n' \"$p\"; exit 0"


def guarded(name: str, available: str, run: str, if_missing: str, fix: str) -> str:
    """`run` when the test `available` holds, its exit 0 and 2 passed on; anything else answered
    by `_fail` (see the module doc)."""
    return (f'if {available}; then {run}; s=$?; case $s in 0|2) exit $s;; esac; p="failed (exit $s)"; '
            f'else p="is not installed"; fi; {_fail(name, if_missing, fix)}')


PORTABLE_FIX = f"install it (pipx install cf-guidance, or pipx install <its checkout>) so that {TOOL} is on PATH or in ~/.local/bin"
ABSOLUTE_FIX = "reinstall it, or wire this machine again with cf-guidance init"


def portable_command(name: str, if_missing: str = DENY) -> str:
    """The project-scope command: no path of this machine; the tool is found at run time."""
    return f"{TOOL_SEARCH_PATH}; " + guarded(
        name, f"command -v {TOOL} >/dev/null 2>&1", f"{TOOL} {name}", if_missing, PORTABLE_FIX)


def installed_tool() -> str | None:
    """This installation's `cf-guidance-hook` (beside its interpreter), when it has one."""
    path = os.path.join(os.path.dirname(interpreter()), TOOL)
    return path if os.path.isfile(path) else None


def absolute_command(name: str, if_missing: str = DENY, *, python: str | None = None, launcher: str | None = None) -> str:
    """The local- and user-scope command: this installation's interpreter and launcher."""
    python = shlex.quote(python or interpreter())
    launcher = shlex.quote(launcher or launcher_path())
    return guarded(name, f"[ -x {python} ]", f"{python} -S {launcher} {name}", if_missing, ABSOLUTE_FIX)


def command_for(name: str, scope: str = PROJECT, if_missing: str = DENY) -> str:
    return portable_command(name, if_missing) if scope == PROJECT else absolute_command(name, if_missing)


def handler_for(name: str, scope: str = PROJECT, if_missing: str = DENY) -> dict[str, object]:
    return {"type": "command", "command": command_for(name, scope, if_missing), "timeout": TIMEOUT_S}


class Parsed:
    """What one of our commands runs: its name, form ("portable", "absolute", or "unguarded": an
    absolute command written before the guard existed), answer when missing, interpreter, launcher."""

    __slots__ = ("name", "form", "if_missing", "python", "launcher")

    def __init__(self, name: str, form: str, if_missing: str, python: str = "", launcher: str = "") -> None:
        self.name = name
        self.form = form
        self.if_missing = if_missing
        self.python = python
        self.launcher = launcher


_WORD = r"'[^']*'|[^\s;']+"
_ABSOLUTE = re.compile(rf"^if \[ -x (?:{_WORD}) \]; then ({_WORD}) -S ({_WORD}) ([a-z][a-z-]*); s=\$\?;")
_PORTABLE = re.compile(rf"^PATH=\"\$PATH:[^\"]*\"; if command -v {TOOL} >/dev/null 2>&1; then {TOOL} ([a-z][a-z-]*); s=\$\?;")


def parse(command: object) -> Parsed | None:
    """Our command's parts, or None when `command` is not ours (the user's own hook)."""
    if not isinstance(command, str):
        return None
    if_missing = DENY if command.endswith(">&2; exit 2") else WARN
    found = _PORTABLE.match(command)
    if found and found.group(1) in WIRED_NAMES:
        return Parsed(found.group(1), "portable", if_missing)
    found = _ABSOLUTE.match(command)
    if found and found.group(3) in WIRED_NAMES:
        return Parsed(found.group(3), "absolute", if_missing, _unquote(found.group(1)), _unquote(found.group(2)))
    try:  # written by an older init: `<python> -S <launcher> NAME`, no guard
        argv = shlex.split(command)
    except ValueError:
        return None
    if len(argv) == 4 and argv[3] in WIRED_NAMES and argv[1] == "-S" and argv[2].endswith(os.path.join("hooks", "launcher.py")):
        return Parsed(argv[3], "unguarded", "", argv[0], argv[2])
    return None


def _unquote(word: str) -> str:
    return shlex.split(word)[0]


def our_command_name(handler: object) -> str | None:
    """The hook command name when `handler` runs one of our commands, else None (the user's own hook)."""
    if not isinstance(handler, dict) or handler.get("type", "command") != "command":
        return None
    parsed = parse(handler.get("command"))
    return parsed.name if parsed else None

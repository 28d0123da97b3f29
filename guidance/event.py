"""Normalise Claude Code and Codex hook payloads into one Event.

Hot path module: standard library only, no `typing` or `re` at run time.

Both agents send one JSON object per hook call. Claude Code names the shell tool `Bash`;
Codex sends its shell tool as `Bash` too, and file changes as `apply_patch` with a patch
text. An MCP tool (`mcp__server__tool`) whose input carries a shell command, file paths or a
database statement gets them in the same fields as the built-in tool it mirrors (`_mcp_paths`,
`_mcp_command_and_statement`), so the gates analyse `mcp__shell__run_command` like Bash and
`mcp__filesystem__read_file` like Read. Everything downstream (gates, ledger, runner) sees only
`Event`.
"""

from __future__ import annotations

from cf_guidance.errors import EventError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Tool name -> tool class used by rule tags such as `[bash]` / `[edit]`.
TOOL_CLASSES = {
    "Bash": "bash",
    "Write": "edit",
    "Edit": "edit",
    "MultiEdit": "edit",
    "NotebookEdit": "edit",
    "apply_patch": "edit",
    "Read": "read",
    "Grep": "read",
    "Glob": "read",
    "Agent": "task",
    "Task": "task",
    "WebFetch": "web",
    "WebSearch": "web",
}

READ = "read"
WRITE = "write"


class Event:
    """One hook call, agent-neutral. `paths` lists (path as given, access) pairs."""

    __slots__ = (
        "hook_event",
        "tool",
        "tool_class",
        "tool_input",
        "command",
        "paths",
        "content",
        "removed",
        "statement",
        "prompt",
        "session_id",
        "agent_id",
        "tool_use_id",
        "cwd",
        "project_dir",
        "agent",
        "raw",
    )

    def __init__(
        self,
        *,
        hook_event: str = "PreToolUse",
        tool: str = "",
        tool_input: dict[str, Any] | None = None,
        command: str | None = None,
        paths: list[tuple[str, str]] | None = None,
        content: str = "",
        removed: str = "",
        statement: str = "",
        prompt: str = "",
        session_id: str = "",
        agent_id: str = "",
        tool_use_id: str = "",
        cwd: str = "",
        project_dir: str = "",
        agent: str = "claude",
        raw: dict[str, Any] | None = None,
    ) -> None:
        self.hook_event = hook_event
        self.tool = tool
        self.tool_class = tool_class_of(tool)
        self.tool_input = tool_input if tool_input is not None else {}
        self.command = command
        self.paths = paths if paths is not None else []
        #: Text the tool would write (Write content, Edit new_string, patch additions).
        self.content = content
        #: Text the tool would remove (Edit old_string, patch deletions): for diff size.
        self.removed = removed
        #: A database statement an MCP tool is given (SQL, a MongoDB call): for the destructive gate.
        self.statement = statement
        self.prompt = prompt
        self.session_id = session_id
        self.agent_id = agent_id
        self.tool_use_id = tool_use_id
        self.cwd = cwd
        self.project_dir = project_dir or cwd
        self.agent = agent
        self.raw = raw if raw is not None else {}


def tool_class_of(tool: str) -> str:
    if tool.startswith("mcp__"):
        return "mcp"
    return TOOL_CLASSES.get(tool, "other" if tool else "")


def _text(value: object, field: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise EventError(f"event field {field!r} must be a string, got {type(value).__name__}; send the hook's JSON unchanged")
    return value


def _patch_paths(patch: str) -> tuple[list[tuple[str, str]], str, str]:
    """Paths, added and removed text of a Codex apply_patch body."""
    paths: list[tuple[str, str]] = []
    added: list[str] = []
    removed: list[str] = []
    for line in patch.splitlines():
        for marker in ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "):
            if line.startswith(marker):
                paths.append((line[len(marker):].strip(), WRITE))
                break
        else:
            if line.startswith("+") and not line.startswith("+++"):
                added.append(line[1:])
            elif line.startswith("-") and not line.startswith("---"):
                removed.append(line[1:])
    return paths, "\n".join(added), "\n".join(removed)


def normalise(payload: object, *, project_dir: str = "") -> Event:
    """Build an Event from a decoded hook payload; raise EventError for a wrong shape."""
    if not isinstance(payload, dict):
        raise EventError(f"hook event must be a JSON object, got {type(payload).__name__}; send the hook's stdin unchanged")
    tool = _text(payload.get("tool_name"), "tool_name")
    tool_input = payload.get("tool_input")
    if tool_input is None:
        tool_input = {}
    if not isinstance(tool_input, dict):
        raise EventError(f"event field 'tool_input' must be an object, got {type(tool_input).__name__}")
    agent = "codex" if ("turn_id" in payload or tool == "apply_patch") else "claude"
    event = Event(
        hook_event=_text(payload.get("hook_event_name"), "hook_event_name") or "PreToolUse",
        tool=tool,
        tool_input=tool_input,
        prompt=_text(payload.get("prompt"), "prompt"),
        session_id=_text(payload.get("session_id"), "session_id"),
        agent_id=_text(payload.get("agent_id"), "agent_id"),
        tool_use_id=_text(payload.get("tool_use_id"), "tool_use_id"),
        cwd=_text(payload.get("cwd"), "cwd"),
        project_dir=project_dir,
        agent=agent,
        raw=payload,
    )
    _fill_tool_fields(event, tool, tool_input)
    return event


def _fill_tool_fields(event: Event, tool: str, ti: dict[str, Any]) -> None:
    if tool == "Bash" or (tool not in TOOL_CLASSES and "command" in ti and not tool.startswith("mcp__")):
        command = ti.get("command", ti.get("cmd"))
        if isinstance(command, list):  # Codex may send argv
            command = " ".join(str(part) for part in command)
        event.command = _text(command, "tool_input.command")
    elif tool == "Write":
        event.paths = [(_text(ti.get("file_path"), "tool_input.file_path"), WRITE)]
        event.content = _text(ti.get("content"), "tool_input.content")
    elif tool == "Edit":
        event.paths = [(_text(ti.get("file_path"), "tool_input.file_path"), WRITE)]
        event.content = _text(ti.get("new_string"), "tool_input.new_string")
        event.removed = _text(ti.get("old_string"), "tool_input.old_string")
    elif tool == "MultiEdit":
        event.paths = [(_text(ti.get("file_path"), "tool_input.file_path"), WRITE)]
        edits = ti.get("edits") or []
        if not isinstance(edits, list):
            raise EventError("event field 'tool_input.edits' must be a list")
        new, old = [], []
        for edit in edits:
            if isinstance(edit, dict):
                new.append(_text(edit.get("new_string"), "edits[].new_string"))
                old.append(_text(edit.get("old_string"), "edits[].old_string"))
        event.content = "\n".join(new)
        event.removed = "\n".join(old)
    elif tool == "NotebookEdit":
        event.paths = [(_text(ti.get("notebook_path"), "tool_input.notebook_path"), WRITE)]
        event.content = _text(ti.get("new_source"), "tool_input.new_source")
    elif tool == "apply_patch":
        patch = ti.get("patch", ti.get("input", ti.get("command")))
        if isinstance(patch, list):
            patch = "\n".join(str(part) for part in patch)
        event.paths, event.content, event.removed = _patch_paths(_text(patch, "tool_input.patch"))
    elif tool == "Read":
        event.paths = [(_text(ti.get("file_path"), "tool_input.file_path"), READ)]
    elif tool in ("Grep", "Glob"):
        path = _text(ti.get("path"), "tool_input.path")
        pattern = _text(ti.get("pattern"), "tool_input.pattern")
        glob = _text(ti.get("glob"), "tool_input.glob")
        # The searched location, and the pattern/glob when it names files (Glob, Grep --glob).
        if path:
            event.paths.append((path, READ))
        if tool == "Glob" and pattern:
            event.paths.append((pattern, READ))
        if glob:
            event.paths.append((glob, READ))
        if not path:
            event.paths.append((".", READ))
    elif tool in ("Agent", "Task"):
        event.prompt = _text(ti.get("prompt"), "tool_input.prompt") or event.prompt
    elif tool == "WebFetch":
        event.content = _text(ti.get("url"), "tool_input.url")
    elif tool.startswith("mcp__"):
        event.paths, event.content = _mcp_paths(tool, ti)
        _mcp_command_and_statement(event, tool.lower(), ti)


#: Words at the start of an MCP tool's own name (`mcp__server__read_file` -> `read`) that only look.
MCP_READ_VERBS = ("read", "get", "list", "search", "find", "view", "stat", "info", "show", "directory", "tree", "glob", "grep", "head", "tail", "query", "describe", "fetch", "cat", "ls")
#: Input fields whose string values are paths (any name that holds one of these words).
MCP_PATH_KEYS = ("path", "file", "dir", "folder", "source", "destination", "target", "dest", "src", "location")
#: How deep and how many values of an MCP tool's input are looked at (bounded work per event).
MCP_MAX_DEPTH = 4
MCP_MAX_VALUES = 64


def _mcp_paths(tool: str, ti: dict[str, Any]) -> tuple[list[tuple[str, str]], str]:
    """Paths an MCP tool's input names, read or written as its name says (a name that does not
    say it only looks counts as a write), and the text it would write.

    MCP servers name their fields freely (`path`, `paths`, `source`, `destination`, ...): a
    string under a key holding one of MCP_PATH_KEYS is a path, in any list or object nesting.
    """
    verb = tool.rsplit("__", 1)[-1].lower()
    access = READ if verb.startswith(MCP_READ_VERBS) else WRITE
    paths: list[tuple[str, str]] = []
    budget = [MCP_MAX_VALUES]

    def walk(value: object, pathy: bool, depth: int) -> None:
        if budget[0] <= 0 or depth > MCP_MAX_DEPTH:
            return
        if isinstance(value, str):
            budget[0] -= 1
            if pathy and value:
                paths.append((value, access))
        elif isinstance(value, list):
            for item in value:
                walk(item, pathy, depth + 1)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, pathy or (isinstance(key, str) and any(word in key.lower() for word in MCP_PATH_KEYS)), depth + 1)

    walk(ti, False, 0)
    content = ti.get("content")
    return paths, content if isinstance(content, str) and access == WRITE else ""


#: MCP input keys that carry a shell command, and a database statement.
_MCP_COMMAND_KEYS = ("command", "cmd", "commandLine", "command_line", "shell_command")
_MCP_STATEMENT_KEYS = ("sql", "query", "statement")
#: Words of an MCP server or tool name that say its `query`/`sql` input is a database statement.
_MCP_DATABASE_WORDS = frozenset(("sql", "postgres", "postgresql", "pg", "mysql", "mariadb", "sqlite", "duckdb", "database", "db",
                                 "supabase", "neon", "bigquery", "snowflake", "clickhouse", "mongo", "mongodb", "query", "mssql"))


def _mcp_command_and_statement(event: Event, name: str, ti: dict[str, Any]) -> None:
    """The shell command (`mcp__shell__run_command`) and the database statement (`mcp__postgres__query`)
    an MCP tool's input carries, for the Bash gates and the destructive gate (name lower case)."""
    for key in _MCP_COMMAND_KEYS:
        command = ti.get(key)
        if isinstance(command, list):
            command = " ".join(str(part) for part in command)
        if isinstance(command, str) and command:
            event.command = command
            break
    if not _MCP_DATABASE_WORDS.isdisjoint(name.replace("__", "_").replace("-", "_").split("_")):
        for key in _MCP_STATEMENT_KEYS:
            value = ti.get(key)
            if isinstance(value, str) and value:
                event.statement = value
                break

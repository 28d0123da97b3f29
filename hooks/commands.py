"""The hook commands: which agent event each answers, what kind it is, and its handler's name.

Hot path module: no imports at all, so the launcher can decide whether a call may go to the
warm hook server (cf_guidance.hooks.hookd) before importing anything that decides.
"""

from __future__ import annotations

#: What a command is for: PRE can deny a tool call, POST spools work for the worker,
#: CONTEXT shows text to the model, INFO prints for a person.
PRE = "pre"
POST = "post"
CONTEXT = "context"
INFO = "info"


class Command:
    """One hook command: the event it is wired to, its kind, and the name of its function in
    cf_guidance.hooks.handlers."""

    __slots__ = ("name", "hook_event", "kind", "handler", "help")

    def __init__(self, name: str, hook_event: str, kind: str, handler: str, help: str) -> None:
        self.name = name
        self.hook_event = hook_event
        self.kind = kind
        self.handler = handler
        self.help = help


_COMMANDS = (
    Command("pre-bash", "PreToolUse", PRE, "pre_tool", "PreToolUse Bash: shell commands"),
    Command("pre-edit", "PreToolUse", PRE, "pre_tool", "PreToolUse Write, Edit, MultiEdit, NotebookEdit, apply_patch"),
    Command("pre-read", "PreToolUse", PRE, "pre_tool", "PreToolUse Read, Grep, Glob"),
    Command("pre-task", "PreToolUse", PRE, "pre_tool", "PreToolUse Agent/Task prompts"),
    Command("pre-tool", "PreToolUse", PRE, "pre_tool", "PreToolUse every other tool: mcp__*, WebFetch, WebSearch, ..."),
    Command("post-bash", "PostToolUse", POST, "post_event", "PostToolUse Bash: spool (sequence rules need successes)"),
    Command("post-edit", "PostToolUse", POST, "post_event", "PostToolUse file edits: spool"),
    Command("post-task", "PostToolUse", POST, "post_event", "PostToolUse Agent/Task: spool"),
    Command("post-failure", "PostToolUseFailure", POST, "post_event", "PostToolUseFailure any tool: spool"),
    Command("session-end", "SessionEnd", POST, "post_event", "SessionEnd: spool (the worker checkpoints the ledger)"),
    Command("stop", "Stop", POST, "post_event", "Stop: spool"),
    Command("user-prompt", "UserPromptSubmit", CONTEXT, "user_prompt", "UserPromptSubmit: inject the top retrieved rules"),
    Command("session-restore", "SessionStart", CONTEXT, "session_restore", "SessionStart: inject the constitution"),
    Command("compact", "PreCompact", CONTEXT, "compact", "PreCompact: re-inject the constitution"),
    Command("status", "", INFO, "status", "print the project, state, fail mode and bundle"),
    Command("stats", "", INFO, "stats", "print decision counts from the ledger and the spool"),
)
COMMANDS = {command.name: command for command in _COMMANDS}


def usage() -> str:
    lines = ["usage: cf-guidance hook COMMAND  (the event JSON on stdin)", "", "commands:"]
    lines += [f"  {c.name:<16} {c.help}" for c in _COMMANDS]
    return "\n".join(lines) + "\n"

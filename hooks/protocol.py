"""Answers in the hook protocol shared by Claude Code and Codex (reference/claude-code-protocol.md §3, §7).

Hot path module: standard library only.

- allow: exit 0 and no output. Never `permissionDecision: "allow"`: it would skip the
  user's own permission prompts.
- deny / ask (PreToolUse): exit 0 with `hookSpecificOutput.permissionDecision`; both
  agents honour the JSON deny. The reason says the rule code and what to do instead.
- warn (PreToolUse): exit 0 with `systemMessage` (the user) and `additionalContext` (the model).
- context (UserPromptSubmit, SessionStart): `additionalContext`; PreCompact has none, its
  plain stdout is appended to the compaction instructions.
- block: exit 2 with the reason on stderr, for a hook that must stop an event whose name
  it could not read. Codex ignores an exit 2 with empty stderr, so stderr is never empty.
`hookSpecificOutput.hookEventName` must equal the running event, or the client drops the answer.
"""

from __future__ import annotations

from cf_guidance import _fastjson
from cf_guidance.decision import ASK, DENY, WARN

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.decision import Decision

PRE_TOOL_USE = "PreToolUse"
#: Prefix of every line cf-guidance writes on stderr and in system messages.
PREFIX = "cf-guidance: "


class Answer:
    """What the hook process writes and its exit code, and whether it then starts the worker.

    `worker` is (project dir, state dir) when the detached worker should drain the spool once
    the answer is out. The hook process starts it, never the warm server: the worker needs the
    agent's own environment (GUIDANCE_LEDGER_KEY), which is never sent to the server.
    """

    __slots__ = ("stdout", "stderr", "exit_code", "worker")

    def __init__(self, stdout: str = "", stderr: str = "", exit_code: int = 0, worker: tuple[str, str] | None = None) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.exit_code = exit_code
        self.worker = worker

    def with_warning(self, line: str) -> Answer:
        """The same answer plus one more line on stderr."""
        stderr = self.stderr + PREFIX + line + "\n"
        return Answer(self.stdout, stderr, self.exit_code, self.worker)

    def __repr__(self) -> str:
        return f"Answer(exit={self.exit_code}, stdout={self.stdout!r}, stderr={self.stderr!r})"


def _json(value: dict[str, object]) -> str:
    return _fastjson.dumps(value) + "\n"


def allow() -> Answer:
    return Answer()


def permission(verdict: str, reason: str, hook_event: str = PRE_TOOL_USE, message: str = "") -> Answer:
    """A PreToolUse deny or ask (and a `message` for the user: systemMessage and stderr)."""
    out: dict[str, object] = {
        "hookSpecificOutput": {
            "hookEventName": hook_event,
            "permissionDecision": verdict,
            "permissionDecisionReason": reason,
        }
    }
    if message:
        out["systemMessage"] = PREFIX + message
    return Answer(_json(out), PREFIX + message + "\n" if message else "")


def warn(message: str, hook_event: str = PRE_TOOL_USE) -> Answer:
    """Go ahead, but tell the user (systemMessage) and the model (additionalContext)."""
    return Answer(
        _json(
            {
                "systemMessage": PREFIX + message,
                "hookSpecificOutput": {"hookEventName": hook_event, "additionalContext": message},
            }
        )
    )


def notice(message: str) -> Answer:
    """A visible message with no verdict (fail-open): the call goes on, stderr says why."""
    return Answer(_json({"systemMessage": PREFIX + message}), PREFIX + message + "\n")


def for_decision(decision: Decision, hook_event: str = PRE_TOOL_USE, message: str = "") -> Answer:
    """The PreToolUse answer for an engine decision, with a `message` the user must see
    whatever the verdict (a policy that could not be applied)."""
    verdict = decision.verdict
    if verdict == DENY or verdict == ASK:
        return permission(verdict, decision.reason, hook_event, message)
    if verdict == WARN:
        return warn(decision.reason + (" " + message if message else ""), hook_event)
    return notice(message) if message else allow()


def context(hook_event: str, text: str, message: str = "") -> Answer:
    """Text for the model at UserPromptSubmit or SessionStart, and a `message` for the user
    (systemMessage, also on stderr); nothing when there is neither."""
    if not text and not message:
        return allow()
    out: dict[str, object] = {}
    if message:
        out["systemMessage"] = PREFIX + message
    if text:
        out["hookSpecificOutput"] = {"hookEventName": hook_event, "additionalContext": text}
    return Answer(_json(out), PREFIX + message + "\n" if message else "")


def plain(text: str) -> Answer:
    """Plain stdout (PreCompact appends it to the compaction instructions)."""
    return Answer(text + "\n" if text else "")


def block(reason: str) -> Answer:
    """Exit 2 with the reason on stderr: blocks in both agents whatever the event's name."""
    return Answer("", PREFIX + reason + "\n", 2)

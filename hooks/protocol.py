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


def permission(verdict: str, reason: str, hook_event: str = PRE_TOOL_USE) -> Answer:
    """A PreToolUse deny or ask."""
    return Answer(
        _json(
            {
                "hookSpecificOutput": {
                    "hookEventName": hook_event,
                    "permissionDecision": verdict,
                    "permissionDecisionReason": reason,
                }
            }
        )
    )


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


def for_decision(decision: Decision, hook_event: str = PRE_TOOL_USE) -> Answer:
    """The PreToolUse answer for an engine decision."""
    verdict = decision.verdict
    if verdict == DENY or verdict == ASK:
        return permission(verdict, decision.reason, hook_event)
    if verdict == WARN:
        return warn(decision.reason, hook_event)
    return allow()


def with_notice(answer: Answer, message: str) -> Answer:
    """`answer` plus a message the user must see whatever the verdict: in its `systemMessage`
    (added to the JSON answer, or a JSON answer of its own for an empty one) and on stderr.
    Plain-text answers (PreCompact) and exit-2 blocks get the stderr line only."""
    stderr = answer.stderr + PREFIX + message + "\n"
    out = answer.stdout
    if answer.exit_code == 0 and (not out or out.startswith("{")):
        value = _fastjson.loads(out) if out else {}
        shown = value.get("systemMessage")
        value["systemMessage"] = (shown + " " + message) if isinstance(shown, str) else PREFIX + message
        out = _json(value)
    return Answer(out, stderr, answer.exit_code, answer.worker)


def context(hook_event: str, text: str) -> Answer:
    """Text for the model at UserPromptSubmit or SessionStart; nothing when there is none."""
    if not text:
        return allow()
    return Answer(_json({"hookSpecificOutput": {"hookEventName": hook_event, "additionalContext": text}}))


def plain(text: str) -> Answer:
    """Plain stdout (PreCompact appends it to the compaction instructions)."""
    return Answer(text + "\n" if text else "")


def block(reason: str) -> Answer:
    """Exit 2 with the reason on stderr: blocks in both agents whatever the event's name."""
    return Answer("", PREFIX + reason + "\n", 2)

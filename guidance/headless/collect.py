"""Turn what one run left behind into `RunData`: the record every assertion checks.

Sources, correlated by session id and tool_use_id:

- the stream-json messages (`system/init`, `assistant` tool_use blocks, `user` tool_result
  blocks with `tool_result_meta`, `system/hook_started` / `hook_response` with
  `--include-hook-events`, the final `result` with `permission_denials`);
- the transcript file `CLAUDE_CONFIG_DIR/projects/<slug>/<session>.jsonl`, which fills
  tool results the stream lacks and records each call's permission decision;
- the workspace diff (files created, modified, deleted; new commits).

Hook events do not carry a tool_use_id in the stream. A PreToolUse/PostToolUse hook event is
attributed to the oldest call of that tool that has no event of that hook yet; the deny and
its rule code come from the call's own tool_result, which does carry the id.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: A rule code at the start of a reason, as `Decision.reason` writes it: "[CODE] message".
_RULE_RE = re.compile(r"\[([A-Za-z][A-Za-z0-9]*(?:[-_.:][A-Za-z0-9]+)*)\](?=\s|$)")
#: The prefix Claude Code puts before a hook's deny reason in the tool_result.
_HOOK_ERROR_RE = re.compile(r"^(PreToolUse|PermissionRequest):(\S+) hook error: (?:\[[^\]]*\]: )?", re.S)
#: Tool events whose hook runs belong to one tool call.
_TOOL_HOOK_EVENTS = ("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest")


def rule_code(text: str) -> str:
    """The first `[CODE]` followed by a space in `text` ("" when there is none)."""
    match = _RULE_RE.search(text or "")
    return match.group(1) if match else ""


@dataclass
class Commit:
    sha: str
    subject: str
    files: list[str]


@dataclass
class FileChanges:
    created: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    patch: str = ""
    commits: list[Commit] = field(default_factory=list)

    @property
    def touched(self) -> list[str]:
        return sorted(set(self.created) | set(self.modified) | set(self.deleted))


@dataclass
class HookEvent:
    """One hook run: which event, for which call, what it answered."""

    seq: int
    event: str
    name: str
    hook_id: str = ""
    tool_use_id: str = ""
    exit_code: int | None = None
    outcome: str = ""
    decision: str = ""
    reason: str = ""
    rule: str = ""
    stdout: str = ""
    stderr: str = ""
    #: Wall time from hook_started to hook_response as the stream delivered them (None if unknown).
    duration_ms: int | None = None
    #: When the hook started: ms since the client started, and as an ISO 8601 time ("" if unknown).
    offset_ms: int | None = None
    timestamp: str = ""

    @property
    def blocked(self) -> bool:
        return self.decision in ("deny", "block", "ask")

    @property
    def failed(self) -> bool:
        """The hook errored or was cancelled without a verdict: Claude Code then goes on as if allowed."""
        return self.outcome in ("error", "cancelled") and self.exit_code != 2


@dataclass
class ToolCall:
    seq: int
    id: str
    name: str
    input: dict[str, Any]
    result: str = ""
    has_result: bool = False
    is_error: bool = False
    #: "hook" when a hook denied it, "permission" when a permission rule or prompt did.
    denied_by: str = ""
    rule: str = ""
    hooks: list[HookEvent] = field(default_factory=list)
    #: The guard's own record of its decision on this call (from the workspace's spool or ledger).
    recorded: dict[str, Any] = field(default_factory=dict)
    #: Wall time from the tool_use to its tool_result in the stream, hooks included (None if unknown).
    duration_ms: int | None = None

    @property
    def ran(self) -> bool:
        return not self.denied_by and not self.result.startswith("<tool_use_error>")

    @property
    def command(self) -> str:
        value = self.input.get("command", "")
        return value if isinstance(value, str) else ""


@dataclass
class TimelineEntry:
    seq: int
    type: str  # prompt | response | tool_call | tool_result | hook | system | result
    timestamp: str = ""
    summary: str = ""
    detail: dict[str, Any] = field(default_factory=dict)
    #: ms since the client started, when the executor recorded arrival times.
    offset_ms: int | None = None
    duration_ms: int | None = None


@dataclass
class RunData:
    prompt: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    #: Arrival time (ms since start) of each message, aligned with `messages`; empty when unknown.
    arrivals_ms: list[int] = field(default_factory=list)
    init: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict)
    tool_calls: list[ToolCall] = field(default_factory=list)
    hook_events: list[HookEvent] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    timeline: list[TimelineEntry] = field(default_factory=list)
    transcript_path: str = ""
    transcript: list[dict[str, Any]] = field(default_factory=list)
    changes: FileChanges = field(default_factory=FileChanges)
    exit_code: int | None = None
    stderr: str = ""
    duration_ms: int = 0
    timed_out: bool = False
    #: stdout lines that were not JSON (kept for the debug tab).
    stray_output: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    #: When the client started (seconds since the epoch; 0 when unknown).
    started_at: float = 0.0
    #: Writes outside the project found in the tool calls (`outside.outside_writes`).
    outside_writes: list[dict[str, Any]] = field(default_factory=list)

    @property
    def session_id(self) -> str:
        return str(self.result.get("session_id") or self.init.get("session_id") or "")

    @property
    def final_text(self) -> str:
        text = self.result.get("result")
        if isinstance(text, str):
            return text
        return self.texts[-1] if self.texts else ""

    @property
    def output(self) -> str:
        """Everything the agent said: each text block, then the final result text."""
        parts = list(self.texts)
        if self.final_text and (not parts or parts[-1] != self.final_text):
            parts.append(self.final_text)
        return "\n".join(parts)

    @property
    def num_turns(self) -> int:
        value = self.result.get("num_turns")
        return value if isinstance(value, int) else sum(1 for m in self.messages if m.get("type") == "assistant")

    @property
    def cost_usd(self) -> float:
        value = self.result.get("total_cost_usd")
        return float(value) if isinstance(value, (int, float)) else 0.0

    def tokens(self) -> dict[str, int]:
        usage = self.result.get("usage") if isinstance(self.result.get("usage"), dict) else {}
        assert isinstance(usage, dict)
        inp = sum(int(usage.get(k) or 0) for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"))
        out = int(usage.get("output_tokens") or 0)
        return {"input": inp, "output": out, "total": inp + out}

    @property
    def permission_denials(self) -> list[dict[str, Any]]:
        denials = self.result.get("permission_denials") or []
        return [d for d in denials if isinstance(d, dict)]

    @property
    def is_error(self) -> bool:
        return bool(self.result.get("is_error")) or not self.result

    def hook_latency_ms(self) -> dict[str, int]:
        """Count, median and max of hook wall times (hook_started to hook_response)."""
        times = sorted(h.duration_ms for h in self.hook_events if h.duration_ms is not None)
        if not times:
            return {"count": 0}
        return {"count": len(times), "p50": times[len(times) // 2], "max": times[-1]}

    @property
    def hook_failures(self) -> list[HookEvent]:
        """Hooks that crashed or timed out: a guard failing open, whatever the assertions say."""
        return [h for h in self.hook_events if h.failed]


def collect(
    prompt: str,
    stdout: str,
    *,
    stderr: str = "",
    exit_code: int | None = 0,
    duration_ms: int = 0,
    timed_out: bool = False,
    config_dir: Path | None = None,
    changes: FileChanges | None = None,
    state_dir: Path | None = None,
    arrivals_ms: list[int] | None = None,
    started_at: float = 0.0,
) -> RunData:
    """Parse one run's stream-json stdout (plus transcript and diff) into `RunData`.

    `arrivals_ms` (one per non-empty stdout line) time the hooks and tool calls; with
    `started_at` (when the client started) they also date them.
    """
    run = RunData(prompt=prompt, exit_code=exit_code, stderr=stderr, duration_ms=duration_ms, timed_out=timed_out,
                  started_at=started_at)
    lines = [line.strip() for line in stdout.splitlines() if line.strip()]
    timed = arrivals_ms is not None and len(arrivals_ms) == len(lines)
    for index, line in enumerate(lines):
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            run.stray_output.append(line)
            continue
        if isinstance(message, dict):
            run.messages.append(message)
            if timed and arrivals_ms is not None:
                run.arrivals_ms.append(arrivals_ms[index])
    _Correlator(run).feed()
    if changes is not None:
        run.changes = changes
    if config_dir is not None and run.session_id:
        _read_transcript(run, config_dir)
    if state_dir is not None:
        attach_decisions(run, recorded_decisions(state_dir))
    return run


def recorded_decisions(state_dir: Path) -> list[dict[str, Any]]:
    """Decision records the guard wrote in a workspace: still spooled, or already in the ledger.

    Each is `{"source": "spool"|"ledger", "tool_use_id", "decision", "rule", "reason"}`.
    """
    from cf_guidance.errors import StateError
    from cf_guidance.jobs import spool
    from cf_guidance.state import StateLayout

    found: list[dict[str, Any]] = []
    for path in spool.pending(str(state_dir)):
        try:
            found.extend(_decision_view(spool.read_job(path), "spool"))
        except StateError:
            continue  # applied by the worker since the listing (the ledger, read next, has it), or no job
    ledger_file = Path(StateLayout(str(state_dir)).ledger) / "ledger.jsonl"
    try:
        lines = ledger_file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    for line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict):
            found.extend(_decision_view(record, "ledger"))
    return found


def _decision_view(record: dict[str, Any], source: str) -> list[dict[str, Any]]:
    event = record.get("event")
    decision = record.get("decision")
    if not isinstance(event, dict) or not isinstance(decision, dict):
        return []
    tool_use_id = event.get("tool_use_id")
    if not isinstance(tool_use_id, str) or not tool_use_id:
        return []
    return [{"source": source, "tool_use_id": tool_use_id, "decision": str(decision.get("decision") or ""),
             "rule": str(decision.get("rule") or ""), "reason": str(decision.get("reason") or "")}]


def attach_decisions(run: RunData, decisions: list[dict[str, Any]]) -> None:
    """Put each recorded decision on its call; a recorded rule fills a code the stream lacked."""
    calls = {call.id: call for call in run.tool_calls}
    for decision in decisions:
        call = calls.get(decision["tool_use_id"])
        if call is None:
            continue
        call.recorded = decision
        if call.denied_by and not call.rule and decision["rule"]:
            call.rule = decision["rule"]


class _Correlator:
    def __init__(self, run: RunData) -> None:
        self.run = run
        self.calls: dict[str, ToolCall] = {}
        self.hooks: dict[str, HookEvent] = {}
        self.now: int | None = None
        self.started_at: dict[str, int] = {}

    def _add(self, kind: str, summary: str, message: dict[str, Any], duration_ms: int | None = None, **detail: Any) -> None:
        seq = len(self.run.timeline) + 1
        stamp = str(message.get("timestamp") or "") or self._stamp(self.now)
        self.run.timeline.append(TimelineEntry(seq, kind, stamp, summary, detail, self.now, duration_ms))

    def _stamp(self, offset_ms: int | None) -> str:
        """ISO 8601 time of `offset_ms` after the client started ("" when either is unknown)."""
        if offset_ms is None or not self.run.started_at:
            return ""
        moment = _dt.datetime.fromtimestamp(self.run.started_at + offset_ms / 1000, tz=_dt.timezone.utc)
        return moment.isoformat(timespec="milliseconds")

    def _since(self, key: str) -> int | None:
        start = self.started_at.get(key)
        return None if start is None or self.now is None else self.now - start

    def feed(self) -> None:
        run = self.run
        start = 0 if run.arrivals_ms else None
        run.timeline.append(TimelineEntry(1, "prompt", self._stamp(start), run.prompt[:200], {"content": run.prompt}, start))
        for index, message in enumerate(run.messages):
            self.now = run.arrivals_ms[index] if run.arrivals_ms else None
            kind = message.get("type")
            if kind == "system":
                self._system(message)
            elif kind == "assistant":
                self._assistant(message)
            elif kind == "user":
                self._user(message)
            elif kind == "result":
                run.result = message
                self._add("result", f"{message.get('subtype', '')} after {message.get('num_turns', '?')} turns", message,
                          terminal_reason=message.get("terminal_reason"), is_error=message.get("is_error"))
        for denial in run.permission_denials:
            call = self.calls.get(str(denial.get("tool_use_id")))
            if call is not None and not call.denied_by:
                call.denied_by = "hook" if any(h.blocked for h in call.hooks) else "permission"

    def _system(self, message: dict[str, Any]) -> None:
        subtype = message.get("subtype")
        if subtype == "init":
            self.run.init = message
            self._add("system", f"init: model {message.get('model', '?')}, cwd {message.get('cwd', '?')}", message)
        elif subtype == "hook_started":
            self._hook_started(message)
        elif subtype == "hook_response":
            self._hook_response(message)
        elif subtype == "permission_denied":
            call = self.calls.get(str(message.get("tool_use_id")))
            if call is not None and not call.denied_by:
                call.denied_by = "hook" if message.get("decision_reason_type") == "hook" else "permission"

    def _hook_started(self, message: dict[str, Any]) -> None:
        name = str(message.get("hook_name") or "")
        event = str(message.get("hook_event") or name.partition(":")[0])
        hook = HookEvent(seq=len(self.run.hook_events) + 1, event=event, name=name, hook_id=str(message.get("hook_id") or ""))
        tool = name.partition(":")[2]
        if event in _TOOL_HOOK_EVENTS and tool:
            for call in self.calls.values():
                if call.name == tool and not any(h.name == name for h in call.hooks):
                    if event == "PreToolUse" and call.has_result:
                        continue
                    if event != "PreToolUse" and call.denied_by:  # a denied call never runs
                        continue
                    hook.tool_use_id = call.id
                    call.hooks.append(hook)
                    break
        self.run.hook_events.append(hook)
        self.hooks[hook.hook_id] = hook
        hook.offset_ms, hook.timestamp = self.now, self._stamp(self.now)
        if self.now is not None:
            self.started_at["hook:" + hook.hook_id] = self.now

    def _hook_response(self, message: dict[str, Any]) -> None:
        hook = self.hooks.get(str(message.get("hook_id") or ""))
        if hook is None:
            self._hook_started(message)
            hook = self.run.hook_events[-1]
        hook.stdout = str(message.get("stdout") or "")
        hook.stderr = str(message.get("stderr") or "")
        code = message.get("exit_code")
        hook.exit_code = code if isinstance(code, int) else None
        hook.outcome = str(message.get("outcome") or "")
        hook.decision, hook.reason = _hook_verdict(hook)
        hook.rule = rule_code(hook.reason) if hook.blocked else ""
        hook.duration_ms = self._since("hook:" + hook.hook_id)
        target = f" for {hook.tool_use_id}" if hook.tool_use_id else ""
        verdict = hook.decision or hook.outcome or "done"
        self._add("hook", f"{hook.name}{target}: {verdict}{' ' + hook.rule if hook.rule else ''}", message,
                  hook.duration_ms, hook=hook.name, tool_use_id=hook.tool_use_id, exit_code=hook.exit_code, decision=hook.decision,
                  reason=hook.reason, stdout=hook.stdout, stderr=hook.stderr)

    def _assistant(self, message: dict[str, Any]) -> None:
        body = message.get("message")
        content = body.get("content") if isinstance(body, dict) else None
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                self.run.texts.append(block["text"])
                self._add("response", block["text"][:200], message, content=block["text"])
            elif block.get("type") == "tool_use":
                raw_input = block.get("input")
                call = ToolCall(
                    seq=len(self.run.tool_calls) + 1,
                    id=str(block.get("id") or ""),
                    name=str(block.get("name") or ""),
                    input=raw_input if isinstance(raw_input, dict) else {},
                )
                self.run.tool_calls.append(call)
                self.calls[call.id] = call
                if self.now is not None:
                    self.started_at["tool:" + call.id] = self.now
                self._add("tool_call", f"{call.name} {_brief(call.input)}", message, tool=call.name,
                          tool_use_id=call.id, input=call.input)

    def _user(self, message: dict[str, Any]) -> None:
        body = message.get("message")
        content = body.get("content") if isinstance(body, dict) else None
        meta = {str(m.get("id")): m for m in message.get("tool_result_meta") or [] if isinstance(m, dict)}
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            call = self.calls.get(str(block.get("tool_use_id")))
            if call is None:
                continue
            apply_result(call, _content_text(block.get("content")), bool(block.get("is_error")), meta.get(call.id))
            call.duration_ms = self._since("tool:" + call.id)
            self._add("tool_result", f"{call.name} {'error' if call.is_error else 'ok'}: {call.result[:160]}", message,
                      call.duration_ms, tool=call.name, tool_use_id=call.id, is_error=call.is_error, denied_by=call.denied_by,
                      rule=call.rule, output=call.result)


def apply_result(call: ToolCall, text: str, is_error: bool, meta: dict[str, Any] | None) -> None:
    """Record a tool_result on its call: text, error flag, who denied it and which rule."""
    call.result, call.is_error, call.has_result = text, is_error, True
    hook_error = _HOOK_ERROR_RE.match(text) if is_error else None
    decision = (meta or {}).get("permission_decision")
    if not isinstance(decision, dict):
        decision = {}
    rejected = decision.get("decision") == "reject"
    if hook_error is not None or (rejected and decision.get("source") == "hook"):
        call.denied_by = "hook"
    elif rejected or (meta or {}).get("non_execution_kind"):
        call.denied_by = call.denied_by or "permission"
    if call.denied_by:
        reason = text[hook_error.end():] if hook_error else text
        call.rule = rule_code(reason) or next((h.rule for h in call.hooks if h.rule), "")


def _hook_verdict(hook: HookEvent) -> tuple[str, str]:
    """(decision, reason) of a hook run: exit 2 blocks with stderr; JSON may deny/ask/allow."""
    if hook.exit_code == 2:
        return "deny", hook.stderr.strip()
    try:
        payload = json.loads(hook.stdout) if hook.stdout.strip().startswith("{") else None
    except json.JSONDecodeError:
        payload = None
    if not isinstance(payload, dict):
        return "", ""
    specific = payload.get("hookSpecificOutput")
    if isinstance(specific, dict) and specific.get("permissionDecision"):
        return str(specific["permissionDecision"]), str(specific.get("permissionDecisionReason") or "")
    if payload.get("decision") in ("block", "approve"):
        return ("block" if payload["decision"] == "block" else "allow"), str(payload.get("reason") or "")
    if isinstance(specific, dict) and specific.get("additionalContext"):
        return "context", str(specific["additionalContext"])
    return "", ""


def _read_transcript(run: RunData, config_dir: Path) -> None:
    matches = sorted((config_dir / "projects").glob(f"*/{run.session_id}.jsonl"))
    if not matches:
        return
    run.transcript_path = str(matches[0])
    try:
        lines = matches[0].read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return
    calls = {call.id: call for call in run.tool_calls}
    for line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(record, dict):
            continue
        run.transcript.append(record)
        body = record.get("message")
        content = body.get("content") if isinstance(body, dict) else None
        if record.get("type") != "user" or not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            call = calls.get(str(block.get("tool_use_id")))
            if call is not None and not call.has_result:
                decision = record.get("permissionDecision")
                meta = {"permission_decision": decision} if isinstance(decision, dict) else None
                apply_result(call, _content_text(block.get("content")), bool(block.get("is_error")), meta)


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return "" if content is None else json.dumps(content)


def _brief(tool_input: dict[str, Any]) -> str:
    for key in ("command", "file_path", "pattern", "path", "url", "description"):
        value = tool_input.get(key)
        if isinstance(value, str):
            return value[:160]
    return json.dumps(tool_input)[:160]


def check_isolation(run: RunData, *, workspace: Path, allowed_roots: list[Path], user_paths: list[Path]) -> list[str]:
    """What in the init event shows the user's own setup leaking into an isolated run.

    `user_paths` are the real user's config locations (~/.claude, $CLAUDE_CONFIG_DIR); any
    mention of them, any plugin, MCP server or memory file outside `allowed_roots` is a leak.
    """
    init = run.init
    leaks: list[str] = []
    if not init:
        return leaks
    cwd = str(init.get("cwd") or "")
    if cwd and Path(cwd).resolve() != workspace.resolve():
        leaks.append(f"init cwd {cwd} is not the workspace {workspace}")
    for key in ("plugins", "mcp_servers"):
        value = init.get(key)
        # Plugins the client ships itself (path "builtin") are part of every run, not a leak.
        found = [v for v in value if not (isinstance(v, dict) and v.get("path") == "builtin")] if isinstance(value, list) else []
        if found:
            names = ", ".join(str(v.get("name", v)) if isinstance(v, dict) else str(v) for v in found)
            leaks.append(f"init lists {key}: {names}")
    roots = [str(p.resolve()) for p in allowed_roots]
    memory = init.get("memory_paths")
    for path in memory.values() if isinstance(memory, dict) else memory if isinstance(memory, list) else []:
        text = str(path.get("path", "") if isinstance(path, dict) else path)
        if text and not any(text.startswith(root) for root in roots):
            leaks.append(f"memory file outside the workspace: {text}")
    blob = json.dumps(init)
    for path in user_paths:
        if str(path) and str(path) in blob:
            leaks.append(f"init mentions the user's config at {path}")
    return leaks

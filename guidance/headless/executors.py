"""Executors: how one task's prompt becomes a run. One interface, three implementations.

- `ClaudeExecutor`: the real `claude` against the real API (costs money, not deterministic).
- `ScriptedExecutor`: the real `claude`, real hooks, against a loopback `ModelServer`
  replaying the task's script (deterministic, free, about a second a run).
- `FakeExecutor`: no process at all; a responder builds the stream-json (unit tests, and
  `--executor fake` to dry-run a suite's plumbing).

The claude executors drive `claude -p --input-format stream-json --output-format stream-json
--verbose --include-hook-events --permission-prompt-tool stdio --setting-sources project`:
the prompt goes in as one user message, and permission prompts (AskUserQuestion included)
come back as `control_request`s the runner answers according to the session mode.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from cf_guidance.errors import RunnerError
from cf_guidance.headless.claude import DEFAULT_ALLOWED_TOOLS, claude_env, find_claude
from cf_guidance.headless.hygiene import merge_descriptions
from cf_guidance.headless.sandbox import bwrap_argv
from cf_guidance.headless.suite import Task
from cf_guidance.session import RATE_BASE_ENV
from cf_guidance.headless.workspace import Workspace
from cf_guidance.modelserver.script import Script

MODES = ("interactive", "non-interactive", "auto-answer")
#: The infrastructure kind of a run stopped by an interruption (it is not a result: resume reruns it).
INTERRUPTED = "interrupted"
#: Variables passed to the real executor so it can authenticate; everything else is scrubbed.
AUTH_VARIABLES = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN")
#: Replaced in a task's script by the absolute path of the run's project directory.
WORKSPACE_PLACEHOLDER = "${WORKSPACE}"
#: How often the scripted executor checks that its model server still answers.
SERVER_PROBE_SECONDS = 0.5

#: interactive mode: (kind, payload) -> the user's answer ("question" or "permission").
Prompter = Callable[[str, dict[str, Any]], str]


@dataclass
class ExecRequest:
    task: Task
    workspace: Workspace
    mode: str = "non-interactive"
    prompter: Prompter | None = None
    #: Stops this run's client when the suite run is interrupted.
    stopper: Stopper | None = None
    #: Run the client under bubblewrap (`sandbox.bwrap_argv`).
    sandbox: bool = False
    #: Which repeat of the task this run is (0-based).
    repeat: int = 0


@dataclass
class Interaction:
    """A permission prompt or question the client raised, and what the runner answered."""

    tool: str
    tool_use_id: str
    behavior: str
    detail: str
    answers: dict[str, str] = field(default_factory=dict)


@dataclass
class ExecResult:
    stdout: str
    stderr: str = ""
    exit_code: int | None = 0
    duration_ms: int = 0
    timed_out: bool = False
    argv: list[str] = field(default_factory=list)
    #: Environment the client ran with (auth values masked), for the report's reproduce block.
    env: dict[str, str] = field(default_factory=dict)
    interactions: list[Interaction] = field(default_factory=list)
    server_log: list[dict[str, Any]] = field(default_factory=list)
    #: An infrastructure failure the executor saw itself, and its kind ("model-server", "interrupted").
    infra_error: str = ""
    infra_kind: str = ""
    #: When each non-empty stdout line arrived, in ms since the client started (timings of hooks and tools).
    arrivals_ms: list[int] = field(default_factory=list)
    #: When the client started (seconds since the epoch): arrival offsets become timestamps.
    started_at: float = 0.0
    #: Processes the run left running when the client exited, ended then (`hygiene.Ended.to_dict`).
    processes: dict[str, Any] = field(default_factory=dict)


class Executor(Protocol):
    name: str

    def preflight(self) -> None:
        """Raise RunnerError when this executor cannot run at all (e.g. no claude binary)."""

    def execute(self, request: ExecRequest) -> ExecResult: ...


def answer_request(request: ExecRequest, payload: dict[str, Any]) -> tuple[dict[str, Any], Interaction]:
    """The reply to a `can_use_tool` control request under the request's mode."""
    tool = str(payload.get("tool_name") or "")
    tool_input = payload.get("input") if isinstance(payload.get("input"), dict) else {}
    assert isinstance(tool_input, dict)
    tool_use_id = str(payload.get("tool_use_id") or "")
    if tool == "AskUserQuestion":
        questions = [q for q in tool_input.get("questions") or [] if isinstance(q, dict)]
        detail = " / ".join(str(q.get("question", "")) for q in questions)
        if request.mode == "non-interactive":
            message = "Questions cannot be answered in non-interactive mode; proceed with your best judgement."
            return _deny(message), Interaction(tool, tool_use_id, "deny", detail)
        answers = {}
        for question in questions:
            text = str(question.get("question", ""))
            if request.mode == "interactive" and request.prompter is not None:
                answers[text] = request.prompter("question", question)
            else:
                answers[text] = _default_answer(request.task.answers, question)
        updated = {**tool_input, "answers": answers}
        return {"behavior": "allow", "updatedInput": updated}, Interaction(tool, tool_use_id, "allow", detail, answers)
    detail = f"{tool} {json.dumps(tool_input)[:300]}"
    if request.mode == "interactive" and request.prompter is not None:
        if request.prompter("permission", {"tool_name": tool, "input": tool_input}).lower().startswith("y"):
            return {"behavior": "allow", "updatedInput": tool_input}, Interaction(tool, tool_use_id, "allow", detail)
        return _deny("The user denied this tool call."), Interaction(tool, tool_use_id, "deny", detail)
    message = f"Permission prompts are denied in {request.mode} mode."
    return _deny(message), Interaction(tool, tool_use_id, "deny", detail)


def _deny(message: str) -> dict[str, Any]:
    return {"behavior": "deny", "message": message}


def _default_answer(answers: Mapping[str, str], question: Mapping[str, Any]) -> str:
    for key in (question.get("question"), question.get("header"), "*"):
        if isinstance(key, str) and key in answers:
            return answers[key]
    options = [o for o in question.get("options") or [] if isinstance(o, dict)]
    return str(options[0].get("label", "")) if options else ""


class Stopper:
    """Stops every client of one suite run at once (Ctrl-C, SIGTERM).

    The clients run in sessions of their own, so the terminal's signal never reaches them; a
    client registering after the stop is stopped as it starts.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[_ClaudeProcess] = set()
        self.reason = ""

    @property
    def stopped(self) -> bool:
        return bool(self.reason)

    def stop(self, reason: str) -> None:
        with self._lock:
            self.reason = self.reason or reason
            running = list(self._running)
        for process in running:
            process.abort(reason, INTERRUPTED)

    def add(self, process: _ClaudeProcess) -> None:
        with self._lock:
            self._running.add(process)
            reason = self.reason
        if reason:
            process.abort(reason, INTERRUPTED)

    def discard(self, process: _ClaudeProcess) -> None:
        with self._lock:
            self._running.discard(process)

    @property
    def running(self) -> int:
        with self._lock:
            return len(self._running)


class _ClaudeProcess:
    """Drive one stream-json session: send the prompt, answer control requests, enforce the timeout."""

    def __init__(self, argv: list[str], env: dict[str, str], request: ExecRequest) -> None:
        self.argv, self.env, self.request = argv, env, request
        self.interactions: list[Interaction] = []
        self.abort_reason = ""
        self.abort_kind = ""
        self._proc: subprocess.Popen[str] | None = None
        #: Processes `abort` ended besides the client's process group (under `_abort_lock`: an
        #: abort from the watchdog may still be ending them when the client's output ends).
        self._ended: list[str] = []
        self._abort_lock = threading.Lock()

    def abort(self, reason: str, kind: str) -> None:
        """Stop the client now (timeout, dead model server, Ctrl-C); the run reports `reason`.

        The client's process group dies, then every other process of the run but the guard's
        worker: the Bash tool's children live in sessions of their own.
        """
        with self._abort_lock:
            if not self.abort_reason:
                self.abort_reason, self.abort_kind = reason, kind
            proc = self._proc
            if proc is not None and proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self._ended += self.request.workspace.processes.end(spare_workers=True).ended

    def run(self, timeout: float, watch: Callable[[], str] | None = None) -> ExecResult:
        ws = self.request.workspace
        argv = bwrap_argv(ws, self.argv) if self.request.sandbox else self.argv
        started_at = time.time()
        started = time.monotonic()
        try:
            proc = subprocess.Popen(
                ws.processes.wrap(argv), cwd=ws.project, env=self.env, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1, start_new_session=True,
            )
        except OSError as exc:
            raise RunnerError(f"cannot start {argv[0]} ({exc.strerror})") from None
        ws.processes.started(proc.pid)
        self._proc = proc
        stopper = self.request.stopper
        if stopper is not None:
            stopper.add(self)
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        stderr_chunks: list[str] = []
        reader = threading.Thread(target=lambda: stderr_chunks.append(proc.stderr.read() if proc.stderr else ""), daemon=True)
        reader.start()
        stop = threading.Event()
        watchdog = threading.Thread(target=self._watch, args=(started + timeout, watch, stop), daemon=True)
        watchdog.start()
        lines: list[str] = []
        arrivals: list[int] = []
        try:
            self._send(proc, {"type": "user", "message": {"role": "user", "content": self.request.task.prompt}})
            for line in proc.stdout:
                lines.append(line)
                arrivals.append(int((time.monotonic() - started) * 1000))
                message = _json_or_none(line)
                if message is None:
                    continue
                if message.get("type") == "control_request":
                    self._control(proc, message)
                elif message.get("type") == "result":
                    _close(proc)
            proc.wait()
            ws.processes.reaped()
        finally:
            stop.set()
            _close(proc)
            if proc.poll() is None:
                self.abort(INTERRUPTED, INTERRUPTED)
                proc.wait()
            ws.processes.reaped()
            reader.join(timeout=5)
            if stopper is not None:
                stopper.discard(self)
            with self._abort_lock:
                ended = ws.processes.end(spare_workers=True)
                ended.ended = merge_descriptions(self._ended, ended.ended)
        return ExecResult(
            stdout="".join(lines),
            arrivals_ms=[ms for ms, line in zip(arrivals, lines) if line.strip()],
            stderr="".join(stderr_chunks),
            exit_code=proc.returncode,
            duration_ms=int((time.monotonic() - started) * 1000),
            timed_out=self.abort_kind == "timeout",
            argv=self.argv,
            interactions=self.interactions,
            infra_error="" if self.abort_kind == "timeout" else self.abort_reason,
            infra_kind="" if self.abort_kind == "timeout" else self.abort_kind,
            started_at=started_at,
            processes={**ended.to_dict(), "client_pid": proc.pid},
        )

    def _watch(self, deadline: float, watch: Callable[[], str] | None, stop: threading.Event) -> None:
        while not stop.wait(SERVER_PROBE_SECONDS):
            if time.monotonic() >= deadline:
                self.abort(f"timed out after {self.request.task.timeout:g}s", "timeout")
                return
            problem = watch() if watch is not None else ""
            if problem:
                self.abort(problem, "model-server")
                return

    def _control(self, proc: subprocess.Popen[str], message: dict[str, Any]) -> None:
        request_id = message.get("request_id")
        payload = message.get("request") if isinstance(message.get("request"), dict) else {}
        assert isinstance(payload, dict)
        if payload.get("subtype") == "can_use_tool":
            reply, interaction = answer_request(self.request, payload)
            self.interactions.append(interaction)
            response: dict[str, Any] = {"subtype": "success", "request_id": request_id, "response": reply}
        else:
            response = {"subtype": "error", "request_id": request_id, "error": f"unsupported request {payload.get('subtype')}"}
        self._send(proc, {"type": "control_response", "response": response})

    @staticmethod
    def _send(proc: subprocess.Popen[str], message: dict[str, Any]) -> None:
        if proc.stdin is None or proc.stdin.closed:
            return
        try:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass


def _close(proc: subprocess.Popen[str]) -> None:
    if proc.stdin is not None and not proc.stdin.closed:
        try:
            proc.stdin.close()
        except OSError:
            pass


def _json_or_none(line: str) -> dict[str, Any] | None:
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


#: The caller's XDG base directories: without them, programs of the run (the guard's witness
#: included) write under the run's own HOME instead of the caller's data and config.
XDG_BASE_VARIABLES = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR")


def base_environment() -> dict[str, str]:
    """This process's environment minus cf-guidance's own settings (GUIDANCE_*) and the XDG base
    directories, with the rate limit off and this installation's hook script first on PATH.

    The hooks under test must find their state in the workspace, not wherever the person
    running the suite pointed GUIDANCE_STATE_DIR or XDG_DATA_HOME; claude_env drops
    ANTHROPIC_* and CLAUDE*. A suite measures what the policy does to an agent, so the runtime
    tool-call rate limit (which a scripted model can exceed in a second) is not part of it.
    The workspace is wired as `cf-guidance init` wires a project (a portable command finding
    `cf-guidance-hook` on PATH), and its hooks must be the runner's own installation even when
    its venv is not active.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("GUIDANCE_") and k not in XDG_BASE_VARIABLES}
    env[RATE_BASE_ENV] = "0"
    scripts = hook_script_dir()
    if scripts:
        env["PATH"] = os.pathsep.join([scripts, *(p for p in env.get("PATH", "").split(os.pathsep) if p and p != scripts)])
    return env


def hook_script_dir() -> str:
    """The directory holding this installation's `cf-guidance-hook` ("" when none is found):
    beside the interpreter (a venv, pipx), or the scripts directory of its install scheme."""
    from cf_guidance.installer.wiring import TOOL

    candidates = [os.path.dirname(os.path.abspath(sys.executable)), sysconfig.get_path("scripts")]
    with contextlib.suppress(KeyError):
        candidates.append(sysconfig.get_path("scripts", f"{os.name}_user"))
    for directory in candidates:
        if directory and os.access(os.path.join(directory, TOOL), os.X_OK):
            return directory
    return ""


def claude_argv(binary: Path, task: Task) -> list[str]:
    argv = [
        str(binary), "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
        "--include-hook-events", "--permission-prompt-tool", "stdio", "--setting-sources", "project",
        "--strict-mcp-config", "--allowedTools", ",".join(task.allowed_tools or DEFAULT_ALLOWED_TOOLS),
    ]
    if task.max_turns is not None:
        argv += ["--max-turns", str(task.max_turns)]
    if task.model:
        argv += ["--model", task.model]
    return argv


def _masked(env: Mapping[str, str]) -> dict[str, str]:
    shown = {}
    for key, value in env.items():
        if key in AUTH_VARIABLES and value not in ("", "test"):
            value = "(set)"
        shown[key] = value
    return shown


class _ClaudeBase:
    name = "claude"

    def __init__(self, binary: Path | None = None) -> None:
        self._binary = binary

    def binary(self) -> Path:
        if self._binary is None:
            self._binary = find_claude()
        return self._binary

    def preflight(self) -> None:
        self.binary()

    def _reproduce_env(self, env: Mapping[str, str]) -> dict[str, str]:
        keep = {"HOME", "CLAUDE_CONFIG_DIR", "ANTHROPIC_BASE_URL", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
                "ENABLE_TOOL_SEARCH", "IS_SANDBOX", "TMPDIR", "CLAUDE_CODE_TMPDIR", *AUTH_VARIABLES}
        return _masked({k: v for k, v in env.items() if k in keep})


class ClaudeExecutor(_ClaudeBase):
    """The real client against the real API; needs ANTHROPIC_API_KEY (or an auth token)."""

    name = "claude"

    def preflight(self) -> None:
        super().preflight()
        if not any(os.environ.get(k) for k in AUTH_VARIABLES):
            raise RunnerError(f"the claude executor needs one of {', '.join(AUTH_VARIABLES)} in the environment")

    def execute(self, request: ExecRequest) -> ExecResult:
        ws = request.workspace
        base_url = os.environ.get("ANTHROPIC_BASE_URL", "https://api.anthropic.com")
        auth = {k: os.environ[k] for k in AUTH_VARIABLES if os.environ.get(k)}
        env = claude_env(base_url, ws.home, base=base_environment(), extra={**auth, **ws.run_env()})
        if "ANTHROPIC_API_KEY" not in auth:
            env.pop("ANTHROPIC_API_KEY", None)
        result = _ClaudeProcess(claude_argv(self.binary(), request.task), env, request).run(request.task.timeout)
        result.env = self._reproduce_env(env)
        return result


class ScriptedExecutor(_ClaudeBase):
    """The real client and hooks against a loopback model server replaying the task's script."""

    name = "scripted"

    def execute(self, request: ExecRequest) -> ExecResult:
        from cf_guidance.modelserver import ModelServer

        task, ws = request.task, request.workspace
        if task.script is None:
            raise RunnerError(f"task {task.id}: the scripted executor needs a script")
        log_path = ws.root / "model-server.jsonl"
        with ModelServer(script_for(task.script, ws), log_path=log_path) as server:
            env = claude_env(server.url, ws.home, base=base_environment(),
                             extra={"CLAUDE_CODE_MAX_RETRIES": "1", **ws.run_env()})
            process = _ClaudeProcess(claude_argv(self.binary(), task), env, request)
            url = server.url
            result = process.run(task.timeout, watch=lambda: _probe(url))
            result.server_log = [entry.to_dict() for entry in server.requests]
        result.env = self._reproduce_env(env)
        return result


def script_for(script: Script, workspace: Workspace) -> Script:
    """The script with every `${WORKSPACE}` replaced by the run's project path.

    File tools want absolute paths, and a suite cannot know where its workspace will be.
    """
    text = script.model_dump_json()
    if WORKSPACE_PLACEHOLDER not in text:
        return script
    path = json.dumps(str(workspace.project))[1:-1]
    return Script.model_validate_json(text.replace(WORKSPACE_PLACEHOLDER, path))


def _probe(url: str) -> str:
    """"" while the model server accepts connections, else why not."""
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=2):
            return ""
    except OSError as exc:
        return f"model server at {url} stopped answering mid-run ({exc.strerror or exc})"


#: responder(request) -> stream-json text (or a full ExecResult).
Responder = Callable[[ExecRequest], "str | ExecResult"]


class FakeExecutor:
    """No process: `responder` returns the stream-json a run would have printed.

    Without a responder, the task's script is replayed as if every tool ran with empty output
    (a dry run of a suite's plumbing: workspace, collection, assertions, reports).
    """

    name = "fake"

    def __init__(self, responder: Responder | None = None) -> None:
        self.responder = responder

    def preflight(self) -> None:
        return None

    def execute(self, request: ExecRequest) -> ExecResult:
        started = time.monotonic()
        answer = self.responder(request) if self.responder is not None else replay_script(request)
        if isinstance(answer, ExecResult):
            return answer
        return ExecResult(stdout=answer, duration_ms=int((time.monotonic() - started) * 1000), argv=["(fake)"])


def stream(
    *,
    session_id: str = "fake-session",
    cwd: str = "",
    turns: list[dict[str, Any]] | None = None,
    result_text: str = "done",
    is_error: bool = False,
    subtype: str = "success",
    cost_usd: float = 0.0,
    usage: dict[str, int] | None = None,
    extra_result: dict[str, Any] | None = None,
) -> str:
    """Build stream-json as the client prints it.

    Each turn: `{"text": str?, "tool_uses": [{"name", "input", "result"?, "is_error"?,
    "denied_by_hook"?: reason}]}`. A denied call gets the client's hook-error tool_result, a
    PreToolUse hook_started/hook_response pair and an entry in `permission_denials`.
    """
    out: list[dict[str, Any]] = [{"type": "system", "subtype": "init", "cwd": cwd, "session_id": session_id,
                                  "tools": ["Bash", "Write", "Edit", "Read"], "mcp_servers": [], "plugins": [],
                                  "model": "fake"}]
    denials = []
    for t_index, turn in enumerate(turns or []):
        if turn.get("text"):
            out.append(_assistant(session_id, {"type": "text", "text": turn["text"]}))
        for u_index, use in enumerate(turn.get("tool_uses", [])):
            use_id = f"toolu_{t_index}_{u_index}"
            out.append(_assistant(session_id, {"type": "tool_use", "id": use_id, "name": use["name"], "input": use.get("input", {})}))
            hook_id = f"hook_{use_id}"
            name = f"PreToolUse:{use['name']}"
            out.append({"type": "system", "subtype": "hook_started", "hook_id": hook_id, "hook_name": name, "hook_event": "PreToolUse"})
            reason = use.get("denied_by_hook")
            if reason:
                stdout = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                                            "permissionDecisionReason": reason}})
                out.append({"type": "system", "subtype": "hook_response", "hook_id": hook_id, "hook_name": name,
                            "hook_event": "PreToolUse", "stdout": stdout, "stderr": "", "exit_code": 0, "outcome": "success"})
                content, error = f"{name} hook error: {reason}", True
                denials.append({"tool_name": use["name"], "tool_use_id": use_id, "tool_input": use.get("input", {})})
            else:
                out.append({"type": "system", "subtype": "hook_response", "hook_id": hook_id, "hook_name": name,
                            "hook_event": "PreToolUse", "stdout": "", "stderr": "", "exit_code": 0, "outcome": "success"})
                content, error = str(use.get("result", "")), bool(use.get("is_error"))
            out.append({"type": "user", "session_id": session_id, "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": use_id, "content": content, "is_error": error}]}})
    if result_text:
        out.append(_assistant(session_id, {"type": "text", "text": result_text}))
    result: dict[str, Any] = {
        "type": "result", "subtype": subtype, "is_error": is_error, "result": result_text, "session_id": session_id,
        "num_turns": len(turns or []) + 1, "total_cost_usd": cost_usd, "duration_ms": 1,
        "usage": usage or {"input_tokens": 10, "output_tokens": 5}, "permission_denials": denials,
        "terminal_reason": "completed",
    }
    result.update(extra_result or {})
    out.append(result)
    return "".join(json.dumps(m) + "\n" for m in out)


def _assistant(session_id: str, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "assistant", "session_id": session_id, "message": {"role": "assistant", "content": [block]}}


def replay_script(request: ExecRequest) -> str:
    """Stream-json of the task's script as if every tool call ran and returned nothing."""
    turns: list[dict[str, Any]] = []
    final = "done"
    script = request.task.script
    for turn in script_for(script, request.workspace).turns if script is not None else []:
        uses = [{"name": use.name, "input": use.input} for use in turn.tool_uses]
        if uses:
            turns.append({"text": turn.text, "tool_uses": uses})
        elif turn.text:
            final = turn.text
    return stream(turns=turns, result_text=final, cwd=str(request.workspace.project))


def make_executor(name: str, *, binary: Path | None = None) -> Executor:
    if name == "claude":
        return ClaudeExecutor(binary)
    if name == "scripted":
        return ScriptedExecutor(binary)
    if name == "fake":
        return FakeExecutor()
    raise RunnerError(f"unknown executor {name!r}; use claude, scripted or fake")

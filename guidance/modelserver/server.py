"""A loopback HTTP server that answers the Anthropic Messages API from a script.

It lets the real Claude Code client run end to end, deterministically and offline: each
`POST /v1/messages` is answered with the scripted turn that follows the assistant turns
already in the conversation, as JSON or as an SSE stream. Every request is recorded with
the tool results the client sent back, which is how a test sees what the model was told
(for example the reason a hook gave for a denial). `POST /v1/responses` answers the same
script in the OpenAI Responses API, for the Codex CLI (`guidance.modelserver.responses`).
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from cf_guidance.errors import RunnerError
from cf_guidance.modelserver import anthropic, responses
from cf_guidance.modelserver.script import Script, load_script

HOST = "127.0.0.1"
MESSAGES_PATH = "/v1/messages"
COUNT_TOKENS_PATH = "/v1/messages/count_tokens"
#: OpenAI Responses API, as the Codex CLI calls it (base_url http://127.0.0.1:PORT/v1).
RESPONSES_PATH = "/v1/responses"
#: Model name claimed when neither the script nor the request names one.
DEFAULT_MODEL = "claude-sonnet-4-5"
#: Largest request body accepted (a long conversation with big tool outputs fits easily).
MAX_BODY_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class ToolResult:
    """A tool_result block the client sent: what the model was told about one tool call."""

    tool_use_id: str
    is_error: bool
    content: str


@dataclass(frozen=True)
class LoggedRequest:
    """One request as the server saw it.

    `tool_results` and `texts` are what the client added after the model's last turn:
    the tool results, and any other text (hook context, system reminders, the prompt).
    `conversation` is 0 for the scripted session, 1, 2, ... for others (see ModelServer).
    """

    method: str
    path: str
    status: int
    model: str | None = None
    messages: int = 0
    turn: int | None = None
    stream: bool = False
    tool_results: tuple[ToolResult, ...] = ()
    texts: tuple[str, ...] = ()
    conversation: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class ModelServer:
    """Serve `script` on 127.0.0.1 in a background thread; use as a context manager.

    `script` is a `Script`, its dict form, or the path of a YAML/JSON script file.
    `port=0` picks a free port. With `log_path`, each request is appended there as a
    JSON line (see `LoggedRequest`).

    The script plays the first conversation the server sees (the session's). Requests of
    any other conversation, told apart by their first user message (a subagent started by
    the Agent tool, a side request of the client), get the script's final text at once:
    replaying the session's tool calls there would repeat them in the wrong context.
    """

    def __init__(
        self,
        script: Script | Mapping[str, Any] | str | Path,
        *,
        port: int = 0,
        log_path: str | Path | None = None,
    ) -> None:
        if isinstance(script, Script):
            self.script = script
        elif isinstance(script, Mapping):
            self.script = Script.model_validate(dict(script))
        else:
            self.script = load_script(script)
        self._port = port
        self._log_path = Path(log_path) if log_path is not None else None
        self._lock = threading.Lock()
        self._requests: list[LoggedRequest] = []
        self._conversations: dict[str, int] = {}
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------

    def start(self) -> ModelServer:
        if self._httpd is not None:
            return self
        try:
            httpd = _HTTPServer((HOST, self._port), _Handler)
        except OSError as exc:
            raise RunnerError(
                f"model server cannot listen on {HOST}:{self._port} ({exc.strerror}); "
                "pick another --port or 0 for any free port"
            ) from None
        httpd.model_server = self
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"model-server-{httpd.server_address[1]}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, thread = self._httpd, self._thread
        self._httpd = self._thread = None
        if httpd is None:
            return
        httpd.shutdown()
        httpd.server_close()
        if thread is not None:
            thread.join()

    def wait(self) -> None:
        """Block until the server stops (KeyboardInterrupt still gets through)."""
        while self._thread is not None and self._thread.is_alive():
            self._thread.join(timeout=0.5)

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- what tests look at --------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RunnerError("the model server is not running; call start() or use `with`")
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """Base URL for ANTHROPIC_BASE_URL (no trailing slash, no /v1)."""
        return f"http://{HOST}:{self.port}"

    @property
    def requests(self) -> list[LoggedRequest]:
        with self._lock:
            return list(self._requests)

    def tool_results(self) -> list[ToolResult]:
        """Every tool result received, in order, once each (a client retry repeats them)."""
        seen: set[str] = set()
        results: list[ToolResult] = []
        for request in self.requests:
            for result in request.tool_results:
                if result.tool_use_id not in seen:
                    seen.add(result.tool_use_id)
                    results.append(result)
        return results

    def tool_result(self, tool_use_id: str) -> ToolResult:
        """The result the client sent for one tool call; RunnerError if none arrived."""
        for result in self.tool_results():
            if result.tool_use_id == tool_use_id:
                return result
        raise RunnerError(f"the model server received no tool_result for {tool_use_id}")

    # -- request handling (called from handler threads) ----------------------------------

    def _conversation(self, first_user_text: str) -> int:
        with self._lock:
            return self._conversations.setdefault(first_user_text, len(self._conversations))

    def _turn(self, conversation: int, assistant_turns: int) -> int:
        """The script turn answering: past the end (the final text) outside the session."""
        return assistant_turns if conversation == 0 else max(assistant_turns, len(self.script.turns))

    def _record(self, entry: LoggedRequest) -> None:
        with self._lock:
            self._requests.append(entry)
            if self._log_path is not None:
                with self._log_path.open("a", encoding="utf-8") as log:
                    log.write(json.dumps(entry.to_dict(), ensure_ascii=False) + "\n")

    def _answer(self, path: str, body: Mapping[str, Any]) -> tuple[bytes, str, LoggedRequest]:
        """The scripted answer to a Messages or Responses request: body, content type, record."""
        key = "messages" if path == MESSAGES_PATH else "input"
        items = body.get(key)
        if not isinstance(items, list):
            raise ValueError(f"`{key}` must be a list")
        stream = bool(body.get("stream"))
        model = self.script.model or _str_or_none(body.get("model")) or DEFAULT_MODEL
        input_tokens = max(1, len(json.dumps(body)) // 4)
        if path == MESSAGES_PATH:
            conversation = self._conversation(first_user_text(items))
            turn_index = self._turn(conversation, count_assistant_turns(items))
            turn = self.script.turn_for(turn_index)
            results, texts = new_client_content(items)
            answer = anthropic.build_message(turn, turn_index, model, input_tokens)
            rendered = anthropic.sse_stream(answer) if stream else None
        else:
            conversation = self._conversation(responses.first_user_text(items))
            turn_index = self._turn(conversation, responses.count_model_turns(items))
            turn = self.script.turn_for(turn_index)
            outputs, text_list = responses.new_client_items(items)
            # The Responses API has no error flag on a function_call_output.
            results = tuple(ToolResult(call_id, False, output) for call_id, output in outputs)
            texts = tuple(text_list)
            answer = responses.build_response(turn, turn_index, model, input_tokens)
            rendered = responses.sse_stream(answer) if stream else None
        entry = LoggedRequest(
            method="POST",
            path=path,
            status=200,
            model=_str_or_none(body.get("model")),
            messages=len(items),
            turn=turn_index,
            stream=stream,
            tool_results=results,
            texts=texts,
            conversation=conversation,
        )
        if rendered is not None:
            return rendered, "text/event-stream; charset=utf-8", entry
        return json.dumps(answer).encode("utf-8"), "application/json", entry


def count_assistant_turns(messages: list[Any]) -> int:
    """Assistant turns in a conversation; consecutive assistant messages count as one."""
    turns = 0
    previous = None
    for message in messages:
        role = message.get("role") if isinstance(message, dict) else None
        if role == "system":
            continue
        if role == "assistant" and previous != "assistant":
            turns += 1
        previous = role
    return turns


def first_user_text(messages: list[Any]) -> str:
    """The text of the first user message: what tells one conversation from another."""
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "user":
            return content_text(message.get("content"))
    return ""


def new_client_content(messages: list[Any]) -> tuple[tuple[ToolResult, ...], tuple[str, ...]]:
    """Tool results and texts the client sent after the model's last turn."""
    last_assistant = -1
    for index, message in enumerate(messages):
        if isinstance(message, dict) and message.get("role") == "assistant":
            last_assistant = index
    results: list[ToolResult] = []
    texts: list[str] = []
    for message in messages[last_assistant + 1 :]:
        if not isinstance(message, dict):
            continue
        for block in _blocks(message.get("content")):
            if block.get("type") == "tool_result":
                results.append(
                    ToolResult(
                        tool_use_id=str(block.get("tool_use_id", "")),
                        is_error=bool(block.get("is_error", False)),
                        content=content_text(block.get("content")),
                    )
                )
            elif block.get("type") == "text":
                texts.append(str(block.get("text", "")))
    return tuple(results), tuple(texts)


def content_text(content: Any) -> str:
    """The text of a message or tool_result content (a string or a list of blocks)."""
    if isinstance(content, str):
        return content
    return "\n".join(
        str(block.get("text", "")) for block in _blocks(content) if block.get("type") == "text"
    )


def _blocks(content: Any) -> Iterable[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [block for block in content if isinstance(block, dict)]
    return []


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    model_server: ModelServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up mid-answer is normal (a killed run); anything else is shown."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    # HTTP/1.1 keeps the client's connection alive across turns; every answer has a length.
    protocol_version = "HTTP/1.1"
    server: _HTTPServer

    def do_POST(self) -> None:
        path = urlsplit(self.path).path.rstrip("/")
        try:
            body = self._read_json()
        except ValueError as exc:
            self._fail(400, f"invalid request body: {exc}", path)
            return
        owner = self.server.model_server
        if path in (MESSAGES_PATH, RESPONSES_PATH):
            try:
                payload, content_type, entry = owner._answer(path, body)
            except ValueError as exc:
                self._fail(400, str(exc), path)
                return
            owner._record(entry)
            self._send(200, payload, content_type)
        elif path == COUNT_TOKENS_PATH:
            owner._record(LoggedRequest(method="POST", path=path, status=200))
            self._send_json(200, {"input_tokens": max(1, len(json.dumps(body)) // 4)})
        else:
            self._fail(404, f"no such endpoint: POST {path}", path)

    def do_GET(self) -> None:
        self._not_found()

    def do_PUT(self) -> None:
        self._not_found()

    def do_DELETE(self) -> None:
        self._not_found()

    def do_PATCH(self) -> None:
        self._not_found()

    def do_HEAD(self) -> None:
        self._drain()
        path = urlsplit(self.path).path
        self.server.model_server._record(LoggedRequest(method="HEAD", path=path, status=404))
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _not_found(self) -> None:
        self._drain()
        path = urlsplit(self.path).path
        self._fail(404, f"no such endpoint: {self.command} {path}", path)

    def _fail(self, status: int, message: str, path: str) -> None:
        self.server.model_server._record(
            LoggedRequest(method=self.command, path=path, status=status)
        )
        self._send_json(status, anthropic.error_body(status, message))

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._read_chunked()
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            raise ValueError(f"body of {length} bytes exceeds {MAX_BODY_BYTES}")
        return self.rfile.read(length) if length > 0 else b""

    def _read_chunked(self) -> bytes:
        data = bytearray()
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while self.rfile.readline().strip():  # trailers
                    pass
                return bytes(data)
            data += self.rfile.read(size)
            self.rfile.readline()
            if len(data) > MAX_BODY_BYTES:
                raise ValueError(f"body exceeds {MAX_BODY_BYTES} bytes")

    def _read_json(self) -> dict[str, Any]:
        try:
            data = json.loads(self._read_body() or b"null")
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        return data

    def _drain(self) -> None:
        try:
            self._read_body()
        except ValueError:
            self.close_connection = True

    def _send_json(self, status: int, payload: Mapping[str, Any]) -> None:
        self._send(status, json.dumps(payload).encode("utf-8"), "application/json")

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default per-request stderr line; requests are recorded instead."""

"""The server over real HTTP: JSON and SSE answers, turn choice, recording, errors, shutdown."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.errors import RunnerError
from cf_guidance.modelserver import ModelServer, ToolResult
from cf_guidance.modelserver.server import count_assistant_turns

SCRIPT = {
    "turns": [
        {"tool_uses": [{"name": "Bash", "input": {"command": "rm -rf victim"}}]},
        {
            "text": "Now two calls.",
            "tool_uses": [
                {"name": "Read", "input": {"file_path": ".env"}},
                {"name": "Write", "input": {"file_path": "x" * 200, "content": "é\n" * 50}},
            ],
        },
        {"text": "done"},
    ]
}

USER = {"role": "user", "content": "go"}


def _assistant(turn: int) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{turn}_0",
                                              "name": "Bash", "input": {}}]}


def _results(turn: int, text: str, is_error: bool = False) -> dict[str, Any]:
    return {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{turn}_0", "is_error": is_error,
             "content": [{"type": "text", "text": text}]},
            {"type": "text", "text": "hook context"},
        ],
    }


def _post(url: str, path: str, body: Any, raw: bytes | None = None) -> tuple[int, str, bytes]:
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    payload = raw if raw is not None else json.dumps(body).encode()
    conn.request("POST", path, body=payload, headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, response.getheader("Content-Type") or "", data


def parse_sse(data: bytes) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for chunk in data.decode("utf-8").split("\n\n"):
        if not chunk.strip():
            continue
        lines = dict(line.split(": ", 1) for line in chunk.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def assemble(events: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Rebuild the Message from its stream, the way a client does."""
    message: dict[str, Any] = {}
    partial: dict[int, str] = {}
    for name, data in events:
        assert data["type"] == name
        if name == "message_start":
            message = data["message"]
        elif name == "content_block_start":
            assert data["index"] == len(message["content"])
            message["content"].append(data["content_block"])
        elif name == "content_block_delta":
            block = message["content"][data["index"]]
            delta = data["delta"]
            if delta["type"] == "text_delta":
                block["text"] += delta["text"]
            else:
                assert delta["type"] == "input_json_delta"
                partial[data["index"]] = partial.get(data["index"], "") + delta["partial_json"]
        elif name == "content_block_stop":
            if data["index"] in partial:
                message["content"][data["index"]]["input"] = json.loads(partial[data["index"]])
        elif name == "message_delta":
            message["stop_reason"] = data["delta"]["stop_reason"]
            message["usage"]["output_tokens"] = data["usage"]["output_tokens"]
    return message


@pytest.fixture
def server(tmp_path: Path) -> Any:
    with ModelServer(SCRIPT, log_path=tmp_path / "log.jsonl") as running:
        yield running


@pytest.mark.parametrize(
    ("messages", "turn", "stop_reason", "blocks"),
    [
        ([USER], 0, "tool_use", [("tool_use", "toolu_0_0")]),
        ([USER, _assistant(0), _results(0, "ok")], 1, "tool_use",
         [("text", None), ("tool_use", "toolu_1_0"), ("tool_use", "toolu_1_1")]),
        ([USER, _assistant(0), _results(0, "ok"), _assistant(1), _results(1, "ok")], 2,
         "end_turn", [("text", None)]),
        ([USER] + [_assistant(0), _results(0, "ok")] * 7, 7, "end_turn", [("text", None)]),
    ],
)
@pytest.mark.parametrize("stream", [False, True])
def test_answers_the_turn_after_the_conversation(
    server: ModelServer,
    messages: list[dict[str, Any]],
    turn: int,
    stop_reason: str,
    blocks: list[tuple[str, str | None]],
    stream: bool,
) -> None:
    body = {"model": "claude-x", "max_tokens": 100, "messages": messages, "stream": stream}
    status, ctype, data = _post(server.url, "/v1/messages?beta=true", body)
    assert status == 200
    if stream:
        assert ctype.startswith("text/event-stream")
        events = parse_sse(data)
        names = [name for name, _ in events]
        assert names[:2] == ["message_start", "ping"]
        assert names[-2:] == ["message_delta", "message_stop"]
        message = assemble(events)
    else:
        assert ctype.startswith("application/json")
        message = json.loads(data)
    assert message["stop_reason"] == stop_reason
    assert message["model"] == "claude-x"
    assert [(b["type"], b.get("id")) for b in message["content"]] == blocks
    assert server.requests[-1].turn == turn


def test_stream_and_json_carry_the_same_message(server: ModelServer) -> None:
    messages = [USER, _assistant(0), _results(0, "ok")]
    _, _, plain = _post(server.url, "/v1/messages", {"messages": messages})
    _, _, streamed = _post(server.url, "/v1/messages", {"messages": messages, "stream": True})
    events = parse_sse(streamed)
    # Long inputs arrive in several deltas, as from the real API.
    assert sum(1 for name, d in events if d.get("delta", {}).get("type") == "input_json_delta") > 3
    streamed_message, plain_message = assemble(events), json.loads(plain)
    # The streamed request body is longer ("stream": true), so its input estimate differs.
    streamed_message["usage"].pop("input_tokens")
    plain_message["usage"].pop("input_tokens")
    assert streamed_message == plain_message


def test_records_tool_results_and_texts(server: ModelServer, tmp_path: Path) -> None:
    first = [USER, _assistant(0), _results(0, "PreToolUse:Bash hook error: [G001] no", True)]
    _post(server.url, "/v1/messages", {"model": "m", "messages": first})
    _post(server.url, "/v1/messages", {"model": "m", "messages": first})  # a client retry
    second = first + [_assistant(1), _results(1, "fine")]
    _post(server.url, "/v1/messages", {"model": "m", "messages": second})
    denied = ToolResult("toolu_0_0", True, "PreToolUse:Bash hook error: [G001] no")
    assert server.tool_results() == [denied, ToolResult("toolu_1_0", False, "fine")]
    assert server.tool_result("toolu_0_0") == denied
    with pytest.raises(RunnerError, match="toolu_9_9"):
        server.tool_result("toolu_9_9")
    assert [r.turn for r in server.requests] == [1, 1, 2]
    assert server.requests[0].texts == ("hook context",)
    logged = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert len(logged) == 3
    assert logged[0]["path"] == "/v1/messages"
    assert logged[0]["model"] == "m"
    assert logged[0]["messages"] == 3
    assert logged[0]["tool_results"] == [
        {"tool_use_id": "toolu_0_0", "is_error": True,
         "content": "PreToolUse:Bash hook error: [G001] no"}
    ]


def test_count_tokens(server: ModelServer) -> None:
    status, _, data = _post(server.url, "/v1/messages/count_tokens", {"messages": [USER]})
    assert status == 200
    assert json.loads(data)["input_tokens"] > 0


@pytest.mark.parametrize(
    ("method", "path", "raw", "status", "kind"),
    [
        ("GET", "/v1/messages", None, 404, "not_found_error"),
        ("POST", "/v1/complete", b"{}", 404, "not_found_error"),
        ("GET", "/v1/models", None, 404, "not_found_error"),
        ("POST", "/v1/messages", b"not json", 400, "invalid_request_error"),
        ("POST", "/v1/messages", b"[1, 2]", 400, "invalid_request_error"),
        ("POST", "/v1/messages", b'{"messages": "no"}', 400, "invalid_request_error"),
        ("POST", "/v1/messages", b"\xff\xfe", 400, "invalid_request_error"),
    ],
)
def test_errors_are_json(
    server: ModelServer, method: str, path: str, raw: bytes | None, status: int, kind: str
) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.request(method, path, body=raw)
    response = conn.getresponse()
    assert response.status == status
    assert json.loads(response.read())["error"]["type"] == kind
    assert server.requests[-1].status == status


def test_chunked_request_body(server: ModelServer) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    body = json.dumps({"messages": [USER]}).encode()
    # An iterable body without a length makes http.client send it chunked.
    conn.request("POST", "/v1/messages", body=iter([body[:7], body[7:]]))
    assert json.loads(conn.getresponse().read())["content"][0]["id"] == "toolu_0_0"


def test_keep_alive_and_concurrent_clients(server: ModelServer) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    for _ in range(3):  # one connection, several requests
        conn.request("POST", "/v1/messages", body=json.dumps({"messages": [USER]}))
        assert conn.getresponse().read()
    errors: list[BaseException] = []

    def client() -> None:
        try:
            _post(server.url, "/v1/messages", {"messages": [USER], "stream": True})
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=client) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(server.requests) == 11


def test_model_from_script_wins() -> None:
    with ModelServer({"model": "claude-scripted", "turns": [{"text": "hi"}]}) as server:
        _, _, data = _post(server.url, "/v1/messages", {"model": "asked", "messages": [USER]})
    assert json.loads(data)["model"] == "claude-scripted"


def test_script_file_and_lifecycle(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("turns:\n  - text: hello\n")
    server = ModelServer(path)
    with pytest.raises(RunnerError, match="not running"):
        server.url
    with server:
        url = server.url
        assert url.startswith("http://127.0.0.1:")
    server.stop()  # idempotent
    port = int(url.rsplit(":", 1)[1])
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass


def test_port_in_use_is_a_runner_error() -> None:
    with ModelServer({"turns": [{"text": "a"}]}) as first:
        with pytest.raises(RunnerError, match="cannot listen"):
            ModelServer({"turns": [{"text": "b"}]}, port=first.port).start()


@pytest.mark.parametrize(
    ("roles", "expected"),
    [
        ([], 0),
        (["user"], 0),
        (["user", "assistant", "user"], 1),
        (["user", "assistant", "assistant", "user"], 1),
        (["user", "assistant", "system", "assistant", "user"], 1),
        (["user", "assistant", "user", "system", "assistant", "user"], 2),
    ],
)
def test_count_assistant_turns(roles: list[str], expected: int) -> None:
    assert count_assistant_turns([{"role": role, "content": ""} for role in roles]) == expected


def test_other_conversations_get_the_final_text(server: ModelServer) -> None:
    """A subagent (another first user message) must not replay the session's tool calls."""
    _post(server.url, "/v1/messages", {"messages": [USER]})
    subagent = {"role": "user", "content": "list the files"}
    _, _, data = _post(server.url, "/v1/messages", {"messages": [subagent]})
    assert json.loads(data)["content"] == [{"type": "text", "text": "done"}]
    _, _, data = _post(server.url, "/v1/messages", {"messages": [USER, _assistant(0), _results(0, "ok")]})
    assert json.loads(data)["content"][1]["id"] == "toolu_1_0"  # the session goes on
    assert [(r.conversation, r.turn) for r in server.requests] == [(0, 0), (1, 3), (0, 1)]

"""The Responses API side (Codex): turn choice, the shell tool's shape, outputs recorded, SSE."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest

from cf_guidance.modelserver import ModelServer, ToolResult
from cf_guidance.modelserver.responses import count_model_turns

SCRIPT = {
    "turns": [
        {"tool_uses": [{"name": "Bash", "input": {"command": "rm -r victim"}}]},
        {"tool_uses": [{"name": "mcp__srv__tool", "input": {"q": 1}}]},
        {"text": "DONE"},
    ]
}
USER = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]}


def _call(turn: int) -> dict[str, Any]:
    return {"type": "function_call", "call_id": f"toolu_{turn}_0", "name": "exec_command",
            "arguments": "{}"}


def _output(turn: int, text: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": f"toolu_{turn}_0", "output": text}


def _post(server: ModelServer, body: dict[str, Any]) -> tuple[str, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("POST", "/v1/responses", body=json.dumps(body))
    response = conn.getresponse()
    assert response.status == 200
    return response.getheader("Content-Type") or "", response.read()


def _events(data: bytes) -> list[dict[str, Any]]:
    events = []
    for chunk in data.decode().split("\n\n"):
        if chunk.strip():
            name_line, data_line = chunk.splitlines()
            event = json.loads(data_line.removeprefix("data: "))
            assert name_line == f"event: {event['type']}"
            events.append(event)
    return events


def test_shell_call_is_codex_exec_command() -> None:
    with ModelServer(SCRIPT) as server:
        _, data = _post(server, {"model": "gpt-5.5", "input": [USER], "stream": False})
    (item,) = json.loads(data)["output"]
    assert item["type"] == "function_call"
    assert (item["name"], item["call_id"]) == ("exec_command", "toolu_0_0")
    assert json.loads(item["arguments"]) == {"cmd": "rm -r victim"}


def test_apply_patch_is_codex_freeform_tool_call() -> None:
    patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n"
    script = {"turns": [{"tool_uses": [{"name": "apply_patch", "input": {"input": patch}}]}, {"text": "DONE"}]}
    with ModelServer(script) as server:
        _, data = _post(server, {"model": "gpt-5.5", "input": [USER], "stream": False})
    (item,) = json.loads(data)["output"]
    assert (item["type"], item["name"], item["call_id"], item["input"]) == ("custom_tool_call", "apply_patch", "toolu_0_0", patch)


def test_stream_and_records() -> None:
    blocked = "Command blocked by PreToolUse hook: [DST010] no. Command: rm -r victim"
    with ModelServer(SCRIPT) as server:
        conversation = [USER, _call(0), _output(0, blocked)]
        ctype, data = _post(server, {"model": "gpt-5.5", "input": conversation, "stream": True})
        assert ctype.startswith("text/event-stream")
        events = _events(data)
        assert [e["type"] for e in events] == [
            "response.created", "response.output_item.added", "response.output_item.done",
            "response.completed",
        ]
        assert [e["sequence_number"] for e in events] == [0, 1, 2, 3]
        item = events[2]["item"]
        assert (item["name"], json.loads(item["arguments"])) == ("mcp__srv__tool", {"q": 1})
        assert events[-1]["response"]["output"] == [item]
        conversation += [_call(1), _output(1, "ok")]
        _, data = _post(server, {"input": conversation, "stream": True})
        message = _events(data)[2]["item"]
        assert message["content"][0] == {"type": "output_text", "text": "DONE", "annotations": []}
        assert server.tool_results() == [
            ToolResult("toolu_0_0", False, blocked), ToolResult("toolu_1_0", False, "ok")
        ]
        assert [r.turn for r in server.requests] == [1, 2]
        assert server.requests[0].path == "/v1/responses"


def test_bad_input_is_400() -> None:
    with ModelServer(SCRIPT) as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("POST", "/v1/responses", body=json.dumps({"input": "text"}))
        response = conn.getresponse()
        assert response.status == 400
        assert "`input` must be a list" in json.loads(response.read())["error"]["message"]


@pytest.mark.parametrize(
    ("kinds", "expected"),
    [
        (["user"], 0),
        (["user", "function_call", "function_call_output"], 1),
        (["user", "reasoning", "function_call", "function_call", "function_call_output",
          "function_call_output"], 1),
        (["user", "function_call", "function_call_output", "assistant", "user"], 2),
    ],
)
def test_count_model_turns(kinds: list[str], expected: int) -> None:
    items: list[dict[str, Any]] = []
    for kind in kinds:
        if kind in ("user", "assistant"):
            items.append({"type": "message", "role": kind, "content": []})
        else:
            items.append({"type": kind})
    assert count_model_turns(items) == expected

"""Anthropic Messages API answers: the Message object and its SSE stream.

The stream has the event sequence the real API sends, so the real client parses it the
way it parses production traffic: message_start, ping, then per content block
content_block_start / content_block_delta (text_delta or input_json_delta) /
content_block_stop, then message_delta (stop_reason and usage) and message_stop.
"""

from __future__ import annotations

import json
from typing import Any

from cf_guidance.modelserver.script import Turn

#: Characters per streamed delta: small enough that the client has to join several.
DELTA_CHARS = 64


def tool_use_id(turn_index: int, position: int) -> str:
    """Deterministic id of the `position`-th tool call of turn `turn_index`."""
    return f"toolu_{turn_index}_{position}"


def build_message(turn: Turn, turn_index: int, model: str, input_tokens: int) -> dict[str, Any]:
    """The complete Message object answering with `turn`."""
    content: list[dict[str, Any]] = []
    if turn.text:
        content.append({"type": "text", "text": turn.text})
    for position, call in enumerate(turn.tool_uses):
        content.append(
            {
                "type": "tool_use",
                "id": tool_use_id(turn_index, position),
                "name": call.name,
                "input": call.input,
            }
        )
    output_tokens = max(1, len(json.dumps(content)) // 4)
    return {
        "id": f"msg_scripted_{turn_index:04d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if turn.tool_uses else "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": input_tokens,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": output_tokens,
        },
    }


def sse_stream(message: dict[str, Any]) -> bytes:
    """The `text/event-stream` body that streams `message`."""
    events: list[tuple[str, dict[str, Any]]] = []
    start = dict(message, content=[], stop_reason=None, stop_sequence=None)
    start["usage"] = dict(message["usage"], output_tokens=1)
    events.append(("message_start", {"type": "message_start", "message": start}))
    events.append(("ping", {"type": "ping"}))
    for index, block in enumerate(message["content"]):
        events.extend(_block_events(index, block))
    events.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": message["usage"]["output_tokens"]},
            },
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return "".join(
        f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
        for name, data in events
    ).encode("utf-8")


def _block_events(index: int, block: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    if block["type"] == "text":
        opening: dict[str, Any] = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": part} for part in _chunks(block["text"])]
    else:
        opening = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
        encoded = json.dumps(block["input"], separators=(",", ":"))
        # The real API opens a tool call with an empty partial_json, then the argument text.
        deltas = [{"type": "input_json_delta", "partial_json": ""}]
        deltas += [{"type": "input_json_delta", "partial_json": p} for p in _chunks(encoded)]
    events: list[tuple[str, dict[str, Any]]] = [
        (
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": opening},
        )
    ]
    events += [
        ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        for delta in deltas
    ]
    events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    return events


def _chunks(text: str) -> list[str]:
    return [text[i : i + DELTA_CHARS] for i in range(0, len(text), DELTA_CHARS)] or [""]


def error_body(status: int, message: str) -> dict[str, Any]:
    """An Anthropic-shaped error object."""
    kinds = {400: "invalid_request_error", 404: "not_found_error", 500: "api_error"}
    return {"type": "error", "error": {"type": kinds.get(status, "api_error"), "message": message}}

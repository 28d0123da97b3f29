"""OpenAI Responses API answers, for driving the Codex CLI (reference/codex-e2e.md).

Codex 0.169 offers its shell as a function tool named `exec_command` taking `{"cmd": ...}`,
and reaches hooks as tool `Bash` with `tool_input.command`. A script's `Bash` call is
therefore sent as `exec_command`. Its file editor, `apply_patch`, is a freeform (custom) tool
whose input is the patch text: a script's `apply_patch` call with `{"input": PATCH}` is sent
as a `custom_tool_call`. Any other tool name is sent as a function call of that name with the
scripted input as its arguments. Call ids are the same `toolu_<turn>_<i>` as
on the Anthropic side, so a test looks results up the same way for both agents.
"""

from __future__ import annotations

import json
from typing import Any

from cf_guidance.modelserver.anthropic import tool_use_id
from cf_guidance.modelserver.script import ToolUse, Turn

#: Codex's shell tool.
CODEX_SHELL_TOOL = "exec_command"
#: Codex's file editor: a freeform tool that takes the patch text itself.
CODEX_PATCH_TOOL = "apply_patch"
#: Input item types produced by the model (a run of them is one assistant turn).
_MODEL_ITEMS = frozenset({"function_call", "custom_tool_call", "local_shell_call", "reasoning"})
_OUTPUT_ITEMS = frozenset({"function_call_output", "custom_tool_call_output"})


def _is_model_item(item: Any) -> bool:
    if not isinstance(item, dict):
        return False
    kind = item.get("type", "message")
    return kind in _MODEL_ITEMS or (kind == "message" and item.get("role") == "assistant")


def count_model_turns(items: list[Any]) -> int:
    """Assistant turns in a Responses `input`: runs of model-produced items."""
    turns = 0
    previous = False
    for item in items:
        current = _is_model_item(item)
        if current and not previous:
            turns += 1
        previous = current
    return turns


def first_user_text(items: list[Any]) -> str:
    """The text of the first user message item: what tells one conversation from another."""
    for item in items:
        if isinstance(item, dict) and item.get("type", "message") == "message":
            if item.get("role") == "user":
                return _text(item.get("content"))
    return ""


def new_client_items(items: list[Any]) -> tuple[list[tuple[str, str]], list[str]]:
    """(call_id, output) pairs and texts the client sent after the model's last turn."""
    last = -1
    for index, item in enumerate(items):
        if _is_model_item(item):
            last = index
    outputs: list[tuple[str, str]] = []
    texts: list[str] = []
    for item in items[last + 1 :]:
        if not isinstance(item, dict):
            continue
        kind = item.get("type", "message")
        if kind in _OUTPUT_ITEMS:
            outputs.append((str(item.get("call_id", "")), _text(item.get("output"))))
        elif kind == "message":
            texts.append(_text(item.get("content")))
    return outputs, texts


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(
            str(part.get("text", "")) for part in value if isinstance(part, dict) and "text" in part
        )
    return "" if value is None else json.dumps(value)


def _function_call(call: ToolUse, call_id: str) -> dict[str, Any]:
    patch = call.input.get("input")
    if call.name == CODEX_PATCH_TOOL and isinstance(patch, str):
        return {"type": "custom_tool_call", "id": f"ctc_{call_id}", "call_id": call_id, "name": call.name,
                "input": patch, "status": "completed"}
    if call.name == "Bash" and "command" in call.input:
        name, arguments = CODEX_SHELL_TOOL, {"cmd": call.input["command"]}
    else:
        name, arguments = call.name, call.input
    return {
        "type": "function_call",
        "id": f"fc_{call_id}",
        "call_id": call_id,
        "name": name,
        "arguments": json.dumps(arguments),
        "status": "completed",
    }


def build_response(turn: Turn, turn_index: int, model: str, input_tokens: int) -> dict[str, Any]:
    """The complete Response object answering with `turn`."""
    output: list[dict[str, Any]] = []
    if turn.text:
        output.append(
            {
                "type": "message",
                "id": f"msg_scripted_{turn_index:04d}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
            }
        )
    for position, call in enumerate(turn.tool_uses):
        output.append(_function_call(call, tool_use_id(turn_index, position)))
    output_tokens = max(1, len(json.dumps(output)) // 4)
    return {
        "id": f"resp_scripted_{turn_index:04d}",
        "object": "response",
        "status": "completed",
        "model": model,
        "output": output,
        "usage": {
            "input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + output_tokens,
        },
    }


def sse_stream(response: dict[str, Any]) -> bytes:
    """The event stream: response.created, each output item added and done, response.completed."""
    created = dict(response, status="in_progress", output=[])
    created.pop("usage")
    events: list[dict[str, Any]] = [{"type": "response.created", "response": created}]
    for index, item in enumerate(response["output"]):
        events.append({"type": "response.output_item.added", "output_index": index, "item": item})
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    events.append({"type": "response.completed", "response": response})
    for number, event in enumerate(events):
        event["sequence_number"] = number
    return "".join(
        f"event: {e['type']}\ndata: {json.dumps(e, separators=(',', ':'))}\n\n" for e in events
    ).encode("utf-8")

"""Bad input never makes a traceback: a protocol-correct answer by the fail mode, one line on stderr.

Random and mutated payloads (seeded, so a failure reproduces) go through the real entrypoint
in-process; a handful of the worst go through the wired launcher as whole processes.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cf_guidance.errors import EventError
from cf_guidance.event import normalise
from cf_guidance.hooks import dispatch, protocol
from cf_guidance.limits import MAX_EVENT_BYTES

from .conftest import HookRunner

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "hooks" / "launcher.py"
CLOSED = {"GUIDANCE_EVENT_FAIL_CLOSED": "1"}
TEN_MB = 10 * 1024 * 1024

SEEDS: list[tuple[str, dict[str, Any]]] = [
    ("pre-bash", {"session_id": "s", "cwd": "/", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                  "tool_input": {"command": "git status && rm -rf build"}, "tool_use_id": "t"}),
    ("pre-edit", {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Edit",
                  "tool_input": {"file_path": "a.py", "old_string": "a", "new_string": "b", "replace_all": False}}),
    ("pre-edit", {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "MultiEdit",
                  "tool_input": {"file_path": "a.py", "edits": [{"old_string": "a", "new_string": "b"}]}}),
    ("pre-edit", {"turn_id": "t", "hook_event_name": "PreToolUse", "tool_name": "apply_patch",
                  "tool_input": {"command": "*** Begin Patch\n*** Update File: a.py\n-a\n+b\n*** End Patch"}}),
    ("pre-read", {"hook_event_name": "PreToolUse", "tool_name": "Grep", "tool_input": {"pattern": "x", "path": ".", "glob": "*.env"}}),
    ("pre-task", {"hook_event_name": "PreToolUse", "tool_name": "Agent", "tool_input": {"prompt": "do it", "description": "d"}}),
    ("pre-tool", {"hook_event_name": "PreToolUse", "tool_name": "mcp__srv__run", "tool_input": {"q": [1, 2]},
                  "mcp_server": {"name": "srv", "source": "dynamic"}}),
    ("pre-tool", {"hook_event_name": "PreToolUse", "tool_name": "WebFetch", "tool_input": {"url": "https://x", "prompt": "p"}}),
    ("post-bash", {"session_id": "s", "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "make test"},
                   "tool_response": {"stdout": "ok", "stderr": "", "interrupted": False}, "duration_ms": 5}),
    ("post-failure", {"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "error": "Exit code 3", "is_interrupt": False}),
    ("user-prompt", {"hook_event_name": "UserPromptSubmit", "prompt": "fix the bug"}),
    ("session-restore", {"hook_event_name": "SessionStart", "source": "startup"}),
    ("stop", {"hook_event_name": "Stop", "stop_hook_active": False, "last_assistant_message": "done"}),
]
EVENT_OF = {name: command.hook_event for name, command in dispatch.COMMANDS.items()}
JUNK_VALUES: list[Any] = [None, 0, -1, 2**70, 1.5, True, "", "x" * 5000, "\u202e\u0000\ud7ff", [], {}, [None], {"a": {"b": []}}]


def _mutate(rng: random.Random, payload: dict[str, Any]) -> bytes:
    """One random mutation of a valid payload, as the bytes a hook would read."""
    value = json.loads(json.dumps(payload))
    choice = rng.randrange(10)
    if choice == 0 and value:
        del value[rng.choice(sorted(value))]
    elif choice == 1:
        value[rng.choice(sorted(value) or ["k"])] = rng.choice(JUNK_VALUES)
    elif choice == 2 and isinstance(value.get("tool_input"), dict) and value["tool_input"]:
        value["tool_input"][rng.choice(sorted(value["tool_input"]))] = rng.choice(JUNK_VALUES)
    elif choice == 3:
        value["tool_name"] = rng.choice(["", "Nope", "mcp__", "bash", "Task", "apply_patch", "x" * 300])
    elif choice == 4:
        value["hook_event_name"] = rng.choice(["", "Nope", "PostToolUse", "PreToolUse", 7])
    elif choice == 5:
        return json.dumps([value]).encode()
    data = json.dumps(value, ensure_ascii=rng.random() < 0.5).encode()
    if choice == 6:
        return data[: rng.randrange(len(data))]
    if choice == 7:
        at = rng.randrange(len(data))
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    if choice == 8:
        at = rng.randrange(len(data))
        return data[:at] + b"\xff\xfe\xc0" + data[at:]
    return data


def _cases() -> list[tuple[str, bytes]]:
    rng = random.Random(20261121)
    cases: list[tuple[str, bytes]] = []
    for name, payload in SEEDS:
        cases.append((name, json.dumps(payload).encode()))
        for _ in range(25):
            cases.append((name, _mutate(rng, payload)))
    for raw in (b"", b"   \n", b"null", b"[]", b"42", b'"str"', b"{", b"NaN", b'{"a": NaN}', b"\xff\xfe", b"\x00" * 10,
                b"[" * 100_000 + b"]" * 100_000, b'{"tool_name": "Bash", "tool_input": {"command": 5}}',
                b'{"tool_name": "Bash", "tool_input": "rm -rf /"}', b'{"tool_name": ["Bash"]}', b'{"a": 1} {"b": 2}'):
        cases.append(("pre-bash", raw))
        cases.append(("post-edit", raw))
    return cases


def _is_bad(name: str, data: bytes) -> bool:
    """Independently of the hook: is this input unusable for this command?"""
    try:
        payload = json.loads(data.decode("utf-8"), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return True
    if not isinstance(payload, dict) or not data.strip():
        return True
    if payload.get("hook_event_name") not in (None, EVENT_OF[name]):
        return True
    if dispatch.COMMANDS[name].kind == dispatch.PRE:
        try:
            normalise(payload)
        except EventError:
            return True
    return False


def assert_protocol_correct(name: str, answer: protocol.Answer, *, fail_closed: bool, bad: bool) -> None:
    assert "Traceback" not in answer.stderr
    assert answer.exit_code in (0, 2), answer
    lines = answer.stderr.splitlines()
    assert len(lines) == (1 if bad else 0), answer
    if answer.exit_code == 2:
        assert answer.stdout == "" and lines, "exit 2 needs stderr: Codex ignores a silent exit 2"
    out: dict[str, Any] = {}
    if answer.stdout:
        out = json.loads(answer.stdout)
        assert isinstance(out, dict) and set(out) <= {"systemMessage", "hookSpecificOutput"}, out
    specific = out.get("hookSpecificOutput")
    if specific is not None:
        assert specific["hookEventName"] == EVENT_OF[name]
        assert specific.get("permissionDecision") in (None, "deny", "ask"), "never emit allow"
    denied = answer.exit_code == 2 or (specific or {}).get("permissionDecision") == "deny"
    if bad and dispatch.COMMANDS[name].kind == dispatch.PRE:
        assert denied == fail_closed, answer
        if not fail_closed:
            assert out.get("systemMessage"), "fail-open must be visible"
    if dispatch.COMMANDS[name].kind != dispatch.PRE:
        assert not denied and answer.exit_code == 0


@pytest.mark.parametrize("env", [{}, CLOSED], ids=["fail-open", "fail-closed"])
def test_random_and_mutated_payloads(hook: HookRunner, env: dict[str, str]) -> None:
    for name, data in _cases():
        answer = hook(name, data, **env)
        assert_protocol_correct(name, answer, fail_closed=bool(env), bad=_is_bad(name, data))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)
event_like = st.fixed_dictionaries(
    {"hook_event_name": st.sampled_from(["PreToolUse", "PostToolUse", "Nope"]) | json_values},
    optional={"tool_name": st.sampled_from(["Bash", "Write", "Edit", "Read", "Glob", "Agent", "apply_patch", "mcp__a__b"]) | json_values,
              "tool_input": st.dictionaries(st.sampled_from(["command", "file_path", "content", "pattern", "path", "prompt", "edits", "patch"]),
                                            json_values, max_size=4) | json_values,
              "cwd": json_values, "session_id": json_values},
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=event_like | json_values, fail_closed=st.booleans())
def test_any_json_shape(hook: HookRunner, payload: Any, fail_closed: bool) -> None:
    data = json.dumps(payload).encode()
    answer = hook("pre-bash", data, **(CLOSED if fail_closed else {}))
    assert_protocol_correct("pre-bash", answer, fail_closed=fail_closed, bad=_is_bad("pre-bash", data))


#: Time is not what these cases test (a loaded CI machine may need seconds for 10 MB); the
#: self-timeout answers are tested in test_dispatch.py.
SLOW_OK = {"GUIDANCE_EVENT_SYNC_TIMEOUT_MS": "120000"}


@pytest.mark.parametrize("env", [SLOW_OK, {**CLOSED, **SLOW_OK}], ids=["fail-open", "fail-closed"])
def test_ten_megabyte_payloads_are_answered(hook: HookRunner, env: dict[str, str]) -> None:
    closed = "GUIDANCE_EVENT_FAIL_CLOSED" in env
    huge = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "echo " + "a" * TEN_MB}}
    answer = hook("pre-bash", huge, **env)
    assert_protocol_correct("pre-bash", answer, fail_closed=closed, bad=False)
    post = {"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_response": {"file": {"content": "b" * TEN_MB}}}
    assert_protocol_correct("post-edit", hook("post-edit", post, **env), fail_closed=closed, bad=False)
    too_big = b" " * (MAX_EVENT_BYTES + 1)
    answer = hook("pre-bash", too_big, **env)
    assert "larger than" in answer.stderr
    assert_protocol_correct("pre-bash", answer, fail_closed=closed, bad=True)


PROCESS_CASES = [
    ("pre-bash", b""),
    ("pre-bash", b"not json at all"),
    ("pre-bash", b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls \xff\xfe"}}'),
    ("pre-bash", b"[" * 50_000),
    ("pre-edit", b'{"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": 3}}'),
    ("pre-tool", b'{"hook_event_name": "Mystery", "tool_name": "Unheard"}'),
    ("post-bash", b'{"oops"'),
    ("pre-bash", json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "x" * TEN_MB}}).encode()),
]


@pytest.mark.parametrize("env", [{}, CLOSED], ids=["fail-open", "fail-closed"])
@pytest.mark.parametrize(("name", "data"), PROCESS_CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(PROCESS_CASES)])
def test_whole_process_through_the_launcher(project: Path, name: str, data: bytes, env: dict[str, str]) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("GUIDANCE_", "CLAUDE_"))}
    environ.update(env, CLAUDE_PROJECT_DIR=str(project), **SLOW_OK)
    result = subprocess.run([sys.executable, "-S", str(LAUNCHER), name], input=data, capture_output=True, env=environ,
                            cwd=str(project), timeout=300, check=False)
    answer = protocol.Answer(result.stdout.decode(), result.stderr.decode(), result.returncode)
    assert_protocol_correct(name, answer, fail_closed=bool(env), bad=_is_bad(name, data))

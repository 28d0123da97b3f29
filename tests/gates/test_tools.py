from __future__ import annotations

import pytest

from cf_guidance.gates import tools
from tests.gates.support import bash, codes, tool


@pytest.mark.parametrize(
    ("event", "settings", "expected"),
    [
        (tool("WebFetch", url="https://x", prompt=""), {"tools_deny": ["WebFetch"]}, ["TLS001:deny"]),
        (tool("WebSearch", query="x"), {"tools_deny": ["[web]"]}, ["TLS001:deny"]),
        (tool("mcp__db__drop", table="x"), {"tools_deny": ["mcp__db__*"]}, ["TLS001:deny"]),
        (bash("ls"), {"tools_allow": ["Read", "Grep"]}, ["TLS002:deny"]),
        (tool("Read", file_path="a"), {"tools_allow": ["Read", "Grep"]}, []),
        (tool("mcp__gh__issue"), {"tools_allow": ["mcp__gh__*", "Bash"]}, []),
        (tool("WebFetch", url="https://x", prompt=""), {}, []),
        (tool("mcp__gh__issue"), {}, []),
    ],
)
def test_lists(event, settings, expected) -> None:  # type: ignore[no-untyped-def]
    assert codes(tools, event, **settings) == expected


def test_paranoid_asks_for_unnamed_mcp_tools() -> None:
    assert codes(tools, tool("mcp__x__y"), level="paranoid") == ["TLS003:ask"]
    assert codes(tools, tool("mcp__x__y"), level="strict") == []


def test_a_compiled_tool_check_is_not_reported_twice() -> None:
    checks = [{"id": "R1#1", "rule": "R1", "kind": "tool", "verdict": "deny", "pattern": "WebFetch", "message": "m"}]
    assert codes(tools, tool("WebFetch", url="x", prompt=""), tools_deny=["WebFetch"], checks=checks) == []

from __future__ import annotations

import pytest

from guidance.gates.commands.rm import deletions, find_deletes, find_roots
from guidance.shell import analyze


@pytest.mark.parametrize(
    ("args", "roots"),
    [(["."], ["."]), (["-L", "a", "b", "-name", "x"], ["a", "b"]), (["-name", "x"], ["."]), (["/", "(", "-name", "x", ")"], ["/"])],
)
def test_find_roots(args: list[str], roots: list[str]) -> None:
    assert find_roots(args) == roots


@pytest.mark.parametrize(
    ("args", "deletes"),
    [
        ([".", "-delete"], True),
        ([".", "-exec", "rm", "-rf", "{}", "+"], True),
        ([".", "-execdir", "/bin/rm", "{}", ";"], True),
        ([".", "-name", "-delete"], False),
        ([".", "-exec", "grep", "x", "{}", "+"], False),
        ([".", "-print"], False),
    ],
)
def test_find_deletes(args: list[str], deletes: bool) -> None:
    assert find_deletes(args) is deletes


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("rm -rf a b", [("a", True), ("b", True)]),
        ("rm a", [("a", False)]),
        ("rm -- -f", [("-f", False)]),
        ("rm --recursive x", [("x", True)]),
        ("find /x -name y -delete", [("/x", True)]),
        ("echo a | xargs rm -rf", [("a", True)]),
        ("cat f | xargs rm -rf", [(None, True)]),
        ("ls", []),
    ],
)
def test_deletions(command: str, expected: list[tuple[str | None, bool]]) -> None:
    analysis = analyze(command)
    found = [(d.target, d.recursive) for cmd in analysis.commands for d in deletions(cmd, analysis)]
    assert found == expected

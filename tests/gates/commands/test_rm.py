from __future__ import annotations

import pytest

from cf_guidance.gates.commands.rm import deletions, find_deletes, find_roots
from cf_guidance.shell import analyze


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


def test_deletions_of_is_worked_out_once_per_event() -> None:
    from cf_guidance.gates._base import GateContext
    from cf_guidance.gates.commands.rm import deletions_of
    from tests.gates.support import bash, bundle

    ctx = GateContext(bash("rm -rf build && ls"), bundle())
    assert ctx.shell is not None
    rm, ls = ctx.shell.commands
    first = deletions_of(ctx, rm)
    assert [(d.target, d.recursive) for d in first] == [("build", True)] and deletions_of(ctx, rm) is first
    assert deletions_of(ctx, ls) == []
    other = GateContext(bash("rm -rf build && ls"), bundle())
    assert other.shell is not None and deletions_of(other, other.shell.commands[0]) is not first

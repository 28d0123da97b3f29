from __future__ import annotations

import pytest

from cf_guidance.gates.commands import Args, is_interpreter


@pytest.mark.parametrize(
    ("args", "takes", "short", "long", "positionals"),
    [
        (["-rf", "x"], (), {"r", "f"}, set(), ["x"]),
        (["--force", "--output=o", "a"], (), set(), {"--force", "--output"}, ["a"]),
        (["-n", "5", "f"], ("-n",), {"n"}, set(), ["f"]),
        (["-n5", "f"], ("-n",), {"n"}, set(), ["f"]),
        (["--", "-rf", "/"], (), set(), set(), ["-rf", "/"]),
        (["-1", "x"], (), set(), set(), ["-1", "x"]),
        (["-C", "dir", "push"], ("-C",), {"C"}, set(), ["push"]),
        (["-", "", "---", "-x"], (), {"x"}, {"---"}, ["-", ""]),
        (["-xn", "5", "--out", "o", "a"], ("-n", "--out"), {"x", "n"}, {"--out"}, ["a"]),
        (["-nx", "--out"], ("-n", "--out"), {"n"}, {"--out"}, []),
        (["a", "--", "--"], (), set(), set(), ["a", "--"]),
    ],
)
def test_args(args: list[str], takes: tuple[str, ...], short: set[str], long: set[str], positionals: list[str]) -> None:
    parsed = Args(args, frozenset(takes))
    assert (parsed.short, parsed.long, parsed.positionals) == (short, long, positionals)


def test_values_and_has() -> None:
    parsed = Args(["-C", "d", "--git-dir=g", "-x"], frozenset(("-C",)))
    assert parsed.value("-C") == ["d"] and parsed.value("--git-dir") == ["g"]
    assert parsed.has("-x") and parsed.has("--git-dir") and not parsed.has("-y", "--nope")


@pytest.mark.parametrize(("program", "expected"), [("bash", True), ("python3.11", True), ("node18", True), ("perl", True), ("ls", False), ("python-config", False)])
def test_is_interpreter(program: str, expected: bool) -> None:
    assert is_interpreter(program) is expected

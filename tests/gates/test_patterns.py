from __future__ import annotations

import pytest

from cf_guidance.gates import patterns
from cf_guidance.gates.patterns import matches, tool_matches
from cf_guidance.shell.model import Command


def cmd(*argv: str) -> Command:
    return Command(list(argv))


@pytest.mark.parametrize(
    ("pattern", "argv", "expected"),
    [
        (["git", "push", "--force"], ["git", "push", "--force"], True),
        (["git", "push", "--force"], ["git", "push", "origin", "main", "--force"], True),
        (["git", "push", "--force"], ["git", "push", "--force-with-lease"], False),
        (["git", "push", "--force"], ["git", "push", "--force=1"], True),
        (["rm", "-rf"], ["rm", "-fr", "x"], True),
        (["rm", "-rf"], ["rm", "-r", "-f", "x"], True),
        (["rm", "-rf"], ["rm", "-r", "x"], False),
        (["git", "push", "origin", "main"], ["git", "push", "-u", "origin", "main"], True),
        (["git", "push", "origin", "main"], ["git", "push", "main", "origin"], False),
        (["npm", "install", "*"], ["npm", "install"], True),
        (["np?", "publish"], ["npm", "publish"], True),
        (["docker", "push"], ["/usr/bin/docker", "push", "x"], True),
        (["make", "deploy"], ["make", "deploy-prod"], False),
    ],
)
def test_matches(pattern: list[str], argv: list[str], expected: bool) -> None:
    assert matches(pattern, cmd(*argv)) is expected


@pytest.mark.parametrize(
    ("pattern", "argv", "expected"),
    [
        (["rm", "-rf", "./build"], ["rm", "-rf", "./build"], True),
        (["rm", "-rf", "./build"], ["rm", "-fr", "./build"], True),
        (["rm", "-rf", "./build"], ["rm", "-rf", "./build", "/"], False),
        (["rm", "-rf", "./build"], ["rm", "-rfv", "./build"], False),
        (["rm", "-rf", "*"], ["rm", "-rf", "a", "b"], True),
    ],
)
def test_exact_matches_for_the_allowlist(pattern: list[str], argv: list[str], expected: bool) -> None:
    assert matches(pattern, cmd(*argv), exact=True) is expected


@pytest.mark.parametrize(
    ("entry", "tool", "tool_class", "expected"),
    [("WebFetch", "WebFetch", "web", True), ("[web]", "WebSearch", "web", True), ("mcp__*", "mcp__a__b", "mcp", True), ("Read", "Write", "edit", False)],
)
def test_tool_matches(entry: str, tool: str, tool_class: str, expected: bool) -> None:
    assert tool_matches(entry, tool, tool_class) is expected


#: Words patterns and commands are made of: literal positionals, options, clusters, globs,
#: paths, `--`, `-`, numbers, `=` forms and the empty word.
WORDS = ("test", "commit", "x", "main", "origin", "-rf", "-r", "-f", "-m", "--force", "--force=1", "--", "-", "-1", "*", "t*",
         "[ab]", "?", "./build", "build/", "build", "", "a=b", "push", "-u")


def reference_matches(pattern: list[str], command: Command, *, exact: bool = False) -> bool:
    """`matches` without its shortcut for literal positional words (the general matching)."""
    patterns.ORDER_SHORTCUT = False
    try:
        return matches(pattern, command, exact=exact)
    finally:
        patterns.ORDER_SHORTCUT = True


def test_the_fast_path_for_literal_positional_words_changes_no_answer() -> None:
    import random

    rng = random.Random(11)
    for _ in range(20000):
        pattern = [rng.choice(("make", "git", "m*"))] + [rng.choice(WORDS) for _ in range(rng.randrange(0, 4))]
        argv = [rng.choice(("make", "git", "/usr/bin/make"))] + [rng.choice(WORDS) for _ in range(rng.randrange(0, 6))]
        for exact in (False, True):
            assert matches(pattern, cmd(*argv), exact=exact) is reference_matches(pattern, cmd(*argv), exact=exact), (pattern, argv, exact)

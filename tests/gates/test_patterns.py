from __future__ import annotations

import pytest

from guidance.gates.patterns import _is_short_cluster, _word_match, has_glob, matches, tool_matches
from guidance.shell.model import Command


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


def reference_matches(pattern: list[str], cmd: Command, *, exact: bool = False) -> bool:
    """`matches` before its fast path for literal positional words (kept as the reference)."""
    if not pattern or not cmd.argv:
        return False
    if not _word_match(pattern[0], cmd.program):
        return False
    words = pattern[1:]
    rest_any = bool(words) and words[-1] == "*"
    if rest_any:
        words = words[:-1]
    args = cmd.args
    # Cheap rejection first: a literal positional word must appear among the arguments.
    for word in words:
        if word and word[0] != "-" and "/" not in word and word not in args and not has_glob(word):
            return False
    used = [False] * len(args)
    end_of_options = args.index("--") if "--" in args else len(args)
    needed_letters: set[str] = set()
    position = 0
    for word in words:
        if _is_short_cluster(word) and not has_glob(word):
            needed_letters.update(word[1:])
            continue
        if word.startswith("--"):
            hit = -1
            for i, arg in enumerate(args):
                if not used[i] and (_word_match(word, arg) or (arg.startswith(word + "=") and "=" not in word)):
                    hit = i
                    break
            if hit == -1:
                return False
            used[hit] = True
            continue
        # positional: next unused argument at or after `position` that matches, in order
        hit = -1
        for i in range(position, len(args)):
            if not used[i] and not (i < end_of_options and args[i].startswith("-") and args[i] != "-" and not word.startswith("-")) and _word_match(word, args[i]):
                hit = i
                break
        if hit == -1:
            return False
        used[hit] = True
        position = hit + 1
    if needed_letters:
        # Short letters present in the command's flag clusters (before a `--`).
        letters = {letter for arg in args[:end_of_options] if _is_short_cluster(arg) for letter in arg[1:]}
        if not needed_letters <= letters:
            return False
        for i in range(end_of_options):
            if _is_short_cluster(args[i]) and all(ch in needed_letters for ch in args[i][1:]):
                used[i] = True
    if exact and not rest_any:
        for i, arg in enumerate(args):
            if not used[i] and arg != "--":
                return False
    return True



#: Words patterns and commands are made of: literal positionals, options, clusters, globs,
#: paths, `--`, `-`, numbers, `=` forms and the empty word.
WORDS = ("test", "commit", "x", "main", "origin", "-rf", "-r", "-f", "-m", "--force", "--force=1", "--", "-", "-1", "*", "t*",
         "[ab]", "?", "./build", "build/", "build", "", "a=b", "push", "-u")


def test_the_fast_path_for_literal_positional_words_changes_no_answer() -> None:
    import random

    rng = random.Random(11)
    for _ in range(20000):
        pattern = [rng.choice(("make", "git", "m*"))] + [rng.choice(WORDS) for _ in range(rng.randrange(0, 4))]
        argv = [rng.choice(("make", "git", "/usr/bin/make"))] + [rng.choice(WORDS) for _ in range(rng.randrange(0, 6))]
        for exact in (False, True):
            assert matches(pattern, cmd(*argv), exact=exact) is reference_matches(pattern, cmd(*argv), exact=exact), (pattern, argv, exact)

"""Limits and hostile input: analyze never raises and says what it could not see."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cf_guidance.limits import MAX_COMMAND_CHARS, MAX_SHELL_COMMANDS, MAX_SHELL_DEPTH, MAX_SHELL_WORDS
from cf_guidance.shell import ShellAnalysis, analyze


def test_command_longer_than_the_limit_is_incomplete_but_its_start_is_seen() -> None:
    command = "rm -rf /; echo " + "a" * MAX_COMMAND_CHARS
    result = analyze(command)
    assert not result.complete
    assert any(str(MAX_COMMAND_CHARS) in p for p in result.problems)
    assert result.commands[0].argv == ["rm", "-rf", "/"]


def test_more_commands_than_the_limit() -> None:
    result = analyze("true;" * (MAX_SHELL_COMMANDS + 5))
    assert len(result.commands) == MAX_SHELL_COMMANDS
    assert not result.complete
    assert any(str(MAX_SHELL_COMMANDS) in p for p in result.problems)


def test_more_words_than_the_limit() -> None:
    result = analyze("echo " + "a " * (MAX_SHELL_WORDS + 5))
    assert len(result.commands[0].argv) == MAX_SHELL_WORDS
    assert not result.complete


def test_brace_expansion_bomb_is_not_expanded() -> None:
    result = analyze("echo " + "{a,b}" * 20)
    assert not result.complete
    assert len(result.commands[0].argv) == 2


def _nested_shells(levels: int) -> str:
    command = "rm -rf /"
    for _ in range(levels):
        command = "bash -c " + "'" + command.replace("'", "'\\''") + "'"
    return command


def test_nesting_up_to_the_limit_is_followed() -> None:
    result = analyze(_nested_shells(MAX_SHELL_DEPTH))
    assert result.complete, result.problems
    assert result.commands[-1].argv == ["rm", "-rf", "/"]
    assert result.commands[-1].depth == MAX_SHELL_DEPTH


def test_nesting_beyond_the_limit_is_a_problem() -> None:
    result = analyze(_nested_shells(MAX_SHELL_DEPTH + 1))
    assert not result.complete
    assert any(f"deeper than {MAX_SHELL_DEPTH}" in p for p in result.problems)
    assert "rm" not in [c.program for c in result.commands]


def test_substitution_nesting_beyond_the_limit() -> None:
    command = "echo " + "$(echo " * (MAX_SHELL_DEPTH + 2) + "x" + ")" * (MAX_SHELL_DEPTH + 2)
    result = analyze(command)
    assert not result.complete
    assert max(c.depth for c in result.commands) == MAX_SHELL_DEPTH


@pytest.mark.parametrize("opener,closer", [("$(", ")"), ("( ", " )"), ("{ ", "; }"), ("\"$(", ")\""), ("`", "`")])
def test_very_deep_structures_do_not_blow_the_stack(opener: str, closer: str) -> None:
    result = analyze(opener * 5000 + "rm a" + closer * 5000)
    assert isinstance(result, ShellAnalysis)
    assert not result.complete


PATHOLOGICAL = [
    ("a;" * (MAX_COMMAND_CHARS // 2), "more than"),
    ("echo " + "a " * (MAX_COMMAND_CHARS // 2), "words"),
    ("echo " + "{" * MAX_COMMAND_CHARS, "longer than"),
    ("eval " * (MAX_COMMAND_CHARS // 5), "words"),
    ("x=" + "a" * (MAX_COMMAND_CHARS // 2) + "; $x" + "$x" * (MAX_COMMAND_CHARS // 5), "dynamic program name"),
    ("x=" + "a" * (MAX_COMMAND_CHARS // 2) + "; echo $x" * (MAX_COMMAND_CHARS // 20) + "; $y", "more than"),
    ("echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b};" * 1500, "brace expansion"),
]


@pytest.mark.parametrize(("command", "problem"), PATHOLOGICAL, ids=["commands", "words", "braces", "eval", "variables", "assumed", "many-braces"])
def test_pathological_sizes_stop_at_a_limit(command: str, problem: str) -> None:
    result = analyze(command)
    assert not result.complete
    assert any(problem in p for p in result.problems), result.problems


def test_printf_format_reuse_is_bounded() -> None:
    result = analyze("printf '" + "a" * 1000 + "%s' " + "b " * 9000 + "| sh")
    piped = [c for c in result.commands if c.origin == "| sh"]
    assert len(piped) == 1 and MAX_COMMAND_CHARS < len(piped[0].argv[0]) <= MAX_COMMAND_CHARS + 1001


HOSTILE = [
    "\x00rm -rf /",
    "rm\x00 -rf /",
    "echo \udcff\udcfe",
    "'" * 10001,
    '"' * 10001,
    "$(" * 3,
    "<<" * 50,
    "case",
    "case x in",
    "if",
    "for",
    "function",
    "f()",
    "((",
    "$((1",
    "${",
    "$'\\x",
    "$'\\u{110000}'",
    "echo $'\\U0011ffff'",
    "[[",
    "|||",
    ";;;",
    "&&&",
    ")))",
    "}}}",
    "\\",
    "cat <<",
    "cat <<EOF",
    "a=(",
    "python -c",
    "python -c 'os.system('",
    "perl -e 'q{'",
    "ruby -e '%x('",
    "node -e '`'",
    "env -S",
    "xargs",
    "find -exec",
    "ssh",
    "sudo",
]


@pytest.mark.parametrize("command", HOSTILE)
def test_hostile_input_gives_an_analysis(command: str) -> None:
    result = analyze(command)
    assert isinstance(result, ShellAnalysis)
    assert result.source == command
    assert all(isinstance(p, str) and "\n" not in p for p in result.problems)


def test_non_text_input_is_a_problem_not_an_exception() -> None:
    result = analyze(b"rm -rf /")  # type: ignore[arg-type]
    assert not result.complete and result.commands == []


_PIECES = list("abrm -/;|&()<>{}[]$`'\"\\#\n\t=*?!~,.:0123456789cEOFx") + ["$(", "<<", "<<<", "bash -c ", "eval ", "python -c ", "${", "$'"]
_SHELLISH = st.lists(st.sampled_from(_PIECES), max_size=60).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_SHELLISH)
def test_fuzz_shellish_text_never_raises(command: str) -> None:
    result = analyze(command)
    assert isinstance(result, ShellAnalysis)
    assert not any(p.startswith("shell analysis failed") for p in result.problems), result.problems
    assert result.complete == (not result.problems)
    for cmd in result.commands:
        assert cmd.argv and isinstance(cmd.program, str)
        assert cmd.depth <= MAX_SHELL_DEPTH


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_bytes_decoded_with_surrogateescape_never_raise(data: bytes) -> None:
    result = analyze(data.decode("utf-8", "surrogateescape"))
    assert isinstance(result, ShellAnalysis)
    assert not any(p.startswith("shell analysis failed") for p in result.problems), result.problems


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_fuzz_any_text_never_raises(command: str) -> None:
    result = analyze(command)
    assert isinstance(result, ShellAnalysis)
    assert not any(p.startswith("shell analysis failed") for p in result.problems), result.problems

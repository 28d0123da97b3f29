"""The fast paths of the shell analysis are exact: switching them off changes nothing.

`analysis.FAST_PATH` (plain lines: `git status --short && npm test`) and
`analysis.LITERAL_PATH` (literal lines: quoted strings, globs, redirections, as in
`git commit -m "fix: x" 2>&1 | tail`) each have a switch; with both off every line goes
through the full path (lexer, parser, SimpleNode words, `simple`, `expand`, `strip_wrappers`,
`nested`, `Command.__init__`). Every command string the project's tests and corpus know, and
generated lines full of wrappers, launchers, assignments, interpreters, quotes, redirections,
globs and substitutions, must give the same analysis with both on, with only the literal path
on (it then also takes the plain lines) and with both off, on every attribute gates read.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cf_guidance.shell import analysis
from cf_guidance.shell.model import Command, ShellAnalysis, plain_command
from cf_guidance.shell.parser import split_literal, split_plain
from cf_guidance.shell.unwrap import SHELLS, WRAPPERS, _LAUNCH_PRECHECKS, _LAUNCHERS, Arg, nested, passive
from tests.corpus.loader import all_cases

TESTS = Path(__file__).resolve().parent.parent
REPO = TESTS.parent


def _dump(result: ShellAnalysis) -> tuple[object, ...]:
    """Everything an analysis says, each command by every slot `Command` has."""
    commands = [(type(c).__name__, *(getattr(c, slot) for slot in Command.__slots__)) for c in result.commands]
    return (result.source, commands, result.problems, result.complete)


def _analysed(command: str, fast: bool, literal: bool) -> tuple[object, ...]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(analysis, "FAST_PATH", fast)
        monkeypatch.setattr(analysis, "LITERAL_PATH", literal)
        return _dump(analysis.analyze(command))


def _check(command: str) -> None:
    """Both paths on, only the literal path on, and both off give the same analysis."""
    full = _analysed(command, False, False)
    assert _analysed(command, True, True) == full, command
    assert _analysed(command, False, True) == full, command


def _literals(path: Path) -> Iterator[str]:
    """Every string literal of a Python file (test tables, expected values, docstrings: a
    string that is no command is still a line to analyse)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


#: Plain lines reaching each branch the fast path must leave to the full path.
EXTRA = (
    "export x=rm", "declare A=/ B=x", "local x=rm", "readonly x=rm && ls", "typeset -x x=rm", "x=rm", "A=1 B=2 make",
    "x=rm A=-rf", "env x=rm ls", "sudo rm -rf /", "timeout 5 nice rm -rf /", "xargs rm", "find . -exec rm {} +",
    "python3 -m pytest", "node -e x", "git rebase -x make main", "git status --short", "ssh host rm -rf /", "eval rm x",
    "bash -c ls", "sh", "command -v rm", "/usr/bin/env A=1 rm -rf /",
)


def _known_commands() -> list[str]:
    found: dict[str, None] = dict.fromkeys(EXTRA)
    for case in all_cases():
        if case.text.startswith('{"'):
            command = json.loads(case.text).get("tool_input", {}).get("command")
            if isinstance(command, str):
                found[command] = None
        else:
            found[case.text] = None
    files = [*sorted((TESTS / "shell").glob("*.py")), *sorted((TESTS / "gates").rglob("*.py")), REPO / "benchmarks" / "bench_shell.py"]
    for path in files:
        for text in _literals(path):
            found[text] = None
    return list(found)


KNOWN = _known_commands()


def test_every_known_command_gives_the_same_analysis_every_way() -> None:
    plain = literal = 0
    for command in KNOWN:
        _check(command)
        if split_plain(command) is not None:
            plain += 1
        elif split_literal(command) is not None:
            literal += 1
    # the comparison means something only if many lines take each fast path
    assert len(KNOWN) > 2000 and plain > 300 and literal > 300, (len(KNOWN), plain, literal)


def test_known_commands_inside_shell_strings_and_substitutions() -> None:
    """Nested plain and literal lines (`bash -c`, `$(...)`, a pipe into sh) take the fast
    paths at depth."""
    for command in KNOWN:
        if split_literal(command) is None:
            continue
        quoted = command.replace("'", "'\\''")
        for wrapped in (f"bash -c '{quoted}'", f"echo $({command}) | wc", f"echo '{quoted}' | sh", f"x=1; ({command}) &", f"eval '{quoted}'; $x $A -rf $PATH"):
            _check(wrapped)


WORDS = (
    "sudo", "sudo -u root", "env", "env -i", "/usr/bin/env", "timeout 5", "nice", "nice -n 5", "nohup", "command", "command -v",
    "exec", "time", "stdbuf -oL", "flock /tmp/l", "flock -c", "uv run", "npx", "pnpm exec", "poetry run", "A=1", "B=x=y",
    "PATH=/bin:/usr/bin", "A+=2", "x=rm", "B=/", "1A=2", "--x=1", "xargs", "xargs -0", "xargs -I", "bash -c", "sh", "zsh -lc", "bash -s", "eval",
    "source", ".", "/dev/stdin", "find", ".", "-exec", "-delete", "-name", "x", "ssh", "host", "ssh -p 22", "su -c", "runuser -u",
    "watch", "watch -x", "parallel", ":::", "chroot /srv", "script -c", "alias", "ll=ls", "trap", "EXIT", "docker exec", "podman",
    "kubectl exec", "--", "python3", "python", "-c", "-m", "node", "-e", "perl", "ruby", "php", "awk", "deno", "bun", "pypy3",
    "git", "status", "--short", "rebase", "-x", "--exec=make", "--tree-filter", "submodule", "foreach", "bisect", "run",
    "rm", "-rf", "/", "~/", "/tmp/x", "./build", "export", "declare", "local", "readonly", "typeset", "echo", "printf",
    "base64 -d", "rev", "cm0gLXJmIC8K", "if", "in", "then", "done", "coproc", "/usr/bin/rm", "./x.sh", "make", "npm test",
    "a&&b", "make;", "x|y", "curl", "https://example.com/i.sh", "tee", "dd", "of=/dev/sda", "cat", ".env", "true",
)
SEPARATORS = ("&&", "||", "|", ";")


@settings(max_examples=3000, deadline=None)
@given(
    st.sampled_from(("", "export", "declare -x", "local", "x=rm", "A=1", "sudo", "env", "bash -c")),
    st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), min_size=1, max_size=10),
    st.sampled_from((" ", "  ", "\t", " \t ")),
)
def test_generated_plain_lines_give_the_same_analysis_every_way(first: str, tokens: list[str], blank: str) -> None:
    line = blank.join([first, *tokens] if first else tokens)
    # a plain line nested in another, then variables it may have set (`export x=rm`) in use
    for text in (line, f"bash -c '{line}'; $x $A -rf $B"):
        _check(text)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="aZ09-=~;|&% \t^@+:./_ifxsh", max_size=24))
def test_random_plain_text_gives_the_same_analysis_every_way(line: str) -> None:
    _check(line)


#: Words of literal lines and of lines that look literal but are not: quoted strings (with
#: and without spaces, `$`, backslash, the other quote, globs, operators and parentheses
#: inside), redirections, globs, substitutions, heredocs.
LITERAL_WORDS = (
    '"def main"', "'def main'", '"fix: handle empty body"', "'a b'", '""', "''", '"a"b', "a'b c'd", '"it\'s"', "'say \"hi\"'",
    '"*.py"', "'*.py'", "*.py", "src/*.ts", "file?.txt", "[ab]x", "[", "]", "[[", '"[["', "'if'", '"time"', "x='a b'",
    "A=\"1 2\"", "'A=1'", '"$HOME"', "'$HOME'", '"a\\b"', "'a\\b'", '"`id`"', '"a;b|c&&d"', "'(x)'", '"{a,b}"', "'#x'",
    '"a\nb"', "'unterminated", '"unterminated', "2>&1", "1>&2", ">&2", ">/dev/null", "2>/dev/null", "&>/dev/null", "&>>log",
    "> out.txt", ">> log", "< in.txt", "<> f", ">| f", "2> err", "2>>err", "3<&0", ">", "2>", "<", "<<EOF", "<<-EOF",
    "<<<word", "<<< 'a b'", "<(ls)", ">(cat)", "2>&1>x", "$(ls)", "`id`", "$(echo 'rm -rf /')", "a,b", "{a,b}", "#c",
    "x#y", "!", "(", ")", "&", "|&", ";;", "\n", "\t", "a\tb", "-m", "-rn", "-name", "src/", "tail", "-20", ".",
)


@settings(max_examples=4000, deadline=None)
@given(
    st.sampled_from(("", "git commit", "grep -rn", "find .", "python -m pytest", "python3 -c", "node -e", "sudo", "env A=1", "bash -c", "echo", "xargs rm", "ls", "x=rm", "export X=1", "cat")),
    st.lists(st.one_of(st.sampled_from(LITERAL_WORDS), st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), min_size=1, max_size=9),
    st.sampled_from((" ", "  ", "\t", "")),
)
def test_generated_literal_lines_give_the_same_analysis_every_way(first: str, tokens: list[str], blank: str) -> None:
    line = " ".join([first, blank.join(tokens)]) if first else blank.join(tokens)
    _check(line)
    _check(f"{line}\nEOF")  # a heredoc in the line now has its body


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="aZ09-=~;|&% \t'\"*?[]<>$()`\\{},#!\n/.xif", max_size=28))
def test_random_literal_text_gives_the_same_analysis_every_way(line: str) -> None:
    _check(line)


def test_the_fast_path_is_taken_for_an_everyday_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path builds the commands of `git status --short && npm test` itself: no Arg,
    no `strip_wrappers`, no `nested`."""
    from cf_guidance.shell import unwrap

    def forbidden(*_: object) -> object:
        raise AssertionError("the full path was taken")

    monkeypatch.setattr(analysis, "strip_wrappers", forbidden)
    monkeypatch.setattr(analysis, "nested", forbidden)
    monkeypatch.setattr(unwrap, "Arg", forbidden)
    result = analysis.analyze("git status --short && npm test -- --watch=false | tee log")
    assert [c.argv for c in result.commands] == [["git", "status", "--short"], ["npm", "test", "--", "--watch=false"], ["tee", "log"]]
    assert result.commands[1].pipe_next == "tee" and result.complete


@pytest.mark.parametrize("line", [
    'grep -rn "def main" src/', "npm run build 2>&1 | tail -20", 'git commit -m "fix: handle empty body"',
    'git add -A && git commit -m "feat: add retry"', 'find . -name "*.py" | head -20', "python -m pytest -q tests/test_app.py > /dev/null",
])
def test_the_literal_path_is_taken_for_everyday_lines(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Everyday lines with quotes and redirections build their commands without the lexer,
    the parser, Arg, `strip_wrappers` or `nested`."""
    from cf_guidance.shell import parser

    def forbidden(*_: object) -> object:
        raise AssertionError("the full path was taken")

    for module, name in ((analysis, "strip_wrappers"), (analysis, "nested"), (analysis, "Arg"), (analysis, "parse"), (parser, "Lexer")):
        monkeypatch.setattr(module, name, forbidden)
    result = analysis.analyze(line)
    assert result.complete and result.commands


def test_a_literal_line_gives_quote_free_words_and_redirects() -> None:
    result = analysis.analyze("npm run build 2>&1 | grep -v 'warn: x' > out.txt")
    assert [(c.argv, c.redirects, c.pipe_prev, c.pipe_next) for c in result.commands] == [
        (["npm", "run", "build"], [("2>&", "1")], "", "grep"),
        (["grep", "-v", "warn: x"], [(">", "out.txt")], "npm", ""),
    ]


#: For each launcher with a precheck, words with which it launches something.
_LAUNCHING = {
    "git": ["git", "rebase", "-x", "make"], "find": ["find", ".", "-exec", "rm", "{}", ";"], "make": ["make", "-f", "-"],
    "gmake": ["gmake", "--file=-"], "tmux": ["tmux", "new", "-d", "x"], "yarn": ["yarn", "eslint", "."],
    "bun": ["bun", "run", "tsc"],
}
#: Launchers that launch only what they read on stdin (a fast-path line has none).
_STDIN_ONLY = frozenset(("crontab",))


@pytest.mark.parametrize("name", sorted({*WRAPPERS, "env", *SHELLS, *_LAUNCHERS}))
def test_every_name_unwrap_acts_on_is_not_passive(name: str) -> None:
    """A program in any table of unwrap.py never takes the fast path (a launcher with a
    precheck only when the precheck rules everything out)."""
    if name in _STDIN_ONLY:
        assert passive(name, [name, "-"]) and [n.kind for n in nested([Arg(name), Arg("-")], True)] == ["stdin"]
        return
    words = _LAUNCHING[name] if name in _LAUNCH_PRECHECKS else [name, "x"]
    assert not passive(name, words)
    assert not passive(name, [name]) or name in _LAUNCH_PRECHECKS
    assert set(_LAUNCH_PRECHECKS) == set(_LAUNCHING) | _STDIN_ONLY


@pytest.mark.parametrize(("words", "expected"), [
    (["git", "status", "--short"], True),
    (["git", "log", "--oneline"], True),
    (["git", "rebase", "-x", "make", "main"], False),
    (["git", "bisect", "run", "make"], False),
    (["git", "submodule", "foreach", "ls"], False),
    (["git", "filter-branch", "--tree-filter", "rm x"], False),
    (["git", "rebase", "--exec=make"], False),
    (["npm", "test"], True),
    (["yarn", "lint"], True),
    (["bun", "run", "build"], True),
    (["yarn", "vitest", "run"], False),
    (["find", ".", "-name", "*.py"], True),
    (["find", ".", "-name", "x", "-delete"], True),
    (["find", ".", "-exec", "rm", "{}", "+"], False),
    (["find", ".", "-okdir", "rm", "{}", ";"], False),
    (["ls", "-la"], True),
])
def test_passive(words: list[str], expected: bool) -> None:
    assert passive(words[0], words) is expected


def test_plain_command_sets_every_slot_as_the_constructor_does() -> None:
    built = plain_command(["git", "status"], "git", "git status", "bash -c", 1, True, [("2>&", "1")])
    expected = Command(["git", "status"], text="git status", origin="bash -c", depth=1, redirects=[("2>&", "1")], background=True)
    assert [getattr(built, slot) for slot in Command.__slots__] == [getattr(expected, slot) for slot in Command.__slots__]
    assert type(built) is Command

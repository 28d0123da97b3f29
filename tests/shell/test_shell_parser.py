"""Lexer and parser: which simple commands a command line runs, as (origin, argv)."""

from __future__ import annotations

import pytest

from cf_guidance.shell import analyze


def seen(command: str) -> list[tuple[str, list[str]]]:
    return [(c.origin, c.argv) for c in analyze(command).commands]


SEPARATORS = [
    ("ls", [("", ["ls"])]),
    ("a; b", [("", ["a"]), ("", ["b"])]),
    ("a;b", [("", ["a"]), ("", ["b"])]),
    ("a&&b", [("", ["a"]), ("", ["b"])]),
    ("a || b", [("", ["a"]), ("", ["b"])]),
    ("a | b", [("", ["a"]), ("", ["b"])]),
    ("a |& b", [("", ["a"]), ("", ["b"])]),
    ("a & b", [("", ["a"]), ("", ["b"])]),
    ("a\nb", [("", ["a"]), ("", ["b"])]),
    ("a\r\nb", [("", ["a\r"]), ("", ["b"])]),  # bash: CR is an ordinary character
    ("a &&\n b", [("", ["a"]), ("", ["b"])]),
    ("a |\n b", [("", ["a"]), ("", ["b"])]),
    ("echo a \\\n b", [("", ["echo", "a", "b"])]),
    ("ec\\\nho hi", [("", ["echo", "hi"])]),
    ("! grep x f", [("", ["grep", "x", "f"])]),
    ("", []),
    ("   \n\t ", []),
]

QUOTING = [
    ('"r"m -rf /', [("", ["rm", "-rf", "/"])]),
    ("r\\m -rf /", [("", ["rm", "-rf", "/"])]),
    ("'rm' -rf /", [("", ["rm", "-rf", "/"])]),
    ("$'\\x72m' -rf /", [("", ["rm", "-rf", "/"])]),
    ("$'\\162m' x", [("", ["rm", "x"])]),
    ("$'\\u0072m' x", [("", ["rm", "x"])]),
    ("$'r\\x6d' x", [("", ["rm", "x"])]),
    ('$"rm" x', [("", ["rm", "x"])]),
    ("r''m x", [("", ["rm", "x"])]),
    ('r""m x', [("", ["rm", "x"])]),
    ("echo 'a b' \"c d\"", [("", ["echo", "a b", "c d"])]),
    ('echo "a \\" b"', [("", ["echo", 'a " b'])]),
    ('echo "a\\nb"', [("", ["echo", "a\\nb"])]),
    ("echo 'it''s'", [("", ["echo", "its"])]),
    ("echo \"it's\"", [("", ["echo", "it's"])]),
    ("echo $'a\\'b'", [("", ["echo", "a'b"])]),
    ("echo \"$HOME/x\"", [("", ["echo", "$HOME/x"])]),
    ("echo ${HOME}/x", [("", ["echo", "${HOME}/x"])]),
    ("echo a#b", [("", ["echo", "a#b"])]),
    ("echo hi # ; rm -rf /", [("", ["echo", "hi"])]),
    ("# rm -rf /\necho ok", [("", ["echo", "ok"])]),
    ("echo '# not a comment'; ls", [("", ["echo", "# not a comment"]), ("", ["ls"])]),
    ("echo 'a;b' \"c|d\" e\\&f", [("", ["echo", "a;b", "c|d", "e&f"])]),
    ("rm${IFS}-rf${IFS}/", [("", ["rm", "-rf", "/"])]),
    ("rm$IFS-rf$IFS/tmp", [("", ["rm", "-rf", "/tmp"])]),
    ("{rm,-rf,/}", [("", ["rm", "-rf", "/"])]),
    ("echo {a,b}c", [("", ["echo", "ac", "bc"])]),
    ("echo '{a,b}'", [("", ["echo", "{a,b}"])]),
    ("echo {1..3}", [("", ["echo", "{1..3}"])]),
    ("rm !(keep) @(a|b)", [("", ["rm", "!(keep)", "@(a|b)"])]),
    ("echo *.txt", [("", ["echo", "*.txt"])]),
]

SUBSTITUTIONS = [
    ("echo $(rm -rf /)", [("$(...)", ["rm", "-rf", "/"]), ("", ["echo", "$(rm -rf /)"])]),
    ("echo `rm -rf /`", [("`...`", ["rm", "-rf", "/"]), ("", ["echo", "`rm -rf /`"])]),
    ('echo "$(rm x)"', [("$(...)", ["rm", "x"]), ("", ["echo", "$(rm x)"])]),
    ("echo --x=$(rm -rf /)", [("$(...)", ["rm", "-rf", "/"]), ("", ["echo", "--x=$(rm -rf /)"])]),
    ("echo $(echo $(rm a))", [("$(...)>$(...)", ["rm", "a"]), ("$(...)", ["echo", "$(rm a)"]), ("", ["echo", "$(echo $(rm a))"])]),
    ("echo $(echo ')'; rm a)", [("$(...)", ["echo", ")"]), ("$(...)", ["rm", "a"]), ("", ["echo", "$(echo ')'; rm a)"])]),
    ("diff <(ls a) <(ls b)", [("<(...)", ["ls", "a"]), ("<(...)", ["ls", "b"]), ("", ["diff", "<(ls a)", "<(ls b)"])]),
    ("tee >(rm x) < f", [(">(...)", ["rm", "x"]), ("", ["tee", ">(rm x)"])]),
    ("x=$(rm a) y", [("$(...)", ["rm", "a"]), ("", ["y"])]),
    ("x=$(rm a)", [("$(...)", ["rm", "a"])]),
    ("echo ${x:-$(rm a)}", [("$(...)", ["rm", "a"]), ("", ["echo", "${x:-$(rm a)}"])]),
    ("echo $((1 + $(rm a)))", [("$(...)", ["rm", "a"]), ("", ["echo", "$((1 + $(rm a)))"])]),
    ("echo \"`rm \\\"a\\\"`\"", [("`...`", ["rm", "a"]), ("", ["echo", '`rm \\"a\\"`'])]),
    ("cat > $(rm a)", [("$(...)", ["rm", "a"]), ("", ["cat"])]),
    ("echo $(case x in x) rm a;; esac)", [("$(...)", ["rm", "a"]), ("", ["echo", "$(case x in x) rm a;; esac)"])]),
    ("arr=(a $(rm b) c)", [("$(...)", ["rm", "b"])]),
]

COMPOUND = [
    ("(cd /tmp && rm x)", [("", ["cd", "/tmp"]), ("", ["rm", "x"])]),
    ("{ rm a; rm b; }", [("", ["rm", "a"]), ("", ["rm", "b"])]),
    ("if test -f x; then rm x; elif y; then z; else w; fi", [("", ["test", "-f", "x"]), ("", ["rm", "x"]), ("", ["y"]), ("", ["z"]), ("", ["w"])]),
    ("for f in a b; do rm $f; done", [("", ["rm", "a"]), ("", ["rm", "b"])]),  # the loop's words are f's values
    ("for f in $(ls); do rm $f; done", [("$(...)", ["ls"]), ("", ["rm", "$f"])]),
    ("for ((i=0; i<3; i++)); do echo $i; done", [("", ["echo", "$i"])]),
    ("for f; do echo $f; done", [("", ["echo", "$f"])]),
    ("while true; do rm a; done", [("", ["true"]), ("", ["rm", "a"])]),
    ("until false\ndo\n rm a\ndone", [("", ["false"]), ("", ["rm", "a"])]),
    ("select x in a b; do rm $x; done", [("", ["rm", "$x"]), ("", ["rm", "a"]), ("", ["rm", "b"])]),
    ("case $x in a|b) rm a;; (c) rm c;& *) ls;;& esac", [("", ["rm", "a"]), ("", ["rm", "c"]), ("", ["ls"])]),
    ("case x in\n  x)\n    rm a\n    ;;\nesac", [("", ["rm", "a"])]),
    ("f() { rm -rf /; }; f", [("", ["f"]), ("", ["rm", "-rf", "/"])]),  # the body runs where it is called
    ('clean() { rm -rf "$1" "$2"/tmp; }; clean dist .cache', [("", ["clean", "dist", ".cache"]), ("", ["rm", "-rf", "dist", ".cache/tmp"])]),
    ('f() { rm -rf "$1"; }; f build; f "$OUT"', [("", ["rm", "-rf", "$1"]), ("", ["f", "build"]), ("", ["rm", "-rf", "build"]), ("", ["f", "$OUT"])]),
    ('f() { rm -rf "$1"; }', [("", ["rm", "-rf", "$1"])]),  # never called: the body as written
    ('f() { f "$1"; }; f x', [("", ["f", "$1"]), ("", ["f", "x"]), ("", ["f", "x"])]),  # a recursive call is not followed
    ("function g { rm a; }", [("", ["rm", "a"])]),
    ("function g() ( rm a )", [("", ["rm", "a"])]),
    ("(( i++ )) && rm a", [("", ["rm", "a"])]),
    ("[[ -f x && $(rm a) ]]", [("$(...)", ["rm", "a"]), ("", ["[[", "-f", "x", "&&", "$(rm a)", "]]"])]),
    ("[[ a < b ]]", [("", ["[[", "a", "<", "b", "]]"])]),
    ("time rm a", [("", ["rm", "a"])]),
    ("time -p rm a", [("", ["rm", "a"])]),
    ("coproc { rm a; }", [("", ["rm", "a"])]),
    ("if x; then (rm a) fi", [("", ["x"]), ("", ["rm", "a"])]),
    ("echo if then fi", [("", ["echo", "if", "then", "fi"])]),
    ("echo }", [("", ["echo", "}"])]),
    ("for x in a; { rm $x; }", [("", ["rm", "a"])]),
]

HEREDOCS = [
    ("cat <<EOF\nrm -rf /\nEOF", [("", ["cat"])]),
    ("cat <<EOF\n$(rm a)\nEOF", [("$(...)", ["rm", "a"]), ("", ["cat"])]),
    ("cat <<'EOF'\n$(rm a)\nEOF", [("", ["cat"])]),
    ("cat <<-EOF\n\t$(rm a)\n\tEOF\nls", [("$(...)", ["rm", "a"]), ("", ["cat"]), ("", ["ls"])]),
    ("cat <<EOF; rm b\nbody\nEOF", [("", ["cat"]), ("", ["rm", "b"])]),
    ("cat <<A <<B\na\nA\nb\nB\nls", [("", ["cat"]), ("", ["ls"])]),
    ("bash <<EOF\nrm -rf /\nEOF", [("", ["bash"]), ("bash <<", ["rm", "-rf", "/"])]),
    ("sh <<< 'rm -rf /'", [("", ["sh"]), ("sh <<", ["rm", "-rf", "/"])]),
    ("sudo bash <<'X'\nrm a\nX", [("", ["bash"]), ("bash <<", ["rm", "a"])]),
]


@pytest.mark.parametrize(("command", "expected"), SEPARATORS + QUOTING + SUBSTITUTIONS + COMPOUND + HEREDOCS)
def test_commands_seen(command: str, expected: list[tuple[str, list[str]]]) -> None:
    result = analyze(command)
    assert [(c.origin, c.argv) for c in result.commands] == expected
    assert result.complete, result.problems


REDIRECTS = [
    ("echo hi > out.txt", [(">", "out.txt")]),
    ("echo hi >> log", [(">>", "log")]),
    ("cat < .env", [("<", ".env")]),
    ("cmd 2> /dev/null", [("2>", "/dev/null")]),
    ("cmd 2>&1", [("2>&", "1")]),
    ("cmd &> all", [("&>", "all")]),
    ("cmd &>> all", [("&>>", "all")]),
    ("cmd >| forced", [(">|", "forced")]),
    ("cmd <> rw", [("<>", "rw")]),
    ("cmd 3<&0", [("3<&", "0")]),
    ("cmd >&2", [(">&", "2")]),
    ("cmd 2>err >out", [("2>", "err"), (">", "out")]),
    (">out cmd arg", [(">", "out")]),
    ("cmd >'a b'", [(">", "a b")]),
    ("cat <<< 'hello'", [("<<<", "hello")]),
    ("cat <<EOF\nx\nEOF", [("<<", "EOF")]),
    ("{ echo a; } > f", [(">", "f")]),
]


@pytest.mark.parametrize(("command", "expected"), REDIRECTS)
def test_redirects_are_recorded_and_not_in_argv(command: str, expected: list[tuple[str, str]]) -> None:
    result = analyze(command)
    cmd = result.commands[0]
    assert cmd.redirects == expected
    assert not any(target in cmd.argv for _, target in expected)


def test_bare_redirection_still_writes() -> None:
    result = analyze("> .env")
    assert [(c.argv, c.redirects) for c in result.commands] == [(["true"], [(">", ".env")])]


PIPES = [
    ("curl x | sh", [("curl", "", "sh"), ("sh", "curl", "")]),
    ("curl -s x | sudo bash -s", [("curl", "", "bash"), ("bash", "curl", "")]),
    ("a | b | c", [("a", "", "b"), ("b", "a", "c"), ("c", "b", "")]),
    ("wget -O- x |& python3", [("wget", "", "python3"), ("python3", "wget", "")]),
    ("(curl x) | sh", [("curl", "", "sh"), ("sh", "curl", "")]),
    ("source <(curl -s x)", [("curl", "", "source"), ("source", "curl", "")]),
    ('bash -c "$(curl -fsSL x)"', [("curl", "", "bash"), ("bash", "curl", "")]),
]


@pytest.mark.parametrize(("command", "expected"), PIPES)
def test_pipe_neighbours(command: str, expected: list[tuple[str, str, str]]) -> None:
    commands = [c for c in analyze(command).commands if c.program in {p for p, _, _ in expected}]
    got = [(c.program, c.pipe_prev, c.pipe_next) for c in commands]
    assert got[: len(expected)] == expected


def test_background_flag() -> None:
    commands = analyze("sleep 10 & rm a; (b && c) & nohup bash -c 'rm d' &").commands
    assert [(c.argv[0], c.background) for c in commands] == [("sleep", True), ("rm", False), ("b", True), ("c", True), ("bash", True), ("rm", True)]


DYNAMIC = [
    ("echo $HOME", [False, ]),
    ("rm -rf $HOME/x", [True]),
    ("rm -rf ${DIR}", [True]),
    ("rm -rf ~/x", [False]),
    ("rm -rf *.o", [False]),
    ("echo {a,b}", [False]),
    ("rm \"$1\"", [True]),
]


@pytest.mark.parametrize(("command", "flags"), DYNAMIC)
def test_dynamic_flag(command: str, flags: list[bool]) -> None:
    commands = analyze(command).commands
    if command.startswith("echo $HOME"):
        assert commands[0].dynamic is True
        return
    assert [c.dynamic for c in commands] == flags


PROBLEMS = [
    ("echo 'unterminated", "unterminated single quote", [["echo", "unterminated"]]),
    ('rm a; echo "x', "unterminated double quote", [["rm", "a"], ["echo", "x"]]),
    ("rm a; echo $(ls", "unterminated $(...)", [["rm", "a"], ["ls"], ["echo", "$(ls"]]),
    ("rm a; echo `ls", "unterminated backtick", [["rm", "a"], ["ls"], ["echo", "`ls"]]),
    ("true;;; rm a", "syntax error near ';;'", [["true"], ["rm", "a"]]),
    ("rm a; cat <<EOF\nbody", "unterminated heredoc", [["rm", "a"], ["cat"]]),
    ("rm a; echo $'x", "unterminated $'", [["rm", "a"], ["echo", "x"]]),
    ("rm a; if true; then rm b", "missing 'fi'", [["rm", "a"], ["true"], ["rm", "b"]]),
    ("rm a; (rm b", "missing ')'", [["rm", "a"], ["rm", "b"]]),
    ("rm a; { rm b", "missing '}'", [["rm", "a"], ["rm", "b"]]),
    ("rm a; ) ; rm b", "syntax error near ')'", [["rm", "a"], ["rm", "b"]]),
    ("$CMD -rf /", "dynamic program name", [["$CMD", "-rf", "/"]]),
    # the substitution's output is literal text: the command is also seen as it runs
    ("$(echo rm) -rf /", "dynamic program name", [["echo", "rm"], ["$(echo rm)", "-rf", "/"], ["rm", "-rf", "/"]]),
    ("`echo rm` x", "dynamic program name", [["echo", "rm"], ["`echo rm`", "x"], ["rm", "x"]]),
    ("/???/r? -rf /", "glob pattern", [["/???/r?", "-rf", "/"]]),
    ("echo >", "without a target", [["echo"]]),
    ("rm a (b)", "syntax error near '('", [["rm", "a"], ["b"]]),
]


@pytest.mark.parametrize(("command", "problem", "argvs"), PROBLEMS)
def test_problems_keep_what_was_seen(command: str, problem: str, argvs: list[list[str]]) -> None:
    result = analyze(command)
    assert not result.complete
    assert any(problem in p for p in result.problems), result.problems
    assert [c.argv for c in result.commands] == argvs
    assert all("\n" not in p for p in result.problems)


def test_program_is_basename_and_text_is_the_segment() -> None:
    result = analyze("/usr/bin/rm -rf x && ./build.sh")
    assert [(c.program, c.text) for c in result.commands] == [("rm", "/usr/bin/rm -rf x"), ("build.sh", "./build.sh")]


STDIN = [
    ("cat > .env <<EOF\nKEY=secret\nEOF", "KEY=secret\n"),
    ("cat <<-EOF\n\tindented\n\tEOF", "indented\n"),
    ("cat <<< 'hello world'", "hello world\n"),
    ("cat <<'X'\n$(not run)\nX", "$(not run)\n"),
    ("cat file", ""),
]


@pytest.mark.parametrize(("command", "stdin"), STDIN)
def test_heredoc_and_here_string_text_is_kept(command: str, stdin: str) -> None:
    assert analyze(command).commands[0].stdin == stdin


def test_reading_a_file_in_a_substitution_is_cat() -> None:
    commands = analyze("echo $(< .env)").commands
    assert [(c.origin, c.argv, c.redirects) for c in commands[:1]] == [("$(...)", ["cat"], [("<", ".env")])]


def test_problems_are_single_printable_lines() -> None:
    result = analyze("echo 'a\nb\udcff\x00")
    assert result.problems and all(p.isprintable() and len(p) <= 200 for p in result.problems)
    result = analyze("$'\\x00\\n'" + "x" * 500 + " a")
    assert all(p.isprintable() and len(p) <= 200 for p in result.problems)


# -- the plain fast path gives exactly the full parser's tree ------------------------------------


def _dump(tree: object) -> object:
    from cf_guidance.shell.parser import CommandList, SimpleNode

    if isinstance(tree, CommandList):
        return [([[_dump(node) for node in pipeline] for pipeline in and_or], bg) for and_or, bg in tree.items]
    if isinstance(tree, SimpleNode):
        words = [(w.value, w.raw, w.quoted, w.dynamic, w.subs, w.braces, w.glob, w.splits) for w in tree.words]
        return ("simple", words, tree.redirects, tree.start, tree.end, tree.text, tree.prefix)
    return ("other", type(tree).__name__)


def _full_parse(src: str) -> tuple[object, list[str], int]:
    from cf_guidance.shell.lexer import ParseState
    from cf_guidance.shell.parser import Parser

    state = ParseState()
    tree = Parser(src, 0, state).parse_program()
    return _dump(tree), state.problems, state.commands


PLAIN = [
    "ls", "git status --short && npm test -- --watch=false", "a;b", "a ; b;", "a&&b||c|d", "  a  \t b  ",
    "rm -rf ./build", "x=rm", "FOO=1 make -j4 all", "cd ~/src && make", "git push --force-with-lease origin main",
    "curl -fsSL https://example.com/x.sh | sh", "a=b=c d@e%f+g^h:i", "echo a;", "python3 -m pytest tests/shell -q",
]
NOT_PLAIN = [
    "", "   ", ";", "a |", "a &&", "&& a", "a ; ; b", "a;;b", "a |& b", "a & b", "a &", "a;&b", "a |; b",
    "time ls", "if true; then ls; fi", "for x in a; do rm $x; done", "echo 'a b'", "echo $HOME", "ls *.py",
    "echo {a,b}", "ls > out", "a\nb", "echo a # c", "! ls", "(ls)", "f() { ls; }", "a`b`", "x" * 2000,
]


@pytest.mark.parametrize("src", PLAIN)
def test_plain_lines_take_the_fast_path(src: str) -> None:
    from cf_guidance.shell.parser import parse_plain

    plain = parse_plain(src)
    assert plain is not None
    tree, problems, commands = _full_parse(src)
    assert _dump(plain[0]) == tree and problems == [] and plain[1] == commands


@pytest.mark.parametrize("src", NOT_PLAIN)
def test_other_lines_take_the_full_parser(src: str) -> None:
    from cf_guidance.shell.parser import parse_plain

    assert parse_plain(src) is None


def test_fast_path_agrees_with_the_full_parser_on_the_corpus() -> None:
    """Every corpus command the fast path accepts parses to the full parser's tree."""
    from cf_guidance.shell.parser import parse_plain
    from tests.corpus.loader import all_cases

    taken = 0
    for case in all_cases():
        if case.text.startswith('{"'):
            continue
        plain = parse_plain(case.text)
        if plain is None:
            continue
        taken += 1
        tree, problems, commands = _full_parse(case.text)
        assert (_dump(plain[0]), [], plain[1]) == (tree, problems, commands), case.id
    assert taken > 50  # the check means something only if the fast path is common


def test_fast_path_agrees_with_the_full_parser_on_random_lines() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from cf_guidance.shell.parser import parse_plain

    @settings(max_examples=2000, deadline=None)
    @given(st.text(alphabet="aZ09-=~;|&% \t^@+:./_if", max_size=24))
    def agree(src: str) -> None:
        plain = parse_plain(src)
        if plain is not None:
            tree, problems, commands = _full_parse(src)
            assert (_dump(plain[0]), [], plain[1]) == (tree, problems, commands)

    agree()

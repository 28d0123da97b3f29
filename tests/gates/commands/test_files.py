from __future__ import annotations

import pytest

from cf_guidance.gates.commands.files import file_effects
from cf_guidance.shell import analyze


@pytest.mark.parametrize(
    ("command", "reads", "writes"),
    [
        ("cat a b", ["a", "b"], []),
        ("grep -r pat dir", ["dir"], []),
        ("grep -e pat file", ["file"], []),
        ("head -n 5 f", ["f"], []),
        ("head -20 f", ["f"], []),
        ("tail -20", [], []),
        ("tail -f -100 app.log", ["app.log"], []),
        ("tail -- -20", ["-20"], []),
        ("head -5 -- -5", ["-5"], []),
        ("echo x > out 2>&1", [], ["out"]),
        ("sort < in >> out", ["in"], ["out"]),
        ("cp a b dest", ["a", "b"], ["dest"]),
        ("cp -t dest a b", ["a", "b"], ["dest/a", "dest/b"]),
        ("cp out/a.c /tmp/", ["out/a.c"], ["/tmp/a.c"]),
        ("cp -r src/ backup/", ["src/"], ["backup/src"]),
        ("cp a.c b.c", ["a.c"], ["b.c"]),
        ("mv a b", [], ["a", "b"]),
        ("sed -i s/a/b/ f", [], ["f"]),
        ("sed -n p f", ["f"], []),
        ("tee -a log", [], ["log"]),
        ("chmod 600 key", [], ["key"]),
        ("dd if=in of=out", ["in"], ["out"]),
        ("curl -d @body.json -o out https://x", ["body.json"], ["out"]),
        ("ln -s target link", ["target"], ["link"]),
        ("git checkout -- a.py", [], ["a.py"]),
        ("git show HEAD:.env", [".env"], []),
        ("echo hi > /dev/null", [], []),
        ("vim notes", ["notes"], ["notes"]),
    ],
)
def test_file_effects(command: str, reads: list[str], writes: list[str]) -> None:
    (cmd,) = analyze(command).commands
    assert file_effects(cmd) == (reads, writes)


def test_git_lines_without_a_file_subcommand_skip_the_subcommand_parse() -> None:
    """`git status` needs no parse: a line whose words hold none of the subcommands that name
    files has no word effects (the shortcut must agree with the full parse)."""
    from cf_guidance.gates.commands import files

    subs = ("status", "log", "show", "diff", "blame", "cat-file", "checkout", "restore", "rm", "mv", "clean", "add", "commit", "push")
    for prefix in ("", "-C dir ", "--no-pager ", "-c a=b "):
        for sub in subs:
            for tail in ("", "-- a.py", "HEAD:.env", "-f b", ". x"):
                args = (prefix + sub + " " + tail).split()
                reads: list[str] = []
                writes: list[str] = []
                files._git_effects(args, reads, writes)
                full = ([r for r in reads if files._is_file_word(r)], [w for w in writes if files._is_file_word(w)])
                cmd = analyze("git " + " ".join(args)).commands[0]
                assert file_effects(cmd) == full, args


@pytest.mark.parametrize("program", ["cat", "head", "tail", "wc", "sort", "less", "diff", "gzip", "source"])
@pytest.mark.parametrize("words", ["README.md", "a b c", "'' x", "x -", "-n 5 x", "x -- -y", "a > out", "a 2>&1 >/dev/null", "a < in"])
def test_plain_readers_without_options_read_every_word(program: str, words: str) -> None:
    # The option-free line skips the argument parser; it must give what the parser's positionals give.
    from cf_guidance.gates.commands import Args
    from cf_guidance.gates.commands.files import _SHORT_VALUE_OPTS, _file_words, redirect_effects

    cmd = analyze(f"{program} {words}").commands[0]
    reads, writes = redirect_effects(cmd)
    reads = reads + Args(cmd.args, _SHORT_VALUE_OPTS.get(program, frozenset())).positionals
    assert file_effects(cmd) == (_file_words(reads), _file_words(writes))

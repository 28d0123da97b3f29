"""Bypass tricks: however `rm -rf /` is dressed up, the analysis sees it (or says it cannot)."""

from __future__ import annotations

import pytest

from cf_guidance.shell import analyze

SEEN = [
    "rm -rf /",
    "'rm' '-rf' '/'",
    '"rm" "-rf" "/"',
    "r\\m -r\\f /",
    "r''m -rf /",
    "$'rm' -rf /",
    "$'\\x72\\x6d' -rf /",
    "$'\\162\\155' -rf /",
    "\\rm -rf /",
    "/bin/rm -rf /",
    "/usr/bin/../bin/rm -rf /",
    "command rm -rf /",
    "builtin command rm -rf /",
    "exec rm -rf /",
    "sudo rm -rf /",
    "sudo -E -u root -- rm -rf /",
    "doas rm -rf /",
    "env -i rm -rf /",
    "env -S 'rm -rf /'",
    "FOO=bar rm -rf /",
    "nice -n 19 ionice -c3 nohup timeout 100 rm -rf /",
    "rm${IFS}-rf${IFS}/",
    "{rm,-rf,/}",
    "true;rm -rf /",
    "true&&rm -rf /",
    "false||rm -rf /",
    "true&rm -rf /",
    "true|rm -rf /",
    "true\nrm -rf /",
    "echo $(rm -rf /)",
    "echo `rm -rf /`",
    "echo \"$(rm -rf /)\"",
    "echo ${x:-$(rm -rf /)}",
    "x=$(rm -rf /)",
    "cat <(rm -rf /)",
    "(rm -rf /)",
    "{ rm -rf /; }",
    "if true; then rm -rf /; fi",
    "while rm -rf /; do :; done",
    "for x in 1; do rm -rf /; done",
    "case a in a) rm -rf /;; esac",
    "f(){ rm -rf /; }",
    "bash -c 'rm -rf /'",
    "sh -c \"rm -rf /\"",
    "bash -lc 'rm -rf /'",
    "sudo sh -c 'rm -rf /'",
    "bash -c \"bash -c 'rm -rf /'\"",
    "eval 'rm -rf /'",
    "eval rm -rf /",
    "eval \"$(echo x); rm -rf /\"",
    "su -c 'rm -rf /'",
    "ssh host rm -rf /",
    "bash <<EOF\nrm -rf /\nEOF",
    "bash <<< 'rm -rf /'",
    "sh - <<'X'\nrm -rf /\nX",
    "echo / | xargs rm -rf",
    "printf '/' | xargs -0 rm -rf",
    "watch 'rm -rf /'",
    "timeout 5 bash -c 'rm -rf /'",
    "python -c 'import os; os.system(\"rm -rf /\")'",
    "python3 -c 'import shutil; shutil.rmtree(\"/\")'",
    "node -e 'require(\"child_process\").execSync(\"rm -rf /\")'",
    "perl -e 'system \"rm -rf /\"'",
    "ruby -e 'system(\"rm -rf /\")'",
    "php -r 'system(\"rm -rf /\");'",
    "echo 'rm -rf /' | sh",
    "echo cm0gLXJmIC8= | base64 -d | sh",
    "echo '/ fr- mr' | rev | bash",
    "printf 'rm -rf /' | bash",
    "alias x='rm -rf /'",
    "trap 'rm -rf /' EXIT",
    "chroot / rm -rf /",
    "rm -rf / # comment",
    "rm -rf /;# comment",
    "r\\\nm -rf /",
    "cat <<EOF\n$(rm -rf /)\nEOF",
    "[[ $(rm -rf /) ]]",
    "(( $(rm -rf /) ))",
    "arr=( $(rm -rf /) )",
    "echo >(rm -rf /)",
    "coproc rm -rf /",
    "time rm -rf /",
    "! rm -rf /",
    "x=rm; $x -rf /",
    "c='rm -rf /'; $c",
    "d=/; rm -rf \"$d\"",
    "export X=rm; ${X} -rf /",
    "x=rm; eval \"$x -rf /\"",
    "for c in ls rm; do $c -rf /; done",
]


@pytest.mark.parametrize("command", SEEN)
def test_rm_rf_root_is_seen(command: str) -> None:
    commands = analyze(command).commands
    assert any(c.program == "rm" and c.argv[1:] == ["-rf", "/"] for c in commands), [(c.origin, c.argv) for c in commands]


MENTIONS = [
    "echo 'rm -rf /'",
    "echo \"rm -rf /\"",
    "git commit -m 'rm -rf / is dangerous'",
    "grep -r 'rm -rf /' .",
    "echo hi # ; rm -rf /",
    "cat <<'EOF'\nrm -rf /\nEOF",
    "cat <<EOF\nrm -rf /\nEOF",
    "python -c 'print(\"rm -rf /\")'",
    "node -e 'console.log(\"rm -rf /\")'",
    "man rm",
    "command -v rm",
    "echo rm -rf / > notes.txt",
    "printf 'rm -rf /' > script.sh",
    "bash script.sh 'rm -rf /'",
]


@pytest.mark.parametrize("command", MENTIONS)
def test_mentions_do_not_become_commands(command: str) -> None:
    result = analyze(command)
    assert not any(c.program == "rm" for c in result.commands), [(c.origin, c.argv) for c in result.commands]
    assert result.complete, result.problems


def test_xargs_from_an_unknown_producer_keeps_the_target_unknown() -> None:
    commands = [c for c in analyze("find / | xargs rm -rf").commands if c.program == "rm"]
    assert [(c.origin, c.argv, c.dynamic) for c in commands] == [("xargs", ["rm", "-rf"], True)]


def test_find_exec_keeps_the_placeholder() -> None:
    commands = [c for c in analyze("find / -exec rm -rf {} +").commands if c.program == "rm"]
    assert [(c.origin, c.argv, c.dynamic) for c in commands] == [("find -exec", ["rm", "-rf", "{}"], True)]


HIDDEN = [
    "$CMD -rf /",
    "$(echo rm) -rf /",
    "`printf rm` -rf /",
    "${PATH:0:1}bin${PATH:0:1}rm -rf /",
    "eval \"$PAYLOAD\"",
    "bash -c \"$SCRIPT\"",
    "/???/r? -rf /",
    "python -c 'import os; os.system(cmd)'",
    "echo 'rm -rf /",
]


@pytest.mark.parametrize("command", HIDDEN)
def test_what_cannot_be_seen_is_reported(command: str) -> None:
    result = analyze(command)
    assert not result.complete
    assert result.problems


def test_a_variable_value_is_assumed_next_to_the_command_as_written() -> None:
    result = analyze("x=rm; if c; then x=ls; fi; $x -rf /")
    assert [c.argv for c in result.commands] == [["c"], ["$x", "-rf", "/"], ["ls", "-rf", "/"]]
    assert all(c.dynamic for c in result.commands[1:])
    assert not result.complete
    assert any("assumed ls" in p for p in result.problems)


def test_computed_values_are_not_assumed() -> None:
    result = analyze("x=rm; x=$(pick); $x -rf /")
    assert [c.argv for c in result.commands] == [["pick"], ["$x", "-rf", "/"]]


def test_loop_values_are_read_in_the_body_and_the_last_is_assumed_after() -> None:
    """In the body f is each literal word (known: one command each, as written no more);
    after the loop it is assumed to be the last word, next to the command as written."""
    result = analyze("for f in a b; do rm \"$f\"; done; echo $f; for g in $(ls); do rm $g; done")
    assert [c.argv for c in result.commands] == [["rm", "a"], ["rm", "b"], ["echo", "$f"], ["echo", "b"], ["ls"], ["rm", "$g"]]

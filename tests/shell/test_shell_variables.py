"""Shell variables whose every value is known are read in place (guidance.shell.variables).

`tmp=$(mktemp -d) && ... && rm -rf "$tmp"` deletes a new temp directory (or nothing, when
mktemp failed); `OUT=./build; rm -rf "$OUT"` deletes ./build. When any value may differ at
run time (a branch, a loop, a function, `source`, another process) the command stays as
written: `$OUT`, dynamic, and the gates ask.
"""

from __future__ import annotations

import pytest

from cf_guidance.shell import analyze
from cf_guidance.shell.variables import mktemp_path, segments

TEMP = "$TMPDIR/tmp.XXXXXXXXXX"


def argvs(command: str, program: str) -> list[list[str]]:
    return [c.argv for c in analyze(command).commands if c.program == program]


READ_IN_PLACE = [
    ('OUT=./build; rm -rf "$OUT"', [["rm", "-rf", "./build"]]),
    ('OUT=build && rm -rf "$OUT"/', [["rm", "-rf", "build/"]]),
    ("OUT=dist; rm -rf $OUT", [["rm", "-rf", "dist"]]),
    ('OUT=~/cache; rm -rf "${OUT}"', [["rm", "-rf", "~/cache"]]),
    ('dirs=(build dist "out dir"); rm -rf "${dirs[@]}"', [["rm", "-rf", "build", "dist", "out dir"]]),
    ('dirs=(build dist); rm -rf "${dirs[0]}"', [["rm", "-rf", "build"]]),
    ('args=(-rf "$HOME"); rm "${args[@]}"', [["rm", "-rf", "$HOME"]]),
    ('tmp=$(mktemp -d) && cd "$tmp" && rm -rf "$tmp"', [["rm", "-rf", TEMP], ["rm", "-rf", ""]]),
    ('tmp="$(mktemp -d)"; rm -rf "$tmp"', [["rm", "-rf", TEMP], ["rm", "-rf", ""]]),
    ('tmp=$(mktemp -d); rm -rf "$tmp"/*', [["rm", "-rf", TEMP + "/*"], ["rm", "-rf", "/*"]]),
    ('A=./build; B="$A/cache"; rm -rf "$B"', [["rm", "-rf", "./build/cache"]]),
    ('export OUT=./build; rm -rf "$OUT"', [["rm", "-rf", "./build"]]),
    ("OUT=./build; (rm -rf \"$OUT\")", [["rm", "-rf", "./build"]]),
    ('OUT=./build; echo "$(rm -rf "$OUT")"', [["rm", "-rf", "./build"]]),
    ('OUT=./b; if c; then OUT=~; fi; rm -rf "$OUT"', [["rm", "-rf", "./b"], ["rm", "-rf", "~"]]),
    ('OUT=./b; c && OUT=/srv; rm -rf "$OUT"', [["rm", "-rf", "./b"], ["rm", "-rf", "/srv"]]),
    ('OUT=./b; bash -c "rm -rf $OUT"', [["rm", "-rf", "./b"]]),
    ("D=$(mktemp -d); trap 'rm -rf \"$D\"' EXIT; make", [["rm", "-rf", TEMP], ["rm", "-rf", ""]]),
]


@pytest.mark.parametrize(("command", "expected"), READ_IN_PLACE)
def test_known_values_are_read_in_place(command: str, expected: list[list[str]]) -> None:
    result = analyze(command)
    removes = [c for c in result.commands if c.program == "rm"]
    assert [c.argv for c in removes] == expected
    assert not any(c.dynamic for c in removes)


# Where a value may differ when the command runs, the command stays as written (dynamic: the
# gates ask); the older guess of the last literal value may be added next to it.
STAYS_AS_WRITTEN = [
    'rm -rf "$OUT"',  # the environment's
    'OUT=./b; for i in 1 2; do rm -rf "$OUT"; OUT=~; done',  # the next round sees ~
    'OUT=./b; while read -r OUT; do rm -rf "$OUT"; done < list',
    'f() { OUT=~; }; OUT=./b; f; rm -rf "$OUT"',  # a function may change it when called
    'OUT=./b; source env.sh; rm -rf "$OUT"',  # a sourced file may change anything
    'OUT=./b; eval "$CMD"; rm -rf "$OUT"',
    'OUT=./b; read OUT; rm -rf "$OUT"',
    'OUT=./b; declare -n ref=OUT; ref=~; rm -rf "$OUT"',
    'OUT=./b; OUT+=/..; rm -rf "$OUT"',
    "OUT=./b; bash -c 'rm -rf \"$OUT\"'",  # another process: its own environment
    'OUT=./b; OUT=$(cat dir.txt); rm -rf "$OUT"',
    'rm -rf "${OUT:-build}"',
    "T=$(mktemp -d); trap 'rm -rf \"$T\"' EXIT; T=~",  # the trap runs with the last value
    'OUT=./b; (( OUT = 1 )); rm -rf "$OUT"',
    'x=./b; for ((i=0; i<2; i++)); do rm -rf "$x"; x=~; done',
    "OUT=./b; shopt -s expand_aliases; alias x='OUT=~'; x; rm -rf \"$OUT\"",
    "OUT=./b; trap 'OUT=~' USR1; kill -USR1 $$; rm -rf \"$OUT\"",
    "OUT=./b; trap 'eval \"$X\"' USR1; kill -USR1 $$; rm -rf \"$OUT\"",
]


@pytest.mark.parametrize("command", STAYS_AS_WRITTEN)
def test_values_that_may_differ_are_not_read(command: str) -> None:
    removes = [c for c in analyze(command).commands if c.program == "rm"]
    assert removes and all(c.dynamic for c in removes), [c.argv for c in removes]
    assert any("$" in " ".join(c.argv) for c in removes)


def test_a_subshell_or_pipeline_assignment_does_not_reach_the_parent() -> None:
    assert argvs('OUT=./b; (OUT=~); rm -rf "$OUT"', "rm") == [["rm", "-rf", "./b"]]
    assert argvs('OUT=./b; echo x | OUT=~; rm -rf "$OUT"', "rm") == [["rm", "-rf", "./b"]]
    assert argvs('OUT=./b; OUT=~ & rm -rf "$OUT"', "rm") == [["rm", "-rf", "./b"]]


def test_redirect_targets_with_one_known_value_are_read() -> None:
    (echo,) = [c for c in analyze('LOG=./build/log.txt; echo hi > "$LOG"').commands if c.program == "echo"]
    assert echo.redirects == [(">", "./build/log.txt")]


MKTEMP = [
    (["mktemp"], TEMP),
    (["mktemp", "-d"], TEMP),
    (["mktemp", "-d", "-t", "ci.XXXXXX"], "$TMPDIR/ci.XXXXXX"),
    (["mktemp", "-d", "-p", "/var/tmp"], "/var/tmp/tmp.XXXXXXXXXX"),
    (["mktemp", "--tmpdir=build", "-d", "x.XXX"], "build/x.XXX"),
    (["mktemp", "-d", "build/tmp.XXXX"], "build/tmp.XXXX"),
    (["mktemp", "-d", "/home/dev/x.XXXX"], "/home/dev/x.XXXX"),
    (["mktemp", "-p", "$(pwd)"], None),
]


@pytest.mark.parametrize(("argv", "expected"), MKTEMP)
def test_mktemp_path(argv: list[str], expected: str | None) -> None:
    assert mktemp_path(argv) == expected


SEGMENTS = [
    ('"$tmp"', [(True, "tmp", True)]),
    ('"$tmp"/x', [(True, "tmp", True), (False, "/x", False)]),
    ("${dirs[@]}", [(True, "dirs[@]", False)]),
    ("'$tmp'", None),
    ('"${x:-y}"', None),
    ('"$(ls)"', None),
    ("$1", [(True, "1", False)]),  # a function's argument, known while a call is read
    ("$0", None),
    ('"a\\$b"', None),
]


@pytest.mark.parametrize(("raw", "expected"), SEGMENTS)
def test_only_plain_references_are_read(raw: str, expected: list[tuple[bool, str, bool]] | None) -> None:
    assert segments(raw) == expected

"""Every entry of the effect model's tables against its own examples, through the whole guard.

An entry's `block` lines must be asked about or denied, with the entry's code among the
findings (EFF001 may become EFF002 on a shared target; a printed credential is EFF004, EFF005
or SEC004 by where it goes), and the entry must be the one the
model matched for a command of the line. Its `allow` lines (the look-alikes) must pass the
whole guard. Every entry says what it catches or what it leaves alone, and every entry that
can block has a line it blocks.
"""

from __future__ import annotations

import pytest

from cf_guidance.gates.commands.effects import (
    _FAMILIES, _SELECTING, CREDENTIAL, HARMLESS, PROGRAMS, REMOTE_CHANGE, SHARED_CHANGE, Entry, Table, all_tables, match,
)
from cf_guidance.gates.commands.effects.selection import SELECTING, SELECTORS, Selector
from cf_guidance.gates.registry import all_rules
from cf_guidance.shell import analyze
from tests.gates.support import bash, decide

TABLES = all_tables()
ENTRIES = [(table, entry) for table in TABLES for entry in table.entries + table.always]
BLOCK = [(table, entry, line) for table, entry in ENTRIES for line in entry.block]
ALLOW = [(table, entry, line) for table, entry in ENTRIES for line in entry.allow]


def _id(table: Table, entry: Entry, line: str) -> str:
    return f"{table.programs[0]}:{line[:60]}"


@pytest.mark.parametrize(("table", "entry", "line"), BLOCK, ids=[_id(*case) for case in BLOCK])
def test_block_examples_are_blocked_by_their_entry(table: Table, entry: Entry, line: str) -> None:
    analysis = analyze(line)
    matched = [e for cmd in analysis.commands for e, _, _ in match(cmd, analysis)]
    assert any(e is entry for e in matched), f"{line!r} does not reach this entry of {table.programs[0]}"
    decision = decide(bash(line))
    codes = {f.rule for f in decision.findings if f.verdict in ("ask", "deny")}
    wanted = {entry.code, SHARED_CHANGE} if entry.code == REMOTE_CHANGE else {entry.code}
    if entry.effect == CREDENTIAL:  # where the credential goes decides: printed, handed on, sent out
        wanted = {"EFF004", "EFF005", "SEC004"}
    assert decision.verdict in ("ask", "deny") and codes & wanted, (line, decision.verdict, sorted(codes))


@pytest.mark.parametrize(("table", "entry", "line"), ALLOW, ids=[_id(*case) for case in ALLOW])
def test_allow_examples_pass_the_whole_guard(table: Table, entry: Entry, line: str) -> None:
    decision = decide(bash(line))
    assert decision.verdict in ("allow", "warn"), (line, [f"{f.rule}:{f.verdict}" for f in decision.findings])


@pytest.mark.parametrize(("table", "entry"), ENTRIES, ids=[f"{t.programs[0]}:{' '.join(str(sorted(w.exact)) for w in e.words)}:{e.code}" for t, e in ENTRIES])
def test_every_entry_says_what_it_catches_or_leaves_alone(table: Table, entry: Entry) -> None:
    assert entry.block or entry.allow
    if entry.effect not in HARMLESS:
        assert entry.block and entry.code, "an entry that can block needs a code and a line it blocks"
    else:
        assert not entry.block and not entry.code


SELECTOR_BLOCK = [(selector, line) for selector in SELECTORS for line in selector.block]
SELECTOR_ALLOW = [(selector, line) for selector in SELECTORS for line in selector.allow]


@pytest.mark.parametrize(("selector", "line"), SELECTOR_BLOCK, ids=[line[:60] for _, line in SELECTOR_BLOCK])
def test_a_production_target_chosen_earlier_on_the_line_is_denied(selector: Selector, line: str) -> None:
    analysis = analyze(line)
    assert any(cmd.program == selector.program and selector.chosen(cmd) for cmd in analysis.commands), line
    decision = decide(bash(line))
    assert decision.verdict == "deny", (line, [f"{f.rule}:{f.verdict}" for f in decision.findings])


@pytest.mark.parametrize(("selector", "line"), SELECTOR_ALLOW, ids=[line[:60] for _, line in SELECTOR_ALLOW])
def test_a_local_or_development_target_chosen_earlier_on_the_line_passes(selector: Selector, line: str) -> None:
    analysis = analyze(line)
    assert any(cmd.program == selector.program and selector.chosen(cmd) for cmd in analysis.commands), line
    decision = decide(bash(line))
    assert decision.verdict in ("allow", "warn"), (line, [f"{f.rule}:{f.verdict}" for f in decision.findings])


def test_the_selecting_programs_are_the_selectors_programs() -> None:
    assert _SELECTING == SELECTING


@pytest.mark.parametrize("selector", SELECTORS, ids=[f"{s.program} {' '.join(s.path)}" for s in SELECTORS])
def test_every_selector_has_examples(selector: Selector) -> None:
    assert selector.block or selector.allow


def test_every_code_of_the_tables_is_registered() -> None:
    known = {rule.code for _, rule in all_rules()}
    assert {entry.code for _, entry in ENTRIES if entry.code} <= known


def test_the_family_index_lists_exactly_the_tables_programs() -> None:
    programs = [program for table in TABLES for program in table.programs]
    assert len(programs) == len(set(programs)), "a program has two tables"
    assert set(programs) == PROGRAMS == {p for family in _FAMILIES.values() for p in family}


def test_counts() -> None:
    """The size of the model (reported in the closing note of issue 13)."""
    assert len(TABLES) >= 30 and len(BLOCK) >= 250 and len(ALLOW) >= 250, (len(TABLES), len(BLOCK), len(ALLOW))

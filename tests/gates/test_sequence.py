"""Sequence gate: `git commit` needs a successful `make test` earlier in the session."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from cf_guidance.decision import ASK, DENY, WARN
from cf_guidance.event import Event
from cf_guidance.gates import sequence
from cf_guidance.gates._base import STRICT, GateContext

BUNDLE: dict[str, Any] = {
    "root": "/p",
    "checks": [{"id": "R7#1", "rule": "R7", "kind": "sequence", "verdict": "deny", "before": ["make", "test"],
                "then": ["git", "commit"], "message": "Run `make test` before every commit", "source": "CLAUDE.md:7"}],
}


def h(command: str, ok: bool = True) -> dict[str, Any]:
    return {"command": command, "ok": ok, "seq": None, "ts": ""}


def run(command: str, history: list[dict[str, Any]] | None, *, level: str = "standard", bundle: dict[str, Any] = BUNDLE) -> list[Any]:
    event = Event(tool="Bash", command=command, session_id="s", cwd="/p")
    extras = {} if history is None else {"history": history}
    return sequence.check(GateContext(event, bundle, level=level, extras=extras))


@pytest.mark.parametrize(
    ("command", "history", "verdict"),
    [
        ("git commit -m x", [], DENY),
        ("git commit -m x", [h("make test")], None),
        ("git commit -m x", [h("make test", ok=False)], DENY),
        ("git commit -m x", [h("make test"), h("make test", ok=False)], DENY),
        ("git commit -m x", [h("make test", ok=False), h("make test")], None),
        ("git commit -m x", [h("make test"), h("git commit -m a")], DENY),  # each commit needs its own test run
        ("git commit -m x", [h("make test && git commit -m a")], DENY),
        ("git commit -m x", [h("make test"), h("git commit -m a", ok=False)], None),  # the failed commit used nothing up
        ("git commit -m x", [h("make lint"), h("ls")], DENY),
        ("git commit -m x", [h("cd src && make test")], None),
        ("git commit -m x", [h("echo make test")], DENY),  # a mention is not a run
        ("make test && git commit -m x", [], None),
        ("make test && git add src/ && git commit -m x", [], None),  # issue 13: other && commands between
        ("make test && git add src/; git commit -m x", [], DENY),
        ("make test || git add . && git commit -m x", [], DENY),
        ("make test; git commit -m x", [], DENY),
        ("make test || git commit -m x", [], DENY),
        ("git status", [], None),
        ("echo 'git commit'", [], None),
        ("bash -c 'git commit -m x'", [], DENY),
        ("git -C sub commit -m x", [], DENY),  # global options before the subcommand do not hide it
    ],
)
def test_sequence_table(command: str, history: list[dict[str, Any]], verdict: str | None) -> None:
    findings = run(command, history)
    assert [f.verdict for f in findings] == ([verdict] if verdict else [])


def test_message_says_what_to_run() -> None:
    finding = run("git commit -m x", [])[0]
    assert finding.rule == sequence.MISSING
    assert "`make test`" in finding.message and "CLAUDE.md:7" in finding.message and "R7" in finding.message
    assert finding.hint.startswith("run `make test` first")


def test_history_unavailable_warns_then_asks_when_strict() -> None:
    assert [f.verdict for f in run("git commit -m x", None)] == [WARN]
    assert [f.verdict for f in run("git commit -m x", None, level=STRICT)] == [ASK]
    assert [f.rule for f in run("git commit -m x", None)] == [sequence.NO_HISTORY]


def test_rule_verdict_is_kept() -> None:
    bundle = {"checks": [dict(BUNDLE["checks"][0], verdict="ask")]}
    assert [f.verdict for f in run("git commit -m x", [], bundle=bundle)] == [ASK]


def test_no_sequence_checks_no_findings() -> None:
    assert run("git commit -m x", [], bundle={"checks": []}) == []


def test_each_rule_reports_once_and_rules_on_the_same_command_are_independent() -> None:
    lint = dict(BUNDLE["checks"][0], id="R8#1", rule="R8", before=["make", "lint"])
    bundle = {"checks": [BUNDLE["checks"][0], lint, {"kind": "command", "pattern": ["git", "commit"]}]}
    findings = run("git commit -m a && git commit --amend", [h("make lint")], bundle=bundle)
    assert [("`make test`" in f.message, f.verdict) for f in findings] == [(True, DENY)]
    findings = run("git commit -m a", [], bundle=bundle)
    assert len(findings) == 2


# -- the history walk: bounded, and answering as the per-rule walk it replaced ----------------


@functools.lru_cache(maxsize=None)
def _analysed(command: str) -> Any:
    from cf_guidance.shell import analyze

    return analyze(command)


def _as_matched(pattern: list[str]) -> list[str]:
    """A pattern as the gate matches it (`./scripts/check.sh` by its program's name)."""
    return sequence._Pattern(pattern).words


def _commands(command: str) -> list[Any]:
    """The commands of an entry as the gate reads them: with what an interpreter of one runs."""
    return sequence._run_forms(_analysed(command).commands)


def reference_satisfied(history: list[dict[str, Any]], before: list[str], then: list[str]) -> bool:
    """The walk before one pass per `then` group (kept as the reference): per rule, back through
    the history, analysing every entry that mentions either program (analyses kept across calls
    here only to keep the test fast: the analysis of a text is a function of the text)."""
    from cf_guidance.gates.patterns import matches

    before, then = _as_matched(before), _as_matched(then)
    program = before[0]
    then_program = then[0]
    literal = not any(c in program + then_program for c in "*?[")
    for entry in reversed(history):
        command = entry.get("command")
        if not isinstance(command, str):
            continue
        if literal and program not in command and then_program not in command:
            continue
        ok = entry.get("ok") is True
        commands = _commands(command)
        for cmd in reversed(commands):
            if matches(then, cmd) and ok:
                return False
            if matches(before, cmd):
                return ok
    return False


#: History entries: runs, failures, chains, substitutions, wrappers, mentions, and lines whose
#: analysis builds words that are not in the text (quotes, escapes, braces, variables, decoders,
#: printf, xargs, inline code, heredocs), which the text skip must not judge by their text.
ENTRY_POOL = (
    "make test", "make test6", "make test66", "make lint", "make", "make test && git commit -m a", "git commit -m a",
    "git commit --amend", "git status", "git add -A && git commit -m 'feat: x'", "cd src && make test", "echo make test",
    "npm test", "npm run test", "npm run lint && npm test", "pytest -q", "python -m pytest", "ls -la", "cat README.md",
    "sudo make test", "timeout 60 make test", "env CI=1 make test", "bash -c 'make test'", "sh -c make\\ test",
    "echo $(make test)", "x=$(git commit -m y)", "make test || true", "make test; git commit -m b", "ma'ke' te\"st\"",
    "m\\ake test", "{ma,}ke test", "ma{k,}e te{s,}t", "X=make; $X test", "for t in make; do $t test; done",
    "echo tset ekam | rev | sh", "echo bWFrZSB0ZXN0 | base64 -d | bash", "printf %s%s ma ke | sh", "printf 'make test' | sh",
    "echo test | xargs make", "echo | xargs", "ls | xargs", "python3 -c 'import os; os.system(\"make test\")'",
    "python3 <<EOF\nimport subprocess\nsubprocess.run(['git', 'commit', '-m', 'x'])\nEOF", "bash <<EOF\nmake test\nEOF",
    "bash <<< 'git commit -m z'", "perl -e 'system(\"ma\" . \"ke\", \"test\")'", "node -e \"require('child_process').execSync('make test')\"",
    "git -C sub commit -m x", "/usr/bin/make test", "./make test", "make ./test", "make test/", "make -k test", "make test6 test16",
    "watch -x make test", "find . -exec make test ;", "docker exec c make test", "ssh host make test", "eval make test",
    "echo nzxr grfg | tr a-z n-za-m | sh", "make\ttest", "make  test", "git   commit", "gitcommit", "git commit-tree x",
    "npx jest", "npm t", "./scripts/check.sh", "scripts/check.sh --all", "check.sh", "tox -e py311", "", "  ",
)
PATTERN_POOL = (
    ["make", "test"], ["make", "test6"], ["make", "lint"], ["make"], ["git", "commit"], ["npm", "test"], ["npm", "run", "test"],
    ["pytest"], ["python", "-m", "pytest"], ["make", "test*"], ["ma*", "test"], ["mak?", "t*"], ["[m]ake", "test"],
    ["./scripts/check.sh"], ["check.sh", "--all"], ["make", "-k"], ["make", "./test"], ["make", "test/"], ["git", "commit", "*"],
    ["npm", "*"], ["tox", "-e", "py311"], ["*"], ["g*", "commit"],
)


def _random_history(rng: Any) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = []
    for _ in range(rng.randrange(0, 14)):
        command: Any = rng.choice(ENTRY_POOL)
        roll = rng.random()
        if roll < 0.1:
            command = rng.choice(ENTRY_POOL) + rng.choice((" && ", "; ", " | ", " || ")) + rng.choice(ENTRY_POOL)
        elif roll < 0.13:
            command = rng.choice((None, 7, ["make", "test"]))  # malformed entries are skipped
        history.append({"command": command, "ok": rng.choice((True, True, False, None, "yes")), "seq": None, "ts": ""})
    return history


#: one group per (then, befores), so its memoised effects serve every later history walked with it
_GROUPS: dict[Any, Any] = {}


def _walk(history: list[dict[str, Any]], then: list[str], befores: list[list[str]], *, prefilter: bool) -> list[bool]:
    key = (tuple(then), tuple(tuple(b) for b in befores))
    group = _GROUPS.get(key)
    if group is None:
        group = _GROUPS[key] = sequence._Group(sequence._Pattern(then), [{} for _ in befores], [sequence._Pattern(b) for b in befores])
    old = sequence.PREFILTER
    sequence.PREFILTER = prefilter
    try:
        ctx = GateContext(Event(tool="Bash", command="git commit -m x", session_id="s", cwd="/p"), BUNDLE)
        answers = sequence.satisfied(ctx, history, group, range(len(befores)))
        return [bool(answers.get(k)) for k in range(len(befores))]
    finally:
        sequence.PREFILTER = old


def test_one_walk_per_group_answers_as_the_walk_per_rule() -> None:
    import random

    rng = random.Random(20261122)
    for _ in range(1500):
        history = _random_history(rng)
        then = rng.choice(PATTERN_POOL)
        befores = [rng.choice(PATTERN_POOL) for _ in range(rng.randrange(1, 5))]
        expected = [reference_satisfied(history, before, then) for before in befores]
        for prefilter in (True, False):
            assert _walk(history, then, befores, prefilter=prefilter) == expected, (history, then, befores, prefilter)


def _reference_chained_after(analysis: Any, index: int, before: list[str]) -> bool:
    """The `&&` test, rule by rule: a top-level command matching `before` earlier on the line,
    with only `&&` between each pair of top-level commands from it to the target (issue 13:
    `make test && git add . && git commit` is satisfied)."""
    from cf_guidance.gates.patterns import matches

    before = _as_matched(before)
    source = analysis.source
    target = analysis.commands[index]
    if not target.text:
        return False
    top = [c for c in analysis.commands[: index + 1] if not c.origin and c.text]
    spans = []
    position = 0
    for cmd in top:
        start = source.find(cmd.text, position)
        if start == -1:
            return False
        spans.append((cmd, start, start + len(cmd.text)))
        position = start + len(cmd.text)
    for k in range(len(spans) - 1, 0, -1):
        if source[spans[k - 1][2] : spans[k][1]].strip() != "&&":
            return False  # the chain to the target starts after this separator
        if any(matches(before, cmd) for cmd in sequence._run_forms([spans[k - 1][0]])):
            return True
    return False


def reference_check(command: str, history: list[dict[str, Any]] | None, checks: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    """Rule by rule: its first command matching `then`, unless an `&&`-joined `before` precedes
    it, is checked against the history (code, segment, `then`, `before` of each finding)."""
    from cf_guidance.gates.commands import describe
    from cf_guidance.gates.patterns import matches

    analysis = _analysed(command)
    out = []
    seen: set[int] = set()
    for item in checks:
        before, then = item.get("before"), item.get("then")
        if item.get("kind") != "sequence" or id(item) in seen or not (isinstance(before, list) and isinstance(then, list) and before and then):
            continue
        seen.add(id(item))
        for position, cmd in enumerate(analysis.commands):
            if not matches(_as_matched(then), cmd):
                continue
            if not _reference_chained_after(analysis, position, before):
                if history is None:
                    out.append((sequence.NO_HISTORY, describe(cmd), " ".join(then), " ".join(before)))
                elif not reference_satisfied(history, before, then):
                    out.append((sequence.MISSING, describe(cmd), " ".join(then), " ".join(before)))
            break
    return sorted(out)


GATED_POOL = ("git commit -m x", "git commit --amend", "npm test", "make test", "make", "pytest -q", "tox -e py311", "./scripts/check.sh", "gitx commit")


def test_the_gate_reports_as_rule_by_rule_checks() -> None:
    """Whole lines (chains of pool entries and gated commands) against random rule sets, with
    and without PREFILTER: the same findings as the rule-by-rule reference."""
    import random
    import re

    rng = random.Random(1122)
    for round_ in range(600):
        checks: list[dict[str, Any]] = []
        for k in range(rng.randrange(1, 7)):
            checks.append({"id": f"R{k}", "rule": f"R{k}", "kind": "sequence", "verdict": "deny",
                           "before": rng.choice(PATTERN_POOL), "then": rng.choice(PATTERN_POOL), "source": "CLAUDE.md:1"})
        if rng.random() < 0.2:
            checks.append(checks[0])  # listed twice: reported once
        parts = [rng.choice(GATED_POOL if rng.random() < 0.6 else ENTRY_POOL) for _ in range(rng.randrange(1, 4))]
        line = parts[0]
        for part in parts[1:]:
            line += rng.choice((" && ", " &&  ", "; ", " || ", " | ", " &&\n")) + part
        history = None if rng.random() < 0.1 else _random_history(rng)
        expected = reference_check(line, history, checks)
        for prefilter in (True, False):
            old = sequence.PREFILTER
            sequence.PREFILTER = prefilter
            try:
                bundle = {"root": "/p", "checks": checks}  # a new bundle: a new index, its own memo
                for _ in range(2):  # the second event finds the history's effects memoised
                    findings = run(line, None if history is None else list(history), bundle=bundle)
                    got = sorted((f.rule, f.segment, *re.findall(r"`([^`]*)`", f.message)[:2]) for f in findings)
                    assert got == expected, (round_, line, history, checks, prefilter)
            finally:
                sequence.PREFILTER = old


@pytest.mark.parametrize("entry", ENTRY_POOL)
def test_every_pool_entry_alone_and_after_a_commit(entry: str) -> None:
    """Each entry decides each pair of patterns as the reference does, as the latest entry and
    before a later successful commit, succeeded or failed."""
    for ok in (True, False):
        for history in ([h(entry, ok)], [h(entry, ok), h("git commit -m z")], [h("make test"), h(entry, ok)]):
            for then in PATTERN_POOL:
                befores = list(PATTERN_POOL)
                expected = [reference_satisfied(history, before, then) for before in befores]
                assert _walk(history, then, befores, prefilter=True) == expected, (history, then)


def test_the_text_skip_only_judges_entries_whose_words_are_in_their_text() -> None:
    """`_transparent` entries: every word of every analysed command is a substring of the text
    (what lets a missing literal word rule an entry out without analysing it)."""
    from cf_guidance.shell import analyze

    transparent = [entry for entry in ENTRY_POOL if sequence._transparent(entry)]
    assert "make test && git commit -m a" in transparent and "git commit --amend" in transparent
    for entry in ENTRY_POOL:
        if sequence._transparent(entry):
            for cmd in analyze(entry).commands:
                assert all(word in entry for word in cmd.argv), (entry, cmd)
    for entry in ("ma'ke' test", "{ma,}ke", "$X test", "echo tset | rev | sh", "ls | xargs", "printf %s ma", "echo é", "a > b"):
        assert not sequence._transparent(entry)


def _bundle18() -> dict[str, Any]:
    """The benchmark's shape: 18 rules `git commit` after `make testK`."""
    checks = [dict(BUNDLE["checks"][0], id=f"R{k}", rule=f"R{k}", before=["make", f"test{k}"]) for k in range(18)]
    return {"root": "/p", "checks": checks}


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records every text the gate analyses (the event's own command excluded), starting with an empty memo."""
    from cf_guidance import shell

    seen: list[str] = []
    real = shell.analyze

    def counting(command: str) -> Any:
        if command != "git commit -m x":
            seen.append(command)
        return real(command)

    monkeypatch.setattr(shell, "analyze", counting)
    monkeypatch.setattr(sequence, "_EFFECTS", sequence._Memo(2048))
    return seen


def _kept() -> dict[Any, dict[str, Any]]:
    """The memo's contents, checked against its count."""
    kept = {group: dict(effects) for group, effects in sequence._EFFECTS.groups.items() if effects}
    assert sequence._EFFECTS.size == sum(len(effects) for effects in kept.values())
    return kept


def _missing_rules(bundle: dict[str, Any], history: list[dict[str, Any]]) -> list[str]:
    event = Event(tool="Bash", command="git commit -m x", session_id="s", cwd="/p")
    # fresh strings, as the hook loads the history anew for every event
    history = [dict(entry, command="".join(list(entry["command"]))) for entry in history]
    return sorted(f.message.split("(")[-1].split(",")[0] for f in sequence.check(GateContext(event, bundle, extras={"history": history})))


def test_each_history_text_is_analysed_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _counting(monkeypatch)
    bundle = _bundle18()
    history = [h("git status"), h("git commit -m a"), h("make lint")] + [h("git log") for _ in range(50)] + [h("make test3"), h("make test3")]
    assert len(_missing_rules(bundle, history)) == 17  # only `make test3` ran after the last commit
    assert sorted(seen) == ["git commit -m a", "make test3"]  # the rest lack `commit` and each rule's words
    seen.clear()
    assert len(_missing_rules(bundle, history)) == 17
    assert seen == []  # the next event: the same texts, nothing analysed again
    assert len(_missing_rules(bundle, history + [h("make test5")])) == 16
    assert seen == ["make test5"]  # a new text is analysed once
    sequence._EFFECTS = sequence._Memo(2048)
    seen.clear()
    assert len(_missing_rules(bundle, history)) == 17
    assert sorted(seen) == ["git commit -m a", "make test3"]  # an emptied memo is refilled


def test_a_changed_history_changes_the_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo keeps what a text decides, never a decision: every event walks its own history."""
    _counting(monkeypatch)
    bundle = _bundle18()
    everything = [h(f"make test{k}") for k in range(18)]
    steps: list[tuple[list[dict[str, Any]], int]] = [
        ([h("git commit -m a")] + everything, 0),
        ([h("git commit -m a")] + everything[:-1] + [h("make test17", ok=False)], 1),  # ok -> failed
        ([h("git commit -m a")] + everything, 0),  # failed -> ok again
        ([h("git commit -m a")] + everything + [h("git commit -m b")], 18),  # a new commit uses them all up
        ([h("git commit -m a")] + everything + [h("git commit -m b", ok=False)], 0),  # a failed one does not
        ([h("git commit -m a")] + everything + [h("git commit -m b"), h("make test4")], 17),  # new entries
        ([h("git commit -m a")] + everything + [h("git commit -m b"), h("make test4 && make test5")], 16),
        ([h("git commit -m a")] + everything + [h("git commit -m b"), h("make test4 && make test5", ok=False)], 18),
        ([h("git commit -m a")] + everything + [h("git commit -m b"), h("make test4 && make test5")], 16),
        ([], 18),
    ]
    for history, missing in steps:
        assert len(_missing_rules(bundle, history)) == missing, history
        for before in range(18):
            expected = reference_satisfied(history, ["make", f"test{before}"], ["git", "commit"])
            assert (f"R{before}" not in _missing_rules(bundle, history)) == expected


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    _counting(monkeypatch)
    monkeypatch.setattr(sequence, "_EFFECTS", sequence._Memo(50))
    bundles = [_bundle18(), _bundle18()]  # two indexes: the bound holds over all groups
    sizes = []
    groups = set()
    for start in range(0, 400, 20):
        history = [h(f"make test{k % 18} --jobs {k}") for k in range(start, start + 40)]
        _missing_rules(bundles[start // 20 % 2], history)
        kept = _kept()
        sizes.append(sum(len(effects) for effects in kept.values()))
        groups.add(len(kept))
    assert max(sizes) <= 50 and min(sizes) > 0 and groups == {1, 2}
    assert any(later < earlier for earlier, later in zip(sizes, sizes[1:]))  # filled to the bound, emptied, refilled
    sequence._EFFECTS = sequence._Memo(50)
    long_text = "make test1 " + "x" * sequence._MEMO_CHARS
    assert _missing_rules(bundles[0], [h(long_text)]) == sorted(f"R{k}" for k in range(18) if k != 1)
    assert _kept() == {}  # a long text is analysed per event, not kept


def test_the_memo_keeps_a_bounded_number_of_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each recompiled bundle brings new groups; those of replaced bundles do not pile up."""
    monkeypatch.setattr(sequence, "_EFFECTS", sequence._Memo(10_000))
    monkeypatch.setattr(sequence, "_MEMO_GROUPS", 3)
    history = [h("make test1"), h("git status")]
    seen = []
    for _ in range(7):
        _missing_rules(_bundle18(), history)  # a fresh bundle, as after each recompile
        seen.append(len(sequence._EFFECTS.groups))
    assert max(seen) <= 3 and seen[-1] >= 1


def test_memoised_effects_are_immutable_and_unchanged_by_matching(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo holds tuples of (rule number, answer) only: no Command a gate could change, and
    the same values after further events matched against them."""
    _counting(monkeypatch)
    bundle = _bundle18()
    history = [h(c) for c in ENTRY_POOL] + [h("make test3"), h("git commit -m a", ok=False), h("make test4", ok=False),
                                            h("make test6 && git commit -m b && make test7"), h("git commit -m c; make test8", ok=False)]
    first = _missing_rules(bundle, history)
    snapshot = _kept()
    assert snapshot
    for effects in snapshot.values():
        for effect in effects.values():
            hash(effect)  # tuples all the way down
            for decisions in effect:
                assert all(type(k) is int and type(ok) is bool for k, ok in decisions)
                assert len({k for k, _ in decisions}) == len(decisions)  # each rule decided once
    for _ in range(3):
        assert _missing_rules(bundle, history) == first
    assert _kept() == snapshot


def test_shell_analysis_is_a_function_of_the_text(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Why a history text's effect may be kept across events: cf_guidance.shell imports nothing that
    reads the environment, files or the clock, and gives the same commands wherever it runs."""
    import ast
    from pathlib import Path

    import cf_guidance.shell
    from cf_guidance.shell import analyze

    allowed = {"__future__", "binascii", "collections.abc", "typing", "cf_guidance.limits", "cf_guidance.shell"}
    for source in Path(cf_guidance.shell.__file__).parent.glob("*.py"):
        tree = ast.parse(source.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                if isinstance(node, ast.Name):
                    assert node.id not in ("open", "input", "__import__", "os", "sys", "environ"), (source, node.id)
                continue
            for name in names:
                assert name in allowed or name.startswith("cf_guidance.shell."), (source, name)

    def seen() -> list[Any]:
        return [[(c.argv, c.program, c.origin, c.text, c.dynamic) for c in analyze(entry).commands] for entry in ENTRY_POOL]

    here = seen()
    monkeypatch.chdir(tmp_path)
    for name in ("HOME", "PATH", "PWD", "SHELL", "X", "t"):
        monkeypatch.setenv(name, str(tmp_path))
    (tmp_path / "make").write_text("#!/bin/sh\n")
    assert seen() == here


ANY_BUNDLE = {"root": "/p", "checks": [
    {"id": "A#1", "rule": "A", "kind": "sequence", "verdict": "warn", "before": ["flint"], "then": ["git", "commit"],
     "before_any": [["npm", "run", "flint"], ["yarn", "flint"]], "source": "CLAUDE.md:1"},
    {"id": "B#1", "rule": "B", "kind": "sequence", "verdict": "warn", "before": ["git", "diff"], "then": ["git", "push"],
     "before_any": [["git", "status"]], "target": "main", "source": "CLAUDE.md:2"},
]}


@pytest.mark.parametrize(
    ("command", "history", "rules"),
    [
        ("git commit -m x", [], ["A"]),
        ("git commit -m x", [h("npm run flint")], []),  # any of `before_any` satisfies the rule
        ("git commit -m x", [h("flint")], []),
        ("git commit -m x", [h("yarn flint", ok=False)], ["A"]),
        ("npm run flint && git commit -m x", [], []),
        ("git push origin main", [], ["B"]),  # `target`: only pushes to that branch are gated
        ("git push origin HEAD:main", [h("git status")], []),
        ("git push origin feat/x", [], []),
        ("git push -u origin main", [h("git diff --stat origin/main")], []),
    ],
)
def test_any_of_several_befores_and_a_target_branch(command: str, history: list[dict[str, Any]], rules: list[str]) -> None:
    assert [f.message.rsplit("(", 1)[1].split(",")[0] for f in run(command, history, bundle=ANY_BUNDLE)] == rules


# -- steps that are tool uses (a read or an edit of a file) --------------------------------------

STEP_BUNDLE = {"root": "/p", "checks": [
    # "Read `docs/arch.md` before changing anything in `core/`"
    {"id": "R#1", "rule": "R", "kind": "sequence", "verdict": "warn", "step": "read", "paths": ["docs/arch.md"],
     "then": [], "then_paths": ["core/**"], "source": "CLAUDE.md:1"},
    # "Update `CHANGELOG.md` before every commit"
    {"id": "C#1", "rule": "C", "kind": "sequence", "verdict": "deny", "step": "edit", "paths": ["CHANGELOG.md"],
     "then": ["git", "commit"], "source": "CLAUDE.md:2"},
    # "When you change `api/settings.py`, update `docs/settings.md`"
    {"id": "S#1", "rule": "S", "kind": "sequence", "verdict": "warn", "step": "edit", "paths": ["docs/settings.md"],
     "then": ["git", "commit"], "edits": ["api/settings.py"], "source": "CLAUDE.md:3"},
    # "Read `CONTRIBUTING.md` before opening a PR"
    {"id": "P#1", "rule": "P", "kind": "sequence", "verdict": "warn", "step": "read", "paths": ["CONTRIBUTING.md"],
     "then": ["gh", "pr", "create"], "source": "CLAUDE.md:4"},
]}


def edited(*paths: str) -> dict[str, Any]:
    return {"edited": [f"/p/{p}" for p in paths], "ok": True, "seq": None, "ts": ""}


def step_rules(tool: str, target: str, history: list[dict[str, Any]] | None, reads: tuple[str, ...] = ()) -> list[str]:
    if tool == "Bash":
        event = Event(tool="Bash", command=target, session_id="s", cwd="/p")
    else:
        event = Event(tool=tool, paths=[(f"/p/{target}", "write")], session_id="s", cwd="/p")
    extras: dict[str, Any] = {} if history is None else {"history": history, "reads": [f"/p/{p}" for p in reads]}
    findings = sequence.check(GateContext(event, STEP_BUNDLE, extras=extras))
    return [f.rule if f.rule == sequence.NO_HISTORY else f"{f.verdict} {f.message.rsplit('CLAUDE.md:', 1)[1].split(')')[0]}"
            for f in findings]


@pytest.mark.parametrize(
    ("tool", "target", "history", "reads", "found"),
    [
        # a read step gates the edits of its files, once per session
        ("Edit", "core/a.py", [], (), ["warn 1"]),
        ("Edit", "core/a.py", [], ("docs/arch.md",), []),
        ("Edit", "core/sub/b.py", [h("git commit -m x")], ("docs/arch.md",), []),  # a read holds for the session
        ("Edit", "core/a.py", [h("cat docs/arch.md")], (), []),  # read through the shell
        ("Edit", "core/a.py", [h("head -50 docs/arch.md | less")], (), []),
        ("Edit", "core/a.py", [h("ls docs")], (), ["warn 1"]),  # a listing reads no file
        ("Edit", "core/a.py", [h("echo docs/arch.md")], (), ["warn 1"]),
        ("Edit", "web/a.ts", [], (), []),  # outside the gated files
        ("Write", "docs/arch.md", [], (), []),
        ("Bash", "sed -i s/a/b/ core/a.py", [], (), ["warn 1"]),  # a shell edit is an edit
        ("Bash", "cat core/a.py", [], (), []),
        # an edit step is owed again after each `then`
        ("Bash", "git commit -m x", [], (), ["deny 2"]),
        ("Bash", "git commit -m x", [edited("CHANGELOG.md")], (), []),
        ("Bash", "git commit -m x", [edited("src/a.py", "CHANGELOG.md")], (), []),
        ("Bash", "git commit -m x", [edited("CHANGELOG.md"), h("git commit -m a")], (), ["deny 2"]),
        ("Bash", "git commit -m x", [edited("CHANGELOG.md"), h("git commit -m a", ok=False)], (), []),
        ("Bash", "git commit -m x", [h("echo '- fix' >> CHANGELOG.md")], (), []),
        ("Bash", "git commit -m x", [h("cat CHANGELOG.md")], (), ["deny 2"]),
        ("Bash", "git status", [], (), []),
        # tied to a change: owed only when the named file changed since the last `then`
        ("Bash", "git commit -m x", [edited("CHANGELOG.md", "api/settings.py")], (), ["warn 3"]),
        ("Bash", "git commit -m x", [edited("CHANGELOG.md"), edited("api/settings.py")], (), ["warn 3"]),
        ("Bash", "git commit -m x", [edited("api/settings.py"), h("pytest"), edited("CHANGELOG.md")], (), ["warn 3"]),
        ("Bash", "git commit -m x", [edited("api/settings.py"), edited("docs/settings.md", "CHANGELOG.md")], (), []),
        ("Bash", "git commit -m x", [edited("api/settings.py"), h("git commit -m a"), edited("CHANGELOG.md")], (), []),
        # a read step before a command
        ("Bash", "gh pr create --fill", [], (), ["warn 4"]),
        ("Bash", "gh pr create --fill", [], ("CONTRIBUTING.md",), []),
        ("Bash", "gh pr view 3", [], (), []),
        # no history: the rule cannot be checked
        ("Bash", "gh pr create --fill", None, (), [sequence.NO_HISTORY]),
    ],
)
def test_steps_that_are_tool_uses(tool: str, target: str, history: list[dict[str, Any]] | None, reads: tuple[str, ...],
                                  found: list[str]) -> None:
    assert step_rules(tool, target, history, reads) == found


def test_a_step_finding_says_what_to_do() -> None:
    finding = sequence.check(GateContext(Event(tool="Edit", paths=[("/p/core/a.py", "write")], session_id="s", cwd="/p"), STEP_BUNDLE,
                                         extras={"history": [], "reads": []}))[0]
    assert finding.message.startswith("Read `docs/arch.md` first: this session has not read it (R, CLAUDE.md:1)")
    assert finding.hint.startswith("read `docs/arch.md` first")

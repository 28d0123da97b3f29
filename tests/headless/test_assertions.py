from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cf_guidance.headless.assertions import REGISTRY, CheckContext, parse_assertion
from cf_guidance.headless.collect import FileChanges

from .helpers import sample_run

CASES: list[tuple[dict[str, Any], bool]] = [
    # ADR-G009 types
    ({"type": "output-contains", "expected": "All done"}, True),
    ({"type": "output-contains", "expected": "all DONE", "ignore_case": True}, True),
    ({"type": "output-contains", "expected": r"\d+ files", "regex": True}, True),
    ({"type": "output-contains", "expected": "nothing like this"}, False),
    ({"type": "output-not-contains", "expected": "password"}, True),
    ({"type": "output-not-contains", "expected": "Working"}, False),
    ({"type": "files-touched", "expected": "app.py"}, True),
    ({"type": "files-touched", "expected": ["docs/*.md", "README.md"]}, True),
    ({"type": "files-touched", "expected": ["missing.py"]}, False),
    ({"type": "files-touched", "expected": ["app.py", "docs/*", "README.md", "old.txt"], "only": True}, True),
    ({"type": "files-touched", "expected": ["app.py"], "only": True}, False),
    ({"type": "no-forbidden-commands", "patterns": [r"git push .*--force"]}, True),  # it was blocked
    ({"type": "no-forbidden-commands", "patterns": [r"git push .*--force"], "attempted": True}, False),
    ({"type": "no-forbidden-commands", "patterns": "git commit"}, False),
    # trajectory
    ({"type": "tool-called", "tool": "Bash", "input": {"command": "^make test$"}}, True),
    ({"type": "tool-called", "tool": "Bash", "input": {"command": "git push"}, "ran": True}, False),
    ({"type": "tool-called", "tool": "Bash", "input": {"command": "git push"}, "ran": False}, True),
    ({"type": "tool-called", "tool": "Bash", "min": 3}, True),
    ({"type": "tool-called", "tool": "Bash", "max": 2}, False),
    ({"type": "tool-called", "tool": "W*", "input": {"file_path": "app\\.py$"}}, True),
    ({"type": "tool-called", "tool": "Read"}, False),
    ({"type": "tool-not-called", "tool": "Read"}, True),
    ({"type": "tool-not-called", "tool": "Bash", "input": {"command": "git push"}}, False),
    ({"type": "tool-not-called", "tool": "Bash", "input": {"command": "git push"}, "ran": True}, True),
    ({"type": "tool-order", "sequence": [{"tool": "Bash", "input": {"command": "make test"}},
                                         {"tool": "Bash", "input": {"command": "git commit"}}]}, True),
    ({"type": "tool-order", "sequence": [{"tool": "Bash", "input": {"command": "git commit"}},
                                         {"tool": "Bash", "input": {"command": "make test"}}]}, False),
    # hooks and permissions
    ({"type": "hook-blocked", "tool": "Bash", "rule": "DST012"}, True),
    ({"type": "hook-blocked", "tool": "Bash", "rule": "DST*"}, True),
    ({"type": "hook-blocked", "tool": "Bash", "rule": "SEC*"}, False),
    ({"type": "hook-blocked", "tool": "Write"}, False),
    ({"type": "hook-blocked", "input": {"command": "make"}}, False),
    ({"type": "permission-denied", "tool": "Bash", "input": {"command": "push"}}, True),
    ({"type": "permission-denied", "tool": "Write"}, False),
    # workspace
    ({"type": "file-created", "path": "app.py"}, True),
    ({"type": "file-created", "path": "docs/*.md"}, True),
    ({"type": "file-created", "path": "README.md"}, False),
    ({"type": "file-modified", "path": "README.md"}, True),
    ({"type": "file-deleted", "path": "old.txt"}, True),
    ({"type": "file-deleted", "path": "app.py"}, False),
    ({"type": "file-unchanged", "path": ".claude/settings.json"}, True),
    ({"type": "file-unchanged", "path": "*.md"}, False),
    ({"type": "files-touched", "expected": []}, False),  # [] means nothing may change
    ({"type": "no-outside-writes"}, False),
    ({"type": "no-outside-writes", "allow": "/etc/*"}, True),  # the denied write and the run's HOME do not count
    ({"type": "no-outside-writes", "allow": "/etc/*", "attempted": True}, False),
    ({"type": "no-outside-writes", "allow": "/etc/*", "include_run_dirs": True}, False),
    # budgets and status
    ({"type": "max-turns", "max": 5}, True),
    ({"type": "max-turns", "max": 2}, False),
    ({"type": "cost-budget", "max_usd": 0.5}, True),
    ({"type": "cost-budget", "max_usd": 0.1}, False),
    ({"type": "token-budget", "max_tokens": 1200}, True),
    ({"type": "token-budget", "max_tokens": 100, "kind": "output"}, False),
    ({"type": "exit-status"}, True),
    ({"type": "exit-status", "expected": 1}, False),
    ({"type": "exit-status", "subtype": "success"}, True),
    ({"type": "exit-status", "subtype": "error_max_turns"}, False),
]


@pytest.mark.parametrize(("spec", "passes"), CASES, ids=[f"{c[0]['type']}-{i}" for i, c in enumerate(CASES)])
def test_assertion_table(spec: dict[str, Any], passes: bool, tmp_path: Path) -> None:
    outcome = parse_assertion(spec).check(CheckContext(sample_run(), "t", workspace=tmp_path, suite_dir=tmp_path))
    assert outcome.passed is passes, outcome
    if not passes:
        assert outcome.reason, "a failed expectation says why"


def test_every_registered_type_is_in_the_table() -> None:
    assert {spec["type"] for spec, _ in CASES} | {"tests-pass", "custom"} == set(REGISTRY)


def test_content_check_reads_the_workspace(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("API_URL = 'x'\n")
    ctx = CheckContext(sample_run(), "t", workspace=tmp_path)
    assert parse_assertion({"type": "file-created", "path": "app.py", "contains": "API_URL"}).check(ctx).passed
    failed = parse_assertion({"type": "file-created", "path": "app.py", "contains": "SECRET"}).check(ctx)
    assert not failed.passed and "SECRET" in failed.reason


@pytest.mark.parametrize(("command", "passes"), [("test -f marker", True), ("exit 3", False), ("echo out; false", False)])
def test_tests_pass_runs_the_command_in_the_workspace(tmp_path: Path, command: str, passes: bool) -> None:
    (tmp_path / "marker").write_text("")
    outcome = parse_assertion({"type": "tests-pass", "command": command}).check(CheckContext(sample_run(), "t", workspace=tmp_path))
    assert outcome.passed is passes
    assert outcome.actual["exit_code"] == (0 if passes else outcome.actual["exit_code"])


def test_tests_pass_timeout(tmp_path: Path) -> None:
    outcome = parse_assertion({"type": "tests-pass", "command": "sleep 5", "timeout": 0.2}).check(
        CheckContext(sample_run(), "t", workspace=tmp_path))
    assert not outcome.passed and "timed out" in outcome.reason


CUSTOM = '''
from cf_guidance.headless.assertions import Outcome

def ok(ctx):
    return None

def no(ctx):
    return False

def reason(ctx, limit):
    return (ctx.run.num_turns <= limit, f"{ctx.run.num_turns} turns")

def raises(ctx):
    assert ctx.run.final_text == "something else", "final text differs"

def boom(ctx):
    raise KeyError("bad")

def outcome(ctx):
    return Outcome(False, 1, 2, "custom outcome")
'''


@pytest.mark.parametrize(
    ("function", "args", "passes", "reason"),
    [
        ("checks:ok", {}, True, ""),
        ("checks:no", {}, False, "custom check returned false"),
        ("checks:reason", {"limit": 10}, True, ""),
        ("checks:reason", {"limit": 1}, False, "5 turns"),
        ("checks:raises", {}, False, "final text differs"),
        ("checks:boom", {}, False, "custom check raised KeyError"),
        ("checks:outcome", {}, False, "custom outcome"),
        ("checks:missing", {}, False, "has no function 'missing'"),
        ("nomodule_xyz:f", {}, False, "module 'nomodule_xyz' not found"),
    ],
)
def test_custom(tmp_path: Path, function: str, args: dict[str, Any], passes: bool, reason: str) -> None:
    (tmp_path / "checks.py").write_text(CUSTOM)
    outcome = parse_assertion({"type": "custom", "function": function, "args": args}).check(
        CheckContext(sample_run(), "t", workspace=tmp_path, suite_dir=tmp_path))
    assert outcome.passed is passes
    assert reason in outcome.reason


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ({"type": "nope"}, "unknown assertion type 'nope'"),
        ({"tool": "Bash"}, "unknown assertion type None"),
        ("output-contains", "a mapping"),
    ],
)
def test_parse_rejects(spec: Any, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        parse_assertion(spec)


def test_labels_default_from_fields() -> None:
    assert parse_assertion({"type": "hook-blocked", "tool": "Bash", "rule": "DST*"}).label() == "hook blocked Bash with DST*"
    assert parse_assertion({"type": "max-turns", "max": 3, "description": "short"}).label() == "short"


def test_files_touched_empty_means_nothing_changed(tmp_path: Path) -> None:
    run = sample_run()
    run.changes = FileChanges()
    assertion = parse_assertion({"type": "files-touched", "expected": []})
    assert assertion.label() == "no file changed"
    assert assertion.check(CheckContext(run, "t", workspace=tmp_path, suite_dir=tmp_path)).passed
    outcome = assertion.check(CheckContext(sample_run(), "t", workspace=tmp_path, suite_dir=tmp_path))
    assert not outcome.passed and outcome.reason == "changed: README.md, app.py, docs/new.md, old.txt"


@pytest.mark.parametrize("spec", [
    {"type": "output-contains", "expected": "(unclosed", "regex": True},
    {"type": "no-forbidden-commands", "patterns": ["ok", "[z-a]"]},
    {"type": "tool-called", "tool": "Bash", "input": {"command": "*rm"}},
    {"type": "tool-order", "sequence": [{"input": {"command": "("}}, {"tool": "Bash"}]},
    {"type": "file-created", "path": "a.py", "contains": "+x"},
])
def test_bad_regexes_are_rejected_when_the_suite_loads(spec: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="invalid regex"):
        parse_assertion(spec)


def test_a_literal_output_pattern_is_not_a_regex() -> None:
    parse_assertion({"type": "output-contains", "expected": "(unclosed"})

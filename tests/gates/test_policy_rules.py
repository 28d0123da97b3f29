from __future__ import annotations

import pytest

from cf_guidance.gates import policy_rules
from tests.gates.support import bash, codes, tool

CHECKS = [
    {"id": "R1#1", "rule": "R1", "kind": "command", "verdict": "deny", "pattern": ["git", "push", "--force"], "message": "no force", "source": "CLAUDE.md:3"},
    {"id": "R2#1", "rule": "R2", "kind": "command", "verdict": "ask", "pattern": ["terraform", "apply"], "message": "ask", "source": "CLAUDE.md:4"},
    {"id": "R3#1", "rule": "R3", "kind": "command", "verdict": "warn", "pattern": ["npm", "install", "*"], "message": "warn", "source": "CLAUDE.md:5"},
    {"id": "R4#1", "rule": "R4", "kind": "write", "verdict": "deny", "pattern": "migrations/**", "message": "m", "source": "CLAUDE.md:6"},
    {"id": "R5#1", "rule": "R5", "kind": "read", "verdict": "deny", "pattern": "private/**", "message": "p", "source": "CLAUDE.md:7"},
    {"id": "R6#1", "rule": "R6", "kind": "tool", "verdict": "deny", "pattern": "mcp__jira__*", "message": "t", "source": "CLAUDE.md:8"},
    {"id": "R7#1", "rule": "R7", "kind": "command", "verdict": "bogus", "pattern": ["make", "nuke"], "message": "x", "source": "CLAUDE.md:9"},
    {"id": "R8#1", "rule": "R8", "kind": "sequence", "verdict": "deny", "before": ["make", "test"], "then": ["git", "commit"], "message": "s"},
]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (bash("git push --force origin main"), ["R1:deny"]),
        (bash("git push origin main --force"), ["R1:deny"]),
        (bash("bash -c 'git push --force'"), ["R1:deny"]),
        (bash("git push --force-with-lease"), []),
        (bash("echo 'git push --force'"), []),
        (bash("terraform apply -auto-approve"), ["R2:ask"]),
        (bash("npm install"), ["R3:warn"]),
        (bash("echo x > migrations/1.sql"), ["R4:deny"]),
        (tool("Edit", file_path="migrations/2.py", old_string="a", new_string="b"), ["R4:deny"]),
        (tool("Read", file_path="private/a.md"), ["R5:deny"]),
        (bash("cat private/a.md"), ["R5:deny"]),
        (tool("mcp__jira__create", summary="x"), ["R6:deny"]),
        (bash("make nuke"), ["R7:deny"]),
        (bash("git commit -m x"), []),
    ],
)
def test_checks(event, expected) -> None:  # type: ignore[no-untyped-def]
    assert codes(policy_rules, event, checks=CHECKS) == expected


def test_finding_names_rule_and_source() -> None:
    from tests.gates.support import run_gate

    (found,) = run_gate(policy_rules, bash("git push -f --force"), checks=CHECKS)
    assert found.rule == "R1" and found.message == "no force (CLAUDE.md:3)" and found.segment == "git push -f --force"


# Many checks on one program, filed under different words: a command meets each check whose
# words it holds, and findings come in bundle order whatever word filed them.
MANY = [
    {"id": "G1#1", "rule": "G1", "kind": "command", "verdict": "warn", "pattern": ["git", "push", "origin", "main"], "message": "a"},
    {"id": "G2#1", "rule": "G2", "kind": "command", "verdict": "deny", "pattern": ["git", "push", "*"], "message": "b"},
    {"id": "G3#1", "rule": "G3", "kind": "command", "verdict": "ask", "pattern": ["git", "push", "origin", "release"], "message": "c"},
    {"id": "G4#1", "rule": "G4", "kind": "command", "verdict": "deny", "pattern": ["git", "--force"], "message": "d"},
    {"id": "G5#1", "rule": "G5", "kind": "command", "verdict": "warn", "pattern": ["git", "push", "origin", "main"], "message": "e"},
    {"id": "G6#1", "rule": "G6", "kind": "command", "verdict": "deny", "pattern": ["g*", "clean"], "message": "f"},
]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git push origin main --force", ["G1:warn", "G2:deny", "G4:deny", "G5:warn"]),
        ("git push origin release", ["G2:deny", "G3:ask"]),
        ("git main origin push", ["G2:deny"]),  # positional order still matters once filed
        ("git status", []),
        ("git clean -fd", ["G6:deny"]),
        ("git --force clean", ["G4:deny", "G6:deny"]),
    ],
)
def test_many_checks_on_one_program(command: str, expected: list[str]) -> None:
    assert codes(policy_rules, bash(command), checks=MANY) == expected

"""The commit message or PR title a command line holds (None: the line does not hold it)."""

from __future__ import annotations

import pytest

from cf_guidance import shell
from cf_guidance.gates.commands.message import COMMIT, TITLE, body, past_tense_subject, references_issue, written


def _written(line: str) -> tuple[str, str] | None:
    commands = [c for c in shell.analyze(line).commands if c.program in ("git", "gh", "glab", "gt", "hub", "jj")]
    return written(commands[-1])


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('git commit -m "fix: x"', (COMMIT, "fix: x")),
        ('git commit -m "fix: x" -m "body"', (COMMIT, "fix: x\n\nbody")),
        ('git commit --message="fix: x"', (COMMIT, "fix: x")),
        ('git commit --message "fix: x"', (COMMIT, "fix: x")),
        ('git commit -am "fix: x"', (COMMIT, "fix: x")),
        ("git commit -mfix:x", (COMMIT, "fix:x")),
        ('git -C sub commit -s -m "fix: x"', (COMMIT, "fix: x")),
        ('git commit --author "A <a@b.c>" -m "fix: x"', (COMMIT, "fix: x")),
        ("git commit -m \"$(cat <<'EOF'\nfix: x\n\nwhy\nEOF\n)\"", (COMMIT, "fix: x\n\nwhy")),
        ('git commit -m "$(cat <<EOF\nfix: x\nEOF\n)"', (COMMIT, "fix: x")),
        ('gh pr create --title "fix: x" --body b', (TITLE, "fix: x")),
        ('gh pr create -t "fix: x"', (TITLE, "fix: x")),
        ("gh pr edit 3 --title=fix:x", (TITLE, "fix:x")),
        ('glab mr create --title "fix: x"', (TITLE, "fix: x")),
        ('gt create -m "fix: x"', (COMMIT, "fix: x")),
        ('jj describe -m "fix: x"', (COMMIT, "fix: x")),
        ('jj desc -r @- -m "fix: x" -m "why"', (COMMIT, "fix: x\n\nwhy")),
        ('jj commit --message "fix: x"', (COMMIT, "fix: x")),
        ('jj new main -m "fix: x"', (COMMIT, "fix: x")),
        ("jj describe", None),
        ("jj new", None),
        ("jj describe --stdin", None),
        ("jj log -r @", None),
        # the message is not on the line
        ("git commit", None),
        ("git commit -a", None),
        ("git commit -F msg.txt", None),
        ("git commit --file=msg.txt", None),
        ("git commit -C HEAD", None),
        ("git commit --fixup HEAD~2", None),
        ("git commit --amend --no-edit", None),
        ('git commit -e -m "fix: x"', None),
        ('git commit -m "$MSG"', None),
        ('git commit -m "fix: $(date)"', None),
        ('git commit -m "$(cat <<EOF\nfix: $X\nEOF\n)"', None),
        ('git commit -m "$(git log -1 --format=%s)"', None),
        ("gh pr create --fill", None),
        ("gh pr view 3", None),
        ("git log -m", None),
    ],
)
def test_written(line: str, expected: tuple[str, str] | None) -> None:
    assert _written(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('gh pr create --title t --body "the body"', "the body"),
        ('gh pr comment 3 -b "done"', "done"),
        ('gh issue create --title t --body="broken"', "broken"),
        ('gh pr review 3 --approve --body "ok"', "ok"),
        ('glab mr create --title t --description "d"', "d"),
        ("gh issue comment 3 --body \"$(cat <<'EOF'\nline one\nEOF\n)\"", "line one"),
        ("gh pr create --fill", None),
        ("gh pr comment 3 --body-file notes.md", None),
        ('gh pr comment 3 --body "$TEXT"', None),
        ("gh pr view 3", None),
    ],
)
def test_body(line: str, expected: str | None) -> None:
    commands = [c for c in shell.analyze(line).commands if c.program in ("gh", "glab")]
    assert body(commands[-1]) == expected


@pytest.mark.parametrize(
    ("subject", "expected"),
    [("Added the parser", True), ("fix(api): fixed the retry", True), ("[ios] Updated icons", True), ("net: Rewrote pool", True),
     ("Add the parser", False), ("Embed the font", False), ("Seed the database", False), ("feat: add red theme", False),
     ("Speed up the build", False), ("Need-based retries", False), ("", False), ("v2.0 released", False)],
)
def test_past_tense_subject(subject: str, expected: bool) -> None:
    assert past_tense_subject(subject) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Fixes #123", True), ("closes (#7)", True), ("PROJ-42: add the page", True), ("See https://github.com/o/r/issues/9", True),
     ("Follow-up to https://gitlab.com/o/r/-/issues/3", True), ("Add the page", False), ("use C#7 features", False),
     ("bump UTF-8 handling", False), ("issue number unknown", False)],
)
def test_references_issue(text: str, expected: bool) -> None:
    assert references_issue(text) is expected

"""Steps owed before an action, each in a verb phrase of its own.

"After making code changes, always validate with `x lint`, run all tests and `x tsc --noEmit`":
the steps are joined by commas, "and", "then", with different verbs (run, validate with, lint
with, check, format with) and a label may open the clause ("Important:", "Note:"). Every step is
owed, not only the first; a phrase that is no step (a purpose, a chore in words, another action)
adds none."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy.ordering_support import edit, ran, verdicts

VALIDATE = "> **Important:** After making code changes, always validate with `x lint`, run all tests and `x tsc --noEmit`.\n"
FORMAT_THEN_LINT = "- After changing code: format with `ruff format`, then lint with `ruff check`.\n"
NOTE = "Note: before committing, run `make lint`, then verify with `make typecheck`.\n"
NUMBERED = "1. Always lint with `npm run lint` and run `npm test` before pushing.\n"
THREE = "- Before each commit you must check `git diff`, run `make test` and format with `make fmt`.\n"
ALSO = "- After edits, please run `cargo fmt` and also lint with `cargo clippy`.\n"
LEAD = "- Before opening a PR, validate with `make check` and run the e2e suite with `make e2e`.\n"
PURPOSE = "- After changing code, run `make lint` to catch errors and update the docs.\n"
OTHER_ACTION = "- Before committing, run `make test`, and open a PR afterwards.\n"
FIX = "- Before committing, run `make test` and fix any failures.\n"

CASES: list[tuple[str, str, list[dict[str, Any]], list[str]]] = [
    # a later step missing
    (VALIDATE, "git commit -m x", [edit("src/a.ts"), ran("x lint"), ran("npm test")], ["warn"]),
    (FORMAT_THEN_LINT, "git commit -m x", [edit("a.py"), ran("ruff format")], ["warn"]),
    (NOTE, "git commit -m x", [ran("make lint")], ["warn"]),
    (NUMBERED, "git push", [ran("npm run lint")], ["warn"]),
    (THREE, "git commit -m x", [ran("git diff"), ran("make test")], ["deny"]),
    (ALSO, "git commit -m x", [edit("src/a.rs"), ran("cargo fmt")], ["warn"]),
    (LEAD, "gh pr create --title a --body b", [ran("make check")], ["warn"]),
    # every step done
    (VALIDATE, "git commit -m x", [edit("src/a.ts"), ran("x lint"), ran("npm test"), ran("x tsc --noEmit")], []),
    (FORMAT_THEN_LINT, "git commit -m x", [edit("a.py"), ran("ruff format"), ran("ruff check")], []),
    (NOTE, "git commit -m x", [ran("make lint"), ran("make typecheck")], []),
    (NUMBERED, "git push", [ran("npm run lint"), ran("npm test")], []),
    (THREE, "git commit -m x", [ran("git diff"), ran("make test"), ran("make fmt")], []),
    (ALSO, "git commit -m x", [edit("src/a.rs"), ran("cargo fmt"), ran("cargo clippy")], []),
    (LEAD, "gh pr create --title a --body b", [ran("make check"), ran("make e2e")], []),
    # what follows the step is no step: a purpose, a chore in words, another action
    (PURPOSE, "git commit -m x", [edit("src/a.rs"), ran("make lint")], []),
    (OTHER_ACTION, "git commit -m x", [ran("make test")], []),
    (FIX, "git commit -m x", [ran("make test")], []),
    # ordinary work is not gated
    (VALIDATE, "x lint", [edit("src/a.ts")], []),
    (THREE, "git status", [], []),
]


@pytest.mark.parametrize(("policy", "command", "history", "expected"), CASES)
def test_step_lists(policy: str, command: str, history: list[dict[str, Any]], expected: list[str]) -> None:
    assert verdicts(policy, command, history) == expected

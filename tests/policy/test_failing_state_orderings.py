"""A ban on a git action while a task fails: "No commits with failing tests".

However it is worded (a verbless "No commits ...", "never commit while the tests are failing",
"do not push if any test fails", a bold label before it, a table row, an aside between the ban
and its verb), it orders the task before the action with the ban's force: the document's command
for the task (or the task's usual commands) must have passed since the last such action. A
one-word state of the work ("untested code") stays a warning. Sentences that only mention failing
tests, or ban something else, give no ordering."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy.ordering_support import ran, verdicts

COMMANDS = "## Commands\n\n- `npm test` - run the tests\n- `npm run lint` - lint\n\n## Rules\n\n"

STOPPED: list[tuple[str, str]] = [
    ("- No commits with failing tests\n", "git commit -m x"),
    ("- **Tests must pass** - No commits with failing tests\n", "git commit -m x"),
    ("Never commit while the tests are failing.\n", "git commit -m x"),
    ("> Do not push if any test fails\n", "git push"),
    ("1. No merging with red tests\n", "git merge feat"),
    ("| Area | Rule |\n|---|---|\n| Tests | Never commit code that fails the tests |\n", "git commit -m x"),
    ("### Testing\n\n- Never, under any circumstances, commit with failing tests\n", "git commit -m x"),
    ("- Please don't commit changes with test failures.\n", "git commit -m x"),
    ("- NO COMMITS WITH FAILING TESTS\n", "git commit -m x"),
    ("- You must never commit while tests fail\n", "git commit -m x"),
    ("- No pushing while the tests are failing\n", "git push"),
]


@pytest.mark.parametrize(("rule", "command"), STOPPED)
def test_the_action_needs_the_task_first(rule: str, command: str) -> None:
    assert verdicts(COMMANDS + rule, command, []) == ["deny"]
    assert verdicts(COMMANDS + rule, command, [ran("npm test")]) == []
    assert verdicts(COMMANDS + rule, command, [ran("npm test", ok=False)]) == ["deny"]
    assert verdicts(COMMANDS + rule, command, [ran("npm test"), ran(f"{command} && echo done")]) == ["deny"]


OTHER: list[tuple[str, str, list[dict[str, Any]], list[str]]] = [
    ("- Never push with lint errors\n", "git push", [ran("npm run lint")], []),
    ("- Never push with lint errors\n", "git push", [ran("npm test")], ["deny"]),
    ("- Never commit untested code\n", "git commit -m x", [], ["warn"]),
    # no ordering: failing tests mentioned, another action, or something else banned
    ("- Commits with failing tests are fine on draft branches\n", "git commit -m x", [], []),
    ("- No tests for the generated code\n", "git commit -m x", [], []),
    ("- Fix failing tests before anything else\n", "git commit -m x", [], []),
    ("- When tests fail, read the logs first\n", "git commit -m x", [], []),
    ("- If tests fail, never commit a fix that skips them\n", "git commit -m x", [], []),
    ("- No commit messages longer than 72 characters\n", "git commit -m x", [], []),
    ("- Never commit broken code\n", "git commit -m x", [], []),
    ("- No commits with failing tests\n", "npm test", [], []),
]


@pytest.mark.parametrize(("rule", "command", "history", "expected"), OTHER)
def test_other_states_and_look_alikes(rule: str, command: str, history: list[dict[str, Any]], expected: list[str]) -> None:
    assert verdicts(COMMANDS + rule, command, history) == expected

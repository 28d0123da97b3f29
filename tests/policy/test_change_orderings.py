"""Orderings tied to changes: "after modifying SQL queries, run `make gen`" needs `make gen` after
the last change of a `*.sql` file before the next commit; changes of other files, or none, leave
the commit alone. "Run lint after making changes" is about any change: with no run of the
linter at all it warns (the changes may predate the session), and it holds the rule's own
verdict once the session changed a file. Changes are the session's file-tool edits and the
files its commands write (`sed -i`, `>`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy.ordering_support import edit, ran, verdicts

SQL = "- After modifying SQL queries, run `make gen`\n"
PYTHON = "- Run `make ruff` after any Python change\n"
SCHEMA = "- After any change to `api/schema.graphql`, you must run `npm run codegen`\n"
PROTO = "- If you change files in `proto/`, run `buf generate` before pushing\n"
GRAMMAR = "- Whenever you touch the grammar, regenerate with `just gen`\n"
LINT = "- Always run the linter after making changes\n"
TESTS = "- Run the tests after completing a task\n"


CASES = [
    # stopped: a file of the scope changed after the command ran, or it never ran
    (SQL, "git commit -m x", [edit("db/query.sql")], ["warn"]),
    (SQL, "git commit -m x", [ran("make gen"), edit("db/query.sql")], ["warn"]),
    (SQL, "git commit -m x", [ran("sed -i s/a/b/ db/query.sql")], ["warn"]),
    (SQL, "git commit -m x", [edit("db/query.sql"), ran("make gen", ok=False)], ["warn"]),
    (PYTHON, "git commit -m x", [edit("src/app.py")], ["warn"]),
    (SCHEMA, "git commit -m x", [edit("api/schema.graphql")], ["deny"]),
    (PROTO, "git push", [edit("proto/v1/user.proto")], ["warn"]),
    (GRAMMAR, "git commit -m x", [edit("src/Grammar.g4")], ["warn"]),
    (LINT, "git commit -m x", [], ["warn"]),
    (LINT, "git commit -m x", [edit("src/app.ts")], ["warn"]),
    (LINT, "git commit -m x", [ran("npm run lint"), edit("src/app.ts")], ["warn"]),
    (TESTS, "git commit -m x", [ran("pytest"), edit("src/app.py")], ["warn"]),
    # allowed: the command ran after the last change, no file of the scope changed, another action
    (SQL, "git commit -m x", [edit("db/query.sql"), ran("make gen")], []),
    (SQL, "git commit -m x", [edit("db/query.sql"), ran("make gen"), edit("README.md")], []),
    (SQL, "git commit -m x", [edit("README.md")], []),
    (SQL, "git commit -m x", [], []),
    (SQL, "make gen && git commit -m x", [edit("db/query.sql")], []),
    (SQL, "git commit -m x", [edit("db/query.sql"), ran("make gen"), ran("git commit -m x")], []),
    (SQL, "git push", [edit("db/query.sql")], []),
    (PYTHON, "git commit -m x", [edit("src/app.py"), ran("make ruff")], []),
    (PYTHON, "git commit -m x", [edit("web/app.ts")], []),
    (PYTHON, "git commit -m x", [ran("cat > /tmp/x.py <<'EOF'\nprint(1)\nEOF")], []),
    (SCHEMA, "git commit -m x", [edit("api/other.graphql")], []),
    (PROTO, "git commit -m x", [edit("proto/v1/user.proto")], []),
    (PROTO, "git push", [edit("proto/v1/user.proto"), ran("buf generate")], []),
    (LINT, "git commit -m x", [edit("src/app.ts"), ran("npm run lint")], []),
    (TESTS, "git commit -m x", [edit("src/app.py"), ran("uv run pytest -q")], []),
]


@pytest.mark.parametrize(("policy", "command", "history", "expected"), CASES,
                         ids=[f"{c[0][2:30]}|{c[1]}|{i}" for i, c in enumerate(CASES)])
def test_change_ordering(policy: str, command: str, history: list[dict[str, Any]], expected: list[str]) -> None:
    assert verdicts(policy, command, history) == expected

"""Orderings written without "before committing" or named by a task instead of a command.

"Tests must pass before submitting" and "Always ensure linting passes before committing" name the
task: any of the document's commands for it (else the task's usual commands) satisfies them.
"Always run quality checks (`npm run check`) before considering a task complete": the command in
parentheses is the task here, and the work declared done is seen at the next commit after the
last change (a warning). An intro that names a change ("After making code changes and before
declaring a task complete, you MUST:", "**After touching the API:**" over a code block, "Always
run verification after:" over a list of changes) makes its steps orderings after that change.
After any change, a command is an order only when its words name a check (`make analyze`, `npm run
verify`), not a chore (`npm run version:patch`). Said with "must" / "always" a plain ordering
denies; the guessed ones warn."""

from __future__ import annotations

from typing import Any

import pytest

from cf_guidance.policy.checkform import short
from cf_guidance.policy.compiler import compile_sources
from tests.policy.ordering_support import edit, ran, verdicts

COMMANDS = "## Commands\n\n- `npm run lint` - lint\n- `npx vitest run` - tests\n- `npm run verify` - verification\n\n## Rules\n\n"
TESTS_PASS = COMMANDS + "- Tests must pass before submitting\n"
ENSURE_LINT = COMMANDS + "- Always ensure linting passes before committing\n"
PLAYWRIGHT = "- All code changes must pass existing Playwright tests before committing\n"
PAREN = "- Always format code with Prettier (`pnpm format`) before committing\n"
DONE = "- Always run quality checks (`npm run check`) before considering a task complete.\n"
ANALYZE = "- After any code change, run: `make analyze`\n"
INTRO = ("After making code changes and before declaring a task complete, you MUST:\n\n"
         "1. Run `npm run verify` to check the types\n"
         "2. For significant changes, run `npm run verify:full` too\n")
AFTER_LIST = COMMANDS + "Always run verification after:\n\n- Updating type definitions\n- Modifying API client code\n"
BOLD = "**After touching the API:**\n\n```bash\nmake openapi\n```\n"
REGEN = "- Schema changes require running `make regen`\n"
VERIFY = "- Always use `make check` to verify parser changes\n"
E2E = "## Commands\n\n- `make e2e` — only after `make build`\n"
PREVIEW = "## Commands\n\n- `make preview` — only use if the frontend has already been built\n"
WHEN_TO_RUN = "## When to run `make proto`\n\n- after changing files in `proto/`\n- before opening a PR\n"
#: the document's test command holds a placeholder: any argument there is that command
PLACEHOLDER = "## Commands\n\n- Test a chart: `helm lint <chart>`\n\n## Rules\n\n- Always run the tests before committing\n"
#: one task (the formatter's), done by the document's own formatter, which names no usual one
FORMAT_CHECK = ("- Ensure all code is formatted using `./mvnw spring-javaformat:apply`\n"
                "- All code must pass formatting validation before commit\n")

#: a task ordering said plainly (no must / always / never): which command is the task's is a reading
PLAIN_TASK = COMMANDS + "- Run the tests before committing\n"
PLAIN_LEAD = COMMANDS + "- Before pushing, run the linter\n"
#: a command named plainly is practice too (only "must", "mandatory", "only ... after" deny)
PLAIN_CODE = "- Run `make check` before committing\n"


CASES = [
    (PLAIN_TASK, "git commit -m x", [], ["warn"]),
    (PLAIN_LEAD, "git push", [], ["warn"]),
    (PLAIN_CODE, "git commit -m x", [], ["warn"]),
    (PLAIN_TASK, "git commit -m x", [ran("npx vitest run")], []),
    (PLAIN_LEAD, "git push", [ran("npm run lint")], []),
    # stopped: the task never ran (or ran before the last change)
    (TESTS_PASS, "gh pr create --title x --body y", [], ["deny"]),
    (ENSURE_LINT, "git commit -m x", [], ["warn"]),
    (PLAYWRIGHT, "git commit -m x", [edit("src/app.tsx")], ["deny"]),
    (PAREN, "git commit -m x", [], ["warn"]),
    (DONE, "git commit -m x", [edit("src/a.ts")], ["warn"]),
    (DONE, "git commit -m x", [ran("npm run check"), edit("src/a.ts")], ["warn"]),
    (ANALYZE, "git commit -m x", [edit("lib/a.dart")], ["warn"]),
    (INTRO, "git commit -m x", [edit("src/a.ts")], ["warn"]),
    (AFTER_LIST, "git commit -m x", [edit("src/types.ts")], ["warn"]),
    (BOLD, "git commit -m x", [edit("src/api/routes.ts")], ["warn"]),
    (REGEN, "git commit -m x", [edit("db/schema.sql")], ["warn"]),
    (VERIFY, "git commit -m x", [edit("src/parser/expr.ts")], ["warn"]),
    (E2E, "make e2e", [], ["warn"]),
    (PREVIEW, "make preview", [], ["warn"]),
    (WHEN_TO_RUN, "git commit -m x", [edit("proto/v1/user.proto")], ["warn"]),
    (WHEN_TO_RUN, "gh pr create --title x --body y", [], ["warn"]),
    (FORMAT_CHECK, "git commit -m x", [], ["deny"]),
    (PLACEHOLDER, "git commit -m x", [edit("charts/api/values.yaml")], ["warn"]),
    # allowed: the document's command for the task, or the named one, ran after the last change
    (TESTS_PASS, "gh pr create --title x --body y", [ran("npx vitest run")], []),
    (TESTS_PASS, "git commit -m x", [], []),
    (ENSURE_LINT, "git commit -m x", [ran("npm run lint")], []),
    (PLAYWRIGHT, "git commit -m x", [edit("src/app.tsx"), ran("pnpm exec playwright test")], []),
    (PAREN, "git commit -m x", [ran("pnpm format")], []),
    (DONE, "git commit -m x", [edit("src/a.ts"), ran("npm run check")], []),
    (ANALYZE, "git commit -m x", [edit("lib/a.dart"), ran("make analyze")], []),
    (INTRO, "git commit -m x", [edit("src/a.ts"), ran("npm run verify")], []),
    (AFTER_LIST, "git commit -m x", [edit("src/types.ts"), ran("npm run verify")], []),
    (BOLD, "git commit -m x", [edit("src/api/routes.ts"), ran("make openapi")], []),
    (BOLD, "git commit -m x", [edit("src/ui/button.tsx")], []),
    (REGEN, "git commit -m x", [edit("db/schema.sql"), ran("make regen")], []),
    (REGEN, "git commit -m x", [edit("src/app.py")], []),
    (VERIFY, "git commit -m x", [edit("src/parser/expr.ts"), ran("make check")], []),
    (VERIFY, "git commit -m x", [edit("src/ui/view.ts")], []),
    (E2E, "make e2e", [ran("make build")], []),
    (E2E, "make build", [], []),
    (PREVIEW, "make preview", [ran("npm run build")], []),
    (WHEN_TO_RUN, "git commit -m x", [edit("proto/v1/user.proto"), ran("make proto")], []),
    (WHEN_TO_RUN, "git commit -m x", [edit("src/app.go")], []),
    (WHEN_TO_RUN, "gh pr create --title x --body y", [ran("make proto")], []),
    (FORMAT_CHECK, "git commit -m x", [ran("./mvnw spring-javaformat:apply")], []),
    (PLACEHOLDER, "git commit -m x", [edit("charts/api/values.yaml"), ran("helm lint charts/api")], []),
]


@pytest.mark.parametrize(("policy", "command", "history", "expected"), CASES,
                         ids=[f"{c[0][-40:]}|{c[1]}|{i}" for i, c in enumerate(CASES)])
def test_implicit_ordering(policy: str, command: str, history: list[dict[str, Any]], expected: list[str]) -> None:
    assert verdicts(policy, command, history, title="Project") == expected


#: look-alikes that must stay advisory: a chore after any change, a step the agent judges, a moment
#: no command shows, a requirement that names no task or command
NOTHING = [
    "- After any change, run `npm run docs:sync`\n",
    "**Versioning (after code changes):**\n\n- `npm run version:patch` - bump the patch version\n",
    "- Read the design notes before considering a task complete\n",
    "- All changes should include tests where possible\n",
    "- Breaking changes require a major version bump\n",
    "- Keep the build green\n",
    "- Changes require approval from a maintainer\n",
    "- Large changes need a design doc first\n",
    "## Commands\n\n- `make deploy` — only when the release is tagged\n",
    "## When to run evals\n\n- after changing prompts\n",
    "## When to run `make bench`\n\n- Benchmarks take ten minutes\n",
]


@pytest.mark.parametrize("policy", NOTHING)
def test_no_ordering(policy: str) -> None:
    checks = [short(c) for c in compile_sources(f"# Project\n\n{policy}")["checks"]]
    assert not [c for c in checks if "sequence" in c], checks


def test_judged_step_under_intro_is_left_out() -> None:
    checks = [short(c) for c in compile_sources(f"# Project\n\n{INTRO}")["checks"]]
    assert checks == ["warn sequence npm run verify -> git commit after any change"]


#: the document's own command for the task, beside a ban of its shorter form: the ordering demands
#: it whole (with its options), and leaves out a form the text bans
FORBIDDEN_SHORT = ("## Commands\n\n- `pnpm test --run` runs the tests once\n- `npm test` - the old runner\n\n## Rules\n\n"
                   "- Never run `pnpm test` without `--run`\n- Never use `pytest` directly\n"
                   "- Always run the tests before committing\n")


def test_task_ordering_never_demands_a_forbidden_command() -> None:
    checks = [c for c in compile_sources(f"# Project\n\n{FORBIDDEN_SHORT}")["checks"] if c["kind"] == "sequence"]
    assert [c["before"] for c in checks] == [["pnpm", "test", "--run"]]
    assert ["pytest"] not in checks[0]["before_any"]
    assert ["pnpm", "test"] not in checks[0]["before_any"]

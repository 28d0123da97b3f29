"""Orderings written as workflows: a checklist or steps under a heading that names the git action
they lead to ("## Pre-commit checklist", "### Before committing" over a code block, "## Definition
of Done", "1. **Run tests**" with the commands nested under the step). The step commands must run
before the commit (push, PR); a warning unless the heading or the intro says it strongly. Headings
that only describe how to build, advice, and the steps after the one doing the action yield nothing."""

from __future__ import annotations

from typing import Any

import pytest

from cf_guidance.event import Event
from cf_guidance.gates import sequence
from cf_guidance.gates._base import GateContext
from cf_guidance.policy.compiler import compile_sources

CHECKLIST = """## Pre-commit checklist

- [ ] Type checking passes: `make typecheck`
- [ ] Linting passes: `make lint`
- [ ] No debug print statements
"""

NESTED = """## Pre-Commit Checklist

Before committing any changes, always run the following commands:

1. **Run tests**

   ```bash
   go test ./...
   ```

2. **Run go vet**

   ```bash
   go vet ./...
   ```

3. **Update the docs** for meaningful changes
"""

BLOCK = """### Before Committing

```bash
./scripts/lint.sh
./scripts/test.sh
git add .
git commit -m "message"
```
"""

STEPS = """## Commit workflow

1. Run `pnpm lint`
2. Run `pnpm test`
3. Commit with a descriptive message
4. Run `pnpm release`
"""

DONE = """## Definition of Done

- `uv run pytest` passes
- Documentation updated
"""

NUMBERED = """## Development steps

1. Make your changes
2. **Run `make`** and fix what fails
3. Commit and push
4. Run `make deploy`
"""

PR = """## PR checklist

- [ ] `npm run build` succeeds
"""

STEP_HEADINGS = """## Pre-submission checklist

### 1. Run the linter

```bash
npm run lint
```

If there are linting issues, fix them with:

```bash
npm run lint:fix
```
"""

#: "run these checks:" names a kind of command, but points at the code block below: its commands
THESE_CHECKS = """## Opening a PR

Before opening a PR, run these checks:

```bash
git fetch upstream
git diff upstream/main --stat
```
"""


def h(command: str) -> dict[str, Any]:
    return {"command": command, "ok": True, "seq": None, "ts": ""}


def verdicts(policy: str, command: str, history: list[str]) -> list[str]:
    bundle = {"root": "/p", "checks": compile_sources(f"# Rules\n\n{policy}")["checks"]}
    event = Event(tool="Bash", command=command, session_id="s", cwd="/p")
    return sorted({f.verdict for f in sequence.check(GateContext(event, bundle, extras={"history": [h(c) for c in history]}))})

#: a workflow on one line: the commands of the steps before a git action run before it
ARROWS = "- Workflow: edit \u2192 `make test` \u2192 commit \u2192 push\n"
ASCII_ARROWS = "- Loop: `npm run lint` -> `npm test` -> commit -> push\n"
INLINE_NUMBERS = "- 1) `cargo fmt` 2) `cargo clippy` 3) `git commit`\n"
STRONG_CHAIN = "- You must follow `make lint` \u2192 `make test` \u2192 push\n"
RELEASE = "- Before tagging a release, run `make dist-check`.\n"

CASES = [
    (ARROWS, "git commit -m x", [], ["warn"]),
    (ASCII_ARROWS, "git commit -m x", ["npm run lint"], ["warn"]),
    (INLINE_NUMBERS, "git commit -m x", ["cargo fmt"], ["warn"]),
    (STRONG_CHAIN, "git push", ["make lint"], ["deny"]),
    (RELEASE, "git tag -a v1.2.0 -m v1.2.0", [], ["warn"]),
    (RELEASE, "gh release create v1.2.0", [], ["warn"]),
    (ARROWS, "git commit -m x", ["make test"], []),
    (ARROWS, "git push", [], []),  # the test step comes before the commit, not before each push
    (ASCII_ARROWS, "git commit -m x", ["npm run lint", "npm test"], []),
    (INLINE_NUMBERS, "git commit -m x", ["cargo fmt", "cargo clippy"], []),
    (STRONG_CHAIN, "git push", ["make lint", "make test"], []),
    (RELEASE, "git tag -a v1.2.0 -m v1.2.0", ["make dist-check"], []),
    (RELEASE, "git tag -l", [], []),  # listing tags is no release
    (RELEASE, "git tag -d v1.2.0", [], []),
    # must block: the steps did not run
    (CHECKLIST, "git commit -m x", [], ["warn"]),
    (CHECKLIST, "git commit -m x", ["make lint"], ["warn"]),
    (NESTED, "git commit -m x", ["go test ./..."], ["warn"]),  # "always run the following": practice, a warning
    (BLOCK, "git commit -m x", ["./scripts/lint.sh"], ["warn"]),
    (STEPS, "git commit -m x", ["pnpm lint"], ["warn"]),
    (DONE, "git commit -m x", [], ["warn"]),
    (PR, "gh pr create --fill", [], ["warn"]),
    (NUMBERED, "git commit -m x", [], ["warn"]),
    (STEP_HEADINGS, "gh pr create --fill", [], ["warn"]),
    (THESE_CHECKS, "gh pr create --fill", [], ["warn"]),
    # must allow: the steps ran, or the action is not the one the heading names
    (CHECKLIST, "git commit -m x", ["make typecheck", "make lint"], []),
    (NESTED, "git commit -m x", ["go test ./...", "go vet ./..."], []),
    (BLOCK, "git commit -m x", ["./scripts/lint.sh", "./scripts/test.sh"], []),
    (STEPS, "git commit -m x", ["pnpm lint", "pnpm test"], []),  # `pnpm release` comes after the commit
    (DONE, "git commit -m x", ["uv run pytest"], []),
    (PR, "git commit -m x", [], []),
    (NUMBERED, "git commit -m x", ["make"], []),  # `make deploy` comes after the commit
    (CHECKLIST, "git push", [], []),
    (BLOCK, "git status", [], []),
    (THESE_CHECKS, "gh pr create --fill", ["git fetch upstream", "git diff upstream/main --stat"], []),
]


@pytest.mark.parametrize(("policy", "command", "history", "expected"), CASES,
                         ids=[f"{c[0].split(chr(10))[0]}|{c[1]}|{len(c[2])}" for c in CASES])
def test_workflow_ordering(policy: str, command: str, history: list[str], expected: list[str]) -> None:
    assert verdicts(policy, command, history) == expected


NOTHING = [
    # describing how to build, with no git action in sight
    "## Building\n\n1. Run `make build`\n2. Run `make dist`\n",
    "## Development\n\n```bash\nnpm install\nnpm run dev\n```\n",
    # the hooks, not a checklist
    "## Pre-commit hooks\n\n- Husky runs `lint-staged` on every commit\n",
    # a code block under a sub-heading that is not a step of the checklist
    "## Before committing\n\n### Troubleshooting\n\n```bash\nrm -rf node_modules\n```\n",
    # the commit form, not a step before it
    "## Commit messages\n\n- Use `feat:` for new features\n",
    # steps after the one that commits
    "1. Commit your changes\n2. Run `make deploy`\n",
    # a bulleted (not numbered) list is no sequence of steps
    "- Run `make dev` to start\n- Commit often\n",
    # how to do something after a change, not an order; chores after any change
    "### Building\n\nTo compile after making changes:\n\n```bash\ncargo build\n```\n",
    "**Versioning (after code changes):**\n\n- `npm run version:patch` - bump the patch version\n",
    # a claim verb without the end of the work, an ending of something else
    "- Before calling the API, read `docs/api.md`\n",
    "- Before completing the migration, run `make backup`\n",
    # a checklist item that names a file after its label
    "## Pre-commit checklist\n\n- Config: `config/settings.yaml`\n",
    # chains with no git action, or whose steps are a pipeline's stages or come after the action
    "- `make enable` -> `go test ./...` -> `make disable`\n",
    "- Daily job: `data-update` \u2192 `screen` \u2192 commit \u2192 publish\n",
    "- Steps: branch \u2192 edit \u2192 commit \u2192 push \u2192 PR\n",
    "- Commit \u2192 `npm run deploy` \u2192 done\n",
    "- Never go `make a` \u2192 `make b` \u2192 commit\n",
    "- Before release, update the docs\n",
]


@pytest.mark.parametrize("policy", NOTHING)
def test_no_ordering(policy: str) -> None:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert [c for c in checks if c["kind"] == "sequence"] == []

# The end of the work as the moment ("before considering a task complete", "### After task
# completion", a last step "Only mark the task as complete when all checks pass"): no tool call
# marks it, so the next commit after the session changed files stands for it, as a warning. A
# commit with the commands run after the last change passes.

DONE_INTRO = """## Required checks

Before considering any task complete, you MUST run the following commands:

### 1. Lint

```bash
pnpm lint:check
```

- If issues are found, run `pnpm lint` to fix them
- For coverage reports, use `pnpm test:coverage`

### 2. Tests

```bash
pnpm test
```
"""

DONE_SENTENCE = "- Run `npm run check` before marking the task as done\n"

DONE_STRONG = "- Always run quality checks (`npm run check`) before considering a task complete.\n"

DONE_HEADING = """### After task completion

- Ensure all code is formatted using `./mvnw spring-javaformat:apply`
- Run the full test suite with `./mvnw test`
"""

DONE_STEPS = """## Development workflow

1. Make your changes
2. Run `pnpm lint:check` - fix any linting issues
3. Run `pnpm test` - ensure all tests pass
4. Only mark the task as complete when all checks pass
"""

TASK_VERBS = "- Always lint code before committing\n"

YOU_MUST = "- You must run `make test` before committing\n"

ALWAYS_BLOCK = """## Pre-push checklist

Always run these commands before pushing code:

```bash
make lint
make test
```
"""

PR_DETERMINER = """Before creating any pull request, you MUST:

1. Run `go fmt ./...` to format all Go code
2. Run `go test ./...` to ensure all tests pass
"""

NIGHTLY = "- Always run `cargo +nightly fmt` before committing\n"

FORMS = """Before committing, you MUST:

1. Run `npm run lint:fix`
2. Run `uv run pytest`
"""

RELEASE_STEPS = """### Release process

1. Run the release script:

   ```bash
   ./scripts/release.sh
   ```

2. Edit `CHANGELOG.md`
3. Open PR: "Bump version"
"""


def entry(item: str | tuple[str, str]) -> dict[str, Any]:
    if isinstance(item, tuple):
        return {"edited": [f"/p/{item[1]}"], "ok": True, "seq": None, "ts": ""}
    return h(item)


def verdicts_after(policy: str, command: str, history: list[str | tuple[str, str]]) -> list[str]:
    bundle = {"root": "/p", "checks": compile_sources(f"# Rules\n\n{policy}")["checks"]}
    event = Event(tool="Bash", command=command, session_id="s", cwd="/p")
    return sorted({f.verdict for f in sequence.check(GateContext(event, bundle, extras={"history": [entry(c) for c in history]}))})


EDIT = ("edit", "src/app.ts")

DONE_CASES = [
    # stopped: a change, and the commands did not run after it
    (DONE_INTRO, "git commit -m x", [EDIT], ["warn"]),
    (DONE_INTRO, "git commit -m x", ["pnpm lint:check", "pnpm test", EDIT], ["warn"]),
    (DONE_SENTENCE, "git commit -m x", [EDIT], ["warn"]),
    (DONE_STRONG, "git commit -m x", [EDIT], ["warn"]),
    (DONE_HEADING, "git commit -m x", [EDIT, "./mvnw test"], ["warn"]),
    (DONE_STEPS, "git commit -m x", [EDIT, "pnpm lint:check"], ["warn"]),
    (TASK_VERBS, "git commit -m x", [], ["warn"]),
    (YOU_MUST, "git commit -m x", [], ["deny"]),
    (ALWAYS_BLOCK, "git push", ["make lint"], ["warn"]),
    (PR_DETERMINER, "gh pr create --fill", ["go fmt ./..."], ["deny"]),
    # no change in the session: the changes may predate it, a warning at most
    (DONE_INTRO, "git commit -m x", [], ["warn"]),
    # allowed: the commands ran after the last change (in their prescribed forms), or another action
    (DONE_INTRO, "git commit -m x", [EDIT, "pnpm lint:check", "pnpm test"], []),
    (DONE_INTRO, "git commit -m x", [EDIT, "pnpm lint:check && pnpm test"], []),
    (DONE_SENTENCE, "git commit -m x", [EDIT, "npm run check"], []),
    (DONE_HEADING, "git commit -m x", [EDIT, "./mvnw spring-javaformat:apply test"], []),
    (DONE_STEPS, "git commit -m x", [EDIT, "pnpm lint:check", "pnpm test"], []),
    (DONE_INTRO, "git push", [EDIT], []),
    (TASK_VERBS, "git commit -m x", ["npm run lint"], []),
    (YOU_MUST, "git commit -m x", ["make test"], []),
    (ALWAYS_BLOCK, "git push", ["make lint", "make test"], []),
    (PR_DETERMINER, "gh pr create --fill", ["go fmt ./...", "go test ./..."], []),
    (RELEASE_STEPS, "gh pr create --fill", [], []),  # a release chore, not a check before every PR
    # a prescribed form of a command: that form satisfies the ordering, the bare form does not, and
    # the bare form itself stays allowed (the text bans nothing)
    (NIGHTLY, "git commit -m x", ["cargo +nightly fmt --all"], []),
    (NIGHTLY, "git commit -m x", ["cargo fmt"], ["warn"]),
    (NIGHTLY, "cargo fmt", [], []),
    (FORMS, "git commit -m x", ["npm run lint:fix", "uv run pytest -q"], []),
    (FORMS, "git commit -m x", ["npm run lint", "uv run pytest"], ["deny"]),
    (FORMS, "npm run lint", [], []),
]


@pytest.mark.parametrize(("policy", "command", "history", "expected"), DONE_CASES,
                         ids=[f"{c[0].split(chr(10))[0][:40]}|{c[1]}|{len(c[2])}" for c in DONE_CASES])
def test_done_and_intro_ordering(policy: str, command: str, history: list[str | tuple[str, str]], expected: list[str]) -> None:
    assert verdicts_after(policy, command, history) == expected


def test_conditional_items_are_not_steps() -> None:
    """Items under a checklist that open with their own situation ("If issues are found, run
    `pnpm lint`", "For coverage reports, use ...") do not become orderings."""
    checks = compile_sources(f"# Rules\n\n{DONE_INTRO}")["checks"]
    befores = sorted(" ".join(c["before"]) for c in checks if c["kind"] == "sequence")
    assert befores == ["pnpm lint:check", "pnpm test"]


def test_options_under_a_checklist_are_not_steps() -> None:
    """"For additional test options:" over a list under the checklist: options, not steps before the PR."""
    policy = ("## PR checklist\n\n### Run the tests\n\n```bash\nnpm test\n```\n\nFor additional test options:\n\n"
              "- Coverage: `npm run test:coverage`\n- Watch: `npm run test:watch`\n")
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert [(c["before"], c["then"]) for c in checks if c["kind"] == "sequence"] == [(["npm", "test"], ["gh", "pr", "create"])]

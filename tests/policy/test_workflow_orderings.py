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


def h(command: str) -> dict[str, Any]:
    return {"command": command, "ok": True, "seq": None, "ts": ""}


def verdicts(policy: str, command: str, history: list[str]) -> list[str]:
    bundle = {"root": "/p", "checks": compile_sources(f"# Rules\n\n{policy}")["checks"]}
    event = Event(tool="Bash", command=command, session_id="s", cwd="/p")
    return sorted({f.verdict for f in sequence.check(GateContext(event, bundle, extras={"history": [h(c) for c in history]}))})


CASES = [
    # must block: the steps did not run
    (CHECKLIST, "git commit -m x", [], ["warn"]),
    (CHECKLIST, "git commit -m x", ["make lint"], ["warn"]),
    (NESTED, "git commit -m x", ["go test ./..."], ["deny"]),  # "always run the following": strong
    (BLOCK, "git commit -m x", ["./scripts/lint.sh"], ["warn"]),
    (STEPS, "git commit -m x", ["pnpm lint"], ["warn"]),
    (DONE, "git commit -m x", [], ["warn"]),
    (PR, "gh pr create --fill", [], ["warn"]),
    (NUMBERED, "git commit -m x", [], ["warn"]),
    (STEP_HEADINGS, "gh pr create --fill", [], ["warn"]),
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
]


@pytest.mark.parametrize("policy", NOTHING)
def test_no_ordering(policy: str) -> None:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert [c for c in checks if c["kind"] == "sequence"] == []

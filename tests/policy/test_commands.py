"""Rules about commands and tools, compiled and then met by real commands: what a rule must stop
and the everyday commands of the same project it must leave alone."""

from __future__ import annotations

import pytest

from cf_guidance.gates import policy_rules
from cf_guidance.policy.compiler import compile_sources
from tests.gates.support import bash, run_gate


def verdicts(markdown: str, command: str) -> list[str]:
    checks = compile_sources(markdown if markdown.endswith("\n") else markdown + "\n")["checks"]
    return [f.verdict for f in run_gate(policy_rules, bash(command), checks=checks)]


CASES = [
    # a ban on a program by its bare name holds for any path to it, but not for the project's own
    # launcher the text prescribes (as the alternative, or among its commands)
    ("- Never run `rails` directly; always use `bin/rails`.", "rails server", ["deny"]),
    ("- Never run `rails` directly; always use `bin/rails`.", "bin/rails server", []),
    ("- Never run `rails` directly; always use `bin/rails`.", "./bin/rails test test/models", []),
    ("- Never run `rails` directly; always use `bin/rails`.", "vendor/bundle/bin/rails server", ["deny"]),
    ("## Commands\n\n- `bin/rake db:migrate` - migrate\n\n## Rules\n\n- Do not call `rake` directly.\n",
     "./bin/rake db:migrate", []),
    ("## Commands\n\n- `bin/rake db:migrate` - migrate\n\n## Rules\n\n- Do not call `rake` directly.\n",
     "rake db:migrate", ["deny"]),
    ("- Never run `tsc`; use `yarn typecheck`.", "./node_modules/.bin/tsc --noEmit", ["deny"]),
    # asking before new dependencies asks on commands that add a package, not on installing the
    # lockfile or the project itself
    ("- Ask before adding dependencies.", "npm install lodash", ["ask"]),
    ("- Ask before adding dependencies.", "pnpm add -D zod", ["ask"]),
    ("- Ask before adding dependencies.", "uv add httpx", ["ask"]),
    ("- Ask before adding dependencies.", "cargo add serde", ["ask"]),
    ("- Ask before adding dependencies.", "go get github.com/pkg/errors", ["ask"]),
    ("- Ask before adding dependencies.", "pip install requests", ["ask"]),
    ("- Ask before adding dependencies.", "npm install", []),
    ("- Ask before adding dependencies.", "npm install --frozen-lockfile", []),
    ("- Ask before adding dependencies.", "uv sync", []),
    ("- Ask before adding dependencies.", "pnpm install", []),
    ("- Ask before adding dependencies.", "pip install -r requirements.txt", []),
    ("- Ask before adding dependencies.", "pip install -e .", []),
    ("- Ask before running `npm install <pkg>`.", "npm install lodash", ["ask"]),
    ("- Ask before running `npm install <pkg>`.", "npm install", []),
    ("- No new dependencies without approval.", "yarn add left-pad", ["ask"]),
    ("- No new dependencies without approval.", "yarn install", []),
    ("The following commands require human approval:\n\n- `terraform apply`\n", "terraform apply -auto-approve", ["ask"]),
    ("The following commands require human approval:\n\n- `terraform apply`\n", "terraform plan", []),
    # "do not install X": X by any package manager
    ("- You must not install `vitest`.", "pnpm add -D vitest", ["deny"]),
    ("- You must not install `vitest`.", "npm install --save-dev vitest", ["deny"]),
    ("- You must not install `vitest`.", "yarn add vitest", ["deny"]),
    ("- You must not install `vitest`.", "pnpm add zod", []),
    ("- Do not install Vitest directly.", "npm i -D vitest", ["deny"]),
    # the program as the subject of "be run via" a runner: bare runs are discouraged, the runner's pass
    ("All python commands should be run via `uv run python ...`.", "python scripts/x.py", ["warn"]),
    ("All python commands should be run via `uv run python ...`.", "uv run python scripts/x.py", []),
    # a program the environment lacks: a warning before the call fails
    ("- `docker` is not available in this environment.", "docker compose up -d", ["warn"]),
    ("- pnpm isn't installed here; use npm.", "pnpm install", ["warn"]),
    ("- pnpm isn't installed here; use npm.", "npm install", []),
    ("- The `--watch` flag is not supported by the test runner.", "vitest --watch", []),
]


@pytest.mark.parametrize(("markdown", "command", "expected"), CASES, ids=[f"{c[0][:40]} | {c[1]}" for c in CASES])
def test_command_rules(markdown: str, command: str, expected: list[str]) -> None:
    assert verdicts(markdown, command) == expected


def test_launcher_reason_names_the_prescribed_path() -> None:
    checks = compile_sources("- Never run `rails` directly; always use `bin/rails`.\n")["checks"]
    assert any("`bin/rails`" in check["message"] for check in checks)

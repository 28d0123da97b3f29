"""A rule about a task ("ask before adding dependencies", "never create tags") stops the commands
that do the task, and not their look-alikes that do something else (`npm install` installs the
lockfile, `git tag -l` lists tags, `pip install -e .` installs the project itself)."""

from __future__ import annotations

import pytest

from cf_guidance.policy.compiler import compile_sources
from tests.gates.support import bash, decide

DEPENDENCIES = "- Ask before adding new dependencies.\n"
TAGS = "- Do not create or push tags manually: the release job does.\n"

CASES = [
    (DEPENDENCIES, "npm install left-pad", "ask"),
    (DEPENDENCIES, "npm install -D left-pad", "ask"),
    (DEPENDENCIES, "yarn add zod", "ask"),
    (DEPENDENCIES, "uv add httpx", "ask"),
    (DEPENDENCIES, "pip install requests", "ask"),
    (DEPENDENCIES, "cargo add serde", "ask"),
    (DEPENDENCIES, "npm install", "allow"),
    (DEPENDENCIES, "npm install --frozen-lockfile", "allow"),
    (DEPENDENCIES, "yarn", "allow"),
    (DEPENDENCIES, "uv sync", "allow"),
    (DEPENDENCIES, "pip install -r requirements.txt", "allow"),
    (DEPENDENCIES, "pip install -e '.[dev]'", "allow"),
    (DEPENDENCIES, "pip install .", "allow"),
    (TAGS, "git tag v1.2.0", "deny"),
    (TAGS, "git tag -a v1.2.0 -m 'release'", "deny"),
    (TAGS, "git push --tags", "deny"),
    (TAGS, "git tag", "allow"),
    (TAGS, "git tag -l 'v1.*'", "allow"),
    (TAGS, "git tag --list", "allow"),
    (TAGS, "git tag --contains HEAD", "allow"),
]


@pytest.mark.parametrize(("policy", "command", "verdict"), CASES, ids=[f"{c[1]}->{c[2]}" for c in CASES])
def test_category_rule(policy: str, command: str, verdict: str) -> None:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert decide(bash(command), checks=checks).verdict == verdict

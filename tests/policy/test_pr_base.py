"""The branch pull requests are opened against: another base is warned, a base the text rules out
is stopped, and `gh pr create` without `--base` (the repository's default) is left alone."""

from __future__ import annotations

import pytest

from cf_guidance.policy.compiler import compile_sources
from tests.gates.support import bash, decide

TARGET = "- **All PRs target `develop`** (NOT `master`)\n"
NEVER = "- Never open pull requests against `main`.\n"

CASES = [
    (TARGET, "gh pr create --base develop --title t --body b", "allow"),
    (TARGET, "gh pr create -B develop --fill", "allow"),
    (TARGET, "gh pr create --base=develop --fill", "allow"),
    (TARGET, "gh pr create --fill", "allow"),
    (TARGET, "gh pr create --base release/1.2 --fill", "warn"),
    (TARGET, "gh pr create --base master --fill", "deny"),
    (TARGET, "gh pr create -B master --fill", "deny"),
    (TARGET, "gh pr view 12", "allow"),
    (NEVER, "gh pr create --base main --fill", "deny"),
    (NEVER, "gh pr create --base develop --fill", "allow"),
    (NEVER, "git push origin main", "allow"),
]


@pytest.mark.parametrize(("policy", "command", "verdict"), CASES, ids=[f"{c[1]}->{c[2]}" for c in CASES])
def test_pr_base(policy: str, command: str, verdict: str) -> None:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    assert decide(bash(command), checks=checks).verdict == verdict

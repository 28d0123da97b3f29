"""A step owed before an action, done by a command that is the same step in other words.

The rule names the step as its author types it; the agent may start it another way: a script by
its path with or without `./`, or through its interpreter (`python3 tools/lint.py`, `bash
scripts/check.sh`), a Python module's program through `python -m`, or a spelling the document
itself gives as the same command ("`just fmt` or `just f`", "`make fmt` (or `gofmt -w .`)",
"`npm run check` / `npm run c`"). Any of them satisfies the ordering; another command, or a
list of distinct steps ("`make lint`, `make test` or `make e2e`"), does not."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy.ordering_support import edit, ran, verdicts

SCRIPT = "- Always run linting before commits: `tools/lint.py`\n"
SCRIPT_DOT = "- Run `./scripts/check.sh` before pushing\n"
SCRIPT_BARE = "- You must run `scripts/check.sh` before committing.\n"
MODULE = "- Run `pytest` before committing\n"
ALIAS_LIST = "## Commands\n\n- `just fmt` or `just f` - format the sources\n\n## Rules\n\n- Run `just fmt` before committing\n"
ALIAS_PAREN = "- Always run `make fmt` (or `gofmt -w .`) before committing.\n"
ALIAS_SLASH = "## Commands\n\n- `npm run check` / `npm run c`: every check\n\n## Rules\n\n1. Before pushing, run `npm run check`.\n"
ALIAS_WORD = "## Commands\n\n| Command | Does |\n|---|---|\n| `make verify` (alias `make v`) | all checks |\n\n**Before each commit** run `make verify`.\n"
LISTED = "- Run `make lint`, `make test` or `make e2e` before committing\n"
TWO_STEPS = "- Run `make lint` and `make test` before committing\n"

CASES: list[tuple[str, str, list[dict[str, Any]], list[str]]] = [
    # the same step, started another way
    (SCRIPT, "git commit -m x", [ran("python3 tools/lint.py")], []),
    (SCRIPT, "git commit -m x", [ran("./tools/lint.py")], []),
    (SCRIPT, "git commit -m x", [ran("tools/lint.py --all")], []),
    (SCRIPT, "git commit -m x", [ran("python3 tools/lint.py && git add -A")], []),
    (SCRIPT, "python tools/lint.py && git commit -m x", [], []),
    (SCRIPT_DOT, "git push", [ran("scripts/check.sh")], []),
    (SCRIPT_DOT, "git push", [ran("bash scripts/check.sh")], []),
    (SCRIPT_BARE, "git commit -m x", [ran("sh ./scripts/check.sh")], []),
    (MODULE, "git commit -m x", [ran("python -m pytest -q")], []),
    (MODULE, "git commit -m x", [ran("python3 -m pytest tests/")], []),
    (ALIAS_LIST, "git commit -m x", [ran("just f")], []),
    (ALIAS_PAREN, "git commit -m x", [ran("gofmt -w .")], []),
    (ALIAS_SLASH, "git push", [ran("npm run c")], []),
    (ALIAS_WORD, "git commit -m x", [ran("make v")], []),
    # the step not done: another script, a failed run, a run before the last commit, another command
    (SCRIPT, "git commit -m x", [], ["warn"]),
    (SCRIPT, "git commit -m x", [ran("python3 tools/lint.py", ok=False)], ["warn"]),
    (SCRIPT, "git commit -m x", [ran("python3 tools/other.py")], ["warn"]),
    (SCRIPT, "git commit -m x", [ran("python3 -c 'import tools'")], ["warn"]),
    (SCRIPT, "git commit -m x", [ran("python3 tools/lint.py"), ran("git commit -m a"), edit("src/a.py")], ["warn"]),
    (SCRIPT_DOT, "git push", [ran("cat scripts/check.sh")], ["warn"]),
    (MODULE, "git commit -m x", [ran("python -m pip install pytest")], ["warn"]),
    (ALIAS_LIST, "git commit -m x", [ran("just test")], ["warn"]),
    (ALIAS_SLASH, "git push", [ran("npm run build")], ["warn"]),
    # a list of distinct steps is no pair of spellings: each is owed
    (LISTED, "git commit -m x", [ran("make e2e")], ["warn"]),
    (TWO_STEPS, "git commit -m x", [ran("make test")], ["warn"]),
    (TWO_STEPS, "git commit -m x", [ran("make lint"), ran("make test")], []),
]


@pytest.mark.parametrize(("policy", "command", "history", "expected"), CASES)
def test_equivalent_steps(policy: str, command: str, history: list[dict[str, Any]], expected: list[str]) -> None:
    assert verdicts(policy, command, history) == expected

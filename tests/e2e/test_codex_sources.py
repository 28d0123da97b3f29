"""One policy for both agents: Codex's own AGENTS.md files, enforced with the real Codex CLI.

A project with no CLAUDE.md at all: the rules are in AGENTS.md and in a subdirectory's
AGENTS.md (applied in that directory only). Codex is optional here, as in test_codex_hooks.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from e2e_harness import Sandbox, bash, cf_guidance, run_codex

pytestmark = pytest.mark.e2e


def test_agents_md_rules_are_enforced_on_codex(sandbox: Sandbox, codex_bin: Path) -> None:
    project = sandbox.project
    for rel, text in {
        "AGENTS.md": "# Rules\n\n- Never run `make deploy`.\n",
        "services/api/AGENTS.md": "# API service\n\n- Never run `make migrate`.\n",
        "Makefile": "deploy:\n\ttouch deployed\nmigrate:\n\ttouch migrated\n",
        "services/api/Makefile": "migrate:\n\ttouch migrated\n",
    }.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    sandbox.home.mkdir(exist_ok=True)
    done = subprocess.run(cf_guidance("init", "--agent", "codex", "--target", str(project)), capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, HOME=str(sandbox.home)))
    assert done.returncode == 0, done.stdout + done.stderr
    run = run_codex(sandbox, codex_bin, [
        bash("make deploy"),
        bash("cd services/api && make migrate"),
        bash("make migrate"),  # at the root: the subdirectory's rule does not apply
        {"text": "DONE"},
    ])
    assert run.exit_code == 0, run.stderr[-2000:]
    blocked = "Command blocked by PreToolUse hook: "
    assert run.told(0).content.startswith(blocked) and "Not allowed: `make deploy`. (AGENTS.md:3)" in run.told(0).content
    assert run.told(1).content.startswith(blocked)
    assert "Not allowed: `make migrate`. (services/api/AGENTS.md:3)" in run.told(1).content
    assert "blocked" not in run.told(2).content
    assert not (project / "deployed").exists()
    assert not (project / "services/api/migrated").exists()
    assert (project / "migrated").exists()

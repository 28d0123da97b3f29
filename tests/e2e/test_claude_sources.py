"""The policy files Claude Code loads, enforced with the real client: a rule from a file the
CLAUDE.md imports, and rules from a subdirectory's CLAUDE.md that apply only in there.

Witnesses, as in test_claude_hooks: the client's `permission_denials`, the tool results the
model was told (each denial names its rule's file:line), and the filesystem (the denied
commands left no trace, the allowed one did).
"""

from __future__ import annotations

import os
import subprocess

import pytest
from e2e_harness import Sandbox, bash, cf_guidance, tool

pytestmark = pytest.mark.e2e

LAYOUT = {
    # (a period right after the path would be part of it: Claude Code would not import `agent-rules.md.`)
    "CLAUDE.md": "# Project\n\nSee @docs/agent-rules.md for the team rules.\n",
    "docs/agent-rules.md": "# Rules\n\n- Never run `make deploy`.\n",
    "src/gen/CLAUDE.md": "# Generated code\n\n- Never edit `*.pb.go`.\n- Never run `make regen`.\n",
    "Makefile": "deploy:\n\ttouch deployed\nregen:\n\ttouch regenerated\n",
    "src/gen/Makefile": "regen:\n\ttouch regenerated\n",
}


@pytest.fixture
def layered(sandbox: Sandbox) -> Sandbox:
    project = sandbox.project
    for rel, text in LAYOUT.items():
        path = project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    sandbox.home.mkdir(exist_ok=True)
    done = subprocess.run(cf_guidance("init", "--target", str(project)), capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, HOME=str(sandbox.home)))
    assert done.returncode == 0, done.stdout + done.stderr
    return sandbox


def test_imported_and_subdirectory_rules_are_enforced(layered: Sandbox) -> None:
    project = layered.project
    generated = project / "src" / "gen" / "api.pb.go"
    run = layered.run([
        bash("make deploy"),  # 0: the imported file's rule
        tool("Write", file_path=str(generated), content="package api\n"),  # 1: src/gen/CLAUDE.md, a path rule
        bash("cd src/gen && make regen"),  # 2: src/gen/CLAUDE.md, a command rule, in its directory
        bash("make regen"),  # 3: the same command at the root: not in the scope
        tool("Write", file_path=str(project / "api.pb.go"), content="package api\n"),  # 4: outside the scope
        {"text": "finished"},
    ])
    assert run.claude.exit_code == 0, run.claude.stderr
    assert run.result["result"] == "finished"
    assert run.denied() == {"toolu_0_0", "toolu_1_0", "toolu_2_0"}

    told = {turn: run.told(turn) for turn in range(5)}
    assert told[0].is_error and "Not allowed: `make deploy`. (docs/agent-rules.md:3)" in told[0].content, told[0]
    assert told[1].is_error and "Not allowed: editing `*.pb.go`. (src/gen/CLAUDE.md:3)" in told[1].content, told[1]
    assert told[2].is_error and "Not allowed: `make regen`. (src/gen/CLAUDE.md:4)" in told[2].content, told[2]
    assert not told[3].is_error and not told[4].is_error, (told[3], told[4])

    assert not (project / "deployed").exists()
    assert not generated.exists()
    assert not (project / "src" / "gen" / "regenerated").exists()
    assert (project / "regenerated").exists()  # the root's `make regen` ran
    assert (project / "api.pb.go").exists()

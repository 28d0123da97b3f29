"""cf-guidance on the real Codex CLI: `cf-guidance init --agent codex`, a scripted session.

The same dispatcher serves Codex through `.codex/hooks.json`. Codex is optional here:
these tests skip when the codex binary is absent (scripts/test.sh installs only Claude
Code), also under CI.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from e2e_harness import Sandbox, bash, cf_guidance, run_codex

pytestmark = pytest.mark.e2e


def test_codex_session_is_guarded(sandbox: Sandbox, codex_bin: Path) -> None:
    project = sandbox.project
    (project / "CLAUDE.md").write_text("# Rules\n\n## Safety\n\n- Never run `make deploy`.\n")
    (project / "Makefile").write_text("deploy:\n\ttouch deployed\n")
    sandbox.home.mkdir(exist_ok=True)
    done = subprocess.run(
        cf_guidance("init", "--agent", "codex", "--target", str(project)),
        capture_output=True, text=True, timeout=120, env=dict(os.environ, HOME=str(sandbox.home)),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # `rm -r`, not `rm -rf`: Codex refuses `rm -f` itself, which would hide whether we did.
    run = run_codex(
        sandbox,
        codex_bin,
        [bash(f"rm -r {sandbox.victim}"), bash("make deploy"), bash("touch safe-ran"),
         {"text": "DONE"}],
    )
    assert run.exit_code == 0, run.stderr[-2000:]
    assert [e["item"]["text"] for e in run.events if e.get("item", {}).get("type") == "agent_message"] == ["DONE"]

    blocked = "Command blocked by PreToolUse hook: "
    assert run.told(0).content.startswith(blocked + "[DST001] ")
    assert run.told(1).content.startswith(blocked + "[")
    assert "Not allowed: `make deploy`. (CLAUDE.md:5)" in run.told(1).content
    assert "blocked" not in run.told(2).content

    assert (sandbox.victim / "precious.txt").read_text() == "keep me\n"
    assert not (project / "deployed").exists()
    assert (project / "safe-ran").exists()

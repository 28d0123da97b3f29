"""Run hook commands in-process, as the launcher would, against a temporary project."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.hooks import dispatch, protocol
from cf_guidance.jobs import spool

POLICY = """# Demo project

## Safety

- Never run `git push --force`.
- Never edit `migrations/**`.

## Conventions

- Avoid `npm install`.
- Ask before `terraform apply`.
- Write tests for every bug fix in the payments module.
"""


def bash(command: str, **extra: Any) -> dict[str, Any]:
    event = {
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1",
    }
    event.update(extra)
    return event


class HookRunner:
    """`runner("pre-bash", payload, **env) -> Answer`; the detached worker is recorded, not started."""

    def __init__(self, project: Path) -> None:
        self.project = project
        self.spawned: list[tuple[Any, ...]] = []

    @property
    def state_dir(self) -> str:
        return str(self.project / ".claude-flow" / "guidance")

    def __call__(self, name: str, payload: object, **env: str) -> protocol.Answer:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        environ = {"CLAUDE_PROJECT_DIR": str(self.project)}
        environ.update(env)
        return dispatch.run(name, lambda: data, environ)

    def jobs(self, state_dir: str | None = None) -> list[dict[str, Any]]:
        return [spool.read_job(path) for path in spool.pending(state_dir or self.state_dir)]


@pytest.fixture
def hook(project: Path, monkeypatch: pytest.MonkeyPatch) -> HookRunner:
    runner = HookRunner(project)
    monkeypatch.setattr(spool, "spawn_worker", lambda *args, **kw: runner.spawned.append(args) or True)
    return runner


@pytest.fixture
def policy_hook(hook: HookRunner) -> HookRunner:
    (hook.project / "CLAUDE.md").write_text(POLICY)
    return hook

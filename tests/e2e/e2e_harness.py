"""Helpers for end-to-end runs: a sandboxed project, a scripted session, script turns.

Imported by the e2e tests as `e2e_harness` (pytest puts this directory on sys.path).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.errors import RunnerError
from cf_guidance.headless.claude import ClaudeRun, claude_env, find_claude, run_claude
from cf_guidance.modelserver import ModelServer, ToolResult
from tests.conftest import in_ci



def cf_guidance(*args: str) -> list[str]:
    """argv running the cf-guidance CLI of this interpreter (its console script if installed)."""
    script = Path(sys.executable).with_name("cf-guidance")
    if script.is_file():
        return [str(script), *args]
    return [sys.executable, "-c", "from cf_guidance.cli import main; main()", *args]


def require_claude() -> Path:
    """The claude binary, or skip the test; under CI=true a missing binary fails it."""
    try:
        return find_claude()
    except RunnerError as exc:
        if in_ci():
            pytest.fail(f"CI=true but the claude binary is missing: {exc}")
        pytest.skip(f"end-to-end tests need the claude binary: {exc}")


#: Directories the guard treats as scratch space (deleting there is allowed).
TEMP_ROOTS = ("/tmp", "/var/tmp", tempfile.gettempdir())


def is_temp(path: Path) -> bool:
    resolved = path.resolve()
    return any(resolved.is_relative_to(Path(root).resolve()) for root in TEMP_ROOTS)


def victim_parent() -> Path:
    """A fresh directory outside every temp dir, for victims; the caller removes it.

    The user's cache directory is the first choice (CI runs as a user with a HOME); the
    repository's ignored `.tools/` is the fallback when HOME itself is a temp dir.
    """
    candidates = [Path.home() / ".cache", Path(__file__).resolve().parents[2] / ".tools"]
    for base in candidates:
        if base.parent.is_dir() and not is_temp(base):
            base.mkdir(exist_ok=True)
            return Path(tempfile.mkdtemp(prefix="cf-guidance-e2e-victim-", dir=base))
    raise RuntimeError(f"no directory outside the temp dirs for a victim: tried {candidates}")


#: The hook's own deadline, raised from its 3 s default (still under the 15 s that init
#: writes as the client's timeout): on a loaded CI machine a slow hook must not fail open
#: and turn a test about policy into a test about load.
HOOK_ENV = {"GUIDANCE_EVENT_SYNC_TIMEOUT_MS": "10000"}

#: Per-run ceiling; a healthy scripted run takes one to a few seconds.
RUN_TIMEOUT_S = 60.0


@dataclass
class ScriptedRun:
    """One finished run: what the client reported and what the model was told."""

    claude: ClaudeRun
    server: ModelServer

    @property
    def result(self) -> dict[str, Any]:
        return self.claude.result

    def told(self, turn: int, position: int = 0) -> ToolResult:
        """The tool result the model received for tool call `position` of script turn `turn`."""
        return self.server.tool_result(f"toolu_{turn}_{position}")

    def denied(self) -> set[str]:
        return self.claude.denied_tool_use_ids()

    def hook_responses(self, hook_name: str) -> list[dict[str, Any]]:
        """`system/hook_response` messages for `hook_name` (e.g. "PreToolUse:Bash").

        Only present for runs with `hook_events=True` (stream-json, --include-hook-events).
        """
        return [
            m
            for m in self.claude.messages
            if isinstance(m, dict)
            and m.get("type") == "system"
            and m.get("subtype") == "hook_response"
            and m.get("hook_name") == hook_name
        ]


class Sandbox:
    """A git project and an isolated HOME under `root`, and a victim directory elsewhere.

    The victim must be outside the project and outside every temp directory: deleting
    scratch space under /tmp is legitimate, so the guard allows it. It lives under
    `victim_parent` (see `victim_parent()`).
    """

    def __init__(self, root: Path, binary: Path, victim_parent: Path) -> None:
        self.binary = binary
        self.project = root / "project"
        self.home = root / "home"
        self.victim = victim_parent / "victim"
        self.project.mkdir()
        self.victim.mkdir()
        (self.victim / "precious.txt").write_text("keep me\n")
        subprocess.run(["git", "init", "-q", str(self.project)], check=True)

    def run(
        self,
        turns: Sequence[Mapping[str, Any]],
        *,
        prompt: str = "Do the task.",
        output_format: str = "json",
        env: Mapping[str, str] | None = None,
        max_turns: int = 20,
        hook_events: bool = False,
    ) -> ScriptedRun:
        """Run the scripted `turns` through the real client in the project.

        `hook_events` switches to stream-json with --include-hook-events, so every hook's
        exit code and stdout are in the output (see `ScriptedRun.hook_responses`).
        """
        if hook_events:
            output_format = "stream-json"
        server = ModelServer({"turns": list(turns)})
        with server:
            claude = run_claude(
                prompt,
                self.project,
                claude_env(server.url, self.home, extra={**HOOK_ENV, **(env or {})}),
                output_format="stream-json" if output_format == "stream-json" else "json",
                max_turns=max_turns,
                timeout=RUN_TIMEOUT_S,
                binary=self.binary,
                extra_args=("--include-hook-events",) if hook_events else (),
            )
        assert not claude.timed_out, f"claude timed out: {claude.stderr[-2000:]}"
        return ScriptedRun(claude, server)


def bash(command: str) -> dict[str, Any]:
    """A script turn making one Bash call."""
    return {"tool_uses": [{"name": "Bash", "input": {"command": command, "description": "step"}}]}


def tool(name: str, **tool_input: Any) -> dict[str, Any]:
    """A script turn making one call of tool `name`."""
    return {"tool_uses": [{"name": name, "input": tool_input}]}


# -- Codex ---------------------------------------------------------------------------------

#: Environment variable naming the codex binary; else the repo's `.tools/codex` install, else PATH.
CODEX_BIN_ENV = "CF_GUIDANCE_CODEX_BIN"
PINNED_CODEX_BIN = Path(".tools/codex/node_modules/.bin/codex")
#: A model name Codex 0.169 has metadata for (others add an error item to every run).
CODEX_MODEL = "gpt-5.5"


def find_codex() -> Path | None:
    configured = os.environ.get(CODEX_BIN_ENV)
    if configured:
        return Path(configured)
    pinned = Path(__file__).resolve().parents[2] / PINNED_CODEX_BIN
    if pinned.is_file():
        return pinned
    on_path = shutil.which("codex")
    return Path(on_path) if on_path else None


@dataclass
class CodexRun:
    exit_code: int
    stdout: str
    stderr: str
    events: list[dict[str, Any]]
    server: ModelServer

    def told(self, turn: int, position: int = 0) -> ToolResult:
        return self.server.tool_result(f"toolu_{turn}_{position}")


def run_codex(sandbox: Sandbox, codex: Path, turns: Sequence[Mapping[str, Any]]) -> CodexRun:
    """`codex exec --json` in the sandbox project against the scripted Responses API.

    Recipe from reference/codex-e2e.md: a mock provider in CODEX_HOME/config.toml, the
    project marked trusted (an untrusted project's hooks are skipped silently), plugins
    off (they reach the network), hook trust bypassed for this run only.
    """
    codex_home = sandbox.home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    server = ModelServer({"turns": list(turns)})
    with server:
        (codex_home / "config.toml").write_text(
            f'model = "{CODEX_MODEL}"\n'
            'model_provider = "mock"\n'
            "check_for_update_on_startup = false\n"
            "[model_providers.mock]\n"
            'name = "Scripted Responses"\n'
            f'base_url = "{server.url}/v1"\n'
            'env_key = "MOCK_API_KEY"\n'
            'wire_api = "responses"\n'
            "request_max_retries = 0\n"
            "stream_max_retries = 0\n"
            "[features]\n"
            "plugins = false\n"
            "[analytics]\n"
            "enabled = false\n"
            f"[projects.{json.dumps(str(sandbox.project))}]\n"
            'trust_level = "trusted"\n'
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEX_"))}
        env.update(HOOK_ENV)
        env.update(
            HOME=str(sandbox.home),
            CODEX_HOME=str(codex_home),
            MOCK_API_KEY="test",
            NO_PROXY="127.0.0.1,localhost",
            no_proxy="127.0.0.1,localhost",
        )
        argv = [
            str(codex), "exec", "--json", "--skip-git-repo-check",
            "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust",
            "Do the task.",
        ]
        done = subprocess.run(
            argv, cwd=sandbox.project, env=env, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
        )
    events = []
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            events.append(json.loads(line))
    return CodexRun(done.returncode, done.stdout, done.stderr, events, server)

"""The claude launcher without the real binary: lookup order, isolation, output parsing, timeout."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from cf_guidance.errors import RunnerError
from cf_guidance.headless.claude import (
    CLAUDE_BIN_ENV,
    PINNED_BIN,
    ClaudeRun,
    claude_env,
    find_claude,
    run_claude,
)


def _executable(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.delenv(CLAUDE_BIN_ENV, raising=False)
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    return {
        "env": _executable(tmp_path / "env-bin" / "claude", "exit 0\n"),
        "repo": tmp_path / "repo",
        "path": _executable(tmp_path / "path-bin" / "claude", "exit 0\n"),
    }


def test_find_claude_prefers_env_then_pinned_then_path(
    places: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = places["repo"]
    with pytest.raises(RunnerError, match="scripts/test.sh"):
        find_claude(repo)
    monkeypatch.setenv("PATH", str(places["path"].parent))
    assert find_claude(repo) == places["path"]
    pinned = _executable(repo / PINNED_BIN, "exit 0\n")
    assert find_claude(repo) == pinned
    monkeypatch.setenv(CLAUDE_BIN_ENV, str(places["env"]))
    assert find_claude(repo) == places["env"]
    monkeypatch.setenv(CLAUDE_BIN_ENV, str(repo / "missing"))
    with pytest.raises(RunnerError, match=CLAUDE_BIN_ENV):
        find_claude(repo)


def test_claude_env_isolates(tmp_path: Path) -> None:
    user_env = {
        "PATH": "/usr/bin",
        "LANG": "C.UTF-8",
        "ANTHROPIC_API_KEY": "sk-real",
        "ANTHROPIC_MODEL": "opus",
        "CLAUDE_CONFIG_DIR": "/root/.claude",
        "CLAUDECODE": "1",
        "HOME": "/root",
    }
    env = claude_env("http://127.0.0.1:1234", tmp_path / "home", base=user_env,
                     extra={"GUIDANCE_EVENT_FAIL_CLOSED": "1"})
    assert env["PATH"] == "/usr/bin" and env["LANG"] == "C.UTF-8"
    assert env["HOME"] == str(tmp_path / "home")
    assert env["CLAUDE_CONFIG_DIR"] == str(tmp_path / "home" / ".claude")
    assert (tmp_path / "home" / ".claude").is_dir()
    assert env["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:1234"
    assert env["ANTHROPIC_API_KEY"] == "test"
    assert env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] == "1"
    assert env["GUIDANCE_EVENT_FAIL_CLOSED"] == "1"
    assert "ANTHROPIC_MODEL" not in env and "CLAUDECODE" not in env


FAKE_CLAUDE = """\
printf '%s\\n' "$@" > "$PWD/argv.txt"
echo "not json"
echo '{"type":"system","subtype":"init"}'
echo '{"type":"result","is_error":false,"permission_denials":[{"tool_name":"Bash","tool_use_id":"toolu_0_0","tool_input":{}}]}'
echo "to stderr" >&2
exit 3
"""


def test_run_claude_builds_argv_and_parses_output(tmp_path: Path) -> None:
    binary = _executable(tmp_path / "claude", FAKE_CLAUDE)
    run = run_claude("do it", tmp_path, dict(os.environ), output_format="stream-json",
                     max_turns=4, allowed_tools=("Bash", "Read"), extra_args=("--model", "x"),
                     binary=binary)
    assert (tmp_path / "argv.txt").read_text().splitlines() == [
        "-p", "do it", "--output-format", "stream-json", "--verbose", "--max-turns", "4",
        "--allowedTools", "Bash,Read", "--model", "x",
    ]
    assert run.exit_code == 3 and not run.timed_out
    assert run.stderr == "to stderr\n"
    assert [m["type"] for m in run.messages] == ["system", "result"]
    assert run.denied_tool_use_ids() == {"toolu_0_0"}


def test_json_verbose_array_is_flattened(tmp_path: Path) -> None:
    binary = _executable(tmp_path / "claude", """echo '[{"type":"system"},{"type":"result","x":1}]'\n""")
    run = run_claude("p", tmp_path, dict(os.environ), binary=binary)
    assert run.result == {"type": "result", "x": 1}


def test_timeout_kills_the_process_group(tmp_path: Path) -> None:
    marker = tmp_path / "child-survived"
    binary = _executable(tmp_path / "claude", f"(sleep 1; touch {marker}) &\nsleep 30\n")
    run = run_claude("p", tmp_path, dict(os.environ), timeout=0.5, binary=binary)
    assert run.timed_out
    assert run.exit_code != 0
    with pytest.raises(RunnerError, match="timed out without a result"):
        run.result
    time.sleep(1.5)  # past the moment the orphaned child would have written the marker
    assert not marker.exists()


def test_missing_result_is_a_runner_error() -> None:
    run = ClaudeRun(argv=("claude",), exit_code=1, stdout="", stderr="boom\n", messages=(),
                    duration_s=0.1)
    with pytest.raises(RunnerError, match="exited 1 without a result object: boom"):
        run.permission_denials

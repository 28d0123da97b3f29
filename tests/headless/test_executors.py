from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.errors import RunnerError
from cf_guidance.headless import executors
from cf_guidance.headless.collect import collect
from cf_guidance.headless.executors import (
    ExecRequest,
    FakeExecutor,
    ScriptedExecutor,
    answer_request,
    make_executor,
    script_for,
)
from cf_guidance.headless.suite import Task
from cf_guidance.headless.hygiene import read_cmdline
from cf_guidance.headless.workspace import prepare

FAKE_CLAUDE = Path(__file__).parent / "fake_claude.py"
QUESTION = {"question": "Which database?", "header": "DB",
            "options": [{"label": "postgres", "description": "pg"}, {"label": "mysql", "description": "my"}]}


def task(**fields: Any) -> Task:
    base = {"id": "t", "prompt": "hello there", "executor": "scripted", "timeout": 20,
            "script": {"turns": [{"tool_uses": [{"name": "Write", "input": {"file_path": "${WORKSPACE}/a.txt", "content": "x"}}]},
                                 {"text": "done"}]}}
    return Task.model_validate({**base, **fields})


def ask(mode: str, answers: dict[str, str] | None = None, prompter: Any = None) -> tuple[dict[str, Any], Any]:
    request = ExecRequest(task(answers=answers or {}), workspace=None, mode=mode, prompter=prompter)  # type: ignore[arg-type]
    payload = {"subtype": "can_use_tool", "tool_name": "AskUserQuestion", "input": {"questions": [QUESTION]}, "tool_use_id": "q"}
    return answer_request(request, payload)


@pytest.mark.parametrize(
    ("mode", "answers", "behavior", "answer"),
    [
        ("non-interactive", {}, "deny", None),
        ("auto-answer", {}, "allow", "postgres"),  # no default given: the first option
        ("auto-answer", {"Which database?": "mysql"}, "allow", "mysql"),
        ("auto-answer", {"DB": "sqlite"}, "allow", "sqlite"),  # by header
        ("auto-answer", {"*": "any"}, "allow", "any"),
    ],
)
def test_ask_user_question_per_mode(mode: str, answers: dict[str, str], behavior: str, answer: str | None) -> None:
    reply, interaction = ask(mode, answers)
    assert reply["behavior"] == behavior == interaction.behavior
    if answer is not None:
        assert reply["updatedInput"]["answers"] == {"Which database?": answer}


def test_interactive_asks_the_prompter() -> None:
    seen: list[str] = []

    def prompter(kind: str, payload: dict[str, Any]) -> str:
        seen.append(kind)
        return "mysql" if kind == "question" else "n"

    reply, _ = ask("interactive", prompter=prompter)
    assert reply["updatedInput"]["answers"] == {"Which database?": "mysql"}
    request = ExecRequest(task(), workspace=None, mode="interactive", prompter=prompter)  # type: ignore[arg-type]
    reply, interaction = answer_request(request, {"tool_name": "Bash", "input": {"command": "ls"}})
    assert reply["behavior"] == "deny" and interaction.tool == "Bash" and seen == ["question", "permission"]


@pytest.mark.parametrize("mode", ["non-interactive", "auto-answer"])
def test_permission_prompts_are_denied_without_a_person(mode: str) -> None:
    request = ExecRequest(task(), workspace=None, mode=mode)  # type: ignore[arg-type]
    reply, _ = answer_request(request, {"tool_name": "Bash", "input": {"command": "rm x"}})
    assert reply == {"behavior": "deny", "message": f"Permission prompts are denied in {mode} mode."}


def test_script_for_substitutes_the_workspace(tmp_path: Path) -> None:
    ws = prepare(task(), tmp_path, install=None, base_dir=tmp_path)
    try:
        script = script_for(task().script, ws)  # type: ignore[arg-type]
        assert script.turns[0].tool_uses[0].input["file_path"] == f"{ws.project}/a.txt"
    finally:
        ws.cleanup()


def test_fake_executor_replays_the_script(tmp_path: Path) -> None:
    ws = prepare(task(), tmp_path, install=None, base_dir=tmp_path)
    try:
        result = FakeExecutor().execute(ExecRequest(task(), ws))
        run = collect("p", result.stdout)
        assert [c.name for c in run.tool_calls] == ["Write"] and run.final_text == "done"
        assert run.init["cwd"] == str(ws.project)
    finally:
        ws.cleanup()


def test_make_executor() -> None:
    assert make_executor("fake").name == "fake"
    assert make_executor("scripted", binary=FAKE_CLAUDE).name == "scripted"
    with pytest.raises(RunnerError, match="unknown executor"):
        make_executor("robot")


def test_missing_binary_fails_preflight(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CF_GUIDANCE_CLAUDE_BIN", str(tmp_path / "no-claude"))
    with pytest.raises(RunnerError, match="not an executable file"):
        ScriptedExecutor().preflight()


def test_claude_executor_needs_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in executors.AUTH_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(RunnerError, match="needs one of ANTHROPIC_API_KEY"):
        executors.ClaudeExecutor(binary=FAKE_CLAUDE).preflight()


def run_fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, stopper: executors.Stopper | None = None,
             **fields: Any) -> tuple[Any, Any]:
    monkeypatch.setenv("FAKE_CLAUDE_MODE", mode)
    monkeypatch.setenv("GUIDANCE_STATE_DIR", "/somewhere/else")
    spec = task(**fields)
    ws = prepare(spec, tmp_path, install=None, base_dir=tmp_path)
    result = ScriptedExecutor(binary=FAKE_CLAUDE).execute(ExecRequest(spec, ws, mode="auto-answer", stopper=stopper))
    return result, ws


def test_scripted_executor_drives_the_stream_protocol(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result, ws = run_fake(tmp_path, monkeypatch, "ask", answers={"DB": "mysql"})
    try:
        run = collect("hello there", result.stdout)
        init = run.init
        assert init["home"] == str(ws.home) and init["base_url"].startswith("http://127.0.0.1:")
        # the user's GUIDANCE_* settings do not reach the hooks; the run switches the rate limit off
        assert init["guidance_env"] == ["GUIDANCE_RATE_LIMIT_PER_MIN"]
        assert {"--input-format", "stream-json", "--permission-prompt-tool", "stdio", "--setting-sources",
                "project", "--include-hook-events"} <= set(init["argv"])
        assert run.final_text == "hello there"  # the prompt went in as the first user message
        assert run.tool_calls[0].result == 'answered: {"Which database?": "mysql"}'
        assert [i.behavior for i in result.interactions] == ["allow"]
        assert result.exit_code == 0 and not result.timed_out and not result.infra_error
        assert result.env["CLAUDE_CONFIG_DIR"] == str(ws.config_dir)
    finally:
        ws.cleanup()


def test_timeout_kills_the_whole_process_group(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result, ws = run_fake(tmp_path, monkeypatch, "hang", timeout=1)
    ws.cleanup()
    assert result.timed_out and result.exit_code != 0
    assert result.duration_ms < 30_000  # the sleeping child did not keep the pipes open
    # the child in a session of its own, which the group kill misses, was ended too
    assert any(line.endswith(" sleep 60") for line in result.processes["ended"])
    assert not result.processes["left"]


def test_crash_keeps_stderr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result, ws = run_fake(tmp_path, monkeypatch, "crash")
    ws.cleanup()
    assert result.exit_code == 3 and "something broke" in result.stderr


def test_dead_model_server_aborts_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cf_guidance import modelserver

    class DyingServer(modelserver.ModelServer):
        def start(self) -> modelserver.ModelServer:
            started = super().start()
            threading.Timer(0.3, self.stop).start()
            return started

    monkeypatch.setattr(modelserver, "ModelServer", DyingServer)
    result, ws = run_fake(tmp_path, monkeypatch, "hang", timeout=30)
    ws.cleanup()
    assert "stopped answering mid-run" in result.infra_error and result.infra_kind == "model-server"
    assert not result.timed_out
    assert result.duration_ms < 25_000  # stopped at once, not at the 30 s timeout


def test_the_stopper_stops_running_clients(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_CLAUDE_MODE", "hang")
    spec = task(timeout=60)
    ws = prepare(spec, tmp_path, install=None, base_dir=tmp_path)
    stopper = executors.Stopper()
    results: list[Any] = []
    request = ExecRequest(spec, ws, mode="auto-answer", stopper=stopper)
    worker = threading.Thread(target=lambda: results.append(ScriptedExecutor(binary=FAKE_CLAUDE).execute(request)))
    worker.start()
    for _ in range(300):  # until the client has started its child
        if any(read_cmdline(pid) == ["sleep", "60"] for pid in ws.processes.members()):
            break
        threading.Event().wait(0.05)
    stopper.stop("interrupted by SIGINT")
    worker.join(timeout=30)
    assert not worker.is_alive()
    result = results[0]
    ws.cleanup()
    assert (result.infra_error, result.infra_kind) == ("interrupted by SIGINT", "interrupted") and not stopper.running
    # the fake client's `sleep 60` child (in a session of its own) is gone with it
    assert any(line.endswith(" sleep 60") for line in result.processes["ended"]) and not result.processes["left"]

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from cf_guidance.headless.collect import (
    RunData,
    attach_decisions,
    check_isolation,
    collect,
    recorded_decisions,
    rule_code,
)
from cf_guidance.headless.executors import stream

from .helpers import TURNS

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def real_run() -> RunData:
    """A real claude 2.1.328 stream: a JSON deny, an exit-2 deny (parallel calls), then an allowed call."""
    return collect("go", (FIXTURES / "stream_hook_denials.jsonl").read_text())


def test_real_stream_tool_calls_and_denials(real_run: RunData) -> None:
    calls = {c.id: c for c in real_run.tool_calls}
    assert list(calls) == ["toolu_0_0", "toolu_0_1", "toolu_1_0"]
    force, exit2, ok = calls.values()
    assert (force.denied_by, force.rule, force.ran) == ("hook", "GIT-FORCE-PUSH", False)
    assert (exit2.denied_by, exit2.rule, exit2.ran) == ("hook", "DX-002", False)
    assert (ok.denied_by, ok.ran, ok.is_error) == ("", True, False)
    assert real_run.session_id and real_run.num_turns == 4  # the client counts the final text turn too
    assert real_run.final_text == "all done"
    assert "Let me push" in real_run.output


def test_real_stream_hooks_are_attributed_to_their_calls(real_run: RunData) -> None:
    assert [(h.name, h.tool_use_id, h.decision) for h in real_run.hook_events] == [
        ("PreToolUse:Bash", "toolu_0_0", "deny"),
        ("PreToolUse:Bash", "toolu_0_1", "deny"),
        ("PreToolUse:Bash", "toolu_1_0", ""),
    ]
    assert real_run.hook_events[1].exit_code == 2
    assert real_run.hook_events[0].rule == "GIT-FORCE-PUSH"


def test_timeline_is_ordered_and_typed(real_run: RunData) -> None:
    kinds = [e.type for e in real_run.timeline]
    assert kinds[0] == "prompt" and kinds[-1] == "result"
    assert kinds.count("tool_call") == 3 and kinds.count("hook") == 3
    assert [e.seq for e in real_run.timeline] == list(range(1, len(kinds) + 1))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[DST012] git push --force overwrites", "DST012"),
        ("PreToolUse:Bash hook error: [python3 hook.py]: [DX-002] exit two", "DX-002"),
        ("[CMP-TESTS] run make test first", "CMP-TESTS"),
        ("[git push --force]: no code", ""),
        ("nothing here", ""),
        ("", ""),
    ],
)
def test_rule_code(text: str, code: str) -> None:
    assert rule_code(text) == code


def test_permission_denial_without_hook_is_permission() -> None:
    out = stream(turns=[{"tool_uses": [{"name": "Bash", "input": {"command": "ls"}, "result": "nope", "is_error": True}]}],
                 extra_result={"permission_denials": [{"tool_name": "Bash", "tool_use_id": "toolu_0_0", "tool_input": {}}]})
    run = collect("p", out)
    assert run.tool_calls[0].denied_by == "permission"


def test_transcript_fills_a_missing_result(tmp_path: Path) -> None:
    out = stream(session_id="sess-1", turns=[{"tool_uses": [{"name": "Bash", "input": {"command": "ls"}}]}])
    lines = [json.loads(line) for line in out.splitlines()]
    lines = [m for m in lines if m["type"] != "user"]  # the stream lost the tool_result
    project = tmp_path / "projects" / "-work-project"
    project.mkdir(parents=True)
    (project / "sess-1.jsonl").write_text(json.dumps({
        "type": "user", "sessionId": "sess-1",
        "permissionDecision": {"decision": "reject", "source": "hook", "reasonType": "hook"},
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_0_0",
                                                  "content": "PreToolUse:Bash hook error: [SEC002] no", "is_error": True}]},
    }) + "\nnot json\n")
    run = collect("p", "".join(json.dumps(m) + "\n" for m in lines), config_dir=tmp_path)
    assert run.transcript_path.endswith("sess-1.jsonl") and len(run.transcript) == 1
    call = run.tool_calls[0]
    assert (call.has_result, call.denied_by, call.rule) == (True, "hook", "SEC002")


def test_stray_output_is_kept_not_fatal() -> None:
    run = collect("p", "Error: something\n" + stream())
    assert run.stray_output == ["Error: something"] and run.result


def test_no_result_is_error() -> None:
    run = collect("p", "")
    assert run.is_error and run.final_text == "" and run.num_turns == 0


def test_recorded_decisions_from_spool_and_ledger(tmp_path: Path) -> None:
    from cf_guidance.jobs import spool
    from cf_guidance.state import StateLayout

    state = tmp_path / "state"
    spool.enqueue(str(state), "decision", {"tool_use_id": "toolu_0_0", "session_id": "s"},
                  {"decision": "deny", "rule": "DST012", "reason": "[DST012] no"})
    ledger = Path(StateLayout(str(state)).ledger)
    ledger.mkdir(parents=True, exist_ok=True)
    (ledger / "ledger.jsonl").write_text(json.dumps({"kind": "decision", "event": {"tool_use_id": "toolu_1_0"},
                                                     "decision": {"decision": "allow", "rule": "", "reason": ""}}) + "\n")
    found = recorded_decisions(state)
    assert sorted((d["source"], d["tool_use_id"], d["rule"]) for d in found) == [
        ("ledger", "toolu_1_0", ""), ("spool", "toolu_0_0", "DST012")]
    run = collect("p", stream(turns=[{"tool_uses": [{"name": "Bash", "input": {"command": "x"}, "denied_by_hook": "no code"}]}]))
    attach_decisions(run, found)
    assert run.tool_calls[0].rule == "DST012" and run.tool_calls[0].recorded["source"] == "spool"


def test_a_job_the_worker_applies_while_decisions_are_collected_is_read_from_the_ledger(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The worker appends a job to the ledger, then removes it from the spool: one listed a moment
    # before may be gone when it is read (the CI failure of 788f58c: "cannot read spool job").
    from cf_guidance.jobs import spool
    from cf_guidance.state import StateLayout

    state = tmp_path / "state"
    spool.enqueue(str(state), "decision", {"tool_use_id": "toolu_0_0", "session_id": "s"},
                  {"decision": "deny", "rule": "DST012", "reason": "[DST012] no"})
    listed = spool.pending(str(state))
    gone = listed[0][: -len(".json")] + "0.json"
    monkeypatch.setattr(spool, "pending", lambda state_dir: [gone, *listed])
    ledger = Path(StateLayout(str(state)).ledger)
    ledger.mkdir(parents=True, exist_ok=True)
    (ledger / "ledger.jsonl").write_text(json.dumps({"kind": "decision", "event": {"tool_use_id": "toolu_1_0"},
                                                     "decision": {"decision": "allow", "rule": "", "reason": ""}}) + "\n")
    found = recorded_decisions(state)
    assert sorted((d["source"], d["tool_use_id"]) for d in found) == [("ledger", "toolu_1_0"), ("spool", "toolu_0_0")]


@pytest.mark.parametrize(
    ("init", "leak"),
    [
        ({"cwd": "/w/project", "plugins": [{"name": "x", "path": "builtin"}], "mcp_servers": []}, ""),
        ({"cwd": "/w/project", "plugins": [{"name": "mine", "path": "/root/.claude/plugins/mine"}]}, "plugins: mine"),
        ({"cwd": "/w/project", "mcp_servers": [{"name": "github", "status": "connected"}]}, "mcp_servers: github"),
        ({"cwd": "/elsewhere"}, "is not the workspace"),
        ({"cwd": "/w/project", "memory_paths": {"user": "/root/.claude/CLAUDE.md"}}, "memory file outside"),
        ({"cwd": "/w/project", "memory_paths": {"auto": "/w/home/.claude/projects/x/memory/"}}, ""),
        ({"cwd": "/w/project", "apiKeySource": "/real/home/.claude/key"}, "user's config"),
    ],
)
def test_isolation_leaks(init: dict[str, object], leak: str) -> None:
    run = RunData(prompt="p", init={"type": "system", "subtype": "init", **init})
    leaks = check_isolation(run, workspace=Path("/w/project"), allowed_roots=[Path("/w")],
                            user_paths=[Path("/real/home/.claude")])
    if leak:
        assert any(leak in item for item in leaks), leaks
    else:
        assert leaks == []


def test_arrival_times_give_hook_and_tool_durations() -> None:
    text = (FIXTURES / "stream_hook_denials.jsonl").read_text()
    count = len([line for line in text.splitlines() if line.strip()])
    run = collect("go", text, arrivals_ms=[100 * i for i in range(count)])
    assert all(h.duration_ms is not None and h.duration_ms > 0 for h in run.hook_events)
    assert all(c.duration_ms is not None and c.duration_ms > 0 for c in run.tool_calls)
    latency = run.hook_latency_ms()
    assert latency["count"] == 3 and latency["p50"] <= latency["max"]
    assert run.timeline[0].offset_ms == 0 and run.timeline[-1].offset_ms == 100 * (count - 1)
    # without (or with mismatched) arrival times nothing is invented
    assert collect("go", text, arrivals_ms=[1, 2]).hook_latency_ms() == {"count": 0}


def test_hooks_and_timeline_entries_are_dated_from_the_client_start() -> None:
    text = stream(turns=TURNS[:1])
    count = len([line for line in text.splitlines() if line.strip()])
    started = 1_800_000_000.0  # 2027-01-15T08:00:00Z
    run = collect("go", text, arrivals_ms=[250 * i for i in range(count)], started_at=started)
    hook = run.hook_events[0]
    assert hook.offset_ms is not None and hook.offset_ms > 0
    assert hook.timestamp == datetime.fromtimestamp(started + hook.offset_ms / 1000, tz=timezone.utc).isoformat(
        timespec="milliseconds")
    assert run.timeline[0].timestamp == "2027-01-15T08:00:00.000+00:00"  # the prompt, at the start
    assert all(entry.timestamp for entry in run.timeline)
    undated = collect("go", text)  # no arrival times: nothing invented
    assert undated.hook_events[0].timestamp == "" and undated.hook_events[0].offset_ms is None

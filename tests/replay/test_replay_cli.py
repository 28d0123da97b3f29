"""`cf-guidance replay` on a history the real clients wrote: summary, JSON, candidate, --since,
sequence rules through the session's history, and nothing written to the project's state."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cf_guidance.cli.replay import replay_cmd
from tests.e2e.e2e_harness import cf_guidance
from tests.replay.real_sessions import BAN_FAILING, SEQUENCE, History


def replay(history: History, *args: str, monkeypatch: pytest.MonkeyPatch) -> Result:
    for key, value in history.environ().items():
        monkeypatch.setenv(key, value)
    return CliRunner().invoke(replay_cmd, ["--target", str(history.project), *args], catch_exceptions=False)


def candidate(history: History, tmp_path: Path, *rules: str) -> Path:
    path = tmp_path / "candidate.md"
    path.write_text((history.project / "CLAUDE.md").read_text() + "\n## Build\n\n" + "\n".join(rules) + "\n")
    return path


def calls(result: Result) -> list[dict[str, Any]]:
    objects = [json.loads(line) for line in result.output.splitlines()]
    assert objects[-1]["type"] == "summary"
    return [o for o in objects if o["type"] == "call"]


def test_the_projects_own_logs_are_found_and_summarised(history: History, monkeypatch: pytest.MonkeyPatch) -> None:
    result = replay(history, monkeypatch=monkeypatch)
    assert result.exit_code == 0
    out = result.output
    codex = len(history.codex_sessions)
    total = 12 + 6 * codex
    assert out.startswith(f"replayed {total} tool calls from {2 + codex} sessions (12 claude"), out
    assert f"at the time: {11 + 3 * codex} succeeded, {1 + codex} failed, {1 + codex} denied, 0 no result (denied by: hook {1 + codex})" in out
    assert "logs written by: claude 2.1.328 (2 sessions)" in out
    rule = next(line.split()[0] for line in out.splitlines() if line.endswith("Not allowed: `make deploy`. (CLAUDE.md:5)"))
    assert f"  {rule}  {1 + codex} deny  " in out
    assert f"{history.claude_sessions[0]}:" in out and "  make deploy  (denied)" in out
    assert "changes" not in out


def test_json_is_one_object_per_call_with_both_decisions(
    history: History, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = replay(history, "--json", "--candidate", str(candidate(history, tmp_path, BAN_FAILING)), monkeypatch=monkeypatch)
    objects = calls(result)
    assert len(objects) == 12 + 6 * len(history.codex_sessions)
    for obj in objects:
        assert {"session", "tool", "input", "decision", "rule", "candidate_decision", "candidate_rule"} <= set(obj)
        assert obj["file"] and obj["line"] >= 1
    fails = [o for o in objects if o["input"].get("command") == "make fail"]
    assert len(fails) == 1 + len(history.codex_sessions)
    assert all(o["decision"] == "allow" and o["candidate_decision"] == "deny" and o["outcome"] == "failed" for o in fails)
    assert {o["session"] for o in fails} == {p.stem for p in history.claude_sessions[:1]} | {
        json.loads(p.read_text().splitlines()[0])["payload"]["id"] for p in history.codex_sessions}
    deploys = [o for o in objects if o["input"].get("command") == "make deploy"]
    assert all(o["decision"] == o["candidate_decision"] == "deny" and o["outcome"] == "denied" for o in deploys)
    summary = json.loads(result.output.splitlines()[-1])
    (change,) = summary["changes"]
    assert (change["before"], change["after"], change["calls"]) == ("allow", "deny", len(fails))
    assert change["outcomes"] == {"failed": len(fails)}


def test_sequence_rules_are_judged_on_each_sessions_own_history(
    history: History, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = replay(history, "--json", "--candidate", str(candidate(history, tmp_path, SEQUENCE)), monkeypatch=monkeypatch)
    commits = [(o["input"]["command"], o["candidate_decision"]) for o in calls(result) if "git commit" in o["input"].get("command", "")]
    assert commits[:4] == [
        ("git add notes.txt && git commit -qm notes", "deny"),   # no `make test` yet in session 1
        ("git commit --allow-empty -qm second", "allow"),        # after session 1's `make test`
        ("git commit --allow-empty -qm third", "deny"),          # session 2 has its own history
        ("git commit --allow-empty -qm wip", "deny"),
    ]
    assert commits[4:] == [("git commit --allow-empty -qm codex", "allow")] * len(history.codex_sessions)


def test_since_decides_later_calls_only(history: History, monkeypatch: pytest.MonkeyPatch) -> None:
    first_of_second = json.loads(history.claude_sessions[1].read_text().splitlines()[0])["timestamp"]
    objects = calls(replay(history, "--json", "--since", first_of_second, monkeypatch=monkeypatch))
    assert {o["file"] for o in objects} == {str(p) for p in history.claude_sessions[1:] + history.codex_sessions}
    summary = replay(history, "--since", "2999-01-01", monkeypatch=monkeypatch).output
    assert summary.startswith("replayed 0 tool calls from 0 sessions")
    assert f"0 calls and {2 + len(history.codex_sessions)} files before --since" in summary


def test_explicit_paths_and_directories(history: History, monkeypatch: pytest.MonkeyPatch) -> None:
    out = replay(history, str(history.claude_sessions[1]), monkeypatch=monkeypatch).output
    assert out.startswith("replayed 3 tool calls from 1 sessions (3 claude)")
    out = replay(history, str(history.home), monkeypatch=monkeypatch).output
    assert out.startswith(f"replayed {12 + 6 * len(history.codex_sessions)} tool calls")


def test_replay_writes_nothing_to_the_project_state(history: History, monkeypatch: pytest.MonkeyPatch) -> None:
    state = history.project / ".claude-flow" / "guidance"
    assert (state / "ledger").is_dir()

    def snapshot() -> dict[str, tuple[int, int]]:
        return {str(p.relative_to(state)): (p.stat().st_size, p.stat().st_mtime_ns) for p in state.rglob("*") if p.is_file()}

    from cf_guidance.jobs.spool import SPAWN_INTERVAL_NS
    from cf_guidance.jobs.worker import drain

    # Let the sessions' own records settle first. A worker the hooks forked may not have exec'd
    # yet (no spawn marker, no command line of its own): wait until the state is quiet for two
    # spawn intervals.
    drain(str(state), project_dir=str(history.project))
    before: dict[str, tuple[int, int]] = {}
    for _ in range(30):
        if before == (before := snapshot()):
            break
        time.sleep(2 * SPAWN_INTERVAL_NS / 1e9)
    assert replay(history, "--json", monkeypatch=monkeypatch).exit_code == 0
    assert snapshot() == before


def test_a_long_history_is_never_rate_limited(history: History, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 300 copies of a session decided in a second: a live agent this fast would be limited.
    logs = tmp_path / "logs"
    logs.mkdir()
    text = history.claude_sessions[0].read_text()
    for n in range(300):
        (logs / f"copy-{n:03d}.jsonl").write_text(text)
    objects = calls(replay(history, "--json", str(logs), monkeypatch=monkeypatch))
    assert len(objects) == 300 * 9
    assert {o["decision"] for o in objects} == {"allow", "deny"}
    assert not [o for o in objects if o["rule"].startswith("RAT")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--since", "last tuesday"], "cf-guidance: --since 'last tuesday' is not a date; use e.g. 2026-11-01 or 2026-11-01T12:00"),
        (["/no/such/log.jsonl"], "cf-guidance: /no/such/log.jsonl: no such file or directory; give session logs (*.jsonl) or a directory of them"),
        (["--candidate", "/no/such.md"], "cf-guidance: cannot read the candidate /no/such.md: "),
        ([], "cf-guidance: no session logs found (looked in "),
    ],
)
def test_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    env = dict(os.environ, CLAUDE_CONFIG_DIR=str(tmp_path / "none"), CODEX_HOME=str(tmp_path / "none"))
    done = subprocess.run(cf_guidance("replay", "--target", str(tmp_path), *args), capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.stderr


def test_a_candidate_keeps_the_projects_other_policy_files(history: History, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A project-wide rule in CLAUDE.local.md and the candidate CLAUDE.md: only the candidate's
    # own new rule changes anything (the local rule denies under both).
    local = history.project / "CLAUDE.local.md"
    before = local.read_text() if local.exists() else None
    local.write_text("- Never run `make test`.\n")
    try:
        objects = calls(replay(history, "--json", "--candidate", str(candidate(history, tmp_path, BAN_FAILING)),
                               monkeypatch=monkeypatch))
    finally:
        if before is None:
            local.unlink()
        else:
            local.write_text(before)
    tests = [o for o in objects if o["input"].get("command") == "make test"]
    assert tests and all(o["decision"] == o["candidate_decision"] == "deny" for o in tests)
    changed = {o["input"]["command"] for o in objects if o["decision"] != o["candidate_decision"]}
    assert changed == {"make fail"}

"""Status: the env-var table is complete, and collect() reads state without creating any."""

from __future__ import annotations

import re
from pathlib import Path

from cf_guidance.jobs import spool, worker
from cf_guidance.ledger.status import ENV_VARS, collect

REPO = Path(__file__).resolve().parents[2]


def test_every_guidance_env_var_in_the_sources_is_listed() -> None:
    names = set()
    for folder in ("guidance", "hooks", "installer"):
        for path in (REPO / folder).rglob("*.py"):
            names.update(re.findall(r"\b(?:CF_)?GUIDANCE_[A-Z0-9_]+\b", path.read_text(encoding="utf-8")))
    listed = {name for name, _ in ENV_VARS}
    assert names - listed == set()


def test_status_of_a_project_without_state_creates_nothing(tmp_path: Path) -> None:
    state = tmp_path / ".claude-flow" / "guidance"
    info = collect(str(tmp_path), str(state))
    assert info["state_exists"] is False and info["ledger"]["records"] == 0 and info["spool"]["pending"] == 0
    assert info["worker"]["state"] == "never ran" and info["trust"] == []
    assert not state.exists()


def test_status_reports_ledger_checkpoint_spool_worker_and_trust(tmp_path: Path) -> None:
    state = str(tmp_path / "state")
    spool.enqueue(state, spool.DECISION, {"session_id": "s", "tool_name": "Bash", "tool_input": {"command": "ls"}},
                  {"decision": "deny", "rule": "X", "reason": "", "findings": []})
    spool.enqueue(state, "session-end", {"session_id": "s"})
    worker.drain(state)
    spool.enqueue(state, "stop", {"session_id": "s"})
    info = collect(str(tmp_path), state)
    assert info["ledger"]["records"] == 2 and info["ledger"]["last_checkpoint"]["size"] == 2
    assert info["ledger"]["verifier_keys"][0].startswith("cf-guidance-")
    assert info["spool"]["pending"] == 1 and info["worker"]["state"] == "idle" and info["worker"]["running"] is False
    assert info["trust"] == [{"session": "s", "agent": "main", "score": 0.45, "tier": "probation", "limit_per_min": 180,
                              "allow": 0, "warn": 0, "deny": 1}]
    assert {f["path"] for f in info["files"]} >= {"ledger/ledger.jsonl", "keys/ledger.key", "cursor.json", "quarantine/"}
    assert info["quarantine"] == {"count": 0, "last": None}

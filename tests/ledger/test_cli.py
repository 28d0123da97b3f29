"""`cf-guidance ledger|jobs|trust|status` through click: exit codes and output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cf_guidance.cli import cli
from cf_guidance.jobs import spool, worker
from cf_guidance.ledger.store import Ledger
from cf_guidance.state import state_dir


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("GUIDANCE_STATE_DIR", "CLAUDE_PROJECT_DIR", "GUIDANCE_PROJECT_DIR", "GUIDANCE_LEDGER_KEY"):
        monkeypatch.delenv(name, raising=False)
    root = tmp_path / "repo"
    root.mkdir()
    state = state_dir(str(root))
    for i in range(4):
        spool.enqueue(state, spool.DECISION, {"session_id": "s1" if i < 3 else "s2", "tool_name": "Bash",
                                              "tool_input": {"command": f"echo {i}"}},
                      {"decision": "deny" if i == 2 else "allow", "rule": "DST001" if i == 2 else "", "reason": "", "findings": []})
    worker.drain(state)
    return root


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_verify_ok(project: Path) -> None:
    code, out = run("ledger", "verify", "--target", str(project))
    assert code == 0 and out.startswith("ok: 4 records")


def test_verify_tampered_exits_1_naming_the_record(project: Path) -> None:
    ledger = Ledger(state_dir(str(project)))
    ledger.path.write_bytes(ledger.path.read_bytes().replace(b"echo 1", b"echo 7"))
    code, out = run("ledger", "verify", "--target", str(project))
    assert code == 1 and "TAMPERED (record seq 1, line 2)" in out


def test_verify_torn_exits_3_and_repair_fixes_it(project: Path) -> None:
    ledger = Ledger(state_dir(str(project)))
    with open(ledger.path, "ab") as handle:
        handle.write(b'{"partial')
    code, out = run("ledger", "verify", "--target", str(project))
    assert code == 3 and "TORN" in out and "ledger repair" in out
    code, out = run("ledger", "repair", "--target", str(project))
    assert code == 0 and "moved 9 torn bytes" in out
    assert run("ledger", "verify", "--target", str(project))[0] == 0


def test_show_filters_and_tails(project: Path) -> None:
    code, out = run("ledger", "show", "--target", str(project), "--session", "s1", "--tail", "2")
    rows = out.splitlines()
    assert code == 0 and len(rows) == 2 and "deny DST001" in rows[1] and "echo 2" in rows[1]
    code, out = run("ledger", "show", "--target", str(project), "--json", "--tail", "1")
    assert json.loads(out)["session_id"] == "s2"


def test_export_and_verify_export(project: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "audit.json"
    assert run("ledger", "export", "--target", str(project), "--out", str(out_file))[0] == 0
    code, key = run("ledger", "public-key", "--target", str(project))
    code, out = run("ledger", "verify-export", str(out_file), "--public-key", key.strip())
    assert code == 0 and out.startswith("ok: 4 records") and "4 covered by 1 signed checkpoints" in out
    payload = json.loads(out_file.read_text())
    payload["records"].pop()
    out_file.write_text(json.dumps(payload))
    assert run("ledger", "verify-export", str(out_file))[0] == 1


def test_missing_ledger_is_one_line_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["ledger", "verify", "--target", str(tmp_path)])
    assert result.exit_code != 0 and "no ledger at" in str(result.exception or result.output)


def test_rotate_key_then_verify(project: Path) -> None:
    code, out = run("ledger", "rotate-key", "--target", str(project))
    assert code == 0 and out.startswith("rotated ledger key")
    assert run("ledger", "verify", "--target", str(project))[0] == 0


def test_jobs_status_and_drain(project: Path) -> None:
    spool.enqueue(state_dir(str(project)), "stop", {"session_id": "s1"})
    code, out = run("jobs", "--target", str(project))
    assert code == 0 and "spool: 1 pending" in out and "worker: idle" in out
    code, out = run("jobs", "drain", "--target", str(project))
    assert code == 0 and out.startswith("applied 1 jobs")


def test_trust_table_and_json(project: Path) -> None:
    code, out = run("trust", "--target", str(project))
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert code == 0 and "0.470  probation" in lines["s1"]  # 0.5 +0.01 +0.01 -0.05 in session s1
    assert "0.510  standard" in lines["s2"]  # s1's deny is not held against s2
    code, out = run("trust", "--target", str(project), "--json")
    assert {row["session"]: row["deny"] for row in json.loads(out)} == {"s1": 1, "s2": 0}


def test_status_lists_paths_env_and_files(project: Path) -> None:
    code, out = run("status", "--target", str(project))
    assert code == 0 and "ledger:     4 records" in out and "GUIDANCE_LEDGER_KEY" in out and "ledger/checkpoints.jsonl" in out
    code, out = run("status", "--target", str(project), "--json")
    info = json.loads(out)
    assert info["ledger"]["records"] == 4 and info["spool"]["pending"] == 0

"""The ledger's witness outside the state directory (issue 11, item 4) and missing keys (item 5).

Each tamper kind is carried out on the files, as an attacker with a shell would, after the
ledger was written and witnessed the way the worker does it (append a batch, then
`Ledger.witness()`). Before the witness, every one of the six kinds verified as "ok".
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.errors import StateError
from cf_guidance.ledger import keys
from cf_guidance.ledger import witness as witness_mod
from cf_guidance.ledger.record import GENESIS, canonical, parse_line, seal_raw
from cf_guidance.ledger.store import OK, TAMPERED, Ledger

#: Records the worker appends per drain in these tests (the witness moves after each).
DRAIN = 7


def entry(i: int) -> dict[str, Any]:
    return {"kind": "decision", "session_id": "s1", "agent_id": "", "job": f"job-{i}",
            "event": {"tool_name": "Bash", "tool_input": {"command": f"echo {i}"}},
            "decision": {"decision": "allow", "rule": "", "reason": "", "findings": []}}


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "project" / ".claude-flow" / "guidance"


def witnessed(state: Path, n: int, *, every: int = 10, drain: int = DRAIN) -> Ledger:
    """`n` records appended in drains of `drain`, the witness advanced after each, as the worker does."""
    ledger = Ledger(state, checkpoint_every=every)
    for start in range(0, n, drain):
        ledger.append_many([entry(i) for i in range(start, min(n, start + drain))], sync=False)
        assert ledger.witness() == []
    return ledger


def cut_to(ledger: Ledger, records: int) -> None:
    kept = ledger.path.read_bytes().splitlines(keepends=True)[:records]
    ledger.path.write_bytes(b"".join(kept))


def reseal_from(ledger: Ledger, first: int) -> None:
    """What the holder of the HMAC key can do: rewrite records `first`.. and re-chain, re-hash and re-MAC them."""
    key = keys.load(ledger.state_dir, create=False).key
    out: list[bytes] = []
    prev = GENESIS
    for line in ledger.path.read_bytes().splitlines():
        record = parse_line(line)
        if record["seq"] >= first:
            body = {k: v for k, v in record.items() if k not in ("hash", "mac")}
            body["prev"] = prev
            body["event"]["tool_input"]["command"] = "echo nothing to see"
            line, prev = seal_raw(canonical(body), key)
            out.append(line)
        else:
            out.append(line + b"\n")
            prev = record["hash"]
    ledger.path.write_bytes(b"".join(out))
    ledger.head_path.unlink()


def problems(state: Path, *extra: str) -> list[str]:
    report = Ledger(state).verify(list(extra))
    assert report.status == TAMPERED, report.to_dict()
    return report.problems


def test_an_intact_ledger_extends_its_witness(state: Path) -> None:
    witnessed(state, 30)
    report = Ledger(state).verify()
    assert report.status == OK, report.problems
    assert report.witnessed == [(witness_mod.witness_path(state), 30)]


def test_the_witness_lives_outside_the_state_directory(state: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    witnessed(state, 8)
    path = Path(witness_mod.witness_path(state))
    assert path.parent == tmp_path / "data" / "cf-guidance" / "witness" and path.is_file()
    assert path.stat().st_mode & 0o777 == 0o600 and path.parent.stat().st_mode & 0o777 == 0o700
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert witness_mod.witness_path(state).startswith(str(tmp_path / "home" / ".local" / "share" / "cf-guidance" / "witness"))


# -- the six kinds that verified as "ok" before (issue 11) ----------------------------------------


def test_kind1_a_cut_within_the_unanchored_tail_with_head_json_deleted(state: Path) -> None:
    ledger = witnessed(state, 28)  # checkpoints at 10 and 20; records 21..27 are anchored by HMACs only
    cut_to(ledger, 24)
    ledger.head_path.unlink()
    found = problems(state)
    assert any("has 24 records, fewer than the last witnessed checkpoint" in p and "records were cut" in p for p in found), found
    assert any("head.json is missing but the ledger has 24 records" in p for p in found), found


def test_kind2_a_cut_to_a_checkpoint_boundary_with_head_json_deleted(state: Path) -> None:
    ledger = witnessed(state, 28)
    cut_to(ledger, 20)  # record 19 is exactly what checkpoint 2 signed: the checkpoints still verify
    ledger.head_path.unlink()
    found = problems(state)
    assert any("has 20 records, fewer than the last witnessed checkpoint" in p for p in found), found


def test_kind3_checkpoints_and_head_json_deleted_then_1000_records_cut(state: Path) -> None:
    ledger = witnessed(state, 1500, every=1000, drain=300)
    ledger.checkpoints_path.unlink()
    ledger.head_path.unlink()
    cut_to(ledger, 500)
    found = problems(state)
    assert any("has 500 records, fewer than the last witnessed checkpoint" in p for p in found), found
    assert any("checkpoints.jsonl holds 0 checkpoints but the witness" in p and "saw 1 on" in p for p in found), found


def test_kind4_the_whole_ledger_directory_rolled_back(state: Path, tmp_path: Path) -> None:
    ledger = witnessed(state, 14)
    shutil.copytree(ledger.dir, tmp_path / "yesterday")
    witnessed(state, 28)  # continues: same ledger, more drains
    shutil.rmtree(ledger.dir)
    shutil.copytree(tmp_path / "yesterday", ledger.dir)
    found = problems(state)
    assert any(p.startswith("ledger/ was rolled back: it ends at record 14, as witnessed on") for p in found), found


def test_kind5_a_key_holder_rewriting_the_tail(state: Path) -> None:
    ledger = witnessed(state, 28)
    reseal_from(ledger, 22)  # after the last checkpoint (20): chain, hashes and HMACs all verify
    report = Ledger(state).verify()
    assert report.status == TAMPERED
    assert report.problems[-1].startswith("record seq 27 does not have the hash witnessed on"), report.problems
    assert "records up to it were rewritten" in report.problems[-1]


def test_kind6_a_key_holder_rewriting_anything_then_signing_a_checkpoint(state: Path) -> None:
    ledger = witnessed(state, 28)
    reseal_from(ledger, 3)
    ledger.checkpoints_path.unlink()
    assert Ledger(state).checkpoint() is not None  # signed with the state directory's own key
    found = problems(state)
    assert any(p.startswith("record seq 27 does not have the hash witnessed on") for p in found), found
    assert any("checkpoints.jsonl holds 1 checkpoints but the witness" in p for p in found), found


# -- the other things verify names in one line ------------------------------------------------------


def test_a_wiped_state_directory(state: Path) -> None:
    witnessed(state, 14)
    shutil.rmtree(state.parent)
    found = problems(state)
    assert len(found) == 1 and found[0].startswith("the state directory holds no ledger, but the witness"), found
    assert "was wiped" in found[0]


def test_a_wiped_state_directory_that_started_again_is_unrelated(state: Path) -> None:
    witnessed(state, 14)
    shutil.rmtree(state.parent)
    ledger = Ledger(state)
    ledger.append(entry(0))  # the hooks keep going: a fresh ledger with fresh keys
    found = problems(state)
    assert any("is unrelated to the one witnessed" in p for p in found), found
    assert ledger.witness() and not Ledger(state).verify().ok  # and the witness does not follow it


def test_a_deleted_head_pointer_alone(state: Path) -> None:
    ledger = witnessed(state, 14)
    ledger.head_path.unlink()
    assert problems(state) == [f"{ledger.head_path} is missing but the ledger has 14 records: it was deleted "
                               "(with it, cut records leave no trace in the state directory)"]


def test_the_witness_never_moves_backwards(state: Path) -> None:
    ledger = witnessed(state, 21)
    path = Path(witness_mod.witness_path(state))
    before = path.read_bytes()
    cut_to(ledger, 10)
    ledger.head_path.unlink()
    fresh = Ledger(state)
    fresh.append(entry(99))  # the ledger grows again from the cut
    refused = fresh.witness()
    assert refused and "record seq 20" in refused[0] or "fewer than the last witnessed" in refused[0], refused
    assert path.read_bytes() == before


def test_an_edited_witness_is_reported(state: Path) -> None:
    witnessed(state, 14)
    path = Path(witness_mod.witness_path(state))
    data = json.loads(path.read_text())
    data["note"] = data["note"].replace("\n14\n", "\n7\n")
    path.write_text(json.dumps(data))
    assert any("its checkpoint does not verify against its own keys" in p for p in problems(state))


def test_verify_against_an_exported_witness(state: Path, tmp_path: Path) -> None:
    """A copy the user committed or shipped elsewhere catches a rollback even when the default witness went with it."""
    ledger = witnessed(state, 14)
    shutil.copytree(ledger.dir, tmp_path / "old")
    witnessed(state, 28)
    exported = tmp_path / "witness.json"
    shutil.copyfile(witness_mod.witness_path(state), exported)
    os.unlink(witness_mod.witness_path(state))
    shutil.rmtree(ledger.dir)
    shutil.copytree(tmp_path / "old", ledger.dir)
    assert Ledger(state).verify().ok  # without a witness the rollback is invisible
    found = problems(state, str(exported))
    assert any(p.startswith("ledger/ was rolled back") for p in found), found


# -- keys: a deleted key is reported, never silently replaced (item 5) ----------------------------


def test_a_deleted_ledger_key_is_reported_and_not_replaced(state: Path) -> None:
    ledger = witnessed(state, 14)
    key_file = state / "keys" / "ledger.key"
    key_file.unlink()
    with pytest.raises(keys.MissingKeyError, match="is missing but .* holds records made with it"):
        Ledger(state).append(entry(100))
    assert not key_file.exists()
    found = problems(state)
    assert found[0].startswith(f"ledger key {key_file} is missing but {ledger.path} holds records")
    assert len(found) == 1  # the chain and the signed checkpoints still verify without it


def test_a_deleted_checkpoint_key_is_reported_and_not_replaced(state: Path) -> None:
    witnessed(state, 14)
    seed = state / "keys" / "checkpoint.ed25519"
    seed.unlink()
    with pytest.raises(keys.MissingKeyError, match="checkpoint signing key"):
        Ledger(state).checkpoint()
    assert not seed.exists()
    found = problems(state)
    assert len(found) == 1 and found[0].startswith(f"checkpoint signing key {seed} is missing"), found


def test_replace_lost_goes_on_under_new_keys_and_says_so(state: Path) -> None:
    witnessed(state, 14)
    (state / "keys" / "ledger.key").unlink()
    (state / "keys" / "checkpoint.ed25519").unlink()
    done = _cli("ledger", "rotate-key", "--replace-lost", "--target", str(state.parent.parent))
    assert done.returncode == 0, done.stderr
    assert "declared lost:" in done.stdout
    ledger = Ledger(state, checkpoint_every=10)
    ledger.append_many([entry(i) for i in range(14, 21)])
    assert ledger.witness() == []
    report = Ledger(state).verify()
    assert report.ok, report.problems
    assert report.lost_records == 14 and report.checkpoints == 2


def test_a_fresh_ledger_gets_both_keys_and_they_are_independent(state: Path) -> None:
    Ledger(state).append(entry(0))
    hmac_key = (state / "keys" / "ledger.key").read_bytes()
    seed = (state / "keys" / "checkpoint.ed25519").read_bytes()
    assert len(hmac_key) == len(seed) == 32 and hmac_key != seed
    assert (state / "keys" / "checkpoint.ed25519").stat().st_mode & 0o777 == 0o600


def test_a_damaged_witness_file_is_a_one_line_state_error(state: Path) -> None:
    witnessed(state, 7)
    Path(witness_mod.witness_path(state)).write_text("{not json")
    with pytest.raises(StateError, match="cannot read witness"):
        witness_mod.load(witness_mod.witness_path(state))


# -- through the CLI and the worker ----------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "import sys; from cf_guidance.cli import main; sys.exit(main())", *args],
                          capture_output=True, text=True, timeout=60)


def test_cli_prints_one_line_per_problem_and_exits_1(state: Path) -> None:
    ledger = witnessed(state, 28)
    cut_to(ledger, 24)
    ledger.head_path.unlink()
    done = _cli("ledger", "verify", "--target", str(state.parent.parent))
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert all(line.startswith("TAMPERED: ") for line in lines[:2]) and lines[2] == "  24 records verify", lines
    assert sorted("records were cut" in line for line in lines[:2]) == [False, True], lines
    assert sorted("head.json is missing" in line for line in lines[:2]) == [False, True], lines


def test_cli_reports_a_wiped_state_directory_instead_of_no_ledger(state: Path) -> None:
    witnessed(state, 7)
    shutil.rmtree(state.parent)
    done = _cli("ledger", "verify", "--target", str(state.parent.parent))
    assert done.returncode == 1 and "was wiped" in done.stderr


def test_cli_witness_export_and_reset(state: Path, tmp_path: Path) -> None:
    ledger = witnessed(state, 7)
    out = tmp_path / "w.json"
    done = _cli("ledger", "witness", "--target", str(state.parent.parent), "--out", str(out))
    assert done.returncode == 0 and "7 records" in done.stdout and out.is_file()
    cut_to(ledger, 3)
    ledger.head_path.unlink()
    done = _cli("ledger", "witness", "--target", str(state.parent.parent))
    assert done.returncode == 1 and "witness not advanced" in done.stderr
    done = _cli("ledger", "witness", "--reset", "--target", str(state.parent.parent))
    assert done.returncode == 0 and "3 records" in done.stdout
    assert Ledger(state).verify().ok
    done = _cli("ledger", "verify", "--target", str(state.parent.parent), "--witness", str(out))
    assert done.returncode == 1 and "fewer than the last witnessed checkpoint" in done.stderr


def test_the_worker_advances_the_witness_after_a_drain(state: Path) -> None:
    from cf_guidance.jobs import spool
    from cf_guidance.jobs.worker import drain

    project = state.parent.parent
    for i in range(3):
        spool.enqueue(str(state), "decision", {"tool_name": "Bash", "tool_input": {"command": f"echo {i}"}, "session_id": "s"})
    drain(str(state), project_dir=str(project))
    found = witness_mod.load(witness_mod.witness_path(state))
    assert found is not None and found.size == 3

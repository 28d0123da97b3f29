"""Ledger store: append, verify, every kind of tampering, torn tails, repair, faults, concurrency."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cf_guidance.errors import LedgerError, LedgerIntegrityError
from cf_guidance.ledger import keys
from cf_guidance.ledger.store import OK, TAMPERED, TORN, Ledger, verify_export

REPO = Path(__file__).resolve().parents[2]


def entry(i: int, session: str = "s1") -> dict[str, Any]:
    return {"kind": "decision", "session_id": session, "agent_id": "", "job": f"job-{i}",
            "event": {"tool_name": "Bash", "tool_input": {"command": f"echo {i}"}},
            "decision": {"decision": "allow", "rule": "", "reason": "", "findings": []}}


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


def filled(state: Path, n: int = 10, every: int = 1000) -> Ledger:
    ledger = Ledger(state, checkpoint_every=every)
    for i in range(n):
        ledger.append(entry(i), sync=False)
    return ledger


def lines(ledger: Ledger) -> list[bytes]:
    return ledger.path.read_bytes().splitlines(keepends=True)


def test_append_and_verify(state: Path) -> None:
    ledger = filled(state, 25)
    report = ledger.verify()
    assert report.status == OK and report.records == 25
    records = list(ledger.records())
    assert [r["seq"] for r in records] == list(range(25))
    assert records[0]["prev"] == "0" * 64 and all(records[i]["prev"] == records[i - 1]["hash"] for i in range(1, 25))
    assert ledger.head().size == 25 and ledger.head().hash == records[-1]["hash"]


def test_record_lines_are_canonical_json_with_hash_and_mac_last(state: Path) -> None:
    line = lines(filled(state, 1))[0].decode()
    record = json.loads(line)
    assert list(record)[-2:] == ["hash", "mac"]
    body = {k: v for k, v in record.items() if k not in ("hash", "mac")}
    assert line.startswith(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)[:-1])
    assert record["kid"] == keys.load(state).kid and record["v"] == 1


def test_secrets_are_redacted_before_writing(state: Path) -> None:
    ledger = Ledger(state)
    ledger.append({"kind": "decision", "event": {"tool_input": {"command": "export GITHUB_TOKEN=ghp_" + "a" * 36}}})
    assert b"ghp_aaaa" not in ledger.path.read_bytes()
    assert "[REDACTED:" in next(ledger.records())["event"]["tool_input"]["command"]


def _edit_field(ledger: Ledger) -> None:
    data = ledger.path.read_bytes().replace(b'"echo 4"', b'"echo X"', 1)
    ledger.path.write_bytes(data)


def _edit_and_rehash(ledger: Ledger) -> None:
    """An attacker without the key recomputes the hash chain: the HMAC still gives it away."""
    from cf_guidance.ledger.record import canonical, record_hash

    out, prev = [], "0" * 64
    for raw in lines(ledger):
        record = json.loads(raw)
        record.pop("hash"), record.pop("mac")
        record["prev"] = prev
        if record["seq"] == 4:
            record["decision"]["decision"] = "deny"
        body = canonical(record)
        prev = record_hash(body)
        out.append(body[:-1] + b',"hash":"' + prev.encode() + b'","mac":"' + b"0" * 64 + b'"}\n')
    ledger.path.write_bytes(b"".join(out))


def _delete(ledger: Ledger) -> None:
    rows = lines(ledger)
    del rows[4]
    ledger.path.write_bytes(b"".join(rows))


def _insert(ledger: Ledger) -> None:
    rows = lines(ledger)
    rows.insert(4, rows[2])
    ledger.path.write_bytes(b"".join(rows))


def _reorder(ledger: Ledger) -> None:
    rows = lines(ledger)
    rows[3], rows[4] = rows[4], rows[3]
    ledger.path.write_bytes(b"".join(rows))


def _truncate_lines(ledger: Ledger) -> None:
    ledger.path.write_bytes(b"".join(lines(ledger)[:7]))


def _truncate_below_checkpoint(ledger: Ledger) -> None:
    ledger.checkpoint()
    ledger.path.write_bytes(b"".join(lines(ledger)[:7]))
    ledger.head_path.unlink()  # the attacker also removes the head pointer


def _swap_other_ledger(ledger: Ledger) -> None:
    other = filled(ledger.state_dir.parent / "other", 10)
    ledger.path.write_bytes(other.path.read_bytes())


def _swap_old_copy(ledger: Ledger) -> None:
    old = ledger.path.read_bytes()
    for i in range(10, 15):
        ledger.append(entry(i))
    ledger.checkpoint()
    ledger.path.write_bytes(old)
    ledger.head_path.unlink()


def _replay_old_checkpoint(ledger: Ledger) -> None:
    ledger.checkpoint()
    ledger.append(entry(10))
    ledger.checkpoint()
    notes = ledger.checkpoints_path.read_bytes().splitlines(keepends=True)
    ledger.checkpoints_path.write_bytes(b"".join(notes + notes[:1]))


def _forge_checkpoint(ledger: Ledger) -> None:
    ledger.checkpoint()
    note = json.loads(ledger.checkpoints_path.read_text())
    body, sig = note["note"].split("\n\n")
    head_line = body.split("\n")[2]
    note["note"] = body.replace(head_line, "A" * 43 + "=") + "\n\n" + sig
    ledger.checkpoints_path.write_text(json.dumps(note) + "\n")


def _swap_checkpoints_of_other_ledger(ledger: Ledger) -> None:
    ledger.checkpoint()
    other = filled(ledger.state_dir.parent / "other", 10)
    for name in ("ledger.key", "checkpoint.ed25519"):  # the same keys: only the origin tells the ledgers apart
        (other.state_dir / "keys").joinpath(name).write_bytes((ledger.state_dir / "keys" / name).read_bytes())
    other = Ledger(other.state_dir)
    other.path.write_bytes(ledger.path.read_bytes())
    other.head_path.unlink()
    other.checkpoint()
    ledger.checkpoints_path.write_bytes(other.checkpoints_path.read_bytes())


TAMPERING = {
    "edit a field": (_edit_field, "edited"),
    "edit and recompute hashes": (_edit_and_rehash, "bad HMAC"),
    "delete a record": (_delete, "seq 5 where 4 was expected"),
    "insert a record": (_insert, "seq 2 where 4 was expected"),
    "reorder records": (_reorder, "seq 4 where 3 was expected"),
    "truncate records": (_truncate_lines, "records were removed"),
    "truncate below a checkpoint": (_truncate_below_checkpoint, "records were removed"),
    "swap in another ledger": (_swap_other_ledger, "unknown key"),
    "swap in an old copy": (_swap_old_copy, "records were removed"),
    "replay an old checkpoint": (_replay_old_checkpoint, "old checkpoint was replayed"),
    "forge a checkpoint": (_forge_checkpoint, "does not verify"),
    "swap checkpoints of another ledger": (_swap_checkpoints_of_other_ledger, "files were swapped"),
}


@pytest.mark.parametrize("name", sorted(TAMPERING))
def test_tampering_is_detected(state: Path, name: str) -> None:
    tamper, expected = TAMPERING[name]
    ledger = filled(state, 10)
    tamper(ledger)
    report = Ledger(state).verify()
    assert report.status == TAMPERED, report.to_dict()
    assert any(expected in problem for problem in report.problems), report.problems


def test_verify_names_the_first_bad_record(state: Path) -> None:
    ledger = filled(state, 10)
    _edit_field(ledger)
    report = ledger.verify()
    assert (report.bad_seq, report.bad_line, report.records) == (4, 5, 4)
    assert "record seq 4" in report.problem


def test_torn_tail_is_torn_not_tampered_and_repair_quarantines_it(state: Path) -> None:
    ledger = filled(state, 10)
    valid = ledger.path.read_bytes()
    with open(ledger.path, "ab") as handle:
        handle.write(b'{"agent_id":"","decision":{"deci')
    report = Ledger(state).verify()
    assert report.status == TORN and report.records == 10 and report.torn_bytes == 32
    done, quarantined = Ledger(state).repair()
    assert quarantined is not None and quarantined.read_bytes() == b'{"agent_id":"","decision":{"deci'
    assert ledger.path.read_bytes() == valid
    assert Ledger(state).verify().status == OK


def test_repair_completes_a_whole_record_missing_its_newline(state: Path) -> None:
    ledger = filled(state, 3)
    ledger.path.write_bytes(ledger.path.read_bytes()[:-1])
    assert Ledger(state).verify().status == TORN
    done, quarantined = Ledger(state).repair()
    assert quarantined is None and "newline" in done
    assert Ledger(state).verify().records == 3


def test_repair_refuses_a_tampered_ledger(state: Path) -> None:
    ledger = filled(state, 10)
    _delete(ledger)
    before = ledger.path.read_bytes()
    with pytest.raises(LedgerIntegrityError, match="repair only fixes a torn tail"):
        Ledger(state).repair()
    assert ledger.path.read_bytes() == before


def test_next_append_quarantines_a_torn_tail(state: Path) -> None:
    ledger = filled(state, 5)
    with open(ledger.path, "ab") as handle:
        handle.write(b'{"half')
    Ledger(state).append(entry(99))
    report = Ledger(state).verify()
    assert report.status == OK and report.records == 6
    assert len(list((state / "ledger" / "quarantine").iterdir())) == 1


_KILLED_WRITER = """
import os, signal, sys
from cf_guidance.ledger.store import Ledger
def die_mid_write(stage, fd, data):
    if stage == "append":
        os.write(fd, data[: len(data) // 2])
        os.kill(os.getpid(), signal.SIGKILL)
Ledger(sys.argv[1], fault=die_mid_write).append({"kind": "decision", "event": {"n": 1}})
"""


def test_kill_9_mid_append_leaves_a_torn_ledger_that_repair_restores(state: Path) -> None:
    filled(state, 5)
    proc = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(state)], capture_output=True)
    assert proc.returncode == -signal.SIGKILL
    report = Ledger(state).verify()
    assert report.status == TORN and report.records == 5
    Ledger(state).repair()
    assert Ledger(state).verify().status == OK
    Ledger(state).append(entry(6))
    assert Ledger(state).verify().records == 6


@pytest.mark.parametrize(("code", "hint"), [(errno.ENOSPC, "free disk space"), (errno.EROFS, "make the state directory writable")])
def test_full_disk_or_read_only_state_is_a_clear_ledger_error(state: Path, code: int, hint: str) -> None:
    ledger = filled(state, 3)

    def fail(stage: str, fd: int, data: bytes) -> None:
        raise OSError(code, os.strerror(code))

    broken = Ledger(state, fault=fail)
    with pytest.raises(LedgerError, match=hint) as info:
        broken.append(entry(3))
    assert "\n" not in str(info.value)
    assert Ledger(state).verify().status == OK and ledger.head().size == 3


def test_read_only_directory_for_real(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root ignores directory permissions; the fault-injection test covers EROFS")
    state = tmp_path / "state"
    filled(state, 2)
    (state / "ledger").chmod(0o500)
    try:
        with pytest.raises(LedgerError):
            Ledger(state).append(entry(3))
    finally:
        (state / "ledger").chmod(0o700)


def test_checkpoints_every_n_records(state: Path) -> None:
    ledger = filled(state, 25, every=10)
    sizes = [c.size for c, _ in ledger.checkpoints()]
    assert sizes == [10, 20]
    report = ledger.verify()
    assert (report.checkpoints, report.unanchored) == (2, 5)
    assert ledger.checkpoint() is not None and ledger.checkpoint() is None  # idempotent at the same head


def test_never_signs_a_checkpoint_inconsistent_with_an_earlier_one(state: Path) -> None:
    ledger = filled(state, 10)
    ledger.checkpoint()
    _edit_and_rehash(ledger)  # records rewritten: the signed head no longer matches
    rewritten = Ledger(state)
    with pytest.raises(LedgerIntegrityError):
        rewritten.checkpoint()
    assert len(rewritten.checkpoints_path.read_text().splitlines()) == 1


def test_batch_append_skips_jobs_already_applied(state: Path) -> None:
    ledger = filled(state, 5)
    written = ledger.append_many([entry(3), entry(4), entry(5)], skip_applied_jobs=True)
    assert [r["job"] for r in written] == ["job-5"]
    assert ledger.verify().records == 6


_APPENDER = """
import sys
from cf_guidance.ledger.store import Ledger
ledger = Ledger(sys.argv[1])
for i in range(int(sys.argv[3])):
    ledger.append({"kind": "decision", "job": f"{sys.argv[2]}-{i}", "event": {"i": i}}, sync=False)
"""


def test_eight_concurrent_appenders_lose_nothing(state: Path) -> None:
    Ledger(state).append(entry(0))  # create the key first, as `cf-guidance init` would
    procs = [subprocess.Popen([sys.executable, "-c", _APPENDER, str(state), f"p{n}", "500"]) for n in range(8)]
    assert [p.wait() for p in procs] == [0] * 8
    report = Ledger(state).verify()
    assert report.status == OK and report.records == 1 + 8 * 500
    jobs = [r["job"] for r in Ledger(state).records()][1:]
    assert len(set(jobs)) == 4000
    for n in range(8):  # each writer's records are in its own order
        mine = [int(j.split("-")[1]) for j in jobs if j.startswith(f"p{n}-")]
        assert mine == list(range(500))


def test_key_rotation_keeps_old_records_verifiable(state: Path) -> None:
    ledger = filled(state, 5)
    ledger.checkpoint()
    old, new = keys.rotate(state)
    rotated = Ledger(state)
    rotated.append(entry(5))
    rotated.checkpoint()
    assert [r["kid"] for r in rotated.records()] == [old] * 5 + [new]
    report = Ledger(state).verify()
    assert report.status == OK and report.checkpoints == 2


def test_env_key_is_used_and_file_key_still_verifies(state: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    filled(state, 2)
    monkeypatch.setenv(keys.ENV_KEY, "ab" * 32)
    ledger = Ledger(state)
    ledger.append(entry(2))
    assert list(ledger.records())[-1]["kid"] == keys.key_id(bytes.fromhex("ab" * 32))
    assert ledger.verify().status == OK


def test_export_verifies_without_the_secret(state: Path, tmp_path: Path) -> None:
    ledger = filled(state, 12, every=5)
    out = tmp_path / "export.json"
    assert ledger.export(out) == {"records": 12, "checkpoints": 3, "path": str(out)}
    (state / "keys" / "ledger.key").unlink()  # the auditor has no secret
    report = verify_export(out)
    assert report.status == OK and report.records == 12 and report.unanchored == 0
    pinned = verify_export(out, json.loads(out.read_text())["verifier_keys"])
    assert pinned.status == OK


@pytest.mark.parametrize("how", ["edit", "drop last", "strip checkpoints", "wrong key"])
def test_tampered_export_fails(state: Path, tmp_path: Path, how: str) -> None:
    ledger = filled(state, 6, every=100)
    out = tmp_path / "export.json"
    ledger.export(out)
    payload = json.loads(out.read_text())
    keys_given = None
    if how == "edit":
        payload["records"][2] = payload["records"][2].replace("echo 2", "echo 9")
    elif how == "drop last":
        payload["records"].pop()
    elif how == "strip checkpoints":
        payload["checkpoints"] = []
    else:
        keys_given = filled(tmp_path / "other", 1).verifier_keys()
    out.write_text(json.dumps(payload))
    assert verify_export(out, keys_given).status == TAMPERED

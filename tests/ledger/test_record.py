"""Record sealing: canonical JSON, domain-separated hash, HMAC over the same bytes, strict split."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from cf_guidance.errors import LedgerIntegrityError
from cf_guidance.ledger import record

BODY = {"seq": 0, "prev": record.GENESIS, "kid": "abcd1234", "kind": "decision", "session_id": "s", "agent_id": "",
        "ts": "2026-01-01T00:00:00.000Z", "v": 1, "event": {"b": [1, {"z": 1, "a": "é"}], "a": None}}
KEY = b"k" * 32


def test_canonical_json_sorts_keys_at_every_depth_without_spaces() -> None:
    assert record.canonical({"b": {"y": 1, "x": [2, {"d": 1, "c": 2}]}, "a": "é"}) == '{"a":"é","b":{"x":[2,{"c":2,"d":1}],"y":1}}'.encode()


def test_seal_hash_and_mac() -> None:
    line, digest = record.seal(dict(BODY), KEY)
    body = record.canonical(BODY)
    assert digest == hashlib.sha256(b"\x00" + body).hexdigest()
    parsed = json.loads(line)
    assert parsed["hash"] == digest and parsed["mac"] == hmac.new(KEY, body, "sha256").hexdigest()
    assert line.endswith(b"\n")
    assert record.split(line.rstrip(b"\n")) == (body, digest, parsed["mac"])


def test_nested_fields_change_the_hash() -> None:
    """The anchor's content hash ignored nested fields; ours covers every byte."""
    changed = json.loads(json.dumps(BODY))
    changed["event"]["b"][1]["z"] = 2
    assert record.seal(dict(BODY), KEY)[1] != record.seal(changed, KEY)[1]


@pytest.mark.parametrize(
    "line",
    [b"", b"not json", b'{"a":1}', b'{"a":1,"hash":"' + b"g" * 64 + b'","mac":"' + b"0" * 64 + b'"}',
     b'{"a":1,"hash":"' + b"0" * 64 + b'","mac":"' + b"0" * 63 + b'"}', b'{"a":1,"mac":"' + b"0" * 64 + b'","hash":"' + b"0" * 64 + b'"}'],
)
def test_split_rejects_malformed_lines(line: bytes) -> None:
    with pytest.raises(LedgerIntegrityError):
        record.split(line)


def test_parse_body_requires_the_common_members() -> None:
    with pytest.raises(LedgerIntegrityError, match="lacks kid"):
        record.parse_body(b'{"seq":0,"prev":"","kind":"x","session_id":"","agent_id":"","ts":"","v":1}')
    with pytest.raises(LedgerIntegrityError, match="seq is not an integer"):
        record.parse_body(record.canonical(dict(BODY, seq="0")))


def test_chain_fields_reads_the_top_level_members_without_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    nested = dict(BODY, seq=12, prev="a" * 64, event={"kid": "zz", "prev": "b" * 64, "seq": 5})
    body = record.split(record.seal(nested, KEY)[0].rstrip(b"\n"))[0]

    def no_decode(raw: bytes) -> dict[str, object]:
        raise AssertionError("fast path expected")

    monkeypatch.setattr(record, "parse_body", no_decode)
    assert record.chain_fields(body) == (12, "a" * 64, "abcd1234")


def test_chain_fields_falls_back_to_decoding_an_unusual_layout() -> None:
    odd = dict(BODY, seq=3, zzz={"a": "x", "prev": "c" * 64})
    body = record.split(record.seal(odd, KEY)[0].rstrip(b"\n"))[0]
    assert record.chain_fields(body) == (3, record.GENESIS, "abcd1234")

"""One ledger record: canonical JSON body, its SHA-256 hash and its HMAC-SHA256.

A record line is the canonical JSON of the body (keys sorted at every depth, no spaces,
UTF-8, no ASCII escaping) with two members appended last:

    {"agent_id":...,"kid":"1a2b3c4d",...,"prev":"<64 hex>","seq":7,...,"hash":"<64 hex>","mac":"<64 hex>"}

`hash = SHA-256(0x00 || body)` (the 0x00 prefix separates record hashes from any other
hash of ours, the way RFC 6962 separates leaves from nodes) and
`mac = HMAC-SHA256(key[kid], body)`. `prev` is the previous record's `hash` (64 zeros for
the first record), so the records form a hash chain. Because hash and mac sit at a fixed
place at the end of the line, a verifier recovers the exact body bytes without
re-encoding: it hashes what was written, not what a JSON library makes of it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from cf_guidance.errors import LedgerIntegrityError

FORMAT = 1
GENESIS = "0" * 64
RECORD_DOMAIN = b"\x00"
#: Members every record body has; `verify` rejects a body missing any of them.
BODY_FIELDS = ("agent_id", "kid", "kind", "prev", "seq", "session_id", "ts", "v")
_SUFFIX_HASH = b',"hash":"'
_SUFFIX_MAC = b'","mac":"'
#: Bytes after the body's closing brace is removed: ,"hash":"<64>","mac":"<64>"}
SUFFIX_LEN = len(_SUFFIX_HASH) + 64 + len(_SUFFIX_MAC) + 64 + 2
_HEX = frozenset(b"0123456789abcdef")

_encoder = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical(value: Any) -> bytes:
    """Canonical JSON bytes: sorted keys at all depths, no spaces, UTF-8."""
    return _encoder.encode(value).encode("utf-8")


def record_hash(body: bytes) -> str:
    return hashlib.sha256(RECORD_DOMAIN + body).hexdigest()


def record_mac(key: bytes, body: bytes) -> str:
    return hmac.digest(key, body, "sha256").hex()


def seal(body: dict[str, Any], key: bytes) -> tuple[bytes, str]:
    """The full line (with newline) for `body` and the record's hash."""
    return seal_raw(canonical(body), key)


def seal_raw(raw: bytes, key: bytes) -> tuple[bytes, str]:
    """`seal` for a body already encoded with `canonical`."""
    digest = record_hash(raw)
    line = raw[:-1] + _SUFFIX_HASH + digest.encode() + _SUFFIX_MAC + record_mac(key, raw).encode() + b'"}\n'
    return line, digest


def split(line: bytes) -> tuple[bytes, str, str]:
    """(body bytes, hash, mac) of one line without its newline; LedgerIntegrityError if malformed."""
    n = len(line)
    if n <= SUFFIX_LEN or not line.startswith(b"{") or not line.endswith(b'"}'):
        raise LedgerIntegrityError("record is not a sealed ledger line")
    start = n - SUFFIX_LEN
    if line[start : start + len(_SUFFIX_HASH)] != _SUFFIX_HASH:
        raise LedgerIntegrityError("record has no hash member at the end")
    h = line[start + len(_SUFFIX_HASH) : start + len(_SUFFIX_HASH) + 64]
    m_start = start + len(_SUFFIX_HASH) + 64
    if line[m_start : m_start + len(_SUFFIX_MAC)] != _SUFFIX_MAC:
        raise LedgerIntegrityError("record has no mac member at the end")
    m = line[m_start + len(_SUFFIX_MAC) : n - 2]
    if not (_HEX.issuperset(h) and _HEX.issuperset(m)):
        raise LedgerIntegrityError("record hash or mac is not lowercase hex")
    return line[:start] + b"}", h.decode(), m.decode()


def parse_body(body: bytes) -> dict[str, Any]:
    """Decode a body and check the members every record has."""
    try:
        value = json.loads(body)
    except ValueError as exc:
        raise LedgerIntegrityError(f"record body is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise LedgerIntegrityError("record body is not a JSON object")
    missing = [name for name in BODY_FIELDS if name not in value]
    if missing:
        raise LedgerIntegrityError(f"record body lacks {', '.join(missing)}")
    if type(value["seq"]) is not int or not isinstance(value["prev"], str):
        raise LedgerIntegrityError("record seq is not an integer or prev is not a string")
    return value


_KID = b',"kid":"'
_KIND = b'","kind":"'
_PREV = b'","prev":"'
_SEQ = b'","seq":'
_AFTER_SEQ = b',"session_id":"'


def chain_fields(body: bytes) -> tuple[int, str, str]:
    """(seq, prev, kid) of a body the writer laid out, read from their fixed places.

    Sorted keys put `kid`, `kind`, `prev`, `seq`, `session_id` in that order after the nested
    `decision`/`event` objects, and no JSON string can hold an unescaped `","prev":"`, so the
    last occurrence of each marker is the top-level member. Bodies with another layout (extra
    top-level members) are decoded in full by `parse_body` instead.
    """
    k = body.rfind(_KID)
    p = body.rfind(_PREV)
    if k != -1 and p > k and body[k + 16 : k + 16 + len(_KIND)] == _KIND and body[p + 74 : p + 74 + len(_SEQ)] == _SEQ:
        s = p + 74 + len(_SEQ)
        e = body.find(_AFTER_SEQ, s)
        digits = body[s:e]
        if e != -1 and digits.isdigit() and (digits == b"0" or not digits.startswith(b"0")):
            return int(digits), body[p + 10 : p + 74].decode("ascii", "replace"), body[k + 8 : k + 16].decode("ascii", "replace")
    record = parse_body(body)
    return record["seq"], record["prev"], str(record["kid"])


def parse_line(line: bytes) -> dict[str, Any]:
    """The record as a dict including hash and mac (for display and derived state)."""
    body, digest, mac = split(line.rstrip(b"\n"))
    record = parse_body(body)
    record["hash"] = digest
    record["mac"] = mac
    return record

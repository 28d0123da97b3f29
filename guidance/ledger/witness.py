"""A witness of the ledger kept outside the state directory (Go's sumdb witnesses are the model).

The records prove each other and the signed checkpoints prove a prefix, but every file that
proves anything lives in the state directory: cut the tail and delete `head.json`, put back
yesterday's copy of `ledger/`, or wipe `.claude-flow/`, and what is left verifies. A
witness keeps the latest signed head where rolling back the state directory does not reach:

    $XDG_DATA_HOME/cf-guidance/witness/<id>      (default ~/.local/share/cf-guidance/witness/<id>)

one file per state directory, `<id>` the first 16 hex digits of the SHA-256 of the state
directory's real path. The worker advances it after every drain and every checkpoint, and it
only moves forward: a ledger that does not extend the witnessed one is never written over it
(its problems are returned instead). `cf-guidance ledger witness --out FILE` copies it to a
file the user commits or ships elsewhere; `ledger verify --witness FILE` checks against such
a copy.

The file is JSON (`FORMAT`): `origin`; `first`, the hash of record 0; `verifier_keys`, the
checkpoint keys it pinned when it first saw the ledger (a later key must be accepted by the
user: `rotate-key` does); `note`, a checkpoint note signed at `size` records; `offset`, the
ledger's size in bytes after record `size - 1`; `checkpoints`, how many checkpoints
`checkpoints.jsonl` held; `time`; and `history`, the last `HISTORY` states it saw as
`[size, head, time]`, which tells a rollback to one of them ("older") from a cut ("shorter").

`compare` names each way a ledger falls short of a witness in one line: wiped, unrelated,
older, shorter, rewritten, checkpoints missing.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from typing import Any

from cf_guidance._atomic import write_atomic
from cf_guidance.errors import LedgerIntegrityError, StateError
from cf_guidance.ledger import checkpoint as cp
from cf_guidance.state import witness_dir

FORMAT = "cf-guidance-witness/1"
#: How many earlier witnessed states the file keeps (a rollback to one of them is "older").
HISTORY = 256
def witness_path(state_dir: str | os.PathLike[str], environ: dict[str, str] | None = None) -> str:
    ident = hashlib.sha256(os.path.realpath(os.fspath(state_dir)).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return os.path.join(witness_dir(environ), ident)


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Witness:
    """One witnessed state of one ledger (see the module docstring for the fields)."""

    __slots__ = ("path", "origin", "first", "verifier_keys", "note", "size", "head", "offset", "checkpoints", "time", "history")

    def __init__(self, path: str, data: dict[str, Any]) -> None:
        self.path = path
        try:
            self.origin = _str(data, "origin")
            self.first = _str(data, "first")
            self.verifier_keys = [str(k) for k in data["verifier_keys"] if isinstance(k, str)]
            self.note = _str(data, "note")
            self.offset = _int(data, "offset")
            self.checkpoints = _int(data, "checkpoints")
            self.time = _str(data, "time")
            self.history = [(int(s), str(h), str(t)) for s, h, t in data.get("history", [])]
        except (KeyError, TypeError, ValueError):
            raise StateError(f"witness {path} is not a {FORMAT} file; restore it, or accept the current ledger with `cf-guidance ledger witness --reset`") from None
        if data.get("format") != FORMAT:
            raise StateError(f"witness {path} is not a {FORMAT} file; restore it, or accept the current ledger with `cf-guidance ledger witness --reset`")
        try:
            signed = cp.parse(self.note, [cp.parse_verifier(k) for k in self.verifier_keys])
        except LedgerIntegrityError as exc:
            raise LedgerIntegrityError(f"witness {path}: its checkpoint does not verify against its own keys ({exc}): the witness was edited") from None
        if signed.origin != self.origin:
            raise LedgerIntegrityError(f"witness {path}: its checkpoint is for {signed.origin}, not {self.origin}: the witness was edited")
        self.size = signed.size
        self.head = signed.head

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "origin": self.origin, "first": self.first, "verifier_keys": self.verifier_keys,
            "note": self.note, "size": self.size, "offset": self.offset, "checkpoints": self.checkpoints,
            "time": self.time, "history": [list(item) for item in self.history],
        }


def _str(data: dict[str, Any], name: str) -> str:
    value = data[name]
    if not isinstance(value, str):
        raise TypeError(name)
    return value


def _int(data: dict[str, Any], name: str) -> int:
    value = data[name]
    if type(value) is not int:
        raise TypeError(name)
    return value


def load(path: str) -> Witness | None:
    """The witness at `path`, None when there is none; StateError / LedgerIntegrityError when it is damaged."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise StateError(f"cannot read witness {path}: {exc}; restore it, or accept the current ledger with `cf-guidance ledger witness --reset`") from None
    if not isinstance(data, dict):
        raise StateError(f"witness {path} is not a {FORMAT} file; restore it, or accept the current ledger with `cf-guidance ledger witness --reset`")
    return Witness(path, data)


class Seen:
    """What a ledger looks like now, as far as a witness asks: `hash_at(seq)` is the hash of
    record `seq`, or None when the ledger has no such record (or it cannot be read)."""

    __slots__ = ("origin", "size", "head", "first", "checkpoints", "hash_at")

    def __init__(self, origin: str, size: int, head: str, first: str, checkpoints: int, hash_at: Any) -> None:
        self.origin = origin
        self.size = size
        self.head = head
        self.first = first
        self.checkpoints = checkpoints
        self.hash_at = hash_at


def compare(witness: Witness, seen: Seen) -> list[str]:
    """One line for each way `seen` falls short of `witness` ([] when it extends it)."""
    saw = f"the witness {witness.path} saw {witness.size} records of {witness.origin} on {witness.time}"
    if seen.size == 0 and not seen.origin:
        return [f"the state directory holds no ledger, but {saw}: the state directory was wiped or ledger/ deleted"]
    if seen.origin != witness.origin or (seen.first and witness.first and seen.first != witness.first):
        return [f"the ledger {seen.origin or '(no origin)'} is unrelated to the one witnessed ({saw}): "
                "the state directory was wiped and started again, or ledger/ was replaced"]
    problems: list[str] = []
    if seen.size < witness.size:
        older = next((when for size, head, when in witness.history if size == seen.size and head == seen.head), "")
        if older:
            problems.append(f"ledger/ was rolled back: it ends at record {seen.size}, as witnessed on {older}, but {saw}")
        else:
            problems.append(f"the ledger has {seen.size} records, fewer than the last witnessed checkpoint ({saw}): records were cut")
    elif seen.hash_at(witness.size - 1) != witness.head:
        problems.append(f"record seq {witness.size - 1} does not have the hash witnessed on {witness.time} "
                        f"({witness.path}): records up to it were rewritten")
    if seen.checkpoints < witness.checkpoints:
        problems.append(f"checkpoints.jsonl holds {seen.checkpoints} checkpoints but the witness {witness.path} saw "
                        f"{witness.checkpoints} on {witness.time}: checkpoints were deleted")
    return problems


def advance(path: str, previous: Witness | None, seen: Seen, note: str, verifier_keys: list[str], offset: int) -> None:
    """Write the witnessed state `seen` (signed as `note`) to `path`, after `previous`.

    The caller has checked that `seen` extends `previous` (`compare` found nothing) or the
    user asked for a reset (`previous` None).
    """
    history = list(previous.history) if previous is not None else []
    stamp = now()
    history.append((seen.size, seen.head, stamp))
    data = {
        "format": FORMAT, "origin": seen.origin, "first": seen.first, "verifier_keys": verifier_keys, "note": note,
        "size": seen.size, "offset": offset, "checkpoints": seen.checkpoints, "time": stamp,
        "history": [list(item) for item in history[-HISTORY:]],
    }
    write_atomic(path, (json.dumps(data, indent=1) + "\n").encode("utf-8"), mode=0o600, parent_mode=0o700)

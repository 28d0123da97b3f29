"""Signed checkpoints: Ed25519 signed notes over (origin, size, head hash).

The note text follows C2SP tlog-checkpoint / signed-note in shape::

    cf-guidance/ledger/v1/<ledger id>
    <number of records>
    <base64 of the last record's hash>

    — cf-guidance-<kid> <base64(4-byte key id || 64-byte Ed25519 signature)>

The third line is the head of a hash chain, not a Merkle tree root, so this is not a C2SP
checkpoint and does not claim to be one; it borrows the format, the strict parsing and the
key id rule `SHA-256(name || 0x0A || 0x01 || public key)[:4]`. Signatures from unknown keys
are ignored; a note needs at least one signature from a known key.

The Ed25519 key is its own secret (`keys/checkpoint.ed25519`, cf_guidance.ledger.keys), not
derived from the HMAC key: whoever holds only the HMAC key (from `GUIDANCE_LEDGER_KEY`, say)
cannot sign checkpoints. An auditor or a witness only needs the public verifier key
(`<name>+<key id hex>+<base64(0x01 || key)>`, the golang.org/x/mod/sumdb/note format), which
`export` includes and `status` prints.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from cf_guidance.errors import LedgerIntegrityError
from cf_guidance.ledger.keys import Keyring

ORIGIN_PREFIX = "cf-guidance/ledger/v1/"
ALG_ED25519 = 0x01
_DASH = "\u2014 "


class CheckpointFormatError(LedgerIntegrityError):
    """A checkpoint note is not in the exact expected format."""


class UnverifiedCheckpointError(LedgerIntegrityError):
    """No signature on a checkpoint comes from a known key, or a known key's signature is bad."""


class Checkpoint:
    """A verified checkpoint: `size` records whose last hash is `head` (hex)."""

    __slots__ = ("origin", "size", "head", "signers")

    def __init__(self, origin: str, size: int, head: str, signers: list[str]) -> None:
        self.origin = origin
        self.size = size
        self.head = head
        self.signers = signers

    def __repr__(self) -> str:
        return f"Checkpoint({self.origin} size={self.size} head={self.head[:12]})"


def _key_hash(name: str, public: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + bytes([ALG_ED25519]) + public).digest()[:4]


class Verifier:
    """A public key that checks checkpoint signatures."""

    __slots__ = ("name", "key_hash", "public")

    def __init__(self, name: str, public: bytes) -> None:
        if not name or any(c in name for c in " +\n\u2014"):
            raise CheckpointFormatError(f"invalid verifier key name {name!r}")
        self.name = name
        self.public = public
        self.key_hash = _key_hash(name, public)

    def text(self) -> str:
        encoded = base64.b64encode(bytes([ALG_ED25519]) + self.public).decode()
        return f"{self.name}+{self.key_hash.hex()}+{encoded}"

    def verify(self, message: bytes, signature: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(signature, message)
        except InvalidSignature:
            return False
        return True


class Signer:
    """An Ed25519 key from its 32-byte seed, named after its public key."""

    __slots__ = ("name", "_private", "verifier")

    def __init__(self, seed: bytes) -> None:
        self._private = Ed25519PrivateKey.from_private_bytes(seed)
        public = self._private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.name = f"cf-guidance-{hashlib.sha256(public).hexdigest()[:8]}"
        self.verifier = Verifier(self.name, public)

    def sign(self, text: bytes) -> bytes:
        return self._private.sign(text)


def parse_verifier(text: str) -> Verifier:
    """Parse `<name>+<key id hex>+<base64(0x01 || key)>`; strict."""
    parts = text.strip().split("+", 2)
    if len(parts) != 3:
        raise CheckpointFormatError("verifier key must be <name>+<key id>+<base64 key>")
    name, hash_hex, encoded = parts
    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise CheckpointFormatError("verifier key is not valid base64") from None
    if len(raw) != 33 or raw[0] != ALG_ED25519:
        raise CheckpointFormatError("verifier key is not an Ed25519 key")
    verifier = Verifier(name, raw[1:])
    if verifier.key_hash.hex() != hash_hex:
        raise CheckpointFormatError(f"verifier key id {hash_hex} does not match key {name}")
    return verifier


def verifiers_for(keyring: Keyring) -> list[Verifier]:
    """The public keys of every checkpoint seed the keyring holds, current and retired."""
    return [Signer(seed).verifier for seed in keyring.seeds]


def body_text(origin: str, size: int, head: str) -> bytes:
    if not origin.startswith(ORIGIN_PREFIX) or "\n" in origin:
        raise CheckpointFormatError(f"invalid checkpoint origin {origin!r}")
    if size < 0 or len(head) != 64:
        raise CheckpointFormatError("checkpoint needs a size >= 0 and a 64-hex head hash")
    encoded = base64.b64encode(bytes.fromhex(head)).decode()
    return f"{origin}\n{size}\n{encoded}\n".encode()


def sign(origin: str, size: int, head: str, signer: Signer) -> str:
    text = body_text(origin, size, head)
    signature = base64.b64encode(signer.verifier.key_hash + signer.sign(text)).decode()
    return text.decode() + "\n" + f"{_DASH}{signer.name} {signature}\n"


def parse(note: str, verifiers: list[Verifier]) -> Checkpoint:
    """Parse and verify a checkpoint note; every deviation from the format is an error."""
    if not note.endswith("\n"):
        raise CheckpointFormatError("checkpoint does not end with a newline")
    split_at = note.find("\n\n")
    if split_at < 0:
        raise CheckpointFormatError("checkpoint has no blank line before its signatures")
    text, signatures = note[: split_at + 1], note[split_at + 2 :]
    lines = text.split("\n")[:-1]
    if len(lines) != 3:
        raise CheckpointFormatError(f"checkpoint body must have 3 lines, has {len(lines)}")
    origin, size_text, head_b64 = lines
    if not size_text.isdigit() or not size_text.isascii() or str(int(size_text)) != size_text:
        raise CheckpointFormatError(f"checkpoint size {size_text!r} is not a canonical decimal")
    try:
        head_raw = base64.b64decode(head_b64, validate=True)
    except (binascii.Error, ValueError):
        raise CheckpointFormatError("checkpoint head is not base64") from None
    if len(head_raw) != 32 or base64.b64encode(head_raw).decode() != head_b64:
        raise CheckpointFormatError("checkpoint head is not a canonical base64 SHA-256 hash")
    expected = body_text(origin, int(size_text), head_raw.hex())
    message = text.encode()
    if expected != message:
        raise CheckpointFormatError("checkpoint body is not canonical")
    known = {(v.name, v.key_hash): v for v in verifiers}
    signers: list[str] = []
    sig_lines = signatures.split("\n")
    if sig_lines[-1] != "" or len(sig_lines) < 2:
        raise CheckpointFormatError("checkpoint has no signature lines")
    for line in sig_lines[:-1]:
        if not line.startswith(_DASH):
            raise CheckpointFormatError("checkpoint signature line does not start with an em dash")
        fields = line[len(_DASH) :].split(" ")
        if len(fields) != 2 or not fields[0]:
            raise CheckpointFormatError("checkpoint signature line must be '— <name> <base64>'")
        try:
            raw = base64.b64decode(fields[1], validate=True)
        except (binascii.Error, ValueError):
            raise CheckpointFormatError("checkpoint signature is not base64") from None
        if len(raw) < 5:
            raise CheckpointFormatError("checkpoint signature is too short")
        verifier = known.get((fields[0], raw[:4]))
        if verifier is None:
            continue  # signatures from unknown keys are ignored (signed-note rule)
        if not verifier.verify(message, raw[4:]):
            raise UnverifiedCheckpointError(f"checkpoint signature by {verifier.name} does not verify")
        signers.append(verifier.name)
    if not signers:
        raise UnverifiedCheckpointError("checkpoint has no signature from a known key")
    return Checkpoint(origin, int(size_text), head_raw.hex(), signers)

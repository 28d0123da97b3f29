"""Signed checkpoints: exact format, strict parsing, unknown keys ignored, typed errors."""

from __future__ import annotations

import base64
import hashlib

import pytest

from cf_guidance.ledger import checkpoint as cp

ORIGIN = cp.ORIGIN_PREFIX + "0123456789abcdef"
HEAD = hashlib.sha256(b"x").hexdigest()
SIGNER = cp.Signer(b"k" * 32)
OTHER = cp.Signer(b"o" * 32)


def note(size: int = 7) -> str:
    return cp.sign(ORIGIN, size, HEAD, SIGNER)


def test_note_has_the_signed_note_shape() -> None:
    text = note()
    body, sig = text.split("\n\n")
    assert body.split("\n") == [ORIGIN, "7", base64.b64encode(bytes.fromhex(HEAD)).decode()]
    assert sig.startswith("\u2014 cf-guidance-") and sig.endswith("\n")
    raw = base64.b64decode(sig.split(" ")[2])
    assert raw[:4] == SIGNER.verifier.key_hash and len(raw) == 68


def test_round_trip() -> None:
    checkpoint = cp.parse(note(), [SIGNER.verifier])
    assert (checkpoint.origin, checkpoint.size, checkpoint.head, checkpoint.signers) == (ORIGIN, 7, HEAD, [SIGNER.name])


def test_key_id_follows_the_signed_note_rule() -> None:
    verifier = SIGNER.verifier
    expected = hashlib.sha256(verifier.name.encode() + b"\n" + b"\x01" + verifier.public).digest()[:4]
    assert verifier.key_hash == expected


def test_verifier_key_text_round_trips_and_is_checked() -> None:
    text = SIGNER.verifier.text()
    parsed = cp.parse_verifier(text)
    assert parsed.public == SIGNER.verifier.public and parsed.name == SIGNER.name
    name, key_id, key = text.split("+", 2)
    with pytest.raises(cp.CheckpointFormatError, match="does not match"):
        cp.parse_verifier(f"{name}+00000000+{key}")


def test_signatures_from_unknown_keys_are_ignored() -> None:
    both = note() + cp.sign(ORIGIN, 7, HEAD, OTHER).split("\n\n")[1]
    assert cp.parse(both, [SIGNER.verifier]).signers == [SIGNER.name]
    with pytest.raises(cp.UnverifiedCheckpointError, match="no signature from a known key"):
        cp.parse(note(), [OTHER.verifier])


def _mutate(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("mutation", "error"),
    [
        (lambda t: t.rstrip("\n"), "does not end with a newline"),
        (lambda t: t.replace("\n\n", "\n"), "no blank line"),
        (lambda t: _mutate(t, "\n7\n", "\n07\n"), "canonical decimal"),
        (lambda t: _mutate(t, "\n7\n", "\n+7\n"), "canonical decimal"),
        (lambda t: _mutate(t, "\n7\n", "\n\u0667\n"), "canonical decimal"),
        (lambda t: _mutate(t, ORIGIN + "\n", ORIGIN + "\nextra\n"), "3 lines"),
        (lambda t: _mutate(t, ORIGIN, "other/origin"), "invalid checkpoint origin"),
        (lambda t: _mutate(t, "\u2014 ", "- "), "em dash"),
        (lambda t: t.split("\n\n")[0] + "\n\n", "no signature lines"),
        (lambda t: _mutate(t, "\n7\n", "\n8\n"), "does not verify"),
    ],
)
def test_strict_parsing_rejects_every_deviation(mutation: object, error: str) -> None:
    with pytest.raises(cp.LedgerIntegrityError, match=error):
        cp.parse(mutation(note()), [SIGNER.verifier])  # type: ignore[operator]


def test_non_canonical_base64_head_is_rejected() -> None:
    """Same bytes, different text (padding bits set): strict parsing refuses it."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    text = note()
    head_line = text.split("\n")[2]
    last = alphabet.index(head_line[42])
    bad = head_line[:42] + alphabet[last | 1 if last % 2 == 0 else last & ~1] + "="
    assert base64.b64decode(bad) == base64.b64decode(head_line) and bad != head_line
    with pytest.raises(cp.CheckpointFormatError, match="canonical base64"):
        cp.parse(text.replace(head_line, bad), [SIGNER.verifier])


def test_signing_key_is_derived_from_the_secret() -> None:
    assert cp.Signer(b"k" * 32).verifier.public == SIGNER.verifier.public
    assert cp.Signer(b"j" * 32).verifier.public != SIGNER.verifier.public

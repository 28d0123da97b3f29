"""The ledger's secret keys: where they live, their ids, and rotation.

The current key is `GUIDANCE_LEDGER_KEY` (64 hex digits or base64 of 32 bytes) when set,
else `<state>/keys/ledger.key` (32 random bytes, mode 0600, created on first use when
`cf-guidance init` has not made it). A key's id is the first 8 hex digits of its SHA-256.
Rotation moves the current file to `keys/retired/<kid>.key` and writes a fresh one;
verification looks keys up by the id each record names, so old records stay verifiable.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from pathlib import Path

from cf_guidance.errors import ConfigError, StateError

ENV_KEY = "GUIDANCE_LEDGER_KEY"
KEY_BYTES = 32
KEY_FILE = "ledger.key"
RETIRED_DIR = "retired"


def keys_dir(state_dir: str | os.PathLike[str]) -> Path:
    return Path(state_dir) / "keys"


def key_id(key: bytes) -> str:
    return hashlib.sha256(key).hexdigest()[:8]


def decode_key(text: str, where: str) -> bytes:
    """A 32-byte key from 64 hex digits or base64; ConfigError naming `where` otherwise."""
    text = text.strip()
    key: bytes | None = None
    if len(text) == 2 * KEY_BYTES:
        try:
            key = bytes.fromhex(text)
        except ValueError:
            key = None
    if key is None:
        try:
            key = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            key = None
    if key is None or len(key) != KEY_BYTES:
        raise ConfigError(f"{where} is not a 32-byte key (64 hex digits or base64); generate one with `python -c \"import secrets; print(secrets.token_hex(32))\"`")
    return key


def _read_key_file(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise StateError(f"cannot read ledger key {path}: {exc.strerror}; check its permissions or run `cf-guidance init`") from None
    if len(data) == KEY_BYTES:
        return data
    try:
        return decode_key(data.decode("ascii"), f"key file {path}")
    except (UnicodeDecodeError, ConfigError):
        raise StateError(f"key file {path} does not hold a 32-byte key; restore it from backup or rotate with `cf-guidance ledger rotate-key`") from None


def _write_new_key(path: Path) -> bytes:
    """Create `path` holding 32 fresh random bytes, mode 0600; never overwrite."""
    key = os.urandom(KEY_BYTES)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, key)
        os.fsync(fd)
    finally:
        os.close(fd)
    return key


class Keyring:
    """The current signing key and every key verification may need, by key id."""

    __slots__ = ("kid", "key", "by_id")

    def __init__(self, key: bytes, others: list[bytes]) -> None:
        self.key = key
        self.kid = key_id(key)
        self.by_id = {key_id(k): k for k in others}
        self.by_id[self.kid] = key


def load(state_dir: str | os.PathLike[str], *, create: bool = True) -> Keyring:
    """The keyring of `state_dir`; creates the key file on first use when `create`."""
    directory = keys_dir(state_dir)
    path = directory / KEY_FILE
    others: list[bytes] = []
    retired = directory / RETIRED_DIR
    if retired.is_dir():
        others.extend(_read_key_file(p) for p in sorted(retired.glob("*.key")))
    env = os.environ.get(ENV_KEY, "")
    file_key: bytes | None = None
    if path.exists():
        file_key = _read_key_file(path)
    elif not env and create:
        try:
            file_key = _write_new_key(path)
        except FileExistsError:  # another process created it first
            file_key = _read_key_file(path)
        except OSError as exc:
            raise StateError(f"cannot create ledger key {path}: {exc.strerror}; make the state directory writable or set {ENV_KEY}") from None
    if env:
        if file_key is not None:
            others.append(file_key)
        return Keyring(decode_key(env, ENV_KEY), others)
    if file_key is None:
        raise StateError(f"no ledger key at {path}; run `cf-guidance init` or set {ENV_KEY}")
    return Keyring(file_key, others)


def rotate(state_dir: str | os.PathLike[str]) -> tuple[str, str]:
    """Retire the current key file and create a new one; returns (old kid, new kid)."""
    directory = keys_dir(state_dir)
    path = directory / KEY_FILE
    old = _read_key_file(path)
    retired = directory / RETIRED_DIR
    retired.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = retired / f"{key_id(old)}.key"
    if not target.exists():
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, old)
            os.fsync(fd)
        finally:
            os.close(fd)
    path.unlink()
    new = _write_new_key(path)
    return key_id(old), key_id(new)

"""The ledger's secret keys: where they live, their ids, and rotation.

Two independent secrets, both 32 random bytes, mode 0600:

- the HMAC key of the records: `GUIDANCE_LEDGER_KEY` (64 hex digits or base64 of 32
  bytes) when set, else `<state>/keys/ledger.key`. A key's id is the first 8 hex digits of
  its SHA-256.
- the Ed25519 seed that signs checkpoints: `<state>/keys/checkpoint.ed25519`. It is not
  derived from the HMAC key, so a key from the environment (shared by CI jobs, say) cannot
  sign checkpoints, and the checkpoint key's public half can be pinned by a witness.

A missing key is created only when the caller says the ledger is fresh (`create`): a key
that disappears from a ledger with records is reported, never silently replaced (records
and checkpoints made under a new key would verify, and the deletion would go unseen).
Rotation moves a current file to `keys/retired/` and writes a fresh one; verification looks
keys up by id, so old records and checkpoints stay verifiable. A key the user declares lost
(`cf-guidance ledger rotate-key --replace-lost`) is listed in `keys/lost.json`: records it
signed are then checked by their hash chain and the signed checkpoints only.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import time
from pathlib import Path

from cf_guidance.errors import ConfigError, StateError

ENV_KEY = "GUIDANCE_LEDGER_KEY"
KEY_BYTES = 32
KEY_FILE = "ledger.key"
SIGNING_FILE = "checkpoint.ed25519"
RETIRED_DIR = "retired"
_SEED_SUFFIX = ".ed25519"
LOST_FILE = "lost.json"


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


def _write_new_key(path: Path, key: bytes | None = None) -> bytes:
    """Create `path` holding `key` (default: 32 fresh random bytes), mode 0600; never overwrite.

    The bytes go to a temp file first, which is then hard-linked into place: a process killed
    half way leaves no key file at all (an empty one would be unreadable, and a ledger key
    that cannot be read is never replaced). FileExistsError when another process won.
    """
    key = os.urandom(KEY_BYTES) if key is None else key
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            os.write(fd, key)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.link(tmp, path)
    finally:
        os.unlink(tmp)
    return key


class Keyring:
    """The current keys and every key verification may need, by id.

    `key`/`kid`/`by_id`: the HMAC keys of the records. `signing`: the current Ed25519 seed
    (None when the file is missing and may not be created), `seeds`: every seed present,
    current and retired. `lost`: ids of HMAC keys the user declared lost, with when.
    """

    __slots__ = ("kid", "key", "by_id", "signing", "seeds", "lost")

    def __init__(self, key: bytes, others: list[bytes], *, signing: bytes | None = None,
                 retired_seeds: list[bytes] | None = None, lost: dict[str, str] | None = None) -> None:
        self.key = key
        self.kid = key_id(key)
        self.by_id = {key_id(k): k for k in others}
        self.by_id[self.kid] = key
        self.signing = signing
        self.seeds = ([signing] if signing is not None else []) + list(retired_seeds or [])
        self.lost = dict(lost or {})


class MissingKeyError(StateError):
    """A key the ledger was made with is gone; a new one is never minted in its place."""


def load(state_dir: str | os.PathLike[str], *, create: bool = True, create_signing: bool | None = None) -> Keyring:
    """The keyring of `state_dir`. A missing HMAC key file is created only when `create` (no
    record was made with a key yet), a missing checkpoint seed only when `create_signing`
    (default: `create`; no checkpoint was signed yet). Otherwise a missing HMAC key is a
    MissingKeyError (unless the key comes from the environment) and a missing seed leaves
    `signing` None, which `Ledger` reports when it has to sign.
    """
    directory = keys_dir(state_dir)
    path = directory / KEY_FILE
    others: list[bytes] = []
    retired = directory / RETIRED_DIR
    if retired.is_dir():
        others.extend(_read_key_file(p) for p in sorted(retired.glob("*.key")))
    env = os.environ.get(ENV_KEY, "")
    file_key = _load_or_create(path, create and not env, "ledger key")
    signing, seeds = load_seeds(state_dir, create=create if create_signing is None else create_signing)
    lost = load_lost(state_dir)
    if env:
        if file_key is not None:
            others.append(file_key)
        return Keyring(decode_key(env, ENV_KEY), others, signing=signing, retired_seeds=seeds, lost=lost)
    if file_key is None:
        raise MissingKeyError(f"no ledger key at {path}; run `cf-guidance init` or set {ENV_KEY}")
    return Keyring(file_key, others, signing=signing, retired_seeds=seeds, lost=lost)


def load_seeds(state_dir: str | os.PathLike[str], *, create: bool = False) -> tuple[bytes | None, list[bytes]]:
    """(current checkpoint seed or None, retired seeds): what verifying checkpoints needs, no HMAC key."""
    directory = keys_dir(state_dir)
    retired = directory / RETIRED_DIR
    seeds = [_read_key_file(p) for p in sorted(retired.glob("*" + _SEED_SUFFIX))] if retired.is_dir() else []
    return _load_or_create(directory / SIGNING_FILE, create, "checkpoint signing key"), seeds


def _load_or_create(path: Path, create: bool, what: str) -> bytes | None:
    if path.exists():
        return _read_key_file(path)
    if not create:
        return None
    try:
        return _write_new_key(path)
    except FileExistsError:  # another process created it first
        return _read_key_file(path)
    except OSError as exc:
        raise StateError(f"cannot create {what} {path}: {exc.strerror}; make the state directory writable") from None


def _retire(directory: Path, name: str, key: bytes) -> None:
    retired = directory / RETIRED_DIR
    retired.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = retired / name
    if not target.exists():
        _write_new_key(target, key)


def rotate(state_dir: str | os.PathLike[str], *, replace_lost: bool = False) -> tuple[str, str]:
    """Retire the current HMAC key and checkpoint seed and create new ones; returns (old kid, new kid).

    With `replace_lost` a missing HMAC key file is not an error: the new key takes its place
    and the caller declares the old ids lost (`declare_lost`). Without it, a missing key
    file is a MissingKeyError, as everywhere else.
    """
    directory = keys_dir(state_dir)
    path = directory / KEY_FILE
    old_id = ""
    if path.exists():
        old = _read_key_file(path)
        old_id = key_id(old)
        _retire(directory, f"{old_id}.key", old)
        path.unlink()
    elif not replace_lost:
        raise MissingKeyError(f"ledger key {path} is missing; restore it from a backup, or add --replace-lost to go on under a new key")
    seed_path = directory / SIGNING_FILE
    if seed_path.exists():
        seed = _read_key_file(seed_path)
        _retire(directory, key_id(seed) + _SEED_SUFFIX, seed)
        seed_path.unlink()
    new = _write_new_key(path)
    _write_new_key(seed_path)
    return old_id, key_id(new)


def load_lost(state_dir: str | os.PathLike[str]) -> dict[str, str]:
    """{key id: when it was declared lost} from keys/lost.json ({} when there is none)."""
    path = keys_dir(state_dir) / LOST_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        raise StateError(f"{path} is not a JSON object of key ids; restore it from a backup") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise StateError(f"{path} is not a JSON object of key ids; restore it from a backup")
    return data


def declare_lost(state_dir: str | os.PathLike[str], kids: list[str]) -> None:
    """Record `kids` as lost HMAC keys (the user's decision, made with `rotate-key --replace-lost`)."""
    from cf_guidance._atomic import write_atomic

    lost = load_lost(state_dir)
    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for kid in kids:
        lost.setdefault(kid, when)
    directory = keys_dir(state_dir)
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_atomic(directory / LOST_FILE, (json.dumps(lost, sort_keys=True) + "\n").encode(), mode=0o600)

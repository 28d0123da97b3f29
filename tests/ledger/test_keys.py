"""Ledger keys: created 0600 on first use, env override, key ids, rotation."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest

from cf_guidance.errors import ConfigError, StateError
from cf_guidance.ledger import keys


def test_first_use_creates_a_private_32_byte_key(tmp_path: Path) -> None:
    ring = keys.load(tmp_path)
    path = tmp_path / "keys" / "ledger.key"
    assert path.read_bytes() == ring.key and len(ring.key) == 32
    assert path.stat().st_mode & 0o777 == 0o600 and (tmp_path / "keys").stat().st_mode & 0o777 == 0o700
    assert ring.kid == hashlib.sha256(ring.key).hexdigest()[:8]
    assert keys.load(tmp_path).key == ring.key


def test_load_without_create_does_not_make_a_key(tmp_path: Path) -> None:
    with pytest.raises(StateError, match="cf-guidance init"):
        keys.load(tmp_path, create=False)
    assert not (tmp_path / "keys").exists()


@pytest.mark.parametrize("encode", [bytes.hex, lambda k: base64.b64encode(k).decode()])
def test_text_key_files_written_by_other_tools_are_accepted(tmp_path: Path, encode: object) -> None:
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "ledger.key").write_text(encode(b"x" * 32) + "\n")  # type: ignore[operator]
    assert keys.load(tmp_path).key == b"x" * 32


def test_env_key_wins_and_file_key_stays_for_verification(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file_key = keys.load(tmp_path).key
    monkeypatch.setenv(keys.ENV_KEY, base64.b64encode(b"e" * 32).decode())
    ring = keys.load(tmp_path)
    assert ring.key == b"e" * 32 and ring.by_id[keys.key_id(file_key)] == file_key


@pytest.mark.parametrize("value", ["short", "zz" * 32, base64.b64encode(b"x" * 16).decode()])
def test_bad_env_key_is_a_config_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(keys.ENV_KEY, value)
    with pytest.raises(ConfigError, match="GUIDANCE_LEDGER_KEY is not a 32-byte key"):
        keys.load(tmp_path)


def test_corrupt_key_file_is_a_state_error(tmp_path: Path) -> None:
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "ledger.key").write_bytes(b"\x00" * 5)
    with pytest.raises(StateError, match="does not hold a 32-byte key"):
        keys.load(tmp_path)


def test_rotation_retires_the_old_key(tmp_path: Path) -> None:
    old = keys.load(tmp_path)
    old_id, new_id = keys.rotate(tmp_path)
    ring = keys.load(tmp_path)
    assert old_id == old.kid and ring.kid == new_id != old_id
    assert ring.by_id[old_id] == old.key
    assert (tmp_path / "keys" / "retired" / f"{old_id}.key").stat().st_mode & 0o777 == 0o600

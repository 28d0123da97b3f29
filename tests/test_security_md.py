"""SECURITY.md names the test behind each invariant and limit; those tests must exist."""

from __future__ import annotations

import re
from pathlib import Path

from cf_guidance import limits

REPO = Path(__file__).resolve().parent.parent
TEXT = (REPO / "SECURITY.md").read_text(encoding="utf-8")


def test_every_named_test_exists() -> None:
    refs = re.findall(r"`(tests/[^`:]+?)(?:::([A-Za-z0-9_]+))?`", TEXT)
    assert refs
    for path, name in refs:
        source = REPO / path
        assert source.exists(), path
        if name:
            assert f"def {name}(" in source.read_text(encoding="utf-8"), f"{path}::{name}"


def test_every_limit_is_documented() -> None:
    names = [name for name in vars(limits) if name.startswith("MAX_")]
    for name in names:
        assert f"`{name}`" in TEXT, name

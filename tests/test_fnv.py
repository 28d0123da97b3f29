"""The hot path's stable short hash."""

from __future__ import annotations

from cf_guidance._fnv import MAX_HASHED, fnv1a32


def test_known_values() -> None:
    assert fnv1a32("") == "811c9dc5" and fnv1a32("a") == "e40c292c"  # the published FNV-1a 32 vectors


def test_long_texts_hash_their_head_tail_and_length() -> None:
    long = "x" * (10 * MAX_HASHED)
    assert fnv1a32(long) != fnv1a32(long + "y") and fnv1a32("y" + long) != fnv1a32(long)
    assert fnv1a32(long) != fnv1a32(long[:-1])  # same head and tail, another length
